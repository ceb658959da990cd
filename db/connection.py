"""Creating the async engine: SQLite (WAL, foreign keys, durable commits) or PostgreSQL."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import PoolResetState
from sqlalchemy.util import await_only

DEFAULT_URL = "sqlite+aiosqlite:///data/mahjong.db"

#: How many times to try switching a new SQLite file to WAL (50 ms apart) when it is locked.
WAL_ATTEMPTS = 200

#: Execution option: open the transaction with ``BEGIN IMMEDIATE`` on SQLite (writers).
IMMEDIATE = "mahjong_immediate"

#: Seconds a SQLite writer waits for another process's write lock before `StoreBusy`.
BUSY_TIMEOUT = 30.0
#: Seconds a PostgreSQL statement waits for a row lock before `StoreBusy`.
LOCK_TIMEOUT = 15.0
#: Seconds a PostgreSQL connection may rest in the pool and be handed out without a ping.
PING_AFTER_IDLE = 1.0
_RESTED = "mahjong_rested_at"
#: Connection-record key: the SQLite files were not writable when this connection opened.
_OPENED_UNWRITABLE = "mahjong_opened_unwritable"
# a BEGIN whose caller stopped waiting (cancelled): it may still run on aiosqlite's thread
_BEGIN_UNSETTLED = "mahjong_begin_unsettled"


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _sqlite_folder(url: str) -> None:
    """Create the folder of a file database (``sqlite+aiosqlite:///data/mahjong.db``)."""
    database = make_url(url).database
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)


def make_engine(
    url: str,
    *,
    synchronous: str = "FULL",
    busy_timeout: float = BUSY_TIMEOUT,
    lock_timeout: float = LOCK_TIMEOUT,
    **kwargs: Any,
) -> AsyncEngine:
    """An async engine for ``url``; on SQLite: WAL, foreign keys, busy timeout, fsync commit.

    ``synchronous=FULL`` makes a commit survive power loss, not only a killed process.
    ``busy_timeout`` (SQLite) and ``lock_timeout`` (PostgreSQL): seconds a write waits for
    a lock held by another writer before it gives up (`db.errors.StoreBusy`).
    """
    backend = make_url(url).get_backend_name()
    if backend == "sqlite":
        _sqlite_folder(url)
        kwargs.setdefault("connect_args", {}).setdefault("timeout", busy_timeout)
        # a connection back in the pool is rolled back only if a transaction is still open
        # on it (see _on_reset): after a commit that is a trip to aiosqlite's thread for
        # nothing, at every transaction
        kwargs.setdefault("pool_reset_on_return", None)
    else:
        cheap_ping = "pool_pre_ping" not in kwargs  # (see _install_postgres_ping)
        # games commit in parallel: enough connections for a busy process
        kwargs.setdefault("pool_size", 10)
        kwargs.setdefault("max_overflow", 20)
        if make_url(url).get_driver_name() == "asyncpg":
            settings = kwargs.setdefault("connect_args", {}).setdefault("server_settings", {})
            settings.setdefault("lock_timeout", str(round(lock_timeout * 1000)))
    engine = create_async_engine(url, json_serializer=_dumps, **kwargs)
    if backend == "sqlite":
        _install_sqlite_events(engine, synchronous, busy_timeout)
    elif cheap_ping and make_url(url).get_driver_name() == "asyncpg":
        _install_postgres_ping(engine)
    return engine


def _install_postgres_ping(engine: AsyncEngine) -> None:
    """Check a pooled PostgreSQL connection before handing it out when it rested in the
    pool over :data:`PING_AFTER_IDLE` (a server restart drops connections): one ``;``
    round trip, a dead one is replaced (``DisconnectionError``: the pool connects anew).

    SQLAlchemy's ``pool_pre_ping`` would cost three round trips (asyncpg wraps its ``;`` in
    ``BEGIN … ROLLBACK``) on every check-out — more than a press's whole append (one
    statement). A connection back in the pool moments ago is used unchecked: a server that
    died meanwhile fails that one write (nothing recorded) and the pool is renewed."""

    @event.listens_for(engine.sync_engine, "connect")
    def _connected(_dbapi_connection: Any, record: Any) -> None:
        record.info[_RESTED] = time.monotonic()

    @event.listens_for(engine.sync_engine, "checkin")
    def _checked_in(_dbapi_connection: Any, record: Any) -> None:
        if record is not None:
            record.info[_RESTED] = time.monotonic()

    @event.listens_for(engine.sync_engine, "checkout")
    def _checked_out(_dbapi_connection: Any, record: Any, proxy: Any) -> None:
        rested = record.info.get(_RESTED)
        if rested is not None and time.monotonic() - rested < PING_AFTER_IDLE:
            return
        try:
            await_only(proxy.driver_connection.fetchrow(";"))
        except Exception as error:
            raise DisconnectionError(f"PostgreSQL connection lost: {error}") from error
        record.info[_RESTED] = time.monotonic()


