"""Stored deadlines (期限) that several bot processes share: whoever gets there first fires one.

A row per game and kind (``play``: the turn or claim timeout; ``session``: 准备, the 解散
vote, dealing the next hand) holds the game version it was armed at and when it is due
(epoch seconds); a game's action stores the deadlines it leads to in its own transaction
(:func:`arm_rows`, from :meth:`db.games.GameRepository.append_action`), and the process then
corrects them in batches. The process that armed it fires it from its own timer after
:meth:`DeadlineBook.claim` (a compare-and-set on the row); any live process sweeps rows
overdue by a grace period with ``SELECT … FOR UPDATE SKIP LOCKED`` (:meth:`DeadlineBook.
claim_overdue`), so the deadlines of a process that died are fired by another. Firing is a
versioned append to the game's log: even two processes firing the same deadline apply it
once.

On SQLite (one process) the same statements run; ``FOR UPDATE`` is not rendered there and the
writers take turns anyway.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table, and_, delete, or_, select, true, update
from sqlalchemy.ext.asyncio import AsyncConnection

from db.base import StoreBase
from db.models import Deadline

_D = Deadline.__table__

#: the kinds of deadline a game has at most one of each
KINDS = ("play", "session")


@dataclass(frozen=True)
class DueDeadline:
    """A claimed deadline: fire it if the game is still at ``version``."""

    game_id: int
    kind: str
    version: int
    due_at: float


@dataclass(frozen=True)
class DeadlineChange:
    """What a process armed: ``due_at`` None clears the game's deadline of that kind (up to
    ``version``)."""

    game_id: int
    kind: str
    version: int
    due_at: float | None


def moving_forward(stmt: Any) -> Any:
    """The deadline rows' upsert rule, for a SQLite or PostgreSQL ``INSERT`` into
    ``deadlines``: a row only moves forward (an older version never replaces a newer one),
    and a new arming is claimed by nobody."""
    return stmt.on_conflict_do_update(
        index_elements=["game_id", "kind"],
        set_={
            "version": stmt.excluded.version,
            "due_at": stmt.excluded.due_at,
            "holder": stmt.excluded.holder,
            "lease_until": None,
        },
        where=_D.c.version <= stmt.excluded.version,
    )


def row_order(change: DeadlineChange) -> tuple[int, str]:
    """The one order every write takes the deadline rows in (by game, then kind), so two
    transactions locking several rows — a batch of armings, an action armed with its
    deadlines — wait on each other at worst, never deadlock (PostgreSQL)."""
    return change.game_id, change.kind


async def arm_rows(
    conn: AsyncConnection,
    insert: Callable[[Table], Any],
    arms: Sequence[DeadlineChange],
    holder: str,
) -> None:
    """Store armed deadlines on ``conn`` (inside the caller's transaction — with a game's
    action too, :meth:`db.games.GameRepository.append_action`). A row only moves forward:
    an older version never replaces a newer one; ``insert``: the dialect's insert."""
    arms = sorted((c for c in arms if c.due_at is not None), key=row_order)
    if not arms:
        return
    stmt = moving_forward(insert(_D))
    rows: list[dict[str, Any]] = [
        {
            "game_id": c.game_id,
            "kind": c.kind,
            "version": c.version,
            "due_at": c.due_at,
            "holder": holder[:64],
            "lease_until": None,
        }
        for c in arms
    ]
    await conn.execute(stmt, rows)


def _free(now: float, alive: Collection[str] | None, holder: str | None = None) -> Any:
    """The rows nobody is firing: never claimed, their lease run out, claimed by ``holder``
    itself, or (``alive`` known) claimed by a process that is gone."""
    free = [_D.c.lease_until.is_(None), _D.c.lease_until < now]
    if holder is not None:
        free.append(_D.c.holder == holder[:64])
    if alive is not None:
        free.append(_D.c.holder.not_in([h[:64] for h in alive]) if alive else true())
    return or_(*free)


