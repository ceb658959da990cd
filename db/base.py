"""What every repository of the store shares: the engine, transactions, dialect-aware inserts.

`Database` is the one engine/transaction helper; the repositories (`db.games`, `db.hands`,
…) each hold it. Writes go through :meth:`Database.write`:

- **PostgreSQL**: one transaction per write, run in parallel (no process-wide lock; rows
  are locked where a write needs it). A lock waited on past ``lock_timeout`` is `StoreBusy`.
- **SQLite** (one writer at a time): *group commit* (`db.group_commit`). Writers arriving
  together share one ``BEGIN IMMEDIATE … COMMIT`` (one fsync), each in a savepoint of its
  own so a failing write leaves the others in; every writer still returns only after the
  commit that made its write durable. Another process holding the lock past the busy
  timeout is `StoreBusy`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from db.connection import IMMEDIATE
from db.errors import StoreBusy, is_busy, outage, unwritable
from db.group_commit import GroupCommit


def _raise_store_error(error: DBAPIError) -> None:
    """Raise the store's own error for a driver error that is one (a lock waited on past
    the timeout: `StoreBusy`; a database that cannot be written: `StoreUnwritable`)."""
    if is_busy(error):
        raise StoreBusy(str(error.orig)) from error
    cannot = unwritable(error)
    if cannot is not None:
        raise cannot from error


class Database:
    """The async engine and the transactions every repository runs in."""

    def __init__(self, engine: AsyncEngine, *, batch_limit: int = 64) -> None:
        self.engine = engine
        self.dialect: str = engine.dialect.name
        self._group = (
            GroupCommit(self._begin_immediate, batch_limit=batch_limit)
            if self.dialect == "sqlite"
            else None
        )

    @property
    def commits(self) -> int:
        """SQLite commits made so far by group commit (0 on PostgreSQL): with `writes`,
        how many writes shared each fsync."""
        return 0 if self._group is None else self._group.commits

    @property
    def writes(self) -> int:
        """SQLite writes committed so far by group commit (0 on PostgreSQL)."""
        return 0 if self._group is None else self._group.writes

    @asynccontextmanager
    async def write(self, *, savepoint: bool = True) -> AsyncIterator[AsyncConnection]:
        """One write, committed durably before the block's ``async with`` returns; nothing
        of it when the block raises. A write inside another write of the same task joins it.

        ``savepoint=False`` (SQLite): the block needs no savepoint of its own in a group
        commit (two statements less) because it raises only before it has changed a row (a
        refused compare-and-set); should it raise later, the whole batch is rolled back and
        each of its writers gets `StoreError` (nothing recorded). No effect on PostgreSQL.

        Raises `StoreBusy` when the database stayed locked past the timeout (nothing of the
        write was recorded)."""
        if self._group is not None:
            try:
                async with self._group.write(savepoint=savepoint) as conn:
                    yield conn
            except DBAPIError as error:  # (a statement of the block: the file went read-only)
                _raise_store_error(error)
                raise
            return
        try:
            async with self.engine.connect() as conn, conn.begin():
                yield conn
        except DBAPIError as error:
            _raise_store_error(error)
            raise
        outage.written()

    @asynccontextmanager
    async def autocommit(self) -> AsyncIterator[AsyncConnection]:
        """A PostgreSQL connection where each statement commits alone, durably, when it
        completes (no ``BEGIN``/``COMMIT`` round trips): for a write that is one statement.
        Raises `StoreBusy` when a lock was waited on past the timeout."""
        if self._group is not None:
            raise RuntimeError("autocommit writes are for PostgreSQL (SQLite: write())")
        try:
            async with self.engine.connect() as conn:
                await conn.execution_options(isolation_level="AUTOCOMMIT")
                yield conn
        except DBAPIError as error:
            _raise_store_error(error)
            raise

    async def _begin_immediate(self) -> AsyncConnection:
        """A connection in a ``BEGIN IMMEDIATE`` transaction (SQLite's write lock taken)."""
        conn = await self.engine.connect()
        try:
            await conn.execution_options(**{IMMEDIATE: True})
            await conn.begin()
        except BaseException as error:
            await conn.close()
            if isinstance(error, DBAPIError):
                _raise_store_error(error)
            raise
        return conn

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncConnection]:
        """One read transaction (a consistent snapshot on both backends)."""
        try:
            async with self.engine.connect() as conn:
                if self.dialect == "postgresql":
                    await conn.execution_options(isolation_level="REPEATABLE READ")
                async with conn.begin():
                    yield conn
        except DBAPIError as error:
            _raise_store_error(error)
            raise

    def insert(self, table: Table) -> Any:
        """An INSERT that knows ``ON CONFLICT`` for this backend."""
        module = sqlite if self.dialect == "sqlite" else postgresql
        return module.insert(table)

    async def close(self) -> None:
        """Close every connection (once the batches being committed are done)."""
        if self._group is not None:
            await self._group.settle()
        await self.engine.dispose()


class StoreBase:
    """What the store offers modules of ``db`` that work beside the repositories
    (`db.deadlines`, `db.notify`): the shared `Database` as ``db`` and its helpers under
    their former names."""

    def __init__(self, database: Database) -> None:
        self.db = database

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.db.dialect

    @property
    def _engine(self) -> AsyncEngine:
        return self.db.engine

    def _write(self) -> Any:
        return self.db.write()

    def _read(self) -> Any:
        return self.db.read()

    def _insert(self, table: Table) -> Any:
        return self.db.insert(table)
