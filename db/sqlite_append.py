"""SQLite: the statements of an action append, compiled once and sent straight to the driver.

Every press appends to its game's log (:meth:`db.games.GameRepository.append_action`). Built
and run through SQLAlchemy Core, each append rebuilt its ``UPDATE`` and ``INSERT``, worked
out their cache keys and took three trips to aiosqlite's thread per statement (cursor,
execute, close): the largest cost of a press served flat out
(``python -m benchmarks.service_bench``). Here each statement is compiled once per column set (the
SQL stays the models' own: SQLAlchemy compiles it, for the engine's dialect) and its
parameters go through the column types' own bind processors (JSON as the engine writes it,
timestamps in UTC), so the rows are exactly what the Core statements stored; the append's
statements then go to the thread together, in one trip (:func:`db.sqlite_driver.execute_then`).

The statements run on the write's own connection, inside the group commit's transaction
(:mod:`db.group_commit`): the compare-and-set comes first and nothing is written when it
is refused. A driver error is raised as SQLAlchemy's (``sqlalchemy.exc.DBAPIError``), as
through Core.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Integer, bindparam, update
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncConnection

from db.append_sql import Append, prune_snapshots, replacing_snapshot
from db.models import Action, Game, Snapshot
from db.sqlite_driver import Prepared, driver_of, execute_then

_G = Game.__table__
_A = Action.__table__
_S = Snapshot.__table__


class SqliteAppend:
    """The append's statements for one SQLite dialect (``GameRepository`` holds one)."""

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect
        self._bumps: dict[tuple[str, ...], Prepared] = {}
        self.log = Prepared.compile(
            _A.insert().values(
                game_id=bindparam("game_id"),
                seq=bindparam("seq"),
                seat=bindparam("seat"),
                action=bindparam("action"),
                created_at=bindparam("at"),
            ),
            dialect,
        )
        snapshot = sqlite_insert(_S).values(
            game_id=bindparam("game_id"),
            seq=bindparam("seq"),
            state=bindparam("snapshot"),
            created_at=bindparam("at"),
        )
        self.snapshot = Prepared.compile(replacing_snapshot(snapshot), dialect)
        self.prune = Prepared.compile(
            prune_snapshots(
                bindparam("game_id", type_=Integer),
                bindparam("seq", type_=Integer),
                bindparam("keep_old", type_=Integer),
            ),
            dialect,
        )

    def bump(self, columns: tuple[str, ...]) -> Prepared:
        """The game row's compare-and-set, writing ``columns`` too (a lobby's seats…)."""
        prepared = self._bumps.get(columns)
        if prepared is None:
            stmt = (
                update(_G)
                .where(_G.c.id == bindparam("game_id"), _G.c.version == bindparam("expected"))
                .values(
                    version=bindparam("seq"),
                    updated_at=bindparam("at"),
                    **{name: bindparam(f"set_{name}") for name in columns},
                )
            )
            prepared = self._bumps[columns] = Prepared.compile(stmt, self.dialect)
        return prepared

    async def append(self, conn: AsyncConnection, entry: Append, expected_version: int) -> bool:
        """Run the append on ``conn`` (in its transaction): the compare-and-set, the
        action, and the snapshot with the pruning of older ones when there is one. False
        when the game was not at ``expected_version`` (nothing written)."""
        columns = tuple(sorted(entry.changes))
        values: dict[str, Any] = {
            "game_id": entry.game_id,
            "expected": expected_version,
            "seq": entry.seq,
            "seat": entry.seat,
            "action": entry.action,
            "at": entry.at,
            "snapshot": entry.snapshot,
            "keep_old": entry.keep_old,
            **{f"set_{name}": value for name, value in entry.changes.items()},
        }
        rest = [self.log] if entry.snapshot is None else [self.log, self.snapshot, self.prune]
        return await execute_then(driver_of(conn), self.bump(columns), rest, values) == 1
