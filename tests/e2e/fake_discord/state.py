"""What the fake Discord knows: users, one guild, channels, messages, calls it received."""

from __future__ import annotations

import copy
import datetime as dt
import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

EPHEMERAL = 1 << 6
LOADING = 1 << 7
DISCORD_EPOCH_MS = 1420070400000

_counter = itertools.count(1)


class FakeClock:
    """Discord's clock in the fake: real time plus ``offset`` seconds a test may add
    (``fake.advance(3600)``: an hour passes at once). Snowflakes, message timestamps, the
    age of messages (the old-message edit budget) and thread archiving all follow it; the
    bot's own clock does not move (it sees Discord's time in the ids it gets)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        """Discord's time, epoch seconds."""
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        assert seconds >= 0, "the fake clock never goes back"
        self.offset += seconds

    def reset(self) -> None:
        self.offset = 0.0


#: The fake's clock (one fake Discord per test; :class:`FakeDiscord` resets it).
clock = FakeClock()


def snowflake() -> int:
    """A fresh, increasing snowflake id (its time is the fake clock's)."""
    ms = int(clock.now() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def snowflake_on_shard(shard_id: int, shard_count: int) -> int:
    """A fresh snowflake that, as a server id, lands on shard ``shard_id`` of
    ``shard_count`` (``(id >> 22) % count``): its time is moved at most ``count - 1`` ms on."""
    if not 0 <= shard_id < shard_count:
        raise ValueError(f"shard {shard_id} is not among {shard_count} shards")
    flake = snowflake()
    ms = flake >> 22
    ms += (shard_id - ms) % shard_count
    return (ms << 22) | (flake & 0x3FFFFF)


def now_iso() -> str:
    return dt.datetime.fromtimestamp(clock.now(), dt.UTC).isoformat()


@dataclass(eq=False)
class FakeUser:
    """A Discord user. ``dms_open=False`` makes DMs to them fail with 50007."""

    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel (type 0), a DM channel (type 1) or a public thread (type 11,
    with ``parent_id``; see ``threads.py``)."""

    id: int
    type: int
    name: str = ""
    guild_id: int | None = None
    recipient: FakeUser | None = None
    position: int = 0
    #: Permission overwrites (``permissions.Overwrite``), ``@everyone``'s first.
    overwrites: list[Any] = field(default_factory=list)
    #: A thread's channel, who created it, and its archive state (fake clock seconds).
    parent_id: int | None = None
    owner_id: int | None = None
    auto_archive_duration: int = 1440
    archived: bool = False
    archived_at: float | None = None
    last_activity: float = field(default_factory=lambda: clock.now())
    created_fake: float = field(default_factory=lambda: clock.now())

    @property
    def is_dm(self) -> bool:
        return self.type == 1

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    def payload(self) -> dict[str, Any]:
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [self.recipient.payload()],
            }
        if self.is_thread:
            return self.thread_payload()
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [o.payload() for o in self.overwrites],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }

    def thread_payload(self) -> dict[str, Any]:
        def iso(at: float) -> str:
            return dt.datetime.fromtimestamp(at, dt.UTC).isoformat()

        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "parent_id": str(self.parent_id),
            "owner_id": str(self.owner_id) if self.owner_id else None,
            "name": self.name,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": self.archived,
                "auto_archive_duration": self.auto_archive_duration,
                "archive_timestamp": iso(self.archived_at or self.created_fake),
                "locked": False,
                "create_timestamp": iso(self.created_fake),
            },
        }


@dataclass
class FakeAttachment:
    """A file sent with a message; ``data`` holds its bytes."""

    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None

    def payload(self, base_url: str, channel_id: int) -> dict[str, Any]:
        url = f"{base_url}/attachments/{channel_id}/{self.id}/{self.filename}"
        out: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
        }
        if self.content_type:
            out["content_type"] = self.content_type
        if self.description:
            out["description"] = self.description
        return out


@dataclass(eq=False)
class FakeMessage:
    """A message as the fake stores it. Earlier versions (before edits) are in ``history``.

    ``visible_to`` is the only user who can see it (ephemeral replies), or ``None`` when
    everyone who sees the channel can.
    """

    id: int
    channel_id: int
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    visible_to: FakeUser | None = None
    interaction_id: int | None = None
    webhook_id: int | None = None
    type: int = 0
    timestamp: str = field(default_factory=now_iso)
    edited_timestamp: str | None = None
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)
    reactions: dict[str, set[int]] = field(default_factory=dict)
    created_at: float = field(default_factory=time.monotonic)
    #: when it was created by the fake clock (its age decides the old-message edit budget)
    created_fake: float = field(default_factory=lambda: clock.now())
    edit_times: list[float] = field(default_factory=list)
    #: the nonce it was created with (echoed in its payload), if any
    nonce: int | str | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    def snapshot(self) -> dict[str, Any]:
        """The visible parts of this version (for ``history``)."""
        return {
            "content": self.content,
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "attachments": [a.filename for a in self.attachments],
            #: the files' bytes, so a test can tell which picture a past version showed
            "pictures": [a.data for a in self.attachments],
            "flags": self.flags,
        }

    def versions(self) -> list[dict[str, Any]]:
        """Every version ever shown, oldest first, the current one last."""
        return [*self.history, self.snapshot()]

    # --- reading helpers for tests ------------------------------------------------------

    def text(self) -> str:
        """Content plus all embed text, one string (for ``in`` assertions)."""
        parts = [self.content]
        for embed in self.embeds:
            parts.extend(_strings(embed))
        for comp in self.components:
            for key, value in _walk(comp):
                if key in ("content", "label", "placeholder", "description", "title"):
                    parts.append(str(value))
        return "\n".join(p for p in parts if p)

    def buttons(self) -> list[dict[str, Any]]:
        """Every button (type 2) in the components, in order."""
        return [c for c in _components(self.components) if c.get("type") == 2]

    def custom_ids(self) -> list[str]:
        """custom_id of every interactive component."""
        return [c["custom_id"] for c in _components(self.components) if "custom_id" in c]

    def find_component(
        self, *, label: str | None = None, custom_id: str | None = None, prefix: str | None = None
    ) -> dict[str, Any]:
        """The first component matching ``label``, exact ``custom_id`` or custom_id ``prefix``."""
        for comp in _components(self.components):
            if label is not None and comp.get("label") != label:
                continue
            if custom_id is not None and comp.get("custom_id") != custom_id:
                continue
            if prefix is not None and not str(comp.get("custom_id", "")).startswith(prefix):
                continue
            if label is None and custom_id is None and prefix is None:
                continue
            return comp
        raise LookupError(
            f"no component label={label!r} custom_id={custom_id!r} prefix={prefix!r} in "
            f"message {self.id}: {self.custom_ids()}"
        )

    def payload(self, base_url: str, guild_id: int | None) -> dict[str, Any]:
        """The Discord JSON for this message."""
        out: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload(base_url, self.channel_id) for a in self.attachments],
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if guild_id is not None:
            out["guild_id"] = str(guild_id)
        if self.nonce is not None:
            out["nonce"] = self.nonce
        if self.webhook_id is not None:
            out["webhook_id"] = str(self.webhook_id)
            out["application_id"] = str(self.webhook_id)
        if self.reactions:
            out["reactions"] = [
                {"emoji": {"id": None, "name": name}, "count": len(users), "me": True}
                for name, users in self.reactions.items()
                if users
            ]
        return out


@dataclass
class RestCall:
    """One REST request the fake received, and what it answered."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: dict[str, bytes]
    status: int = 0
    response: Any = None
    at: float = field(default_factory=time.monotonic)

    def __repr__(self) -> str:
        return f"<RestCall {self.method} {self.path} -> {self.status}>"


def _walk(obj: Any, key: str = "") -> Iterator[tuple[str, Any]]:
    """Every (key, scalar) pair inside nested dicts/lists."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _walk(v, k)
    elif isinstance(obj, list):
        for v in obj:
            yield from _walk(v, key)
    else:
        yield key, obj


def _strings(obj: Any) -> list[str]:
    return [v for _, v in _walk(obj) if isinstance(v, str)]


def _components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component dict, depth first (action rows, containers, sections, …)."""
    for comp in components:
        yield comp
        for key in ("components", "accessory"):
            child = comp.get(key)
            if isinstance(child, list):
                yield from _components(child)
            elif isinstance(child, dict):
                yield from _components([child])
