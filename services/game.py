"""GameService: lobby, play, timers and resume — the one place that changes a game.

Every change follows the same path, under the game's ``asyncio.Lock``: check who asks and
whether it is legal, let the engine apply it, append it to the store's action log with the
version check (committed before the call returns), then let AI seats and seats on 托管
(auto-play) act until a human decision is needed, re-arm the timeout, and queue what happened
for :class:`services.delivery.Delivery` (in order per game; a delivery failure never undoes a
committed action).

The service is put together from modules with one job each:

- :mod:`services.core` — the games held in memory and the change path;
- :mod:`services.lobby` — open, join, leave, add bots, start, abandon;
- :mod:`services.play` — actions, dealing the next hand, 托管, timeouts;
- :mod:`services.session` — length, 准备, 解散 vote, 再来一局;
- :mod:`services.results_owed` — results a deal at once left owed, posted after a restart;
- :mod:`services.autoplay` — AI turn-taking (a failing AI plays the safe default);
- :mod:`services.deadlines` — the timeout of the awaited decision;
- :mod:`services.outbox` — ordered delivery per game;
- :mod:`services.recording` — finished hands for the store;
- :mod:`services.gamelog` — the action log, replay and snapshots;
- :mod:`services.cluster` — several processes on one PostgreSQL (any process serves any
  press, owners hear of changes, deadlines fire once).
"""

from __future__ import annotations

import asyncio
import copy
import logging
from collections.abc import Callable
from functools import cached_property
from typing import Any

from services import outbox
from services.autoplay import MAX_AUTO_STEPS
from services.cluster import ClusterMixin
from services.core import SEATS, STORE_DEFAULT_CLAIM, STORE_DEFAULT_TURN
from services.delivery import GameSummary
from services.gamelog import LiveGame
from services.lobby import AI_NAMES
from services.model import GameEvent
from services.play import ActResult
from services.table_ids import TableIdWrites

log = logging.getLogger(__name__)

__all__ = [
    "AI_NAMES",
    "MAX_AUTO_STEPS",
    "SEATS",
    "STORE_DEFAULT_CLAIM",
    "STORE_DEFAULT_TURN",
    "ActResult",
    "GameService",
]


