"""Roles, channel overwrites and permission bits, computed the way Discord does.

Discord's algorithm (developer docs, "Permissions" → "Permission Hierarchy"):

1. The guild owner has every permission.
2. Base = ``@everyone``'s permissions OR every role the member has. ``ADMINISTRATOR`` in
   the base gives every permission and skips the channel's overwrites.
3. In a channel: the ``@everyone`` overwrite (deny, then allow), then all the member's role
   overwrites together (deny, then allow), then the member's own overwrite.
4. Implicit: without ``VIEW_CHANNEL`` nothing else is left; without ``SEND_MESSAGES`` a text
   channel also takes ``SEND_TTS_MESSAGES``, ``MENTION_EVERYONE``, ``EMBED_LINKS`` and
   ``ATTACH_FILES``.

Interactions carry the result: ``member.permissions`` (the invoking member in the channel)
and ``app_permissions`` (the bot in the channel).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

CREATE_INSTANT_INVITE = 1 << 0
KICK_MEMBERS = 1 << 1
BAN_MEMBERS = 1 << 2
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
SEND_TTS_MESSAGES = 1 << 12
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
MANAGE_ROLES = 1 << 28
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
#: Every permission bit Discord defines today (and then some): what owners and admins have.
ALL_PERMISSIONS = (1 << 53) - 1

#: ``@everyone`` of the fake guild: what an ordinary member may do.
MEMBER_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | USE_APPLICATION_COMMANDS
)
#: The bot's own (managed) role: what a server grants when it invites the bot.
BOT_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | USE_EXTERNAL_EMOJIS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)
#: Taken away in a text channel together with ``SEND_MESSAGES``.
NEEDS_SEND = SEND_TTS_MESSAGES | MENTION_EVERYONE | EMBED_LINKS | ATTACH_FILES

ROLE, MEMBER = 0, 1


@dataclass(eq=False)
class FakeRole:
    """A guild role; ``id == guild id`` is ``@everyone``; ``managed`` is a bot's own role."""

    id: int
    name: str
    permissions: int
    position: int = 1
    managed: bool = False
    bot_id: int | None = None

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "color": 0,
            "hoist": False,
            "position": self.position,
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }
        if self.bot_id is not None:
            out["tags"] = {"bot_id": str(self.bot_id)}
        return out


@dataclass
class Overwrite:
    """A channel permission overwrite for a role (``type`` 0) or a member (``type`` 1)."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


def base_permissions(*, is_owner: bool, everyone: FakeRole, roles: list[FakeRole]) -> int:
    """Guild-wide permissions (steps 1–2)."""
    if is_owner:
        return ALL_PERMISSIONS
    base = everyone.permissions
    for role in roles:
        base |= role.permissions
    if base & ADMINISTRATOR:
        return ALL_PERMISSIONS
    return base


def channel_permissions(
    base: int,
    *,
    guild_id: int,
    role_ids: set[int],
    member_id: int,
    overwrites: list[Overwrite],
    text_channel: bool = True,
) -> int:
    """Permissions in one channel (steps 3–4) from the guild-wide ``base``."""
    if base & ADMINISTRATOR or base == ALL_PERMISSIONS:
        return ALL_PERMISSIONS
    perms = base
    for ow in overwrites:
        if ow.type == ROLE and ow.id == guild_id:
            perms = (perms & ~ow.deny) | ow.allow
    allow = deny = 0
    for ow in overwrites:
        if ow.type == ROLE and ow.id != guild_id and ow.id in role_ids:
            allow |= ow.allow
            deny |= ow.deny
    perms = (perms & ~deny) | allow
    for ow in overwrites:
        if ow.type == MEMBER and ow.id == member_id:
            perms = (perms & ~ow.deny) | ow.allow
    if not perms & VIEW_CHANNEL:
        return 0
    if text_channel and not perms & SEND_MESSAGES:
        perms &= ~NEEDS_SEND
    return perms


def names(bits: int) -> list[str]:
    """The names of the set bits this module knows (for error messages)."""
    known = {
        value: name
        for name, value in globals().items()
        if name.isupper() and isinstance(value, int) and value and value & (value - 1) == 0
    }
    return [known.get(1 << i, f"bit{i}") for i in range(53) if bits & (1 << i)]
