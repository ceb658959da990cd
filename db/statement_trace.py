"""What a store call sends to the database, statement by statement (for benchmarks and tests).

``async with trace_statements(db) as sent: …`` collects the SQL text of every statement the
driver runs while the block runs, on every connection of the store's pool, as the server
(PostgreSQL: each call of asyncpg's protocol that goes to the server — ``BEGIN``,
``COMMIT``, the pool's pre-ping, a statement's ``PREPARE`` when it is not cached yet) or the library (SQLite: ``sqlite3``'s trace callback — ``BEGIN IMMEDIATE``,
``SAVEPOINT``, ``RELEASE`` included; ``COMMIT`` too) sees them. Each one is a round trip to
the server, or on SQLite a trip or a few to aiosqlite's thread and back (counted by
:func:`sqlite_trips`).
A connection is traced from its first check-out inside a block, and in later blocks from
their start (its pool pre-ping included: warm the pool in a block first).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import aiosqlite.core
from sqlalchemy import event
from sqlalchemy.util import await_only

from db.base import Database

#: driver connection (by id) → the list its statements go to now (None: not traced now)
_sinks: dict[int, list[str] | None] = {}


@contextmanager
def sqlite_trips() -> Iterator[list[tuple[str, Any]]]:
    """Every trip to an aiosqlite connection's thread while the block runs, as (the function
    run there, its first argument: a statement's SQL): SQLAlchemy's cursor takes three per
    statement (a cursor, the statement, its close), the store's own driver calls one."""
    seen: list[tuple[str, Any]] = []
    original: Any = aiosqlite.core.Connection._execute

    async def counted(self: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append((getattr(fn, "__name__", repr(fn)), args[0] if args else None))
        return await original(self, fn, *args, **kwargs)

    aiosqlite.core.Connection._execute = counted  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        aiosqlite.core.Connection._execute = original  # type: ignore[method-assign]


def _log(key: int, sql: str) -> None:
    sink = _sinks.get(key)
    if sink is not None and not sql.startswith("--"):  # "-- TRIGGER …": not sent by us
        sink.append(" ".join(sql.split()))


#: asyncpg protocol calls that are one round trip to the server each
_ROUND_TRIPS = frozenset(
    {"query", "prepare", "bind_execute", "bind_execute_many", "close_statement"}
)


class _CountingProtocol:
    """An asyncpg connection's protocol, logging each call that goes to the server (the
    query text, or ``prepare``/``close`` of a statement: those are round trips too)."""

    def __init__(self, protocol: Any, key: int) -> None:
        self._inner = protocol
        self._key = key

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._inner, name)
        if name not in _ROUND_TRIPS:
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            _log(self._key, _pg_text(name, args, kwargs))
            return value(*args, **kwargs)

        return call


def _pg_text(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    values = [*args, *kwargs.values()]
    if name in ("query", "prepare"):
        text = next((v for v in values if isinstance(v, str) and " " in v.strip()), None)
        text = text or next((v for v in values if isinstance(v, str)), "?")
        return text if name == "query" else f"PREPARE {text}"
    state = next((v for v in values if hasattr(v, "query")), None)
    statement = getattr(state, "query", "?")
    return f"{'CLOSE' if name == 'close_statement' else 'EXECUTE'} {statement}"


@asynccontextmanager
async def trace_statements(db: Database) -> AsyncIterator[list[str]]:
    """The statements run on the store's connections while the block runs (see module)."""
    sent: list[str] = []
    sync_engine = db.engine.sync_engine

    def attach(dbapi_connection: Any, *_: Any) -> None:
        driver = dbapi_connection.driver_connection
        key = id(driver)
        if key not in _sinks:
            if db.dialect == "sqlite":
                await_only(driver.set_trace_callback(lambda sql: _log(key, sql)))
            else:
                driver._protocol = _CountingProtocol(driver._protocol, key)
        _sinks[key] = sent

    for key in _sinks:  # connections traced before: from the start (their pre-ping too)
        _sinks[key] = sent
    event.listen(sync_engine, "checkout", attach)
    try:
        yield sent
    finally:
        event.remove(sync_engine, "checkout", attach)
        for key, sink in list(_sinks.items()):
            if sink is sent:
                _sinks[key] = None
