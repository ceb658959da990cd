"""Who Discord notifies: only *new* messages, never edits.

- A new DM from the bot notifies its recipient.
- A new message in a guild channel or thread notifies the users it mentions (``<@id>`` or
  ``<@!id>`` in its content — mentions in embeds never ping) as far as ``allowed_mentions``
  permits: without it every user mention pings; with it, ``parse: ["users"]`` lets every user
  mention ping, ``users: [ids]`` only those.
- An interaction response (callback type 4, not ephemeral) pings the users it mentions the
  same way. Ephemeral replies, "thinking" messages, follow-ups (also the one that fills a
  deferred response, discord-api-docs #5497) and every edit (even one adding a mention) never
  notify.

``fake.notifications.of(user)`` lists what notified a user; ``count(user)`` how many.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .state import FakeChannel, FakeMessage, FakeUser, clock

MENTION_RX = re.compile(r"<@!?(\d+)>")


@dataclass(frozen=True)
class Notification:
    """A user was notified of ``message_id`` (``kind``: ``dm`` or ``mention``)."""

    user_id: int
    message_id: int
    channel_id: int
    kind: str
    at: float  # fake clock


def pinged_users(content: str, allowed: dict[str, Any] | None) -> set[int]:
    """The users a new guild message with ``content`` pings, under ``allowed_mentions``."""
    mentioned = {int(m) for m in MENTION_RX.findall(content or "")}
    if allowed is None:
        return mentioned
    if "users" in (allowed.get("parse") or []):
        return mentioned
    listed = {int(u) for u in allowed.get("users") or []}
    return mentioned & listed


@dataclass
class Notifications:
    """Every notification the fake would have shown, in order."""

    items: list[Notification] = field(default_factory=list)

    def on_new(
        self,
        msg: FakeMessage,
        channel: FakeChannel,
        data: dict[str, Any] | None,
        *,
        author_is_bot: bool = True,
    ) -> list[Notification]:
        """A new message was created (bot messages and non-ephemeral interaction answers
        only): record whom it notifies."""
        if msg.ephemeral or not author_is_bot:
            return []
        out: list[Notification] = []
        if channel.is_dm:
            if channel.recipient is not None:
                out.append(
                    Notification(channel.recipient.id, msg.id, channel.id, "dm", clock.now())
                )
        else:
            allowed = (data or {}).get("allowed_mentions")
            for uid in sorted(pinged_users(msg.content, allowed)):
                out.append(Notification(uid, msg.id, channel.id, "mention", clock.now()))
        self.items.extend(out)
        return out

    def of(self, user: FakeUser | int) -> list[Notification]:
        uid = user if isinstance(user, int) else user.id
        return [n for n in self.items if n.user_id == uid]

    def count(self, user: FakeUser | int) -> int:
        return len(self.of(user))