def _wal(cursor: Any, *, attempts: int = WAL_ATTEMPTS) -> None:
    """Put the database in WAL mode. A file already in WAL mode needs no lock; switching a
    new file needs an exclusive one, and SQLite answers "database is locked" at once (no
    busy wait) when several processes open a new database together: retry briefly."""
    cursor.execute("PRAGMA journal_mode")
    if str(cursor.fetchone()[0]).lower() == "wal":
        return
    for attempt in range(attempts):
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except Exception as error:  # the driver's OperationalError, whichever driver
            if "locked" not in str(error) or attempt == attempts - 1:
                raise
            time.sleep(0.05)


def _sqlite_files(url: str) -> tuple[str, ...]:
    """The files of a file database that a write needs (the database and its WAL; none
    for an in-memory or ``file:`` URI database)."""
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return ()
    path = str(Path(database).expanduser())
    return (path, f"{path}-wal")


def _files_writable(files: tuple[str, ...]) -> bool:
    """Whether every one of ``files`` that exists may be written now (``access(2)``: also
    False for a file made immutable, even to root)."""
    return all(os.access(f, os.W_OK) for f in files if os.path.exists(f))


def _install_sqlite_events(engine: AsyncEngine, synchronous: str, busy_timeout: float) -> None:
    files = _sqlite_files(str(engine.url))

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, record: Any) -> None:
        # Let SQLAlchemy emit BEGIN itself (see _on_begin) instead of pysqlite's lazy begin.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={round(busy_timeout * 1000)}")
        _wal(cursor)
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.close()
        if files and not _files_writable(files):
            # SQLite opens a file it may not write read-only, silently, and the connection
            # stays read-only after the file is writable again: mark it to be replaced then
            record.info[_OPENED_UNWRITABLE] = True

    @event.listens_for(engine.sync_engine, "checkout")
    def _on_checkout(_dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        if record.info.get(_OPENED_UNWRITABLE) and _files_writable(files):
            # (the pool closes it and hands out a new connection, which opens read-write)
            raise DisconnectionError("opened while the database could not be written")

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # sent straight to aiosqlite's connection: one trip to its thread, where SQLAlchemy's
        # cursor takes three (a cursor, the statement, its close)
        sql = "BEGIN IMMEDIATE" if conn.get_execution_options().get(IMMEDIATE, False) else "BEGIN"
        driver: Any = conn.connection.driver_connection
        # Until the trip returns, the connection may be left in a transaction SQLAlchemy does
        # not know of: a caller cancelled while waiting leaves the BEGIN queued on the thread,
        # to run after _on_reset looked (and found none). _on_reset rolls such a one back.
        conn.info[_BEGIN_UNSETTLED] = True
        try:
            await_only(driver.execute(sql))
        except sqlite3.Error as error:
            del conn.info[_BEGIN_UNSETTLED]  # (it ran, and failed: no transaction)
            raise DBAPIError.instance(sql, (), error, sqlite3.Error) from error
        del conn.info[_BEGIN_UNSETTLED]

    @event.listens_for(engine.sync_engine, "reset")
    def _on_reset(dbapi_connection: Any, record: Any, state: PoolResetState) -> None:
        # (as SQLAlchemy's own reset: never on a connection collected outside the loop; the
        # rollback is queued behind any trip still on the thread, so it ends what that opens)
        unsettled = record.info.pop(_BEGIN_UNSETTLED, False)
        if state.asyncio_safe and (unsettled or dbapi_connection.driver_connection.in_transaction):
            dbapi_connection.rollback()
