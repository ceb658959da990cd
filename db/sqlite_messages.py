"""SQLite: the save of a game's remembered messages, compiled once and sent to the driver.

Delivery saves a game's remembered Discord messages (``games.messages``: hand DMs, alerts,
the table's hand…) after most presses (:meth:`db.games.GameRepository.merge_messages`).
Through SQLAlchemy Core each save built and compiled its ``SELECT`` and ``UPDATE``, opened a
savepoint in the group commit's batch and took three trips to aiosqlite's thread per
statement: about a tenth of the bot's CPU per press served flat out. Here the
two statements are compiled once (the SQL stays the models' own, for the engine's dialect)
and their values go through the column types' own processors (JSON as the engine writes and
reads it, timestamps in UTC), so the row is exactly what the Core statements stored; each
statement is one trip to the thread, like the action append (:mod:`db.sqlite_driver`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncConnection

from db.models import Game
from db.sqlite_driver import Prepared, driver_of, execute, fetch_all

_G = Game.__table__


class SqliteMessages:
    """The read and the write of ``games.messages`` for one SQLite dialect."""

    def __init__(self, dialect: Dialect) -> None:
        self.read_sql = Prepared.compile(
            select(_G.c.messages).where(_G.c.id == bindparam("game_id")), dialect
        )
        self.write_sql = Prepared.compile(
            update(_G)
            .where(_G.c.id == bindparam("game_id"))
            .values(messages=bindparam("messages"), updated_at=bindparam("at")),
            dialect,
        )
        column = _G.c.messages.type.dialect_impl(dialect)
        self._load = column.result_processor(dialect, None)

    async def read(self, conn: AsyncConnection, game_id: int) -> tuple[bool, Any]:
        """``(found, stored messages)`` of the game (its row read on ``conn``, in its
        transaction; the messages None when the column is NULL)."""
        rows = await fetch_all(driver_of(conn), self.read_sql, {"game_id": game_id})
        if not rows:
            return False, None
        raw = rows[0][0]
        return True, raw if self._load is None else self._load(raw)

    async def write(
        self, conn: AsyncConnection, game_id: int, messages: dict[str, Any], at: datetime
    ) -> None:
        """Store ``messages`` as the game's (and ``at`` as its ``updated_at``)."""
        values = {"game_id": game_id, "messages": messages, "at": at}
        await execute(driver_of(conn), self.write_sql, values)
