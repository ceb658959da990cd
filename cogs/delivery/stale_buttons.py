"""Buttons still to take off old messages (失效按钮): a hand DM replaced by a new one, the
previous hand's table and result, the lobby once the game started, the hand DMs of a game
that ended.

Taking buttons off is an edit like any other, and it can fail (a 5xx, a time-out, a 429
that outlasted discord.py's tries) or be cut off by a crash. So before it is made, the
message is written down among the game's remembered messages (``messages["stale"]``:
``{message id: [channel, message, hand]}``, ``hand`` > 0 for a result, whose 回放 button
stays), in the same save that records the message taking its place; it is crossed out once
the edit went through. What is still written down is retried here, spaced out and with a
growing back-off, a bounded number of times; after a restart the resume hands every game's
list back (:meth:`StaleButtons.adopt`), and so does the store for games that ended
meanwhile (:meth:`StaleButtons.adopt_ended`). The retries go behind the players' requests in
the bot's request budget, at most one edit per ``spacing`` seconds for all games and one per
:data:`CHANNEL_SPACING` per channel (Discord's small edit budget for old messages).

A press on a button left behind is refused anyway; this only keeps the promise that old
buttons go away.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Protocol

import discord

from botcore.request_budget import PRIORITY, TABLE
from cogs.delivery.preferences import Preferences
from cogs.delivery.resend import resend_delay
from cogs.replay.buttons import result_view
from services import outbox
from services.delivery import GameSummary


class Places(Protocol):
    """What the retrier uses of :class:`cogs.delivery.places.Places` (named here, not
    imported: the places own a retrier, so importing them back would make a circle)."""

    closing: bool
    preferences: Preferences

    def held(self, game: GameSummary, name: str) -> dict[str, Any]: ...
    def refs(self, game: GameSummary) -> dict[str, Any]: ...
    def table_id(self, game: GameSummary) -> int | None: ...
    def partial(self, channel_id: int, message_id: int) -> discord.PartialMessage: ...
    def live_refs(self, game_id: int) -> dict[str, Any] | None: ...
    def save_refs_behind(self, game_id: int) -> None: ...
    def cross_out_stored(self, game_id: int, group: str, key: str, entry: Any) -> None: ...


log = logging.getLogger(__name__)

#: the key of the buttons still to take off among a game's remembered messages
STALE = "stale"
#: seconds between two retried removals (all games together)
SPACING = 0.5
#: seconds between two retried removals in one channel
CHANNEL_SPACING = 2.0
#: tries of one removal before it is given up (the first one included)
MAX_TRIES = 6
#: how long after a game ended a restart still takes buttons off its messages
ENDED_WITHIN = timedelta(days=1)


@dataclass
class Owed:
    """One message whose buttons are still to go."""

    game_id: int
    guild_id: int
    channel_id: int
    message_id: int
    #: > 0: a result of that hand, whose 回放 button stays
    keep_hand: int = 0
    failures: int = 0
    due: float = 0.0

    @property
    def entry(self) -> list[int]:
        return [self.channel_id, self.message_id, self.keep_hand]


def entries(messages: Any) -> list[tuple[int, int, int]]:
    """The ``(channel, message, hand)`` written down in a game's remembered messages."""
    held = messages.get(STALE) if isinstance(messages, dict) else None
    out = []
    for value in (held or {}).values() if isinstance(held, dict) else ():
        with contextlib.suppress(TypeError, ValueError, IndexError):
            out.append((int(value[0]), int(value[1]), int(value[2])))
    return out


def current_messages(refs: dict[str, Any], table_id: int | None) -> set[int]:
    """The messages a game uses now (its table, its last result, its hand DMs): never
    stripped, whatever is written down."""
    current = {table_id} if table_id is not None else set()
    with contextlib.suppress(TypeError, ValueError, IndexError):
        if refs.get("result"):
            current.add(int(refs["result"][1]))
    for ref in (refs.get("dm") or {}).values():
        with contextlib.suppress(TypeError, ValueError, IndexError):
            current.add(int(ref[1]))
    return set(current)


