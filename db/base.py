"""What every part of the store shares: the engine, transactions, dialect-aware inserts."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any

from sqlalchemy import Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from db.connection import IMMEDIATE

#: the store whose SQLite writer turn the current task holds (a nested write reuses it)
_writing: ContextVar[object | None] = ContextVar("mj_store_writing", default=None)


class StoreBase:
    """Holds the async engine; the store's parts (mixins) build on these helpers."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._writer: tuple[Any, asyncio.Lock] | None = None

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self._engine.dialect.name

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[AsyncConnection]:
        """One write transaction, committed (durably) when the block ends without error.

        On SQLite it starts with ``BEGIN IMMEDIATE`` so concurrent writers queue on the
        busy timeout instead of failing when upgrading a read lock; and the writers of this
        process take turns in order first (an ``asyncio.Lock``): SQLite's busy handler sleeps
        and retries, so under load a writer could lose the race again and again (a lobby
        waited minutes behind a stream of moves) — another process still queues on the
        busy timeout. PostgreSQL writers run in parallel.
        """
        if self.dialect != "sqlite" or _writing.get() is self:
            async with self._transaction() as conn:
                yield conn
            return
        loop = asyncio.get_running_loop()
        if self._writer is None or self._writer[0] is not loop:
            self._writer = (loop, asyncio.Lock())
        async with self._writer[1]:
            token = _writing.set(self)
            try:
                async with self._transaction() as conn:
                    yield conn
            finally:
                _writing.reset(token)

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[AsyncConnection]:
        async with self._engine.connect() as conn:
            await conn.execution_options(**{IMMEDIATE: True})
            async with conn.begin():
                yield conn

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[AsyncConnection]:
        """One read transaction (a consistent snapshot on both backends)."""
        async with self._engine.connect() as conn:
            if self.dialect == "postgresql":
                await conn.execution_options(isolation_level="REPEATABLE READ")
            async with conn.begin():
                yield conn

    def _insert(self, table: Table) -> Any:
        """An INSERT that knows ``ON CONFLICT`` for this backend."""
        module = sqlite if self.dialect == "sqlite" else postgresql
        return module.insert(table)