class GameService(ClusterMixin):
    """Create, join, play and resume games; no Discord types in or out.

    ``GameService(store, engine, delivery=None, *, turn_timeout=60, claim_timeout=15,
    snapshot_every=24, clock=time.time, new_seed=...)``: ``turn_timeout`` / ``claim_timeout``
    (seconds) are the process defaults used when a server kept the built-in ones;
    ``snapshot_every`` N actions a snapshot is saved.
    """

    # ------------------------------------------------------------------ start-up / shut-down

    async def resume_all(
        self, serves_guild: Callable[[int], bool] | None = None
    ) -> list[GameSummary]:
        """Load every unfinished game, finish any AI turns, re-arm timers, refresh tables and
        re-deliver every human's hand; then post the ending of every game that ended without
        it (:meth:`~services.session.SessionMixin.resume_endings`).

        ``serves_guild``: only the games of the servers for which it says True (a process
        running some of the bot's shards resumes its own servers' games; the others'
        processes resume theirs)."""
        try:
            return await self._resume_all(serves_guild)
        finally:
            self.resume_state.done = True  # whatever happened, a miss now is a miss

    async def _resume_all(self, serves_guild: Callable[[int], bool] | None) -> list[GameSummary]:
        try:
            loaded_games = await self.store.games.load_unfinished()
        except Exception:
            self.resume_state.listing_failed = True  # no game may be called gone now
            raise
        out = []
        for loaded in loaded_games:
            if serves_guild is not None and not serves_guild(loaded.game.guild_id):
                continue
            try:
                live = self._games.get(loaded.game.id)
                if live is not None and live.fresh:
                    # created by this process after it connected: already delivered (a
                    # second pass would send everyone a second hand message)
                    continue
                if live is None:  # (a button may have loaded it already)
                    live = self._live_from_info(loaded.game)
                    self._replay(live, loaded)
                    self._games[live.id] = live
                if live.state is not None and live.status == "lobby":
                    live.status = "active"
                    await self.store.games.update(live.id, status="active")
                await self._resume_one(live)
                out.append(self._summary(live))
            except Exception:
                log.exception("could not resume game %s", loaded.game.id)
                info = loaded.game
                self.resume_state.could_not_read(
                    info.id,
                    info.guild_id,
                    [info.channel_id, info.thread_id or 0],
                    [s["user_id"] for s in info.seats if isinstance(s, dict) and s.get("user_id")],
                )
        # games that ended right before the restart: their ending still goes out
        await self.resume_endings(serves_guild)
        return out

    async def _resume_one(self, live: LiveGame) -> None:
        async with live.lock:
            events: list[GameEvent] = []
            if live.status == "active" and live.state is not None:
                await self._record_if_over(live)
                events = await self._advance(live)
            summary = self._summary(live)
            if live.state is None:
                self._enqueue(live, lambda: self.delivery.lobby_changed(summary))
                return
            # results a deal at once left owed go first (the table is refreshed after them)
            await self._queue_owed_results(live)
            table = self.engine.table_view(live.state)
            self._enqueue(live, lambda: self.delivery.refresh(summary, table))
            live.delivered.clear()
            self._after_change(live, events, force_private=True)
            self._result_owed(live, events)
            self.session_resumed(live)

    def _result_owed(self, live: LiveGame, events: list[GameEvent]) -> None:
        """A hand that ended before the restart: its result (摊牌, payments, the seed
        reveal) is delivered again unless the change just made delivers it or it is known
        to have gone out (:mod:`services.results_owed`) — the process may have died after
        the last action was committed and before the result went out (the delivery posts it
        once: it remembers what it showed)."""
        if live.state is None or live.status != "active":
            return
        if self.engine.phase(live.state) not in ("hand_over", "game_over"):
            return
        if any(e.kind in ("hand_ended", "won", "drawn_hand") for e in events):
            return  # _after_change queued it
        if self._result_posted(live, live.hand_no):
            return  # it went out before (services.results_owed)
        result = self.engine.hand_result(live.state)
        if result is None:
            return
        summary = self._summary(live)
        table = self.engine.table_view(live.state)
        self._queue_result(live, summary, result, table)

    async def close(self) -> None:
        """Cancel timers and let queued deliveries finish (paced moments at once); sharing
        the database, stop sweeping and listening first (:mod:`services.cluster`)."""
        await self.leave_cluster()
        self._stopping.set()
        timers = self._deadlines.close(self._games.values()) + self.session_close()
        await asyncio.gather(*timers, return_exceptions=True)
        await self.idle()
        await outbox.stop(self._games.values())
        await self.written_behind()

    async def idle(self) -> None:
        """Wait until every queued delivery ran (tests and shut-down)."""
        await outbox.drained(self._games.values())

    def table_message_id(self, game: GameSummary) -> int | None:
        """The game's table message: as this process last set it when the game is held
        here (a summary may be older), else as ``game`` says."""
        live = self._games.get(game.id)
        return live.table_message_id if live is not None else game.table_message_id

    @cached_property
    def _table_ids(self) -> TableIdWrites:
        """The table message ids written behind (``set_table_message(wait=False)``)."""
        return TableIdWrites(self.store.games, self._table_id_not_kept)

    async def written_behind(self) -> None:
        """Wait until every table message id written behind is written (shut-down)."""
        await self._table_ids.drained()

    def _table_id_not_kept(self, game_id: int, written: int | None, stored: int | None) -> None:
        live = self._games.get(game_id)
        if live is not None and live.table_message_id == written:
            live.table_message_id = stored

    async def set_table_message(
        self, game_id: int, message_id: int | None, *, wait: bool = True
    ) -> int | None:
        """Remember the game's table message (kept across restarts) in place of the one
        this process knew: sharing the database, another process may have posted a newer one
        meanwhile, which stays (compare-and-set on the old id). Returns the table message
        stored now (not ``message_id``: this process's message is a duplicate).

        ``wait=False`` (a caller that needs nothing of the stored result: the database is not
        shared): for a game held here the id is taken at once and written behind, ids of one
        game close together in one write (:mod:`services.table_ids`); returns ``message_id``."""
        live = self._games.get(game_id)
        if not wait and live is not None:
            self._table_ids.put(game_id, message_id, replacing=live.table_message_id)
            live.table_message_id = message_id
            return message_id
        await self._table_ids.settled(game_id)  # (an id written behind goes first)
        live = self._games.get(game_id)
        if live is not None:
            replacing = live.table_message_id
        else:
            info = await self.store.games.get(game_id)
            replacing = info.table_message_id if info is not None else None
        stored = await self.store.games.set_table_message(game_id, message_id, replacing=replacing)
        if stored != message_id:
            log.info(
                "game %s: table message %s not kept: %s was posted meanwhile",
                game_id,
                message_id,
                stored,
            )
        live = self._games.get(game_id)
        if live is not None:
            live.table_message_id = stored
        return stored

    async def set_thread(self, game_id: int, thread_id: int) -> int:
        """Remember where the game is played: its thread, or its channel's id when it plays
        in the channel (kept across restarts), decided once — when another process decided
        first, its place stays. Returns the place stored now."""
        stored = await self.store.games.settle_thread(game_id, thread_id)
        live = self._games.get(game_id)
        if live is not None:
            live.thread_id = stored
            self._games.reindex(live)  # look-ups by channel find it from its thread
        return stored

    def decision_open(self, game_id: int, seat: int, prompt: int) -> bool | None:
        """Whether ``seat`` is still asked the decision its hand update of prompt version
        ``prompt`` showed (:attr:`services.delivery.PrivateUpdate.prompt`): nobody acted
        on it since — as committed, even while the delivery of a newer update is still
        queued. A delayed turn alert asks this before it goes out (:mod:`cogs.alerts`).
        None: the game is not held by this process (the caller decides by what it knows)."""
        live = self._games.get(game_id)
        if live is None or live.state is None:
            return None
        if live.status != "active" or not 0 <= seat < len(live.seats):
            return False
        if live.seats[seat].robot or not live.legal.get(seat):
            return False
        return live.prompt_version.get(seat, 0) == prompt

    def ready_waiting(self, game_id: int, user_id: int, hand: int) -> bool | None:
        """Whether the 准备 check after hand ``hand`` still waits for ``user_id`` — open, the
        game on, the user not ready — as committed, even while the delivery of their press
        is still queued (a seat on 托管 counts as ready). A delayed ready alert asks this
        before it goes out (:mod:`cogs.session`). None: the game is not held by this process."""
        live = self._games.get(game_id)
        if live is None or live.state is None:
            return None
        seat = live.seat_of(user_id)
        if seat is None or live.session.ready_hand != hand or not self._ready_open(live):
            return False
        return not live.seats[seat].robot and seat not in live.session.ready

    async def stored_messages(self, game_id: int) -> tuple[int | None, dict[str, Any]] | None:
        """The game's table message and remembered messages (hand DMs, alerts…) as stored
        now, taken into the held copy: sharing the database, another process may have posted
        this hand's table or a player's hand DM since this one loaded the game (to serve a
        press). None: no such game."""
        info = await self.store.games.get(game_id)
        if info is None:
            return None
        live = self._games.get(game_id)
        if live is not None:
            live.table_message_id = info.table_message_id
            live.messages = dict(info.messages or {})
        return info.table_message_id, dict(info.messages or {})

    async def save_messages(self, game_id: int, messages: dict[str, Any]) -> dict[str, Any]:
        """Remember the Discord messages delivery keeps up to date (a restart edits them
        instead of sending new ones). Sharing the database, what this process changed since
        its last save is merged over what is stored (:mod:`db.message_refs`): entries another
        process saved meanwhile stay, and of one entry changed by both the newer stays.
        Returns the messages stored now."""
        # the table message they describe (``table_at``) is stored before them: after a
        # crash they never point at the previous hand's table as this hand's
        await self._table_ids.settled(game_id)
        live = self._games.get(game_id)
        ours = copy.deepcopy(dict(messages))  # (the base of the next save: never shared)
        base = live.messages_saved if live is not None else None
        stored = await self.store.games.merge_messages(game_id, base, ours)
        live = self._games.get(game_id)
        if live is not None:
            live.messages = dict(stored)
            live.messages_saved = ours
        return stored
