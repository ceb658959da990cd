"""The statements of one action append (:meth:`db.games.GameRepository.append_action`).

On PostgreSQL the whole append is one statement (:func:`append_statement`), committed alone:
one round trip. On SQLite (no data-modifying ``WITH``) the repository runs the pieces one
by one in a group commit: the game row's compare-and-set, the action, the deadline rows
(:func:`db.deadlines.arm_rows`), the snapshot (:func:`replacing_snapshot`) and the pruning
of older ones (:func:`prune_snapshots`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Delete,
    Select,
    column,
    exists,
    func,
    literal,
    null,
    select,
    update,
    values,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert

from db.deadlines import DeadlineChange, moving_forward, row_order
from db.models import Action, Deadline, Game, Snapshot
from db.types import Json

_G = Game.__table__
_A = Action.__table__
_S = Snapshot.__table__
_D = Deadline.__table__


@dataclass(frozen=True)
class Append:
    """One action to append (see `GameRepository.append_action`)."""

    game_id: int
    seq: int
    seat: int | None
    action: Json
    at: datetime
    changes: dict[str, Any]
    arms: list[DeadlineChange]
    holder: str
    snapshot: Json | None
    keep_old: int  # snapshots older than this one's seq kept


def latest_arms(changes: Sequence[DeadlineChange]) -> list[DeadlineChange]:
    """The deadlines to store, one per game and kind (the newest version; the later of
    equal ones), as storing them one after the other would leave them; clears dropped."""
    latest: dict[tuple[int, str], DeadlineChange] = {}
    for change in changes:
        if change.due_at is None:
            continue
        key = (change.game_id, change.kind)
        kept = latest.get(key)
        if kept is None or change.version >= kept.version:
            latest[key] = change
    return sorted(latest.values(), key=row_order)


def replacing_snapshot(stmt: Any) -> Any:
    """A dialect insert of a snapshot that replaces one at the same seq."""
    return stmt.on_conflict_do_update(
        index_elements=["game_id", "seq"],
        set_={"state": stmt.excluded.state, "created_at": stmt.excluded.created_at},
    )


def prune_snapshots(
    game_id: int | ColumnElement[int],
    newest: int | ColumnElement[int],
    keep_old: int | ColumnElement[int],
) -> Delete:
    """Delete the game's snapshots older than ``newest`` but the ``keep_old`` newest of
    them (one statement; deletes nothing when there are no more). Each may be a bound
    parameter (the statement compiled once: :mod:`db.sqlite_append`)."""
    kept = (
        select(_S.c.seq)
        .where(_S.c.game_id == game_id, _S.c.seq < newest)
        .order_by(_S.c.seq.desc())
        .limit(keep_old)
    )
    return _S.delete().where(_S.c.game_id == game_id, _S.c.seq < newest, _S.c.seq.not_in(kept))


def append_statement(entry: Append, expected_version: int) -> Select[Any]:
    """PostgreSQL: the whole append as one statement — the compare-and-set on the game row
    (``UPDATE … RETURNING``) feeds the insert of the action and of the deadline rows, the
    snapshot and its pruning, each in a data-modifying ``WITH``: nothing is written unless
    the game was at ``expected_version``. Selects how many actions were inserted (0 or 1)."""
    bumped = (
        update(_G)
        .where(_G.c.id == entry.game_id, _G.c.version == expected_version)
        .values(version=entry.seq, updated_at=entry.at, **entry.changes)
        .returning(_G.c.id)
        .cte("bumped")
    )
    went = exists(select(bumped.c.id))
    logged = (
        _A.insert()
        .from_select(
            ["game_id", "seq", "seat", "action", "created_at"],
            select(
                bumped.c.id,
                literal(entry.seq, _A.c.seq.type),
                literal(entry.seat, _A.c.seat.type),
                literal(entry.action, _A.c.action.type),
                literal(entry.at, _A.c.created_at.type),
            ),
        )
        .returning(_A.c.seq)
        .cte("logged")
    )
    stmt = select(func.count()).select_from(logged)
    if entry.arms:
        rows = values(
            column("game_id", _D.c.game_id.type),
            column("kind", _D.c.kind.type),
            column("version", _D.c.version.type),
            column("due_at", _D.c.due_at.type),
            name="armed",
        ).data([(a.game_id, a.kind, a.version, a.due_at) for a in entry.arms])
        arm = pg_insert(_D).from_select(
            ["game_id", "kind", "version", "due_at", "holder", "lease_until"],
            select(
                rows.c.game_id,
                rows.c.kind,
                rows.c.version,
                rows.c.due_at,
                literal(entry.holder[:64], _D.c.holder.type),
                null(),
            ).where(went),
        )
        arm = moving_forward(arm)  # (the rule of db.deadlines.arm_rows)
        stmt = stmt.add_cte(arm.cte("arm"))
    if entry.snapshot is not None:
        snap = pg_insert(_S).from_select(
            ["game_id", "seq", "state", "created_at"],
            select(
                bumped.c.id,
                literal(entry.seq, _S.c.seq.type),
                literal(entry.snapshot, _S.c.state.type),
                literal(entry.at, _S.c.created_at.type),
            ),
        )
        # the pruning sees the snapshots as they were before the statement (not the new one)
        prune = prune_snapshots(entry.game_id, entry.seq, entry.keep_old).where(went)
        stmt = stmt.add_cte(replacing_snapshot(snap).cte("snap"), prune.cte("pruned"))
    return stmt
