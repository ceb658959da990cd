"""The store the bot uses: ``store = await Store.open(url)`` … ``await store.close()``.

It is composed of small repositories sharing one `Database` (engine and transactions):

=====================  ==========================================================
``store.games``        games (对局), the action log with compare-and-set, snapshots
``store.hands``        finished hands (一局): recording (with ratings) and reading
``store.guilds``       server settings and seasons (赛季)
``store.players``      players: names, locale, preferences
``store.ratings``      openskill ratings: rebuild, taking a removed hand out
``store.records``      hands played with real tiles (实体牌局记录), confirmed by all
``store.stats``        a player's stats (战绩), game history, record hands
``store.leaderboards`` server leaderboards (排行榜)
``store.replays``      whole logs and finished hands for replays and exports
=====================  ==========================================================

Every method is a coroutine that runs in its own transaction and returns plain values
(`db.types`); a write is committed durably when the call returns. A change that spans
repositories is one transaction: ``hands.record`` writes the hand, its lines, the game's
totals and the ratings together; ``records.confirm`` records the hand with the confirmation.
For another such unit of work, open ``async with store.db.write() as conn`` and call the
repositories' ``…_in(conn, …)`` methods. A write that stalls (the database locked past the
timeout) raises `db.errors.StoreBusy` and records nothing.
"""

from __future__ import annotations

import os
from typing import Any, Self

from sqlalchemy.ext.asyncio import AsyncEngine

from db.base import Database, StoreBase
from db.connection import DEFAULT_URL, make_engine
from db.games import GameRepository
from db.guilds import GuildRepository
from db.hands import HandRepository
from db.leaderboard import LeaderboardRepository
from db.migrate import upgrade
from db.players import PlayerRepository
from db.rating_repository import RatingRepository
from db.records import RecordRepository
from db.replays import ReplayRepository
from db.stats import StatsRepository


class Store(StoreBase):
    """Games and their action log, finished hands, ratings, leaderboards, stats, records."""

    def __init__(self, database: Database | AsyncEngine) -> None:
        """The repositories over ``database`` (or over an engine already migrated)."""
        if isinstance(database, AsyncEngine):
            database = Database(database)
        super().__init__(database)
        self.games = GameRepository(database)
        self.guilds = GuildRepository(database)
        self.players = PlayerRepository(database)
        self.ratings = RatingRepository(database)
        self.hands = HandRepository(database, self.ratings)
        self.records = RecordRepository(database, self.hands, self.ratings)
        self.stats = StatsRepository(database)
        self.leaderboards = LeaderboardRepository(database)
        self.replays = ReplayRepository(database)

    @classmethod
    async def open(
        cls,
        url: str | None = None,
        *,
        migrate: bool = True,
        batch_limit: int = 64,
        **engine_kwargs: Any,
    ) -> Self:
        """Connect to ``url`` (default ``DATABASE_URL`` or ``sqlite+aiosqlite:///data/mahjong.db``;
        the SQLite folder is created) and apply the Alembic migrations up to head.

        ``engine_kwargs`` go to `db.connection.make_engine` (``busy_timeout``,
        ``lock_timeout``, ``synchronous``, pool sizes…); ``batch_limit``: the most writes
        one SQLite group commit holds."""
        url = url or os.environ.get("DATABASE_URL") or DEFAULT_URL
        engine = make_engine(url, **engine_kwargs)
        try:
            if migrate:
                await upgrade(engine)
        except BaseException:
            await engine.dispose()
            raise
        return cls(Database(engine, batch_limit=batch_limit))

    async def close(self) -> None:
        """Close every connection."""
        await self.db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
