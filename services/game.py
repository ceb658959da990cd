"""GameService: lobby, play, timers and resume — the one place that changes a game.

Every change follows the same path, under the game's ``asyncio.Lock``: check who asks and
whether it is legal, let the engine apply it, append it to the store's action log with the
version check (committed before the call returns), then let AI seats and seats on 托管
(auto-play) act until a human decision is needed, re-arm the timeout, and queue what happened
for :class:`services.delivery.Delivery` (in order per game; a delivery failure never undoes a
committed action).

The service is put together from modules with one job each:

- :mod:`services.core` — the tables held in memory, found by id, channel or player;
- :mod:`services.table` — one game: its lock and the change path;
- :mod:`services.hooks` — the moments of a change at which the other parts take part;
- :mod:`services.lobby` — open, join, leave, add bots, start;
- :mod:`services.play` — actions, dealing the next hand, 托管, timeouts;
- :mod:`services.session` — length, 准备, 解散 vote, 再来一局;
- :mod:`services.results_owed` — results a deal at once left owed, posted after a restart;
- :mod:`services.autoplay` — AI turn-taking (a failing AI plays the safe default);
- :mod:`services.deadlines` — the timeout of the awaited decision;
- :mod:`services.outbox` — ordered delivery per game;
- :mod:`services.recording` — finished hands for the store;
- :mod:`services.gamelog` — the action log, replay and snapshots;
- :mod:`services.stored_deadlines` — the deadlines stored with a commit (shared database);
- :mod:`services.cluster` — several processes on one PostgreSQL (any process serves any
  press, owners hear of changes, deadlines fire once).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from services import outbox
from services.autoplay import MAX_AUTO_STEPS
from services.cluster import GRACE, LEASE, PRESENCE_EVERY, SWEEP_EVERY, Cluster
from services.core import SEATS, STORE_DEFAULT_CLAIM, STORE_DEFAULT_TURN, GameCore
from services.delivery import GameSummary
from services.lobby import Lobby
from services.model import AI_NAMES, ActionKey
from services.play import ActResult, Play
from services.session import Session
from services.stored_deadlines import StoredDeadlines

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


class GameService(GameCore):
    """Create, join, play and resume games; no Discord types in or out.

    ``GameService(store, engine, delivery=None, *, turn_timeout=60, claim_timeout=15,
    snapshot_every=24, clock=time.time, new_seed=...)``: ``turn_timeout`` / ``claim_timeout``
    (seconds) are the process defaults used when a server kept the built-in ones;
    ``snapshot_every`` N actions a snapshot is saved.

    The service is a front: the tables held are its core (:class:`services.core.GameCore`),
    each game's change path is its table (:class:`services.table.Table`); the lobby, play,
    the session and the database shared with other processes are parts of their own
    (:attr:`lobby`, :attr:`play`, :attr:`session`, :attr:`cluster`), plugged in at the
    tables' hook points (:class:`services.hooks.Hooks`).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lobby = Lobby(self)
        self.play = Play(self)
        #: length, 准备, 解散 and 再来一局 (:mod:`services.session`)
        self.session = Session(self, self.lobby, self.play)
        #: several processes on one PostgreSQL (:mod:`services.cluster`); idle until joined
        self.cluster = Cluster(self, self.play, self.session)
        hooks, session = self.hooks, self.session
        hooks.timed_out = self.play.timed_out
        hooks.settled = session.settled
        hooks.changed = session.changed
        hooks.describe = session.describe
        hooks.closing = session.closing
        hooks.hand_stored = session.hand_stored
        hooks.ending_posted = session.ending_posted
        hooks.resumed = session.resumed
        stored = StoredDeadlines(self, session)
        hooks.deadlines_after = stored.deadlines_after
        hooks.deadlines_with_entry = stored.deadlines_with_entry
        hooks.deadline_changed = self.cluster.deadline_changed
        hooks.may_fire = self.cluster.may_fire

    # ------------------------------------------------------------------ the lobby

    async def create_game(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        variant: str | None = None,
        overrides: dict[str, Any] | None = None,
        *,
        locale: str | None = None,
        length: str | None = None,
        rematch_of: int | None = None,
    ) -> GameSummary:
        """Open a lobby in the channel (:meth:`services.lobby.Lobby.create_game`)."""
        return await self.lobby.create_game(
            guild_id,
            channel_id,
            host_id,
            host_name,
            variant,
            overrides,
            locale=locale,
            length=length,
            rematch_of=rematch_of,
        )

    async def leave(self, game_id: int, user_id: int) -> GameSummary:
        """Leave the lobby (:meth:`services.lobby.Lobby.leave`)."""
        return await self.lobby.leave(game_id, user_id)

    async def add_bot(self, game_id: int, user_id: int, level: str | None = None) -> GameSummary:
        """The host seats an AI player (:meth:`services.lobby.Lobby.add_bot`)."""
        return await self.lobby.add_bot(game_id, user_id, level)

    async def join(
        self, game_id: int, user_id: int, name: str, *, locale: str | None = None
    ) -> GameSummary:
        """Take a free seat in the lobby; a 再来一局 lobby starts once every human of the old
        game sits in it (:meth:`services.session.Session.join`)."""
        return await self.session.join(game_id, user_id, name, locale=locale)

    async def start(self, game_id: int, user_id: int) -> GameSummary:
        """The host starts: the first hand is dealt (:meth:`services.session.Session.start`)."""
        return await self.session.start(game_id, user_id)

    async def abandon(self, game_id: int, user_id: int, *, admin: bool = False) -> GameSummary:
        """Close a lobby, or end a started game: at once by a server manager, by a 解散 vote
        otherwise (:meth:`services.session.Session.abandon`)."""
        return await self.session.abandon(game_id, user_id, admin=admin)

    # ------------------------------------------------------------------ play

    async def act(
        self, game_id: int, user_id: int, key: ActionKey, *, seen_version: int | None = None
    ) -> ActResult:
        """A human's action (:meth:`services.play.Play.act`)."""
        return await self.play.act(game_id, user_id, key, seen_version=seen_version)

    async def set_autoplay(self, game_id: int, user_id: int, on: bool) -> GameSummary:
        """Turn 托管 on or off for the user's seat (:meth:`services.play.Play.set_autoplay`)."""
        return await self.play.set_autoplay(game_id, user_id, on)

    # ------------------------------------------------------------------ the session

    @property
    def ready_timeout(self) -> float:
        """Seconds the 准备 check waits (the bot's default; :mod:`services.session`)."""
        return self.session.ready_timeout

    @ready_timeout.setter
    def ready_timeout(self, seconds: float) -> None:
        self.session.ready_timeout = seconds

    @property
    def vote_timeout(self) -> float:
        """Seconds a 解散 vote waits (the bot's default; :mod:`services.session`)."""
        return self.session.vote_timeout

    @vote_timeout.setter
    def vote_timeout(self, seconds: float) -> None:
        self.session.vote_timeout = seconds

    @property
    def propose_cooldown(self) -> float:
        """Seconds before a seat may propose 解散 again (:mod:`services.session`)."""
        return self.session.propose_cooldown

    @propose_cooldown.setter
    def propose_cooldown(self, seconds: float) -> None:
        self.session.propose_cooldown = seconds

    async def ready(self, game_id: int, user_id: int) -> GameSummary:
        """The user presses 准备 after a hand (:meth:`services.session.Session.ready`)."""
        return await self.session.ready(game_id, user_id)

    async def next_hand(self, game_id: int, user_id: int) -> GameSummary:
        """The 下一局 of before sessions: now 准备 (:meth:`services.session.Session.next_hand`)."""
        return await self.session.next_hand(game_id, user_id)

    async def propose_dissolve(self, game_id: int, user_id: int) -> GameSummary:
        """A seated human proposes 解散 (:meth:`services.session.Session.propose_dissolve`)."""
        return await self.session.propose_dissolve(game_id, user_id)

    async def answer_dissolve(
        self, game_id: int, user_id: int, agree: bool, vote_no: int | None = None
    ) -> GameSummary:
        """A human answers the open 解散 vote (:meth:`services.session.Session.
        answer_dissolve`)."""
        return await self.session.answer_dissolve(game_id, user_id, agree, vote_no)

    async def end_game(self, game_id: int, user_id: int) -> GameSummary:
        """The 结束对局 of before sessions: now a 解散 proposal."""
        return await self.session.end_game(game_id, user_id)

    async def rematch(
        self, game_id: int, user_id: int, name: str, *, locale: str | None = None
    ) -> GameSummary:
        """A player of an ended game presses 再来一局 (:meth:`services.session.Session.
        rematch`); returns the new lobby."""
        return await self.session.rematch(game_id, user_id, name, locale=locale)

    async def resume_endings(
        self, serves_guild: Callable[[int], bool] | None = None
    ) -> list[GameSummary]:
        """Post the endings a restart left owed (:meth:`services.session.Session.
        resume_endings`)."""
        return await self.session.resume_endings(serves_guild)

    def session_close(self) -> list[asyncio.Task[None]]:
        """Shut-down: no session timer fires any more; returns the cancelled tasks."""
        return self.session.close()

    # ------------------------------------------------------------------ sharing the database

    async def join_cluster(
        self,
        holder: str | None = None,
        *,
        sweep_every: float = SWEEP_EVERY,
        grace: float = GRACE,
        lease: float = LEASE,
        presence_every: float = PRESENCE_EVERY,
    ) -> None:
        """Start sharing the database with other processes (:meth:`services.cluster.Cluster.
        join`)."""
        await self.cluster.join(
            holder, sweep_every=sweep_every, grace=grace, lease=lease, presence_every=presence_every
        )

    async def leave_cluster(self) -> None:
        """Stop sharing the database (:meth:`services.cluster.Cluster.leave`)."""
        await self.cluster.leave()

    # ------------------------------------------------------------------ start-up / shut-down

    async def resume_all(
        self, serves_guild: Callable[[int], bool] | None = None
    ) -> list[GameSummary]:
        """Load every unfinished game, finish any AI turns, re-arm timers, refresh tables and
        re-deliver every human's hand; then post the ending of every game that ended without
        it (:meth:`~services.session.Session.resume_endings`).

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
                table = self._games.get(loaded.game.id)
                if table is not None and table.live.fresh:
                    # created by this process after it connected: already delivered (a
                    # second pass would send everyone a second hand message)
                    continue
                if table is None:  # (a button may have loaded it already)
                    live = self._live_from_info(loaded.game)
                    self._replay(live, loaded)
                    table = self._hold(self._new_table(live))
                live = table.live
                if live.state is not None and live.status == "lobby":
                    live.status = "active"
                    await self.store.games.update(live.id, status="active")
                await table.resume()
                out.append(table.summary())
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

    async def close(self) -> None:
        """Cancel timers and let queued deliveries finish (paced moments at once); sharing
        the database, stop sweeping and listening first (:mod:`services.cluster`)."""
        await self.leave_cluster()
        self._stopping.set()
        timers = self._deadlines.close(self._games.lives()) + self.session_close()
        await asyncio.gather(*timers, return_exceptions=True)
        await self.idle()
        await outbox.stop(self._games.lives())

    async def idle(self) -> None:
        """Wait until every queued delivery ran (tests and shut-down); a change in progress
        (holding its table's lock) queues its jobs first."""
        for table in list(self._games.values()):
            async with table.lock:
                pass
            await outbox.drained([table.live])

    async def set_thread(self, game_id: int, thread_id: int) -> int:
        """Remember where the game is played: its thread, or its channel's id when it plays
        in the channel (kept across restarts), decided once — when another process decided
        first, its place stays. Returns the place stored now."""
        stored = await self.store.games.settle_thread(game_id, thread_id)
        table = self._games.get(game_id)
        if table is not None:
            table.live.thread_id = stored
            self._games.reindex(table)  # look-ups by channel find it from its thread
        return stored

    def decision_open(self, game_id: int, seat: int, prompt: int) -> bool | None:
        """Whether ``seat`` is still asked the decision its hand update of prompt version
        ``prompt`` showed (:attr:`services.delivery.PrivateUpdate.prompt`): nobody acted
        on it since — as committed, even while the delivery of a newer update is still
        queued. A delayed turn alert asks this before it goes out (:mod:`cogs.delivery.alerts`).
        None: the game is not held by this process (the caller decides by what it knows)."""
        table = self._games.get(game_id)
        return None if table is None else table.decision_open(seat, prompt)

    def ready_waiting(self, game_id: int, user_id: int, hand: int) -> bool | None:
        """Whether the 准备 check after hand ``hand`` still waits for ``user_id`` — open, the
        game on, the user not ready — as committed, even while the delivery of their press
        is still queued (a seat on 托管 counts as ready). A delayed ready alert asks this
        before it goes out (:mod:`cogs.game.session`). None: the game is not held by this process."""
        table = self._games.get(game_id)
        live = None if table is None else table.live
        if live is None or live.state is None:
            return None
        seat = live.seat_of(user_id)
        if seat is None or live.session.ready_hand != hand or not self.session.ready_open(live):
            return False
        return not live.seats[seat].robot and seat not in live.session.ready
