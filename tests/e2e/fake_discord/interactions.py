"""INTERACTION_CREATE payloads (slash commands, buttons, selects, modals) and their handles."""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .state import FakeChannel, FakeMessage, FakeUser, snowflake

if TYPE_CHECKING:
    from .server import FakeDiscord

# Application command option types.
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN, USER = 1, 2, 3, 4, 5, 6
CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 7, 8, 9, 10, 11

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
#: ``app_permissions`` of an interaction in a DM.
DM_APP_PERMISSIONS = "2248473465835073"


@dataclass
class FakeInteraction:
    """One interaction the fake sent to the bot, and everything the bot answered to it.

    ``response_type`` is the callback type (4 message, 5 deferred, 6 deferred update,
    7 update, 8 autocomplete, 9 modal) once the bot acknowledged it; ``original`` is the
    message the response created or updated; ``followups`` are webhook follow-ups.
    """

    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    payload: dict[str, Any]
    message: FakeMessage | None = None
    sent_at: float = field(default_factory=time.monotonic)
    response_type: int | None = None
    response_data: dict[str, Any] | None = None
    acked_at: float | None = None
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    rejected_late: bool = False
    #: the shard whose gateway session it was dispatched to (DMs: 0)
    shard: int | None = None
    _acked: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None

    @property
    def ack_latency(self) -> float | None:
        """Seconds from dispatch to the callback, or ``None`` if not answered."""
        return None if self.acked_at is None else self.acked_at - self.sent_at

    async def wait_ack(self, timeout: float = 5.0) -> FakeInteraction:
        """Wait until the bot answered the callback; raises ``TimeoutError`` otherwise
        (``timeout`` is scaled by the fake's ``timeout_scale``)."""
        if self._fake is not None:
            timeout = self._fake.scaled(timeout)
        try:
            await asyncio.wait_for(self._acked.wait(), timeout)
        except TimeoutError:
            raise TimeoutError(
                f"the bot did not acknowledge interaction {self.id} "
                f"({self.payload.get('data', {}).get('name') or self.payload.get('data')}) "
                f"within {timeout} s"
            ) from None
        return self

    def replies(self) -> list[FakeMessage]:
        """The original response message (if any) and the follow-ups, in order."""
        return ([self.original] if self.original is not None else []) + list(self.followups)

    async def wait_reply(self, timeout: float = 5.0) -> FakeMessage:
        """Wait for the first message with content/embeds/files answering this interaction."""

        def ready() -> FakeMessage | None:
            for msg in self.replies():
                if not (msg.flags & 128) and (msg.content or msg.embeds or msg.attachments):
                    return msg
            return None

        return await self._fake.wait_for(ready, timeout, what=f"a reply to interaction {self.id}")

    _fake: FakeDiscord = field(default=None, repr=False)  # type: ignore[assignment]


def new_token() -> str:
    return "itok_" + secrets.token_urlsafe(24)


def base_payload(
    fake: FakeDiscord, kind: int, user: FakeUser, channel: FakeChannel
) -> dict[str, Any]:
    """The fields every interaction has (``interactions.py:215-226`` of discord.py)."""
    payload: dict[str, Any] = {
        "id": str(snowflake()),
        "type": kind,
        "token": new_token(),
        "version": 1,
        "application_id": str(fake.application_id),
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        "locale": user.locale,
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(fake.guild_id)} if not channel.is_dm else {},
        # the bot's permissions in this channel, with its roles and the channel's overwrites
        # (in a DM: what Discord sends for DMs)
        "app_permissions": (
            DM_APP_PERMISSIONS if channel.is_dm else str(fake.bot_permissions_in(channel))
        ),
    }
    if channel.is_dm:
        payload["user"] = user.payload()
        payload["channel_id"] = str(channel.id)
        payload["channel"] = channel.payload()
        payload["context"] = 1
    else:
        payload["guild_id"] = str(fake.guild_id)
        payload["guild_locale"] = "zh-CN"
        payload["channel_id"] = str(channel.id)
        payload["channel"] = channel.payload()
        payload["member"] = fake.member_payload(user, channel)
        payload["context"] = 0
    return payload


