"""The fake Discord server (aiohttp on 127.0.0.1) and its test-facing API.

REST lives under ``/api/v10`` and the gateway at ``/gateway``; point discord.py at them with
``DISCORD_API_BASE=fake.api_base`` and ``DISCORD_GATEWAY_URL=fake.gateway_url``. Every REST
call is recorded in ``fake.calls``; calls to routes the fake does not know are answered 404
and also listed in ``fake.unhandled``. Rate limits (429 on demand or per route, and the check
that the client waits as told) are in ``ratelimit.py``: ``fake.fail_next``,
``fake.limit_route``, ``fake.ratelimit_hits``, ``fake.ratelimit_violations``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import time
import traceback
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

from aiohttp import web

from . import validate
from .budget import OldMessageEdits
from .changes import PlaceChanges
from .faults import Fault, Faults
from .gateway import DIRECT_MESSAGES, GUILD_MEMBERS, GUILD_MESSAGES, MESSAGE_CONTENT, Gateway
from .interactions import (
    FakeInteraction,
    base_payload,
    build_options,
    check_options,
    leaf_definition,
)
from .nonces import Nonces, nonce_problem
from .notifications import Notifications
from .permissions import (
    ADD_REACTIONS,
    ADMINISTRATOR,
    ATTACH_FILES,
    BOT_PERMISSIONS,
    EMBED_LINKS,
    MEMBER,
    MEMBER_PERMISSIONS,
    READ_MESSAGE_HISTORY,
    ROLE,
    SEND_MESSAGES,
    VIEW_CHANNEL,
    FakeRole,
    Overwrite,
    base_permissions,
    channel_permissions,
)
from .permissions import names as permission_names
from .ratelimit import Hit, OnDemand, RateLimits, RouteLimit, Violation, major_parameter
from .state import (
    EPHEMERAL,
    LOADING,
    FakeAttachment,
    FakeChannel,
    FakeMessage,
    FakeUser,
    RestCall,
    clock,
    now_iso,
    snowflake,
    snowflake_on_shard,
)
from .threads import ThreadsMixin

log = logging.getLogger("fake_discord")
T = TypeVar("T")
Handler = Callable[..., Awaitable[web.StreamResponse]]

#: See ``FakeDiscord.timeout_scale``.
DEFAULT_TIMEOUT_SCALE = 3.0
#: a file part of a multipart message: ``files[0]``
FILE_PART_RX = re.compile(r"files\[(\d+)\]")


class HTTPError(Exception):
    """Raised by a route to answer a Discord-style JSON error."""

    def __init__(self, status: int, code: int, message: str, errors: Any = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors


def json_response(obj: Any, status: int = 200) -> web.Response:
    """JSON with Content-Type exactly ``application/json`` (discord.py checks equality)."""
    return web.Response(
        body=json.dumps(obj).encode(), status=status, headers={"Content-Type": "application/json"}
    )


class FakeDiscord(ThreadsMixin):
    """A fake Discord with one guild ``#mahjong`` channel, four users and the bot user.

    ``await fake.start()`` serves it on ``127.0.0.1`` (ephemeral port); ``await fake.stop()``.

    What real Discord does that a simple fake would not: only new messages notify
    (``fake.notifications``, ``notifications.py``); messages older than an hour of the fake
    clock have a small edit budget (30046, ``budget.py``; ``fake.advance(seconds)`` moves
    the clock); public threads that archive when idle (``threads.py``).
    """

    def __init__(
        self,
        *,
        token: str = "fake-token",
        user_names: Iterable[str] = ("alice", "bob", "carol", "dave"),
        ack_deadline: float = 3.0,
        privileged_intents_allowed: bool = False,
        timeout_scale: float | None = None,
        shard_count: int = 1,
        guild_shard: int = 0,
    ) -> None:
        clock.reset()  # one fake Discord per test: its clock starts at real time
        self.token = token
        self.ack_deadline = ack_deadline
        #: Every test-side wait (``wait_for``, ``wait_ack``, ``wait_reply``, bot start-up) is
        #: multiplied by this: ``E2E_TIMEOUT_SCALE`` (default 3) — these are ceilings for
        #: conditions, never sleeps, so only a failing wait gets slower.
        self.timeout_scale = (
            timeout_scale
            if timeout_scale is not None
            else float(os.environ.get("E2E_TIMEOUT_SCALE") or DEFAULT_TIMEOUT_SCALE)
        )
        self.privileged_intents_allowed = privileged_intents_allowed
        self.application_id = snowflake()
        self.bot_user = FakeUser(id=self.application_id, name="MahjongBot", bot=True)
        self.users: list[FakeUser] = [FakeUser(id=snowflake(), name=n) for n in user_names]
        self.owner = self.users[0] if self.users else self.bot_user
        #: what ``GET /gateway/bot`` recommends; the guild's id puts it on ``guild_shard``
        #: of that many shards (its events go to that shard's session, DMs to shard 0's)
        self.shard_count = shard_count
        self.guild_id = snowflake_on_shard(guild_shard, shard_count)
        self.guild_name = "Mahjong Club"
        self.channel = FakeChannel(
            id=snowflake(), type=0, name="mahjong", guild_id=self.guild_id, position=0
        )
        self.channels: dict[int, FakeChannel] = {self.channel.id: self.channel}
        self.dm_channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        #: the same interactions by token (follow-ups and ``@original`` find theirs by it)
        self.interactions_by_token: dict[str, FakeInteraction] = {}
        self.calls: list[RestCall] = []
        self.unhandled: list[RestCall] = []
        self.errors: list[str] = []
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.command_syncs: list[tuple[int | None, float]] = []
        self.gateway_queries: list[dict[str, str]] = []
        self.gateway = Gateway(self)
        #: Roles (``@everyone`` has the guild's id; the bot has its own managed role) and
        #: who holds which (user id → role ids, ``@everyone`` implied). See
        #: ``add_role``/``give_role``/``grant``/``overwrite`` and ``permissions.py``.
        self.everyone_role = FakeRole(
            id=self.guild_id, name="@everyone", permissions=MEMBER_PERMISSIONS, position=0
        )
        self.bot_role = FakeRole(
            id=snowflake(),
            name=self.bot_user.name,
            permissions=BOT_PERMISSIONS,
            managed=True,
            bot_id=self.bot_user.id,
        )
        self.roles: dict[int, FakeRole] = {r.id: r for r in (self.everyone_role, self.bot_role)}
        self.member_roles: dict[int, list[int]] = {self.bot_user.id: [self.bot_role.id]}
        self.ratelimits = RateLimits()
        #: 5xx on demand (see ``faults.py``)
        self.faults = Faults()
        #: Who was notified of what (only new messages notify; see ``notifications.py``).
        self.notifications = Notifications()
        #: Enforced message nonces: a second create with one returns the first message
        #: (``nonces.py``).
        self.nonces = Nonces(clock)
        #: The edit budget of messages older than an hour (30046; see ``budget.py``).
        self.old_edits = OldMessageEdits(clock, self.ratelimits)
        self.host = "127.0.0.1"
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._change = asyncio.Event()
        self._routes: list[tuple[str, re.Pattern[str], Handler, str]] = []
        self._changes = 0
        #: changes per channel (and per user, when their DM channel opens): see ``changes.py``
        self.place_changes = PlaceChanges()
        self._tasks: set[asyncio.Task[Any]] = set()
        #: (channel id, missing bits) of every bot request refused for lack of permissions.
        self.permission_refusals: list[tuple[int, int]] = []
        self._register_routes()

    # --- lifecycle ------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/gateway/", self.gateway.handle)
        app.router.add_get("/attachments/{cid}/{aid}/{name}", self._serve_attachment)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """Value for ``DISCORD_API_BASE``."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """Value for ``DISCORD_GATEWAY_URL``."""
        return f"ws://{self.host}:{self.port}/gateway"

    # --- payload builders -----------------------------------------------------------------

    @property
    def guild_member_ids(self) -> set[int]:
        return {self.bot_user.id, *(u.id for u in self.users)}

    # --- roles and permissions (computed as Discord does: see ``permissions.py``) ---------

    def roles_of(self, user: FakeUser) -> list[FakeRole]:
        """The roles ``user`` holds (``@everyone`` not listed, as in a member payload)."""
        return [self.roles[r] for r in self.member_roles.get(user.id, []) if r in self.roles]

    def permissions_of(self, user: FakeUser, channel: FakeChannel | None = None) -> int:
        """``user``'s permission bits in the guild, or in ``channel`` with its overwrites."""
        if channel is not None and channel.is_thread:
            return self.thread_permissions(user, channel)
        roles = self.roles_of(user)
        base = base_permissions(
            is_owner=user.id == self.owner.id, everyone=self.everyone_role, roles=roles
        )
        if channel is None or channel.is_dm:
            return base
        return channel_permissions(
            base,
            guild_id=self.guild_id,
            role_ids={r.id for r in roles},
            member_id=user.id,
            overwrites=channel.overwrites,
            text_channel=channel.type in (0, 5),
        )

    def add_role(self, name: str, permissions: int) -> FakeRole:
        """A new guild role (announced to a connected bot as GUILD_ROLE_CREATE)."""
        role = FakeRole(
            id=snowflake(), name=name, permissions=permissions, position=len(self.roles)
        )
        self.roles[role.id] = role
        self._announce(
            "GUILD_ROLE_CREATE", {"guild_id": str(self.guild_id), "role": role.payload()}
        )
        return role

    def set_role_permissions(self, role: FakeRole, permissions: int) -> None:
        """Change a role's bits (``fake.everyone_role`` and ``fake.bot_role`` too)."""
        role.permissions = permissions
        self._announce(
            "GUILD_ROLE_UPDATE", {"guild_id": str(self.guild_id), "role": role.payload()}
        )

    def give_role(self, user: FakeUser, role: FakeRole) -> None:
        held = self.member_roles.setdefault(user.id, [])
        if role.id not in held:
            held.append(role.id)
        self._announce_member(user)

    def take_role(self, user: FakeUser, role: FakeRole) -> None:
        held = self.member_roles.setdefault(user.id, [])
        if role.id in held:
            held.remove(role.id)
        self._announce_member(user)

    def grant(self, user: FakeUser, permissions: int) -> FakeRole:
        """Give ``user`` a new role carrying ``permissions`` (e.g. ``MANAGE_GUILD``)."""
        role = self.add_role(f"granted-{user.name}-{len(self.roles)}", permissions)
        self.give_role(user, role)
        return role

    def overwrite(
        self,
        channel: FakeChannel,
        target: FakeUser | FakeRole,
        *,
        allow: int = 0,
        deny: int = 0,
    ) -> None:
        """Set ``channel``'s permission overwrite for a member or a role (replacing an earlier
        one for the same target), e.g. ``fake.overwrite(fake.channel, fake.bot_user,
        deny=ATTACH_FILES)``. Announced as CHANNEL_UPDATE."""
        kind = ROLE if isinstance(target, FakeRole) else MEMBER
        channel.overwrites = [o for o in channel.overwrites if o.id != target.id]
        ow = Overwrite(id=target.id, type=kind, allow=allow, deny=deny)
        if kind == ROLE and target.id == self.guild_id:
            channel.overwrites.insert(0, ow)  # @everyone's comes first, as on Discord
        else:
            channel.overwrites.append(ow)
        self._announce("CHANNEL_UPDATE", channel.payload())

    def bot_permissions_in(self, channel: FakeChannel) -> int:
        """The bot's bits in ``channel`` (what ``app_permissions`` carries)."""
        return self.permissions_of(self.bot_user, channel)

    def require_bot(self, channel: FakeChannel, bits: int) -> None:
        """Answer as Discord does when the bot lacks ``bits`` in ``channel``: 403 50001 without
        VIEW_CHANNEL, else 403 50013 Missing Permissions. DMs are not checked."""
        if channel.is_dm:
            return
        have = self.bot_permissions_in(channel)
        if not have & VIEW_CHANNEL:
            self.permission_refusals.append((channel.id, VIEW_CHANNEL))
            raise HTTPError(403, 50001, "Missing Access")
        missing = bits & ~have
        if missing:
            self.permission_refusals.append((channel.id, missing))
            raise HTTPError(
                403, 50013, f"Missing Permissions ({', '.join(permission_names(missing))})"
            )

    def _announce_member(self, user: FakeUser) -> None:
        member = self.member_payload(user)
        member.pop("permissions")
        self._announce(
            "GUILD_MEMBER_UPDATE", {"guild_id": str(self.guild_id), **member}, intent=GUILD_MEMBERS
        )

    def _announce(self, event: str, data: dict[str, Any], *, intent: int | None = None) -> None:
        """Dispatch a change to a connected bot (from sync test code: as a task)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        task = loop.create_task(self.gateway.dispatch(event, data, intent=intent))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def member_payload(self, user: FakeUser, channel: FakeChannel | None = None) -> dict[str, Any]:
        """The member object; ``permissions`` are in ``channel`` (as interactions carry)."""
        return {
            "user": user.payload(),
            "roles": [str(r.id) for r in self.roles_of(user)],
            "flags": 0,
            "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "nick": None,
            "pending": False,
            "permissions": str(self.permissions_of(user, channel)),
        }

    def guild_create_payload(self, intents: int = GUILD_MEMBERS) -> dict[str, Any]:
        """GUILD_CREATE; as on Discord, other members are listed only with GUILD_MEMBERS."""
        members = [self.member_payload(self.bot_user)]
        if intents & GUILD_MEMBERS:
            members += [self.member_payload(u) for u in self.users]
        member_count = 1 + len(self.users)
        for m in members:
            m.pop("permissions")
        return {
            "id": str(self.guild_id),
            "name": self.guild_name,
            "icon": None,
            "owner_id": str(self.owner.id),
            "unavailable": False,
            "large": False,
            "member_count": member_count,
            "roles": [r.payload() for r in self.roles.values()],
            "channels": [c.payload() for c in self.channels.values() if not c.is_dm],
            "members": members,
            "threads": self.active_threads_payload(),
            "presences": [],
            "voice_states": [],
            "emojis": [],
            "stickers": [],
            "features": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "preferred_locale": "zh-CN",
            "system_channel_id": str(self.channel.id),
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "afk_timeout": 300,
        }

    def app_info_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.payload(),
            "verify_key": "0" * 64,
            "flags": 0,
            "team": None,
            "summary": "",
            "bot": self.bot_user.payload(),
        }

    def message_payload(self, msg: FakeMessage) -> dict[str, Any]:
        channel = self.channels.get(msg.channel_id)
        guild_id = channel.guild_id if channel is not None and not channel.is_dm else None
        return msg.payload(self.base_url, guild_id)

    # --- test helpers: sending interactions ---------------------------------------------

    def user(self, name: str) -> FakeUser:
        """The fake user called ``name``."""
        for u in self.users:
            if u.name == name:
                return u
        raise LookupError(f"no fake user {name!r}; have {[u.name for u in self.users]}")

    def close_dms(self, user: FakeUser) -> None:
        """From now on, the bot's DMs to ``user`` fail with 403 / code 50007."""
        user.dms_open = False

    def _command_definition(self, name: str) -> tuple[dict[str, Any] | None, int | None]:
        for scope in (self.guild_id, None):
            for cmd in self.commands.get(scope, []):
                if cmd.get("name") == name and cmd.get("type", 1) == 1:
                    return cmd, scope
        return None, None

    async def _send_interaction(
        self,
        payload: dict[str, Any],
        user: FakeUser,
        channel: FakeChannel,
        message: FakeMessage | None,
    ) -> FakeInteraction:
        ix = FakeInteraction(
            id=int(payload["id"]),
            token=payload["token"],
            type=payload["type"],
            user=user,
            channel=channel,
            payload=payload,
            message=message,
        )
        ix._fake = self
        self.interactions[ix.id] = ix
        self.interactions_by_token[ix.token] = ix
        guild = payload.get("guild_id")
        session = self.gateway.session_for(int(guild) if guild else None)
        ix.shard = session.shard[0] if session is not None else None
        ix.sent_at = time.monotonic()
        if not await self.gateway.dispatch("INTERACTION_CREATE", payload):
            raise RuntimeError("no bot is connected to the fake gateway")
        return ix

    async def slash(
        self,
        user: FakeUser,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        channel: FakeChannel | None = None,
        force: bool = False,
    ) -> FakeInteraction:
        """Run ``/command`` as ``user``: ``await fake.slash(alice, "mahjong new", {"variant": "x"})``.

        Subcommands nest as options of type 1 (group 2). Option types come from the synced
        command when there is one (else from the Python value; pass a ``FakeUser`` for a user
        option). Returns the interaction handle at once; ``await ix.wait_ack()`` for the reply.

        Like the Discord client, it refuses (``PermissionError``) a command whose
        ``default_member_permissions`` the user lacks in the channel, and (``ValueError``)
        options the synced command would not accept (choices, min/max, length, required).
        ``force=True`` sends it anyway: a server that re-granted the command to everyone in
        its integration settings, or a forged request.
        """
        channel = channel or self.channel
        root, *path = command.split()
        definition, scope = self._command_definition(root)
        if definition is not None and not force:
            self._client_checks(user, channel, command, definition, path, dict(options or {}))
        payload = base_payload(self, 2, user, channel)
        resolved: dict[str, Any] = {}
        data: dict[str, Any] = {
            "id": str(definition["id"]) if definition else str(snowflake()),
            "name": root,
            "type": 1,
            "options": build_options(
                self, path, dict(options or {}), definition, resolved, channel=channel
            ),
        }
        if resolved:
            data["resolved"] = resolved
        if scope is not None:
            data["guild_id"] = str(scope)
        payload["data"] = data
        return await self._send_interaction(payload, user, channel, None)

    def _client_checks(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        definition: dict[str, Any],
        path: list[str],
        options: dict[str, Any],
    ) -> None:
        """What the Discord client checks before it sends a slash command."""
        needed = definition.get("default_member_permissions")
        if needed is not None and not channel.is_dm:
            have = self.permissions_of(user, channel)
            if not have & ADMINISTRATOR and int(needed) & ~have:
                raise PermissionError(
                    f"/{command} is hidden from {user.name} (default_member_permissions "
                    f"{permission_names(int(needed))}); pass force=True to send it anyway"
                )
        if definition.get("dm_permission") is False and channel.is_dm:
            raise PermissionError(f"/{command} is not available in DMs")
        problems = check_options(leaf_definition(definition, path), options)
        if problems:
            raise ValueError(
                f"the Discord client would not send /{command}: {'; '.join(problems)}; "
                "pass force=True to forge it"
            )

    async def autocomplete(
        self,
        user: FakeUser,
        command: str,
        options: dict[str, Any],
        focused: str,
        *,
        channel: FakeChannel | None = None,
    ) -> FakeInteraction:
        """Send an autocomplete request (type 4); choices arrive in ``ix.response_data``."""
        channel = channel or self.channel
        root, *path = command.split()
        definition, scope = self._command_definition(root)
        payload = base_payload(self, 4, user, channel)
        resolved: dict[str, Any] = {}
        payload["data"] = {
            "id": str(definition["id"]) if definition else str(snowflake()),
            "name": root,
            "type": 1,
            "options": build_options(
                self, path, dict(options), definition, resolved, focused, channel
            ),
        }
        if scope is not None:
            payload["data"]["guild_id"] = str(scope)
        return await self._send_interaction(payload, user, channel, None)

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        values: list[str] | None = None,
        force: bool = False,
    ) -> FakeInteraction:
        """Press a button (or choose ``values`` in a select) on ``message`` as ``user``.

        Find the component by ``custom_id`` or ``label``. It must be on the message and
        enabled, as in the Discord client, unless ``force=True`` (a forged/stale id).
        """
        current = self.messages.get(message.id, message)
        if force and custom_id is not None:
            component: dict[str, Any] = {
                "type": 3 if values is not None else 2,
                "custom_id": custom_id,
            }
            with contextlib.suppress(LookupError):
                component = current.find_component(custom_id=custom_id)
        else:
            component = current.find_component(custom_id=custom_id, label=label)
            if component.get("disabled"):
                raise ValueError(f"component {component.get('custom_id')} is disabled")
        if current.visible_to is not None and current.visible_to.id != user.id:
            raise ValueError(f"{user.name} cannot see ephemeral message {current.id}")
        channel = self.channels[current.channel_id]
        if channel.is_dm and channel.recipient is not None and channel.recipient.id != user.id:
            raise ValueError(f"{user.name} cannot see the DM of {channel.recipient.name}")
        payload = base_payload(self, 3, user, channel)
        data: dict[str, Any] = {
            "custom_id": component["custom_id"],
            "component_type": component.get("type", 2),
        }
        if values is not None:
            data["values"] = list(values)
        elif data["component_type"] != 2:
            data["values"] = []
        payload["data"] = data
        payload["message"] = self.message_payload(current)
        return await self._send_interaction(payload, user, channel, current)

    async def submit_modal(
        self, user: FakeUser, opened_by: FakeInteraction, values: dict[str, str]
    ) -> FakeInteraction:
        """Submit the modal the bot opened in answer to ``opened_by`` (callback type 9)."""
        if opened_by.response_type != 9 or opened_by.response_data is None:
            raise ValueError(f"interaction {opened_by.id} was not answered with a modal")
        modal = opened_by.response_data
        rows = []
        for row in modal.get("components", []):
            inner = (
                row.get("components", []) if row.get("type") == 1 else [row.get("component", {})]
            )
            fields = [
                {
                    "type": c.get("type", 4),
                    "custom_id": c["custom_id"],
                    "value": values.get(c["custom_id"], ""),
                }
                for c in inner
                if "custom_id" in c
            ]
            rows.append({"type": 1, "components": fields})
        payload = base_payload(self, 5, user, opened_by.channel)
        payload["data"] = {"custom_id": modal["custom_id"], "components": rows}
        if opened_by.message is not None:
            payload["message"] = self.message_payload(opened_by.message)
        return await self._send_interaction(payload, user, opened_by.channel, opened_by.message)

    async def post_as_user(
        self, user: FakeUser, content: str, channel: FakeChannel | None = None
    ) -> FakeMessage:
        """A user writes in a channel (dispatched as MESSAGE_CREATE)."""
        channel = channel or self.channel
        msg = FakeMessage(id=snowflake(), channel_id=channel.id, author=user, content=content)
        self.messages[msg.id] = msg
        self.place_changes.touch(msg.channel_id)
        intent = DIRECT_MESSAGES if channel.is_dm else GUILD_MESSAGES
        payload = self.message_payload(msg)
        session = self.gateway.current
        blanked = not (channel.is_dm or self.bot_user.mention in content)
        if blanked and session is not None and not session.intents & MESSAGE_CONTENT:
            payload["content"] = ""  # no MESSAGE_CONTENT intent: Discord blanks it
        await self.gateway.dispatch("MESSAGE_CREATE", payload, intent=intent)
        self.notify()
        return msg

    # --- test helpers: reading what the bot did -------------------------------------------

    def all_messages(self, *, include_deleted: bool = True) -> list[FakeMessage]:
        return [m for m in self.messages.values() if include_deleted or not m.deleted]

    def channel_messages(
        self,
        channel: FakeChannel | None = None,
        *,
        include_ephemeral: bool = False,
        include_deleted: bool = False,
    ) -> list[FakeMessage]:
        """Messages in a guild channel (default ``#mahjong``), oldest first."""
        channel = channel or self.channel
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel.id
            and (include_ephemeral or not m.ephemeral)
            and (include_deleted or not m.deleted)
        ]

    def dm_channel_of(self, user: FakeUser) -> FakeChannel | None:
        return self.dm_channels.get(user.id)

    def dms(self, user: FakeUser, *, include_deleted: bool = False) -> list[FakeMessage]:
        """Messages the bot delivered in ``user``'s DM channel, oldest first."""
        channel = self.dm_channels.get(user.id)
        if channel is None:
            return []
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel.id and (include_deleted or not m.deleted)
        ]

    def ephemerals(self, user: FakeUser) -> list[FakeMessage]:
        """Ephemeral replies only ``user`` can see (any channel), oldest first."""
        return [
            m
            for m in self.messages.values()
            if m.ephemeral and m.visible_to is not None and m.visible_to.id == user.id
        ]

    def visible_to(self, user: FakeUser) -> list[FakeMessage]:
        """Everything ``user`` can see: guild channel messages, their DMs, their ephemerals."""
        out = []
        for m in self.messages.values():
            channel = self.channels.get(m.channel_id)
            if channel is None:
                continue
            if m.visible_to is not None:
                if m.visible_to.id == user.id:
                    out.append(m)
            elif channel.is_dm:
                if channel.recipient is not None and channel.recipient.id == user.id:
                    out.append(m)
            else:
                out.append(m)
        return out

    async def wait_for_message(
        self,
        predicate: Callable[[FakeMessage], object] = bool,
        *,
        channel: FakeChannel | None = None,
        dm_of: FakeUser | None = None,
        ephemeral_to: FakeUser | None = None,
        timeout: float = 5.0,
    ) -> FakeMessage:
        """The first (oldest) message matching ``predicate`` in one place, waiting for it.

        The place is ``dm_of``'s DMs, ``ephemeral_to``'s ephemeral replies, or ``channel``
        (default ``#mahjong`` and its threads, public messages).
        """

        def source() -> list[FakeMessage]:
            if dm_of is not None:
                return self.dms(dm_of)
            if ephemeral_to is not None:
                return self.ephemerals(ephemeral_to)
            if channel is None:
                return self.guild_messages()
            return self.channel_messages(channel)

        def found() -> FakeMessage | None:
            return next((m for m in source() if predicate(m)), None)

        return await self.wait_for(found, timeout, what="a matching message")

    def calls_to(self, method: str, path_pattern: str) -> list[RestCall]:
        """Recorded REST calls with ``method`` whose path matches the regex ``path_pattern``."""
        rx = re.compile(path_pattern)
        return [c for c in self.calls if c.method == method and rx.search(c.path)]

    # --- rate limits (see ``ratelimit.py``) ----------------------------------------------

    def fail_next(
        self,
        method: str,
        path: str,
        count: int = 1,
        *,
        retry_after: float = 0.5,
        is_global: bool = False,
    ) -> OnDemand:
        """The next ``count`` ``method`` requests whose path matches the regex ``path`` (e.g.
        ``rf"^/channels/{cid}/messages/{mid}$"``) get a Discord 429 with ``retry_after``
        (``is_global``: the global limit). See :meth:`RateLimits.fail_next`."""
        return self.ratelimits.fail_next(
            method, path, count, retry_after=retry_after, is_global=is_global
        )

    def break_next(
        self,
        method: str,
        path: str,
        count: int | None = 1,
        *,
        status: int = 500,
        match: Callable[[RestCall], bool] | None = None,
        after: bool = False,
    ) -> Fault:
        """The next ``count`` ``method`` requests whose path matches the regex ``path`` (and
        that ``match`` accepts) get a ``status`` server error and change nothing
        (``count=None``: until ``heal()``). ``after``: the request is carried out and only
        its answer is lost (replaced by the error). See ``faults.py``."""
        return self.faults.add(method, path, count, status, match, after)

    def limit_route(self, method: str, path: str, per: int, window: float = 1.0) -> RouteLimit:
        """Matching requests may be made ``per`` times per ``window`` seconds per bucket
        (route + channel/guild/webhook), with ``X-RateLimit-*`` headers on every answer."""
        return self.ratelimits.limit_route(method, path, per, window)

    def limit_global(self, per_second: int) -> None:
        """Discord's global limit: ``per_second`` requests per second in all, interaction
        answers and webhooks aside (0 lifts it)."""
        self.ratelimits.limit_global(per_second)

    @property
    def ratelimit_hits(self) -> list[Hit]:
        """Every 429 the fake answered."""
        return self.ratelimits.hits

    @property
    def ratelimit_violations(self) -> list[Violation]:
        """Requests the bot sent although told to wait (a retry before ``retry_after``, or a
        request into a bucket declared empty before its reset)."""
        return self.ratelimits.violations

    @property
    def late_acks(self) -> list[FakeInteraction]:
        """Interactions the bot answered after the deadline (Discord: 10062 Unknown interaction)."""
        return [ix for ix in self.interactions.values() if ix.rejected_late]

    @property
    def connected(self) -> bool:
        s = self.gateway.current
        return s is not None and not s.closed

    def synced_commands(self, guild: bool = False) -> list[dict[str, Any]]:
        """The last synced command list (global, or this guild's)."""
        return self.commands.get(self.guild_id if guild else None, [])

    def notify(self) -> None:
        """Wake ``wait_for`` callers (called on every change)."""
        self._changes += 1
        self._change.set()
        self._change = asyncio.Event()

    @property
    def changes(self) -> int:
        """How many changes (REST answers, messages, edits, acks) the fake has seen."""
        return self._changes

    async def wait_change(self, since: int, timeout: float) -> bool:
        """Wait until :attr:`changes` moves past ``since``; ``False`` after ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while self._changes == since:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._change.wait(), remaining)
        return True

    def scaled(self, timeout: float) -> float:
        """A waiting time for this machine: ``timeout`` × ``timeout_scale``."""
        return timeout * self.timeout_scale

    async def wait_for(
        self, predicate: Callable[[], T], timeout: float = 5.0, *, what: str | None = None
    ) -> T:
        """Wait until ``predicate()`` is truthy and return its value, else ``TimeoutError``.

        ``timeout`` is scaled by :attr:`timeout_scale` (a slow or loaded machine waits longer;
        a condition that holds returns at once, so passing tests are not slower)."""
        timeout = self.scaled(timeout)
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(
                    f"timed out after {timeout} s waiting for {what or getattr(predicate, '__name__', 'condition')}"
                )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._change.wait(), min(remaining, 0.05))

    # --- REST plumbing --------------------------------------------------------------------

    def _route(self, method: str, pattern: str, handler: Handler) -> None:
        rx = re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", pattern) + "$")
        self._routes.append((method, rx, handler, pattern))

    def _register_routes(self) -> None:
        r = self._route
        r("GET", "users/@me", self._get_me)
        r("GET", "oauth2/applications/@me", self._get_app)
        r("GET", "applications/@me", self._get_app)
        r("GET", "gateway", self._get_gateway)
        r("GET", "gateway/bot", self._get_gateway)
        r("PUT", "applications/{app}/commands", self._put_commands)
        r("GET", "applications/{app}/commands", self._get_commands)
        r("PUT", "applications/{app}/guilds/{gid}/commands", self._put_commands)
        r("GET", "applications/{app}/guilds/{gid}/commands", self._get_commands)
        r("POST", "users/@me/channels", self._open_dm)
        r("GET", "users/{uid}", self._get_user)
        r("GET", "guilds/{gid}", self._get_guild)
        r("GET", "guilds/{gid}/channels", self._get_guild_channels)
        r("GET", "guilds/{gid}/members/{uid}", self._get_member)
        r("GET", "channels/{cid}", self._get_channel)
        r("POST", "channels/{cid}/typing", self._typing)
        r("GET", "channels/{cid}/messages", self._list_messages)
        r("POST", "channels/{cid}/messages", self._create_message)
        r("GET", "channels/{cid}/messages/{mid}", self._get_message)
        r("PATCH", "channels/{cid}/messages/{mid}", self._edit_message)
        r("DELETE", "channels/{cid}/messages/{mid}", self._delete_message)
        r("POST", "channels/{cid}/threads", self._start_thread)
        r("POST", "channels/{cid}/messages/{mid}/threads", self._start_thread_on_message)
        r("PUT", "channels/{cid}/messages/{mid}/reactions/{emoji}/@me", self._add_reaction)
        r("DELETE", "channels/{cid}/messages/{mid}/reactions/{emoji}/@me", self._remove_reaction)
        r("POST", "interactions/{iid}/{token}/callback", self._callback)
        r("POST", "webhooks/{app}/{token}", self._followup)
        r("GET", "webhooks/{app}/{token}/messages/{mid}", self._webhook_get)
        r("PATCH", "webhooks/{app}/{token}/messages/{mid}", self._webhook_edit)
        r("DELETE", "webhooks/{app}/{token}/messages/{mid}", self._webhook_delete)

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        tail = request.match_info["tail"]
        body, files = await self._read_body(request)
        call = RestCall(request.method, "/" + tail, dict(request.query), body, files)
        self.calls.append(call)
        limited = None
        fault = self.faults.take(call)
        if fault is not None and not fault.after:  # a server error on demand: nothing is done
            call.response = fault.body()
            call.status = fault.status
            self.notify()
            return json_response(fault.body(), fault.status)
        try:
            for method, rx, handler, template in self._routes:
                m = rx.match(tail)
                if m and method == request.method:
                    if not tail.startswith(("interactions/", "webhooks/")):
                        self._check_auth(request)
                    params = m.groupdict()
                    limited = self.ratelimits.check(
                        method, call.path, template, major_parameter(params)
                    )
                    if limited.status is not None:
                        response = json_response(limited.body, limited.status)
                        call.response = limited.body
                    else:
                        response = await handler(request, call, **params)
                    break
            else:
                self.unhandled.append(call)
                raise HTTPError(
                    404, 0, f"404: Not Found (fake Discord has no {request.method} /{tail})"
                )
        except HTTPError as exc:
            payload: dict[str, Any] = {"message": exc.message, "code": exc.code}
            if exc.errors is not None:
                payload["errors"] = exc.errors
            response = json_response(payload, exc.status)
            call.response = payload
        except Exception:  # a bug in the fake itself: keep it visible to the test
            self.errors.append(f"{request.method} /{tail}\n{traceback.format_exc()}")
            log.exception("fake Discord failed on %s /%s", request.method, tail)
            response = json_response({"message": "500: Internal Server Error", "code": 0}, 500)
        if limited is not None:
            response.headers.update(limited.headers)
            self.ratelimits.answered(limited, response.status)
        if fault is not None:  # (``after``) done, but the answer is lost on the way back
            call.response = fault.body()
            response = json_response(fault.body(), fault.status)
        call.status = response.status
        self.notify()
        return response

    def _check_auth(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {self.token}":
            raise HTTPError(401, 0, "401: Unauthorized")

    async def _read_body(self, request: web.Request) -> tuple[Any, dict[str, bytes]]:
        if not request.can_read_body:
            return None, {}
        # the raw header: aiohttp's ``request.content_type`` (and ``text()``, through
        # ``charset``) parse it with the e-mail package, a large share of the fake's CPU
        ctype = request.headers.get("Content-Type", "").strip().lower()
        if ctype.startswith("multipart/"):
            files: dict[str, bytes] = {}
            payload: Any = None
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                data = await part.read()  # type: ignore[union-attr]
                name = part.name or ""
                if name == "payload_json":
                    payload = json.loads(data.decode())
                else:
                    files[name] = bytes(data)
                    filename = getattr(part, "filename", None)
                    if filename:
                        files[name + ":filename"] = filename.encode()
            return payload, files
        text = (await request.read()).decode("utf-8", errors="replace")  # Discord: UTF-8
        if not text:
            return None, {}
        try:
            return json.loads(text), {}
        except json.JSONDecodeError:
            return text, {}

    # --- REST routes: identity, gateway, commands -----------------------------------------

    async def _get_me(self, request: web.Request, call: RestCall) -> web.Response:
        return json_response(self.bot_user.payload())

    async def _get_app(self, request: web.Request, call: RestCall) -> web.Response:
        return json_response(self.app_info_payload())

    async def _get_gateway(self, request: web.Request, call: RestCall) -> web.Response:
        return json_response(
            {
                "url": self.gateway_url,
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _put_commands(
        self, request: web.Request, call: RestCall, app: str, gid: str | None = None
    ) -> web.Response:
        if int(app) != self.application_id:
            raise HTTPError(403, 50001, "Missing Access")
        scope = int(gid) if gid is not None else None
        if scope is not None and scope != self.guild_id:
            raise HTTPError(403, 50001, "Missing Access")
        commands = call.json or []
        errors = validate.commands(commands)
        if errors:
            raise HTTPError(400, 50035, "Invalid Form Body", errors)
        previous = {c["name"]: c for c in self.commands.get(scope, [])}
        stored = []
        for cmd in commands:
            out = dict(cmd)
            out["id"] = previous.get(cmd["name"], {}).get("id") or str(snowflake())
            out["application_id"] = str(self.application_id)
            out["version"] = str(snowflake())
            out.setdefault("type", 1)
            out.setdefault("default_member_permissions", None)
            if out["default_member_permissions"] is not None:  # Discord answers a string
                out["default_member_permissions"] = str(int(out["default_member_permissions"]))
            out.setdefault("nsfw", False)
            out.setdefault("description", "")
            out.setdefault("options", [])
            if scope is not None:
                out["guild_id"] = str(scope)
            stored.append(out)
        self.commands[scope] = stored
        self.command_syncs.append((scope, time.monotonic()))
        return json_response(stored)

    async def _get_commands(
        self, request: web.Request, call: RestCall, app: str, gid: str | None = None
    ) -> web.Response:
        return json_response(self.commands.get(int(gid) if gid else None, []))

    # --- REST routes: users, guild, channels ----------------------------------------------

    def _find_user(self, uid: int) -> FakeUser:
        for u in [self.bot_user, *self.users]:
            if u.id == uid:
                return u
        raise HTTPError(404, 10013, "Unknown User")

    async def _get_user(self, request: web.Request, call: RestCall, uid: str) -> web.Response:
        return json_response(self._find_user(int(uid)).payload())

    async def _get_guild(self, request: web.Request, call: RestCall, gid: str) -> web.Response:
        if int(gid) != self.guild_id:
            raise HTTPError(404, 10004, "Unknown Guild")
        payload = self.guild_create_payload()
        for key in ("channels", "members", "threads", "presences", "voice_states"):
            payload.pop(key)
        return json_response(payload)

    async def _get_guild_channels(
        self, request: web.Request, call: RestCall, gid: str
    ) -> web.Response:
        return json_response([c.payload() for c in self.channels.values() if not c.is_dm])

    async def _get_member(
        self, request: web.Request, call: RestCall, gid: str, uid: str
    ) -> web.Response:
        if int(uid) not in self.guild_member_ids:
            raise HTTPError(404, 10007, "Unknown Member")
        member = self.member_payload(self._find_user(int(uid)))
        member.pop("permissions")
        return json_response(member)

    async def _open_dm(self, request: web.Request, call: RestCall) -> web.Response:
        user = self._find_user(int((call.json or {}).get("recipient_id", 0)))
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = FakeChannel(id=snowflake(), type=1, recipient=user)
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
            self.place_changes.touch(user.id)
        return json_response(channel.payload())

    def _channel(self, cid: str) -> FakeChannel:
        channel = self.channels.get(int(cid))
        if channel is None:
            raise HTTPError(404, 10003, "Unknown Channel")
        return channel

    async def _get_channel(self, request: web.Request, call: RestCall, cid: str) -> web.Response:
        return json_response(self._channel(cid).payload())

    async def _typing(self, request: web.Request, call: RestCall, cid: str) -> web.Response:
        self._channel(cid)
        return web.Response(status=204)

    def _message(self, channel: FakeChannel, mid: str) -> FakeMessage:
        msg = self.messages.get(int(mid)) if mid.isdigit() else None
        if msg is None or msg.channel_id != channel.id or msg.deleted or msg.visible_to is not None:
            raise HTTPError(404, 10008, "Unknown Message")
        return msg

    async def _list_messages(self, request: web.Request, call: RestCall, cid: str) -> web.Response:
        channel = self._channel(cid)
        self.require_bot(channel, VIEW_CHANNEL | READ_MESSAGE_HISTORY)
        limit = min(int(request.query.get("limit", 50)), 100)
        msgs = [
            m
            for m in self.messages.values()
            if m.channel_id == channel.id and not m.deleted and m.visible_to is None
        ]
        if "before" in request.query:
            msgs = [m for m in msgs if m.id < int(request.query["before"])]
        if "after" in request.query:
            msgs = [m for m in msgs if m.id > int(request.query["after"])]
            msgs = msgs[:limit]
        msgs = sorted(msgs, key=lambda m: m.id, reverse=True)[:limit]
        return json_response([self.message_payload(m) for m in msgs])

    async def _get_message(
        self, request: web.Request, call: RestCall, cid: str, mid: str
    ) -> web.Response:
        channel = self._channel(cid)
        self.require_bot(channel, VIEW_CHANNEL | READ_MESSAGE_HISTORY)
        return json_response(self.message_payload(self._message(channel, mid)))

    async def _create_message(self, request: web.Request, call: RestCall, cid: str) -> web.Response:
        channel = self._channel(cid)
        if channel.is_dm and channel.recipient is not None and not channel.recipient.dms_open:
            raise HTTPError(403, 50007, "Cannot send messages to this user")
        data = self._permitted(channel, call.json or {}, call.files, creating=True)
        problem = nonce_problem(data)
        if problem is not None:
            raise HTTPError(400, 50035, "Invalid Form Body", problem)
        nonce, author = data.get("nonce"), self.bot_user
        if nonce is not None and data.get("enforce_nonce"):
            earlier = self.nonces.earlier(author.id, channel.id, nonce)
            known = self.messages.get(earlier) if earlier is not None else None
            if known is not None and not known.deleted:  # that message, nothing created
                self.nonces.repeated(nonce, known.id)
                return json_response(self.message_payload(known))
        msg = FakeMessage(id=snowflake(), channel_id=channel.id, author=author, nonce=nonce)
        self._apply_message_data(msg, data, call.files, creating=True)
        msg.flags = int(data.get("flags", 0)) & ~EPHEMERAL
        if nonce is not None and data.get("enforce_nonce"):
            self.nonces.note(author.id, channel.id, nonce, msg.id)
        self.thread_written(channel)
        await self._store_new(msg)
        self.notifications.on_new(msg, channel, data)
        return json_response(self.message_payload(msg))

    async def _edit_message(
        self, request: web.Request, call: RestCall, cid: str, mid: str
    ) -> web.Response:
        channel = self._channel(cid)
        msg = self._message(channel, mid)
        if msg.author.id != self.bot_user.id:
            raise HTTPError(403, 50005, "Cannot edit a message authored by another user")
        data = self._permitted(channel, call.json or {}, call.files, creating=False)
        self.check_thread_editable(channel)
        refused = self.old_edits.check(msg, "PATCH", call.path)
        if refused is not None:
            call.response = refused.body
            return web.Response(
                body=json.dumps(refused.body).encode(),
                status=429,
                headers={"Content-Type": "application/json", **refused.headers},
            )
        await self._edit(msg, data, call.files)
        return json_response(self.message_payload(msg))

    async def _delete_message(
        self, request: web.Request, call: RestCall, cid: str, mid: str
    ) -> web.Response:
        msg = self._message(self._channel(cid), mid)
        await self._delete(msg)
        return web.Response(status=204)

    async def _add_reaction(
        self, request: web.Request, call: RestCall, cid: str, mid: str, emoji: str
    ) -> web.Response:
        channel = self._channel(cid)
        self.require_bot(channel, VIEW_CHANNEL | READ_MESSAGE_HISTORY | ADD_REACTIONS)
        msg = self._message(channel, mid)
        msg.reactions.setdefault(emoji, set()).add(self.bot_user.id)
        return web.Response(status=204)

    async def _remove_reaction(
        self, request: web.Request, call: RestCall, cid: str, mid: str, emoji: str
    ) -> web.Response:
        msg = self._message(self._channel(cid), mid)
        msg.reactions.get(emoji, set()).discard(self.bot_user.id)
        return web.Response(status=204)

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        msg_files = [
            a
            for m in self.messages.values()
            for a in m.attachments
            if str(a.id) == request.match_info["aid"]
        ]
        if not msg_files:
            raise web.HTTPNotFound()
        att = msg_files[0]
        return web.Response(
            body=att.data, content_type=att.content_type or "application/octet-stream"
        )

    # --- messages: create / edit / delete -------------------------------------------------

    def _permitted(
        self,
        channel: FakeChannel,
        data: dict[str, Any],
        files: dict[str, bytes],
        *,
        creating: bool,
    ) -> dict[str, Any]:
        """The bot's permissions in a guild channel, as Discord applies them to a message it
        sends (``creating``) or edits: SEND_MESSAGES to send, ATTACH_FILES for files; an
        embed without EMBED_LINKS is refused when it is all the message has, else dropped."""
        if channel.is_dm:
            return data
        self.require_bot(channel, (SEND_MESSAGES if creating else 0) | VIEW_CHANNEL)
        if any(name.startswith("files[") and ":" not in name for name in files):
            self.require_bot(channel, ATTACH_FILES)
        embeds = data.get("embeds") or ([data["embed"]] if data.get("embed") else [])
        if embeds and not self.bot_permissions_in(channel) & EMBED_LINKS:
            if not (data.get("content") or data.get("components") or files):
                self.require_bot(channel, EMBED_LINKS)
            data = {k: v for k, v in data.items() if k not in ("embeds", "embed")}
            data["embeds"] = []
            self.permission_refusals.append((channel.id, EMBED_LINKS))
        return data

    def _apply_message_data(
        self, msg: FakeMessage, data: dict[str, Any], files: dict[str, bytes], *, creating: bool
    ) -> None:
        problem = validate.message(data, files, creating=creating)
        if problem is not None:
            code, text, errors = problem
            raise HTTPError(400, code, text, errors)
        if "content" in data:
            msg.content = data["content"] or ""
        if "embeds" in data:
            msg.embeds = list(data["embeds"] or [])
        elif "embed" in data:
            msg.embeds = [data["embed"]] if data["embed"] else []
        if "components" in data:
            msg.components = list(data["components"] or [])
        if "attachments" in data or files:
            keep: list[FakeAttachment] = []
            wanted = data.get("attachments")
            existing = {str(a.id): a for a in msg.attachments}
            if wanted is None:
                keep = list(msg.attachments)
                wanted = []
            for meta in wanted:
                key = str(meta.get("id"))
                if key in existing:
                    keep.append(existing[key])
                elif f"files[{key}]" in files:
                    keep.append(self._attachment(meta, files, key))
            mentioned = {str(m.get("id")) for m in wanted}
            for name in files:
                m = FILE_PART_RX.fullmatch(name)
                if m and m.group(1) not in mentioned:
                    keep.append(self._attachment({}, files, m.group(1)))
            msg.attachments = keep

    def _attachment(
        self, meta: dict[str, Any], files: dict[str, bytes], key: str
    ) -> FakeAttachment:
        filename = meta.get("filename") or files.get(f"files[{key}]:filename", b"file").decode()
        return FakeAttachment(
            id=snowflake(),
            filename=filename,
            data=files[f"files[{key}]"],
            content_type=_guess_type(filename),
            description=meta.get("description"),
        )

    async def _store_new(self, msg: FakeMessage) -> None:
        self.messages[msg.id] = msg
        self.place_changes.touch(msg.channel_id)
        if msg.visible_to is None:
            channel = self.channels[msg.channel_id]
            intent = DIRECT_MESSAGES if channel.is_dm else GUILD_MESSAGES
            await self.gateway.dispatch("MESSAGE_CREATE", self.message_payload(msg), intent=intent)
        self.notify()

    async def _edit(self, msg: FakeMessage, data: dict[str, Any], files: dict[str, bytes]) -> None:
        before = msg.snapshot()
        self._apply_message_data(msg, data, files, creating=False)
        if "flags" in data and data["flags"] is not None:
            # Only SUPPRESS_EMBEDS (4) and IS_COMPONENTS_V2 may change; keep ephemeral bit.
            msg.flags = (msg.flags & EPHEMERAL) | (int(data["flags"]) & ~EPHEMERAL & ~LOADING)
        msg.flags &= ~LOADING
        msg.history.append(before)
        msg.edit_times.append(time.monotonic())
        msg.edited_timestamp = now_iso()
        self.place_changes.touch(msg.channel_id)
        if msg.visible_to is None:
            channel = self.channels[msg.channel_id]
            intent = DIRECT_MESSAGES if channel.is_dm else GUILD_MESSAGES
            await self.gateway.dispatch("MESSAGE_UPDATE", self.message_payload(msg), intent=intent)
        self.notify()

    async def _delete(self, msg: FakeMessage) -> None:
        msg.deleted = True
        self.place_changes.touch(msg.channel_id)
        if msg.visible_to is None:
            channel = self.channels[msg.channel_id]
            payload: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if channel.guild_id is not None:
                payload["guild_id"] = str(channel.guild_id)
            intent = DIRECT_MESSAGES if channel.is_dm else GUILD_MESSAGES
            await self.gateway.dispatch("MESSAGE_DELETE", payload, intent=intent)
        self.notify()

    # --- interactions: callback, follow-ups, @original ------------------------------------

    def _interaction_by_token(self, token: str) -> FakeInteraction:
        ix = self.interactions_by_token.get(token)
        if ix is None:
            raise HTTPError(404, 10015, "Unknown Webhook")
        return ix

    async def _callback(
        self, request: web.Request, call: RestCall, iid: str, token: str
    ) -> web.Response:
        ix = self.interactions.get(int(iid)) if iid.isdigit() else None
        if ix is None or ix.token != token:
            raise HTTPError(404, 10062, "Unknown interaction")
        if ix.response_type is not None:
            raise HTTPError(400, 40060, "Interaction has already been acknowledged.")
        if time.monotonic() - ix.sent_at > self.ack_deadline:
            ix.rejected_late = True
            raise HTTPError(404, 10062, "Unknown interaction")
        body = call.json or {}
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        is_component = ix.type in (3, 5) and ix.message is not None
        original: FakeMessage | None = None
        if kind == 4:
            original = FakeMessage(
                id=snowflake(),
                channel_id=ix.channel.id,
                author=self.bot_user,
                webhook_id=self.application_id,
                interaction_id=ix.id,
                type=20 if ix.type == 2 else 0,
            )
            self._apply_message_data(original, data, call.files, creating=True)
            original.flags = int(data.get("flags", 0)) & ~LOADING
            if original.ephemeral:
                original.visible_to = ix.user
        elif kind == 5:
            original = FakeMessage(
                id=snowflake(),
                channel_id=ix.channel.id,
                author=self.bot_user,
                webhook_id=self.application_id,
                interaction_id=ix.id,
                type=20 if ix.type == 2 else 0,
                flags=LOADING | (int(data.get("flags", 0)) & EPHEMERAL),
            )
            if original.ephemeral:
                original.visible_to = ix.user
        elif kind in (6, 7):
            if not is_component:
                raise HTTPError(
                    400, 40043, "Interaction response type is not valid for this interaction"
                )
            original = self.messages.get(ix.message.id) if ix.message else None  # type: ignore[union-attr]
        elif kind == 8:
            if ix.type != 4:
                raise HTTPError(400, 40043, "Autocomplete response only for autocomplete")
        elif kind == 9:
            if ix.type == 5:
                raise HTTPError(400, 40043, "Cannot answer a modal submit with a modal")
            problem = validate.modal(data)
            if problem:
                raise HTTPError(400, 50035, "Invalid Form Body", problem)
        else:
            raise HTTPError(400, 50035, f"Invalid interaction response type {kind}")
        ix.response_type = kind
        ix.response_data = data
        ix.acked_at = time.monotonic()
        ix.original = original
        if kind in (4, 5) and original is not None:
            self.thread_written(ix.channel)
            await self._store_new(original)
            if kind == 4:
                self.notifications.on_new(original, ix.channel, data)
        elif kind == 7 and original is not None:
            await self._edit(original, data, call.files)
        ix._acked.set()
        self.notify()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        interaction: dict[str, Any] = {"id": str(ix.id), "type": ix.type}
        result: dict[str, Any] = {"interaction": interaction}
        if original is not None and kind in (4, 5, 7):
            interaction["response_message_id"] = str(original.id)
            interaction["response_message_loading"] = kind == 5
            interaction["response_message_ephemeral"] = original.ephemeral
            resource: dict[str, Any] = {"type": kind}
            if kind in (4, 7):
                resource["message"] = self.message_payload(original)
            result["resource"] = resource
        else:
            result["resource"] = {"type": kind}
        return json_response(result)

    async def _followup(
        self, request: web.Request, call: RestCall, app: str, token: str
    ) -> web.Response:
        ix = self._interaction_by_token(token)
        if int(app) != self.application_id or ix.response_type is None:
            raise HTTPError(404, 10015, "Unknown Webhook")
        data = call.json or {}
        original = ix.original
        if ix.response_type == 5 and original is not None and original.flags & LOADING:
            # The first follow-up after a deferred reply fills the "thinking" message.
            await self._edit(original, data, call.files)
            msg = original
        else:
            msg = FakeMessage(
                id=snowflake(),
                channel_id=ix.channel.id,
                author=self.bot_user,
                webhook_id=self.application_id,
                interaction_id=ix.id,
                type=0,
            )
            self._apply_message_data(msg, data, call.files, creating=True)
            msg.flags = int(data.get("flags", 0)) & ~LOADING
            if msg.ephemeral:
                msg.visible_to = ix.user
            ix.followups.append(msg)
            await self._store_new(msg)
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(self.message_payload(msg))
        return web.Response(status=204)

    def _webhook_message(self, ix: FakeInteraction, mid: str) -> FakeMessage:
        if mid == "@original":
            if ix.original is None or ix.original.deleted:
                raise HTTPError(404, 10008, "Unknown Message")
            return ix.original
        for msg in ix.replies():
            if str(msg.id) == mid and not msg.deleted:
                return msg
        raise HTTPError(404, 10008, "Unknown Message")

    async def _webhook_get(
        self, request: web.Request, call: RestCall, app: str, token: str, mid: str
    ) -> web.Response:
        ix = self._interaction_by_token(token)
        return json_response(self.message_payload(self._webhook_message(ix, mid)))

    async def _webhook_edit(
        self, request: web.Request, call: RestCall, app: str, token: str, mid: str
    ) -> web.Response:
        ix = self._interaction_by_token(token)
        msg = self._webhook_message(ix, mid)
        await self._edit(msg, call.json or {}, call.files)
        return json_response(self.message_payload(msg))

    async def _webhook_delete(
        self, request: web.Request, call: RestCall, app: str, token: str, mid: str
    ) -> web.Response:
        ix = self._interaction_by_token(token)
        await self._delete(self._webhook_message(ix, mid))
        return web.Response(status=204)


def _guess_type(filename: str) -> str | None:
    lower = filename.lower()
    for ext, mime in (
        (".png", "image/png"),
        (".jpg", "image/jpeg"),
        (".jpeg", "image/jpeg"),
        (".gif", "image/gif"),
        (".webp", "image/webp"),
        (".txt", "text/plain"),
        (".json", "application/json"),
    ):
        if lower.endswith(ext):
            return mime
    return None
