"""The store the bot uses: ``store = await Store.open(url)`` … ``await store.close()``."""

from __future__ import annotations

import os
from typing import Any, Self

from db.connection import DEFAULT_URL, make_engine
from db.leaderboard import LeaderboardMixin
from db.migrate import upgrade
from db.rebuild import RebuildMixin
from db.records import RecordsMixin
from db.stats import StatsMixin


class Store(RecordsMixin, StatsMixin, LeaderboardMixin, RebuildMixin):
    """Games and their action log, finished hands, ratings, leaderboards, stats, records.

    Every method is a coroutine that runs in its own transaction and returns plain values
    (`db.types`); a write is committed durably when the call returns.
    """

    @classmethod
    async def open(
        cls, url: str | None = None, *, migrate: bool = True, **engine_kwargs: Any
    ) -> Self:
        """Connect to ``url`` (default ``DATABASE_URL`` or ``sqlite+aiosqlite:///data/mahjong.db``;
        the SQLite folder is created) and apply the Alembic migrations up to head."""
        url = url or os.environ.get("DATABASE_URL") or DEFAULT_URL
        engine = make_engine(url, **engine_kwargs)
        try:
            if migrate:
                await upgrade(engine)
        except BaseException:
            await engine.dispose()
            raise
        return cls(engine)

    async def close(self) -> None:
        """Close every connection."""
        await self._engine.dispose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
