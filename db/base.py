"""What every part of the store shares: the engine, transactions, dialect-aware inserts."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from db.connection import IMMEDIATE


class StoreBase:
    """Holds the async engine; the store's parts (mixins) build on these helpers."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self._engine.dialect.name

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[AsyncConnection]:
        """One write transaction, committed (durably) when the block ends without error.

        On SQLite it starts with ``BEGIN IMMEDIATE`` so concurrent writers queue on the
        busy timeout instead of failing when upgrading a read lock.
        """
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
