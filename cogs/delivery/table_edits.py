"""The edit budget of the table message: at most one edit per ``interval`` (about 2 s) per
game, counted from when each edit's table was taken (not from when it landed, which would add
the render and the request to every move's wait). Changes that come in meanwhile are
coalesced — only the newest table is ever rendered — and a write that failed for a reason
that may pass is made again after a back-off. An edit's text is the newest table of the hand
when its request goes, its picture the table as it was taken (the picture may be one render
behind the text; the next edit brings it up).

The tables of all games share a budget too: Discord lets a bot make about 50 REST requests
per second in all (interaction answers aside), and a table edit per game every 2 s would
spend that at 100 busy tables, leaving the hand DMs and alerts to wait out a global 429. All
tables together are edited at most ``TABLE_EDITS_PER_SECOND`` times a second, and never
more often than the bot's request budget (:mod:`botcore.request_budget`,
``DISCORD_REQUESTS_PER_SECOND``) leaves once the players' own requests are served
(:meth:`~botcore.request_budget.RequestBudget.spare`). With more tables playing than that
allows at ``interval``, each table's interval grows (``tables playing ÷ edits per second``)
up to :data:`TABLE_MAX_INTERVAL` (5 s, so that with its picture's render and the request,
under load, a table stays within 10 s of the game). Past that, the coalesced
edits' requests wait in the budget behind the players' (they are made at
:data:`~botcore.request_budget.TABLE` priority): when the budget is short, the table lags,
not the hand DMs, alerts and results."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

import discord

from botcore.request_budget import PRIORITY, TABLE, RequestBudget
from cogs.delivery import pictures
from cogs.delivery.channel_access import ChannelAccess
from cogs.delivery.places import Places
from cogs.delivery.preferences import Preferences
from cogs.delivery.resend import lost_access
from cogs.game.views import table_message
from services import outbox
from services.delivery import GameSummary
from services.model import TableView

log = logging.getLogger(__name__)

TABLE_EDIT_INTERVAL = 2.0  # seconds between two edits of one table message
#: table edits per second for all games together (``TABLE_EDITS_PER_SECOND``)
TABLE_EDITS_PER_SECOND = 30.0
#: the longest a table waits for its edit however many tables play (seconds): with the
#: picture's render and the request, a table stays within 10 s of the game
TABLE_MAX_INTERVAL = 5.0
#: a table edited within this many seconds counts as playing (longer than the longest
#: spacing, so a table edited at every turn of it always counts)
PLAYING_WINDOW = TABLE_MAX_INTERVAL + 2.0


class TableEdits:
    """Writes each game's table message, coalescing changes to the edit budget."""

    def __init__(
        self,
        places: Places,
        preferences: Preferences,
        resend_delay: Callable[[BaseException], float | None],
        *,
        interval: float = TABLE_EDIT_INTERVAL,
        per_second: float = TABLE_EDITS_PER_SECOND,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.places = places
        self.preferences = preferences
        #: at least how long before a failed write is made again (None: never)
        self.resend_delay = resend_delay
        self.interval = interval
        self._latest: dict[int, tuple[GameSummary, TableView | None]] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._writing: set[int] = set()  # games whose coalesced table write is under way
        #: when each game's table was last edited — the games playing: those edited longer
        #: than PLAYING_WINDOW ago are dropped once a second (their next edit is due anyway)
        self._last_edit: dict[int, float] = {}
        #: all games' table edits per second at most (0: no shared budget)
        self.per_second = per_second
        self.clock = clock
        #: the bot's request budget (None: none): the tables take what the players leave
        self.budget: RequestBudget | None = None
        #: the channels that refuse the bot (None: not followed): a table whose channel
        #: refuses it is not written, only its newest state kept for the catch-up
        self.access: ChannelAccess | None = None
        self._swept = 0.0

    def spacing(self) -> float:
        """Seconds between two edits of one table now: ``interval``, or longer while more
        tables play than the shared budget allows at that pace (at most
        :data:`TABLE_MAX_INTERVAL`): ``per_second``, or what the request budget leaves
        the tables when that is less.

        >>> edits = TableEdits(None, None, lambda e: None, per_second=10)
        >>> edits.spacing()
        2.0
        >>> for game in range(50):
        ...     edits.note_edit(game)
        >>> edits.spacing()
        5.0
        >>> for game in range(50, 500):
        ...     edits.note_edit(game)
        >>> edits.spacing()
        5.0
        """
        now = self.clock()
        if now - self._swept >= 1.0:
            self._swept = now
            stale = [g for g, at in self._last_edit.items() if now - at > PLAYING_WINDOW]
            for game_id in stale:
                del self._last_edit[game_id]
        per_second = self.per_second if self.per_second > 0 else None
        if self.budget is not None:
            spare = self.budget.spare()
            per_second = spare if per_second is None else min(per_second, spare)
        if per_second is None:
            return self.interval
        shared = len(self._last_edit) / per_second
        return max(self.interval, min(TABLE_MAX_INTERVAL, shared))

    def note_edit(self, game_id: int) -> None:
        """A table of ``game_id`` was written now."""
        self._last_edit[game_id] = self.clock()

    def schedule(self, game: GameSummary, table: TableView | None) -> None:
        """Edit the table soon: at most one edit per ``interval`` per game."""
        self._latest[game.id] = (game, table)
        task = self._tasks.get(game.id)
        if task is not None and not task.done():
            return
        self._tasks[game.id] = asyncio.create_task(self._later(game.id), name=f"mj-table-{game.id}")

    async def _later(self, game_id: int) -> None:
        """Write the newest table, then again while newer ones came in meanwhile (only the
        newest is ever rendered: a table superseded while waiting is skipped). A write that
        failed for a reason that may pass (:attr:`resend_delay`) is made again after a
        back-off, with the newest table then. Its requests wait behind the players' in the
        request budget (this task's :data:`~botcore.request_budget.PRIORITY`) — the slot is
        taken before the newest table is picked and drawn
        (:meth:`~botcore.request_budget.RequestBudget.prepay`), so a table that waited for
        the budget is never sent as it stood when it began to wait."""
        PRIORITY.set(TABLE)
        written = None
        failures = 0
        while self._tasks.get(game_id) is asyncio.current_task():
            wait = self._last_edit.get(game_id, 0.0) + self.spacing() - self.clock()
            if wait > 0:
                await asyncio.sleep(wait)
            pending = self._latest.get(game_id)
            if self.budget is not None and pending is not None and pending is not written:
                await self.budget.prepay()  # the slot first, then the newest table is drawn
            latest = self._latest.get(game_id)
            if latest is None or latest is written:
                return
            if self.access is not None and await self.access.game_blocked(latest[0]):
                return  # kept in _latest: the channel's catch-up writes it
            self._writing.add(game_id)
            began = self.clock()
            try:
                await self.write(*latest)
            except Exception as error:
                if self.places.closing or self.places.bot.is_closed():
                    log.info("game %s: table edit dropped at shut-down", game_id)
                    return
                if self.access is not None and lost_access(error):
                    await self.access.refused(latest[0], error)
                    return
                delay = self.resend_delay(error)
                if delay is None:
                    log.exception("game %s: table edit failed", game_id)
                    return
                failures += 1
                seconds = outbox.backoff(failures, delay)
                log.warning(
                    "game %s: table edit failed (%s); the newest table goes in %.1f s",
                    game_id,
                    error,
                    seconds,
                )
                self._last_edit[game_id] = self.clock() + seconds - self.spacing()
                continue  # the newest table then (a newer one supersedes the failed one)
            finally:
                self._writing.discard(game_id)
            written, failures = latest, 0
            # the spacing runs from when this table was taken, not from when its edit
            # landed: counted from the end, a move just after the take waited the render
            # and the request twice (flat out, with pictures queued, 4 s at a 2 s spacing)
            self._last_edit[game_id] = began

    def _newest_of_hand(self, game: GameSummary, table: TableView) -> tuple[GameSummary, TableView]:
        """The game's newest table when it is of the same hand as ``table`` (whose picture
        is being sent), else ``game`` and ``table`` themselves."""
        newest = self._latest.get(game.id)
        if newest is None or newest[1] is None or newest[0].hand_no != game.hand_no:
            return game, table
        return newest[0], newest[1]

    def latest(self, game_id: int) -> tuple[GameSummary, TableView | None] | None:
        """The newest table of the game asked for (written or not)."""
        return self._latest.get(game_id)

    async def stop(self, game_id: int) -> None:
        """No coalesced edit pending any more: one still waiting is dropped, one already
        writing finishes first (cut off, a table it posted would be left with buttons). The
        game's newest table is let go too (kept, every game ever played would stay in
        memory; :meth:`flush` sets it again)."""
        task = self._tasks.pop(game_id, None)
        if task is not None and task is not asyncio.current_task():
            if game_id in self._writing:
                if self.budget is not None:  # waited for now: not behind the other tables
                    self.budget.hurry(task)
                await asyncio.gather(task, return_exceptions=True)
            else:
                task.cancel()
        if game_id not in self._tasks:  # (no newer edit scheduled meanwhile)
            self._latest.pop(game_id, None)

    async def stop_all(self) -> None:
        """Shut-down: every pending edit stops."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def flush(self, game: GameSummary, table: TableView | None) -> None:
        """Write this table now (pending coalesced edits are superseded)."""
        await self.stop(game.id)
        self._latest[game.id] = (game, table)
        await self.write(game, table)

    async def write(self, game: GameSummary, table: TableView | None) -> None:
        """The lobby before the first hand, else the hand's table with its picture."""
        lang = await self.preferences.lang_for_guild(game.guild_id)
        if table is None or game.hand_no == 0:
            embed, view = table_message(game, table, lang)
            await self.places.put_lobby(game, embed, view)
        else:
            # rendered off the loop, after waiting answers and hands; under load the text is
            # written without a new picture rather than late (the next edit brings it)
            png = await pictures.table_png(game, table, lang=lang)

            def build() -> tuple[discord.Embed, discord.ui.View | None, list[discord.File]]:
                # the text as the game stands when the request goes, the picture as it was
                # taken: moves made while it rendered are in the text at once (flat out a
                # render waits its turn in the pool) and their picture comes with the next
                # edit, which the newer table has scheduled
                embed, view = table_message(*self._newest_of_hand(game, table), lang)
                files = pictures.files_of(png, "table.png")
                if files:
                    embed.set_image(url=f"attachment://{files[0].filename}")
                return embed, view, files

            await self.places.put_hand_table(game, build)
        self.note_edit(game.id)
