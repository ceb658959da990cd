"""The core of the game service: the registry of the tables held in memory, and the
look-ups every command starts from.

Each game held is a :class:`services.table.Table`: the game, its lock and the change path
(validate → engine step → commit → after-change). The core finds the table a command is
about — in memory, or loaded and replayed from the store — and the commands built on it
(:mod:`services.lobby`, :mod:`services.play`, :mod:`services.session`) work on that table;
the session and the database shared with other processes take part at the named hook points
(:mod:`services.hooks`), not by overriding anything; :class:`services.game.GameService` puts
them together.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from db.errors import StoreBusy
from db.types import GameInfo, GameNotFound, LoadedGame
from services import gamelog
from services.deadlines import Deadlines
from services.delivery import Delivery, GameSummary, NullDelivery, PrivateUpdate
from services.engine_adapter import GameEngine
from services.errors import (
    GameUnreadable,
    NoSuchGame,
    NotInGame,
    ServiceError,
    TableBusy,
    WrongPhase,
)
from services.gamelog import LiveGame
from services.held import HeldGames
from services.hooks import Hooks
from services.model import TableView
from services.results_owed import ResultsOwed
from services.resume_state import ResumeState
from services.store_adapter import GameStore
from services.table import Table, TableContext

log = logging.getLogger(__name__)

T = TypeVar("T")

SEATS = 4
#: Built-in defaults of a server's timeouts; a server that kept them gets the process settings.
STORE_DEFAULT_TURN = 60
STORE_DEFAULT_CLAIM = 15


class GameCore:
    """The tables held in memory, found by id, channel or player; no Discord types in or out.

    ``turn_timeout`` / ``claim_timeout`` (seconds) are the process defaults used when a server
    kept the built-in ones; ``snapshot_every`` N actions a snapshot is saved; ``ai_pace``
    (seconds) is the default pause between two AI moves shown while a human sits at the table
    (0 shows them at once); ``claim_hold`` (seconds) how long every discard's claim window is
    shown then (:class:`services.table.TableContext` holds them for every table).
    """

    def __init__(
        self,
        store: GameStore,
        engine: GameEngine,
        delivery: Delivery | None = None,
        *,
        turn_timeout: float = STORE_DEFAULT_TURN,
        claim_timeout: float = STORE_DEFAULT_CLAIM,
        snapshot_every: int = 24,
        clock: Callable[[], float] = time.time,
        new_seed: Callable[[], str] = lambda: secrets.token_hex(16),
        ai_pace: float = 0.0,
        claim_hold: float = 0.0,
    ) -> None:
        self.store = store
        self.engine = engine
        self.new_seed = new_seed
        self._games = HeldGames()  # indexed by channel and player; finished games leave
        #: where other parts take part in a change (:mod:`services.hooks`)
        self.hooks = Hooks()
        #: what every table shares (:class:`services.table.TableContext`)
        self.context = context = TableContext(
            store,
            engine,
            delivery or NullDelivery(),
            self.hooks,
            self._games,
            turn_timeout=turn_timeout,
            claim_timeout=claim_timeout,
            snapshot_every=snapshot_every,
            clock=clock,
            ai_pace=ai_pace,
            claim_hold=claim_hold,
        )
        self._stopping = context.stopping
        #: how far the resume after a restart got (a miss may be a game still loading)
        self.resume_state = ResumeState()
        self._index_lock = asyncio.Lock()
        self._deadlines = context.deadlines = Deadlines(
            lambda: self.clock(), self._deadline_expired
        )
        #: True once this process shares the database with others (:mod:`services.cluster`)
        self.shared = False
        #: the results still owed (结果补发): asked when a result is queued, a hand dealt, a
        #: game resumed or taken over
        self.results = context.results = ResultsOwed(
            engine,
            store,
            lambda: context.delivery,
            context.enqueue,
            context.summary,
            LiveGame.from_info,
        )

    # ------------------------------------------------------------------ shared settings

    @property
    def delivery(self) -> Delivery:
        return self.context.delivery

    @delivery.setter
    def delivery(self, delivery: Delivery) -> None:
        self.context.delivery = delivery

    @property
    def clock(self) -> Callable[[], float]:
        return self.context.clock

    @property
    def turn_timeout(self) -> float:
        return self.context.turn_timeout

    @property
    def claim_timeout(self) -> float:
        return self.context.claim_timeout

    @property
    def snapshot_every(self) -> int:
        return self.context.snapshot_every

    @property
    def ai_pace(self) -> float:
        return self.context.ai_pace

    @property
    def claim_hold(self) -> float:
        return self.context.claim_hold

    @property
    def holder(self) -> str:
        """This process's name while it shares the database (who stores deadlines)."""
        return self.context.holder

    @holder.setter
    def holder(self, name: str) -> None:
        self.context.holder = name

    # ------------------------------------------------------------------ look-ups

    def game_in_channel(self, channel_id: int) -> int | None:
        """The unfinished game of a channel (or of its thread), or None."""
        return self._games.in_channel(channel_id)

    def game_of_player(self, guild_id: int, user_id: int) -> int | None:
        """The unfinished game of this server the user sits in, or None."""
        return self._games.of_player(guild_id, user_id)

    def games(self) -> list[GameSummary]:
        """Every game held in memory."""
        return [table.summary() for table in self._games.values()]

    async def summary(self, game_id: int) -> GameSummary:
        """The game as it is now."""
        return (await self._get(game_id)).summary()

    async def table(self, game_id: int) -> TableView | None:
        """The public table of the hand in play, or None in the lobby."""
        live = (await self._get(game_id)).live
        return None if live.state is None else self.engine.table_view(live.state)

    async def private_view(self, game_id: int, user_id: int) -> PrivateUpdate:
        """The user's hand (for ``/mahjong hand``); NotInGame / WrongPhase when none."""
        table = await self._get(game_id)
        seat = table.live.seat_of(user_id)
        if seat is None:
            raise NotInGame()
        if table.live.state is None:
            raise WrongPhase("the game has not started")
        return table.private(seat, ())

    # ------------------------------------------------------------------ presses on old copies

    async def _on_fresh_copy(self, game_id: int, call: Callable[[], Awaitable[T]]) -> T:
        """Run a press; sharing the database, a refusal drawn from an old copy of the game is
        checked against the stored version and the press tried once more on a fresh copy."""
        try:
            return await call()
        except ServiceError:
            if not self.shared or not await self._behind(game_id):
                raise
        return await call()

    async def _behind(self, game_id: int) -> bool:
        """Is the held copy older than the stored game? (then it is reloaded)"""
        table = self._games.get(game_id)
        if table is None:
            return False
        stored = await self.store.games.get(game_id)
        if stored is None:
            return False
        async with table.lock:
            live = table.live
            if stored.version == live.version and stored.status == live.status:
                return False
            await table.reload()
        return True

    # ------------------------------------------------------------------ the tables

    async def _get(self, game_id: int) -> Table:
        """The table of ``game_id``: held, or loaded from the store and held from now on."""
        table = self._games.get(game_id)
        if table is not None:
            return table
        try:
            loaded = await self.store.games.load(game_id)
        except GameNotFound as error:
            raise NoSuchGame(game_id=game_id) from error
        except StoreBusy as error:
            raise TableBusy() from error
        except Exception as error:  # there may well be a game: it could not be read
            log.exception("game %s: could not be loaded", game_id)
            raise GameUnreadable(game_id=game_id) from error
        live = self._live_from_info(loaded.game)
        try:
            self._replay(live, loaded)
        except Exception as error:
            log.exception("game %s: its log could not be replayed", game_id)
            raise GameUnreadable(game_id=game_id) from error
        self.resume_state.loaded(live.id)
        return self._games.setdefault(live.id, self._new_table(live))

    def _new_table(self, live: LiveGame) -> Table:
        """A table for ``live`` (not held yet: :meth:`_hold` it once it is committed)."""
        return Table(live, self.context)

    def _hold(self, table: Table) -> Table:
        """Hold ``table`` from now on (found by id, channel and player)."""
        self._games[table.id] = table
        return table

    def _table_of(self, live: LiveGame) -> Table:
        """The table held for ``live`` (a hook or a timer that was handed the game itself); a
        copy that is not held (a game let go meanwhile) gets a table of its own: nothing
        else holds it, so nothing else can be changing it."""
        table = self._games.get(live.id)
        if table is None or table.live is not live:
            return self._new_table(live)
        return table

    async def _deadline_expired(self, live: LiveGame, version: int) -> None:
        """The turn / claim timer armed at ``version`` ran out (:meth:`Table.deadline_expired`)."""
        await self._table_of(live).deadline_expired(version)

    # ------------------------------------------------------------------ the log (gamelog)

    def _live_from_info(self, info: GameInfo) -> LiveGame:
        return LiveGame.from_info(info)

    def _replay(self, live: LiveGame, loaded: LoadedGame) -> None:
        gamelog.replay(self.engine, live, loaded)