class StaleButtons:
    """The removals of old buttons: made at once, written down until done, retried later."""

    def __init__(
        self,
        places: Places,
        *,
        spacing: float = SPACING,
        channel_spacing: float = CHANNEL_SPACING,
        max_tries: int = MAX_TRIES,
        backoff: Callable[[int, float], float] = outbox.backoff,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.places = places
        self.spacing = spacing
        self.channel_spacing = channel_spacing
        self.max_tries = max_tries
        #: seconds before the next try, after ``failures`` and at least ``delay``
        self.backoff = backoff
        self.clock = clock
        #: message id → its removal waiting for a retry
        self._owed: dict[int, Owed] = {}
        #: channel → when a retry last edited there
        self._channel_at: dict[int, float] = {}
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        #: removals given up after :attr:`max_tries` (figures, tests)
        self.given_up = 0

    @property
    def waiting(self) -> int:
        """Removals waiting for a retry."""
        return len(self._owed)

    # ------------------------------------------------------------------ writing down

    def owe(self, game: GameSummary, channel_id: int, message_id: int, keep_hand: int = 0) -> None:
        """Write the message down among the game's remembered messages (stored with their
        next save: make it the save that records what takes its place)."""
        held = self.places.held(game, STALE)
        held[str(message_id)] = [int(channel_id), int(message_id), int(keep_hand)]

    async def strip(
        self,
        game: GameSummary,
        channel_id: int,
        message_id: int,
        keep_hand: int = 0,
        *,
        edit: Callable[[], Any] | None = None,
    ) -> bool:
        """Take the message's buttons off now (``edit``: the edit to make instead, which
        must leave none but 回放); written down first, crossed out when done, retried later
        when it failed for a reason that may pass. True: done now."""
        self.owe(game, channel_id, message_id, keep_hand)
        owed = Owed(game.id, game.guild_id, channel_id, message_id, keep_hand)
        try:
            if edit is not None:
                await edit()
            else:
                await self._edit(owed)
        except Exception as error:
            self._failed(owed, error)
            return False
        self._done(owed)
        return True

    def adopt(self, game: GameSummary) -> int:
        """After a restart: every removal written down for the game is retried (spaced
        out, not at once). Returns how many."""
        refs = self.places.refs(game)
        current = current_messages(refs, self.places.table_id(game))
        count = 0
        for channel_id, message_id, hand in entries(refs):
            owed = Owed(game.id, game.guild_id, channel_id, message_id, hand)
            if message_id in current:  # (in use again: a crash before its replacement stuck)
                self._done(owed)
                continue
            self._queue(owed)
            count += 1
        return count

    async def adopt_ended(
        self, store: Any, serves_guild: Callable[[int], bool] | None = None
    ) -> int:
        """After a restart: the removals written down for games that ended within
        :data:`ENDED_WITHIN` (their messages are not loaded with the unfinished games), of
        the servers ``serves_guild`` accepts (all: None). Returns how many."""
        count = 0
        for game_id, guild_id, messages in await store.games.ended_with(STALE, ENDED_WITHIN):
            if serves_guild is not None and not serves_guild(guild_id):
                continue
            for channel_id, message_id, hand in entries(messages):
                self._queue(Owed(game_id, guild_id, channel_id, message_id, hand))
                count += 1
        return count

    # ------------------------------------------------------------------ the retries

    def _queue(self, owed: Owed, delay: float = 0.0) -> None:
        if self.places.closing:
            return
        owed.due = self.clock() + delay
        self._owed[owed.message_id] = owed
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="mj-stale-buttons")

    async def _run(self) -> None:
        """Retry the removals as they fall due, one at a time, spaced out."""
        PRIORITY.set(TABLE)  # behind the players' requests in the request budget
        while self._owed and not self.places.closing:
            now = self.clock()
            owed = min(self._owed.values(), key=self._ready_at)
            wait = self._ready_at(owed) - now
            if wait > 0:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), wait)
                continue
            if self._owed.get(owed.message_id) is not owed:
                continue
            del self._owed[owed.message_id]
            self._channel_at[owed.channel_id] = self.clock()
            try:
                await self._edit(owed)
            except Exception as error:
                self._failed(owed, error)
            else:
                self._done(owed)
            cutoff = self.clock() - self.channel_spacing
            self._channel_at = {c: at for c, at in self._channel_at.items() if at > cutoff}
            await asyncio.sleep(self.spacing)

    def _ready_at(self, owed: Owed) -> float:
        last = self._channel_at.get(owed.channel_id)
        return owed.due if last is None else max(owed.due, last + self.channel_spacing)

    async def _edit(self, owed: Owed) -> None:
        view = None
        if owed.keep_hand > 0:
            lang = await self.places.preferences.lang_for_guild(owed.guild_id)
            view = result_view(owed.game_id, owed.keep_hand, lang)  # 回放 stays on results
        await self.places.partial(owed.channel_id, owed.message_id).edit(view=view)

    def _failed(self, owed: Owed, error: BaseException) -> None:
        if isinstance(error, discord.NotFound):
            log.info(
                "game %s: message %s not found in channel %s: counted as deleted",
                owed.game_id,
                owed.message_id,
                owed.channel_id,
            )
            self._done(owed)  # deleted: no buttons left
            return
        delay = None if self.places.closing else resend_delay(error)
        owed.failures += 1
        if delay is None or owed.failures >= self.max_tries:
            log.warning(
                "game %s: buttons of message %s stay after %d tries (%s)",
                owed.game_id,
                owed.message_id,
                owed.failures,
                error,
            )
            if not self.places.closing:  # (closing: written down, the next start retries)
                self.given_up += 1
                self._done(owed)
            return
        seconds = self.backoff(owed.failures, delay)
        log.info(
            "game %s: buttons of message %s not removed (%s); again in %.1f s",
            owed.game_id,
            owed.message_id,
            error,
            seconds,
        )
        self._queue(owed, seconds)

    def _done(self, owed: Owed) -> None:
        """Cross the message out (saved behind: nothing waits for it)."""
        key = str(owed.message_id)
        refs = self.places.live_refs(owed.game_id)
        if refs is not None:
            held = refs.get(STALE)
            if isinstance(held, dict) and key in held:
                del held[key]
                if not held:
                    del refs[STALE]
                self.places.save_refs_behind(owed.game_id)
            return
        self.places.cross_out_stored(owed.game_id, STALE, key, owed.entry)

    async def close(self) -> None:
        """Shut-down: the retries stop (what is written down is retried at the next start)."""
        self._owed.clear()
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