class DeadlineBook:
    """The ``deadlines`` table of a store (``DeadlineBook(store)``)."""

    def __init__(self, store: StoreBase) -> None:
        self._store = store

    async def write(self, changes: Iterable[DeadlineChange], holder: str) -> None:
        """Record what was armed or cleared, in one transaction, row by row in
        :func:`row_order` (consecutive armings in one statement). A row only moves forward:
        an older version never replaces a newer one."""
        ordered = sorted(changes, key=row_order)
        if not ordered:
            return
        async with self._store._write() as conn:
            arms: list[DeadlineChange] = []
            for c in ordered:
                if c.due_at is not None:
                    arms.append(c)
                    continue
                await arm_rows(conn, self._store._insert, arms, holder)
                arms = []
                await conn.execute(
                    delete(_D).where(
                        _D.c.game_id == c.game_id, _D.c.kind == c.kind, _D.c.version <= c.version
                    )
                )
            await arm_rows(conn, self._store._insert, arms, holder)

    async def claim(
        self,
        game_id: int,
        kind: str,
        version: int,
        holder: str,
        *,
        now: float,
        lease: float,
        alive: Collection[str] | None = None,
    ) -> bool:
        """Claim the game's deadline armed at ``version`` for firing it now. False only when
        another process holds it (claimed and its lease not run out — nor that process gone:
        ``alive``, the holders alive, :mod:`db.presence`): a row not written yet, or one at
        another version, does not stop the caller (the versioned append decides)."""
        async with self._store._write() as conn:
            claimed = await conn.execute(
                update(_D)
                .where(
                    _D.c.game_id == game_id,
                    _D.c.kind == kind,
                    _D.c.version == version,
                    _free(now, alive, holder),
                )
                .values(lease_until=now + lease, holder=holder[:64])
            )
            if claimed.rowcount == 1:
                return True
            taken = await conn.scalar(
                select(_D.c.game_id).where(
                    _D.c.game_id == game_id, _D.c.kind == kind, _D.c.version == version
                )
            )
        return taken is None

    async def claim_overdue(
        self,
        holder: str,
        *,
        now: float,
        grace: float,
        lease: float,
        limit: int = 50,
        alive: Collection[str] | None = None,
    ) -> list[DueDeadline]:
        """Claim up to ``limit`` deadlines past due by ``grace`` seconds that nobody is firing
        (``FOR UPDATE SKIP LOCKED``: two processes sweeping at once take different rows);
        ``alive``: the holders alive — a claim by any other is void, its lease or not."""
        async with self._store._write() as conn:
            rows = (
                await conn.execute(
                    select(_D.c.game_id, _D.c.kind, _D.c.version, _D.c.due_at)
                    .where(_D.c.due_at <= now - grace, _free(now, alive))
                    .order_by(_D.c.due_at)
                    .limit(limit)
                    .with_for_update(skip_locked=True)
                )
            ).all()
            if not rows:
                return []
            await conn.execute(
                update(_D)
                .where(or_(*(and_(_D.c.game_id == r.game_id, _D.c.kind == r.kind) for r in rows)))
                .values(lease_until=now + lease, holder=holder[:64])
            )
        return [DueDeadline(r.game_id, r.kind, r.version, r.due_at) for r in rows]

    async def drop(self, game_id: int, kind: str, version: int) -> None:
        """Forget a deadline the game has moved past (it is at another version now)."""
        async with self._store._write() as conn:
            await conn.execute(
                delete(_D).where(
                    _D.c.game_id == game_id, _D.c.kind == kind, _D.c.version <= version
                )
            )

    async def pending(self, game_id: int | None = None) -> list[DueDeadline]:
        """The stored deadlines (of one game, or all), soonest first."""
        stmt = select(_D.c.game_id, _D.c.kind, _D.c.version, _D.c.due_at).order_by(_D.c.due_at)
        if game_id is not None:
            stmt = stmt.where(_D.c.game_id == game_id)
        async with self._store._read() as conn:
            rows = (await conn.execute(stmt)).all()
        return [DueDeadline(r.game_id, r.kind, r.version, r.due_at) for r in rows]
