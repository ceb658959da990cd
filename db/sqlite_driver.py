"""SQLite: statements compiled once and sent straight to aiosqlite's connection.

Through SQLAlchemy Core a statement is rebuilt, its cache key worked out, and it takes three
trips to aiosqlite's thread (cursor, execute, close). The hottest writes (the action append,
:mod:`db.sqlite_append`; the remembered messages' save, :mod:`db.sqlite_messages`) compile
theirs once here instead (the SQL stays the models' own, for the engine's dialect) and send
each as one trip (the append's statements together in one: :func:`execute_then`), on the
write's own connection and transaction. Parameters go through the
column types' own bind processors, so the rows are what Core stored; a driver error is
raised as SQLAlchemy's (``sqlalchemy.exc.DBAPIError``), as through Core.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler


@dataclass(frozen=True)
class Prepared:
    """One statement compiled for the driver: its SQL (``?`` placeholders), the bind names
    in placeholder order, each one's bind processor (None: sent as it is) and the values of
    the binds the statement fixed itself (SQLite's ``OFFSET`` of a ``LIMIT``)."""

    sql: str
    names: tuple[str, ...]
    processors: tuple[Callable[[Any], Any] | None, ...]
    fixed: Mapping[str, Any]

    @classmethod
    def compile(cls, stmt: ClauseElement, dialect: Dialect) -> Prepared:
        compiled = cast(SQLCompiler, stmt.compile(dialect=dialect))
        names = tuple(compiled.positiontup or ())
        processors = tuple(
            compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect)
            for name in names
        )
        fixed = {name: value for name, value in compiled.params.items() if value is not None}
        return cls(compiled.string, names, processors, fixed)

    def parameters(self, values: Mapping[str, Any]) -> tuple[Any, ...]:
        """The driver's parameters for ``values`` (by bind name)."""
        if self.fixed:
            values = {**self.fixed, **values}
        return tuple(
            values[name] if process is None else process(values[name])
            for name, process in zip(self.names, self.processors, strict=True)
        )


def driver_of(conn: AsyncConnection) -> Any:
    """The aiosqlite connection under ``conn``."""
    return conn.sync_connection.connection.driver_connection  # type: ignore[union-attr]


async def execute(driver: Any, prepared: Prepared, values: Mapping[str, Any]) -> int:
    """Execute on the aiosqlite connection (one trip to its thread); rows changed."""
    parameters = prepared.parameters(values)
    try:
        cursor = await driver.execute(prepared.sql, parameters)
    except sqlite3.Error as error:
        raise DBAPIError.instance(prepared.sql, parameters, error, sqlite3.Error) from error
    return int(cursor.rowcount)


async def execute_then(
    driver: Any, first: Prepared, rest: list[Prepared], values: Mapping[str, Any]
) -> int:
    """``first``, then each of ``rest`` only if ``first`` changed a row, all in one trip to
    aiosqlite's thread (its private ``_execute`` and ``_conn``, as SQLAlchemy's own adapter
    uses them: aiosqlite runs nothing else on the connection meanwhile); rows ``first``
    changed."""
    chain = [(prepared.sql, prepared.parameters(values)) for prepared in (first, *rest)]

    def run() -> int:
        conn = driver._conn
        sql, parameters = chain[0]
        try:
            changed = int(conn.execute(sql, parameters).rowcount)
            if changed:
                for sql, parameters in chain[1:]:
                    conn.execute(sql, parameters)
        except sqlite3.Error as error:
            raise DBAPIError.instance(sql, parameters, error, sqlite3.Error) from error
        return changed

    return cast(int, await driver._execute(run))


async def fetch_all(driver: Any, prepared: Prepared, values: Mapping[str, Any]) -> list[Any]:
    """The rows of a query on the aiosqlite connection (one trip to its thread)."""
    parameters = prepared.parameters(values)
    try:
        return list(await driver.execute_fetchall(prepared.sql, parameters))
    except sqlite3.Error as error:
        raise DBAPIError.instance(prepared.sql, parameters, error, sqlite3.Error) from error
