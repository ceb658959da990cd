"""Public threads in the fake, and the fake clock that archives them.

- ``POST /channels/{id}/threads`` (a thread without a starter message) and
  ``POST /channels/{id}/messages/{mid}/threads`` (a thread on a message: its id is the
  message's, as on Discord; one thread per message, else 400 160004). The bot needs
  VIEW_CHANNEL and CREATE_PUBLIC_THREADS in the channel (403 50013 otherwise). A connected
  bot gets THREAD_CREATE.
- In a thread the bot's permissions are the channel's, with SEND_MESSAGES_IN_THREADS in the
  place of SEND_MESSAGES.
- A thread archives itself ``auto_archive_duration`` minutes after its last message (by the
  fake clock: ``fake.advance(seconds)``); THREAD_UPDATE tells the bot. A message from the bot
  unarchives it (THREAD_UPDATE again). Editing a message in an archived thread fails with
  400 50083 "Thread is archived".
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .permissions import (
    CREATE_PUBLIC_THREADS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
)
from .state import FakeChannel, FakeMessage, FakeUser, RestCall, clock, snowflake

if TYPE_CHECKING:
    from .server import FakeDiscord

ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
THREAD_ARCHIVED = 50083
THREAD_EXISTS = 160004


def _archive_due(thread: FakeChannel) -> float:
    """When (fake clock, a millisecond early against rounding) ``thread`` archives if
    nothing is written in it."""
    return thread.last_activity + thread.auto_archive_duration * 60 - 0.001


class ThreadsMixin:
    """Threads of :class:`FakeDiscord` (see the module docstring)."""

    #: no thread can archive before this fake-clock time (see ``archive_idle_threads``)
    archive_not_before: float = 0.0

    # --- test helpers -----------------------------------------------------------------------

    def threads(self: FakeDiscord, parent: FakeChannel | None = None) -> list[FakeChannel]:
        """Every thread (of ``parent``, default ``#mahjong``), oldest first."""
        parent = parent or self.channel
        self.archive_idle_threads()
        return [c for c in self.channels.values() if c.is_thread and c.parent_id == parent.id]

    def thread_on(self: FakeDiscord, message: FakeMessage) -> FakeChannel | None:
        """The thread started on ``message``, if any."""
        found = self.channels.get(message.id)
        return found if found is not None and found.is_thread else None

    def guild_messages(
        self: FakeDiscord, *, include_ephemeral: bool = False, include_deleted: bool = False
    ) -> list[FakeMessage]:
        """Messages of ``#mahjong`` and of its threads, oldest first."""
        places = {self.channel.id, *(t.id for t in self.threads())}
        return sorted(
            (
                m
                for m in self.messages.values()
                if m.channel_id in places
                and (include_ephemeral or not m.ephemeral)
                and (include_deleted or not m.deleted)
            ),
            key=lambda m: m.id,
        )

    def advance(self: FakeDiscord, seconds: float) -> None:
        """Let ``seconds`` of Discord time pass at once (the fake clock): messages age (the
        old-message edit budget) and idle threads archive."""
        clock.advance(seconds)
        self.archive_idle_threads()
        self.notify()

    def archive_idle_threads(self: FakeDiscord) -> list[FakeChannel]:
        """Archive every thread idle for its ``auto_archive_duration`` (THREAD_UPDATE).

        Called on every message in a thread, so it looks at the threads only once the
        soonest any of them could archive has come (:attr:`archive_not_before`), not on
        each call: a scan of every channel per message grows with the number of tables."""
        now = clock.now()
        if now < self.archive_not_before:
            return []
        done = []
        soonest = math.inf
        for thread in [c for c in self.channels.values() if c.is_thread and not c.archived]:
            if now - thread.last_activity >= thread.auto_archive_duration * 60:
                thread.archived = True
                thread.archived_at = now
                done.append(thread)
                self._announce("THREAD_UPDATE", thread.payload())
            else:
                soonest = min(soonest, _archive_due(thread))
        self.archive_not_before = soonest
        return done

    def _may_archive_from(self: FakeDiscord, thread: FakeChannel) -> None:
        """``thread`` (new, or unarchived) may archive from its due time on."""
        self.archive_not_before = min(self.archive_not_before, _archive_due(thread))

    def thread_permissions(self: FakeDiscord, user: FakeUser, thread: FakeChannel) -> int:
        """A member's bits in a thread: its channel's, SEND_MESSAGES_IN_THREADS for sending."""
        parent = self.channels.get(thread.parent_id or 0)
        perms = self.permissions_of(user, parent)
        perms &= ~SEND_MESSAGES
        if perms & SEND_MESSAGES_IN_THREADS:
            perms |= SEND_MESSAGES
        return perms

    def active_threads_payload(self: FakeDiscord) -> list[dict[str, Any]]:
        """The unarchived threads, as GUILD_CREATE lists them."""
        self.archive_idle_threads()
        return [c.payload() for c in self.channels.values() if c.is_thread and not c.archived]

    # --- the server side --------------------------------------------------------------------

    def thread_written(self: FakeDiscord, channel: FakeChannel) -> None:
        """A new message in ``channel``: a thread's activity, and it unarchives."""
        if not channel.is_thread:
            return
        self.archive_idle_threads()
        channel.last_activity = clock.now()
        if channel.archived:
            channel.archived = False
            channel.archived_at = clock.now()
            self._may_archive_from(channel)
            self._announce("THREAD_UPDATE", channel.payload())

    def check_thread_editable(self: FakeDiscord, channel: FakeChannel) -> None:
        from .server import HTTPError

        if channel.is_thread:
            self.archive_idle_threads()
            if channel.archived:
                raise HTTPError(400, THREAD_ARCHIVED, "Thread is archived")

    def _new_thread(
        self: FakeDiscord, parent: FakeChannel, data: dict[str, Any], thread_id: int
    ) -> FakeChannel:
        from .server import HTTPError

        if parent.is_dm or parent.is_thread:
            raise HTTPError(400, 50024, "Cannot execute action on this channel type")
        self.require_bot(parent, VIEW_CHANNEL | CREATE_PUBLIC_THREADS)
        name = str(data.get("name") or "").strip()
        if not 1 <= len(name) <= 100:
            raise HTTPError(400, 50035, "Invalid Form Body", {"name": "1 to 100 characters"})
        duration = int(data.get("auto_archive_duration") or 4320)
        if duration not in ARCHIVE_DURATIONS:
            raise HTTPError(400, 50035, "Invalid Form Body", {"auto_archive_duration": duration})
        thread = FakeChannel(
            id=thread_id,
            type=11,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
            auto_archive_duration=duration,
        )
        self.channels[thread.id] = thread
        self._may_archive_from(thread)
        return thread

    async def _start_thread(
        self: FakeDiscord, request: web.Request, call: RestCall, cid: str
    ) -> web.Response:
        from .server import json_response

        data = call.json or {}
        thread = self._new_thread(self._channel(cid), data, snowflake())
        await self._thread_created(thread)
        return json_response(thread.payload(), 201)

    async def _start_thread_on_message(
        self: FakeDiscord, request: web.Request, call: RestCall, cid: str, mid: str
    ) -> web.Response:
        from .server import HTTPError, json_response

        parent = self._channel(cid)
        message = self._message(parent, mid)
        if message.id in self.channels:
            raise HTTPError(
                400, THREAD_EXISTS, "A thread has already been created for this message"
            )
        thread = self._new_thread(parent, call.json or {}, message.id)
        await self._thread_created(thread)
        return json_response(thread.payload(), 201)

    async def _thread_created(self: FakeDiscord, thread: FakeChannel) -> None:
        payload = {**thread.payload(), "newly_created": True}
        await self.gateway.dispatch("THREAD_CREATE", payload)
        self.place_changes.touch(thread.id, thread.parent_id)
        self.notify()