def option_type_for(value: Any) -> int:
    """Guess an option type from a Python value (used when the command was not synced)."""
    if isinstance(value, bool):
        return BOOLEAN
    if isinstance(value, int):
        return INTEGER
    if isinstance(value, float):
        return NUMBER
    if isinstance(value, FakeUser):
        return USER
    return STRING


def build_options(
    fake: FakeDiscord,
    path: list[str],
    options: dict[str, Any],
    definition: dict[str, Any] | None,
    resolved: dict[str, Any],
    focused: str | None = None,
    channel: FakeChannel | None = None,
) -> list[dict[str, Any]]:
    """Nest subcommand names (type 1/2) down to the leaf and put ``options`` there."""
    if path:
        name, rest = path[0], path[1:]
        child_def = None
        if definition is not None:
            for opt in definition.get("options", []):
                if opt.get("name") == name:
                    child_def = opt
        kind = SUB_COMMAND_GROUP if rest else SUB_COMMAND
        if child_def is not None:
            kind = child_def.get("type", kind)
        return [
            {
                "name": name,
                "type": kind,
                "options": build_options(
                    fake, rest, options, child_def, resolved, focused, channel
                ),
            }
        ]
    declared = {o["name"]: o for o in (definition or {}).get("options", [])}
    out = []
    for name, value in options.items():
        kind = declared.get(name, {}).get("type") or option_type_for(value)
        if isinstance(value, FakeUser):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            if value.id in fake.guild_member_ids:
                member = fake.member_payload(value, channel or fake.channel)
                member.pop("user")
                resolved.setdefault("members", {})[str(value.id)] = member
            value = str(value.id)
        option: dict[str, Any] = {"name": name, "type": kind, "value": value}
        if focused == name:
            option["focused"] = True
        out.append(option)
    return out


def leaf_definition(definition: dict[str, Any] | None, path: list[str]) -> dict[str, Any] | None:
    """The (sub)command definition ``path`` names inside a synced top-level command."""
    node = definition
    for name in path:
        if node is None:
            return None
        node = next((o for o in node.get("options", []) if o.get("name") == name), None)
    return node


def check_options(leaf: dict[str, Any] | None, options: dict[str, Any]) -> list[str]:
    """What the Discord client would refuse to send: a missing required option, an unknown
    one, a value of the wrong type, not among the choices, or outside min/max (value or
    length). Autocomplete options take free text, as on Discord."""
    if leaf is None:
        return []
    problems = []
    declared = {o["name"]: o for o in leaf.get("options", []) if o.get("type") not in (1, 2)}
    for name, opt in declared.items():
        if opt.get("required") and name not in options:
            problems.append(f"{name}: required")
    for name, value in options.items():
        opt = declared.get(name)
        if opt is None:
            problems.append(f"{name}: no such option")
            continue
        kind = opt.get("type")
        if kind == STRING:
            if not isinstance(value, str):
                problems.append(f"{name}: not a string")
                continue
            if len(value) < opt.get("min_length", 0) or len(value) > opt.get("max_length", 6000):
                problems.append(f"{name}: length {len(value)} outside the declared limits")
        elif kind in (INTEGER, NUMBER):
            number_ok = isinstance(value, int | float) and not isinstance(value, bool)
            if not number_ok or (kind == INTEGER and not isinstance(value, int)):
                problems.append(f"{name}: not a number")
                continue
            low, high = opt.get("min_value"), opt.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                problems.append(f"{name}: {value} outside [{low}, {high}]")
        elif kind == BOOLEAN and not isinstance(value, bool):
            problems.append(f"{name}: not a boolean")
        choices = opt.get("choices")
        if choices and value not in [c.get("value") for c in choices]:
            problems.append(f"{name}: {value!r} is not one of the choices")
    return problems
