"""Taking a removed hand out of the ratings (撤销记录): the hand's variant and the ``*``
scope are replayed from the removed hand onward, rating history included.

The result equals a full `ratings.rebuild` of the server without that hand (same order:
time, then hand id; same openskill model), but only the hands *after* the removed one are
read and only the ratings it actually influenced are rewritten: a later hand is rated again
only when one of its players' ratings changed (a *dirty* player); otherwise its stored
history is already right and is just carried along.

Two phases keep the write lock short: the plan (reading, openskill in a worker thread) runs
on a read snapshot; the write transaction locks the affected rating rows, checks that the
server's hands did not change meanwhile (a *mark*: count, max and sum of hand ids) and writes
the plan. If they changed, the plan is made again; the last attempt plans under the lock, so
the ratings are right whenever the call returns.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import and_, bindparam, delete, func, or_, select, text, tuple_, update
from sqlalchemy.ext.asyncio import AsyncConnection

from db.base import Database
from db.models import Hand, HandResult, Rating, RatingHistory
from db.ratings import MU, SIGMA, Skill, rate_hand
from db.types import ALL_VARIANTS

_H = Hand.__table__
_HR = HandResult.__table__
_R = Rating.__table__
_RH = RatingHistory.__table__

#: ``(user_id, is_ai)``: one rated person (AI seats are rated apart from humans).
Who = tuple[int, bool]
#: ``(scope, user_id, is_ai)``; the scope is a variant or ``*``.
ScopedWho = tuple[str, int, bool]
DEFAULT = Skill(MU, SIGMA)
#: Rows per statement when rewriting the rating history.
CHUNK = 5000


class LaterHand(NamedTuple):
    """A hand recorded after the removed one: its lines in seat order."""

    hand_id: int
    variant: str
    created_at: datetime
    lines: list[tuple[int, bool, int]]  # (user_id, is_ai, delta)


@dataclass
class Replay:
    """What removing a hand changes: rating history rows (by id) to rewrite, rows to add
    (only when the stored history had a gap), and the final skill of every player whose
    rating changed."""

    history: list[tuple[int, float, float]] = field(default_factory=list)
    missing: list[dict[str, Any]] = field(default_factory=list)
    ratings: dict[ScopedWho, Skill] = field(default_factory=dict)
    rerated_hands: int = 0


@dataclass
class UnratePlan:
    """A removal worked out on one view of the server: valid while its ``mark`` holds."""

    hand_id: int
    guild_id: int
    variant: str
    mark: tuple[Any, ...]
    removed: list[Who]  # players whose rated-hand count drops by one (empty: hand unrated)
    replay: Replay
    later_hands: int = 0


def is_rated(deltas: Sequence[int]) -> bool:
    """Whether `rate_hand` rates a hand with these deltas (not every delta equal)."""
    return len(deltas) >= 2 and len(set(deltas)) > 1


def replay_without(
    variant: str,
    removed: Sequence[Who],
    start: dict[ScopedWho, Skill],
    later: Sequence[LaterHand],
    stored: dict[tuple[int, str, int, bool], tuple[int, float, float]],
    guild_id: int,
) -> Replay:
    """Replay the scopes ``variant`` and ``*`` without a removed hand (pure, no I/O).

    ``removed``: the removed hand's players; ``start``: each player's skill just before the
    removed hand; ``later``: the hands after it, in rating order; ``stored``:
    ``(hand_id, scope, user_id, is_ai) -> (history id, mu, sigma)`` for those hands.
    """
    out = Replay()
    rerated: set[int] = set()
    for scope in (variant, ALL_VARIANTS):
        current: dict[Who, Skill] = {w: start.get((scope, *w), DEFAULT) for w in removed}
        dirty: set[Who] = set(removed)
        for hand in later:
            if scope != ALL_VARIANTS and hand.variant != scope:
                continue
            people = [(u, ai) for u, ai, _ in hand.lines]
            if dirty.isdisjoint(people):
                for w in people:  # untouched: the stored history is right
                    kept = stored.get((hand.hand_id, scope, *w))
                    if kept is not None:
                        current[w] = Skill(kept[1], kept[2])
                continue
            before = [current.get(w) or start.get((scope, *w), DEFAULT) for w in people]
            after = rate_hand(before, [d for _, _, d in hand.lines])
            if after is None:
                continue
            rerated.add(hand.hand_id)
            for w, new in zip(people, after, strict=True):
                current[w] = new
                dirty.add(w)
                kept = stored.get((hand.hand_id, scope, *w))
                if kept is not None:
                    out.history.append((kept[0], new.mu, new.sigma))
                else:
                    out.missing.append(
                        {"guild_id": guild_id, "variant": scope, "user_id": w[0], "is_ai": w[1],
                         "hand_id": hand.hand_id, "mu": new.mu, "sigma": new.sigma,
                         "created_at": hand.created_at}
                    )  # fmt: skip
        for w in dirty:
            out.ratings[(scope, *w)] = current.get(w) or start.get((scope, *w), DEFAULT)
    out.rerated_hands = len(rerated)
    return out


def _after(created_at: Any, hand_id: Any, point: tuple[datetime, int]) -> Any:
    """Rows rated after ``point`` = (created_at, hand id), in `ratings.rebuild`' order."""
    when, hid = point
    return or_(created_at > when, and_(created_at == when, hand_id > hid))


def _before(created_at: Any, hand_id: Any, point: tuple[datetime, int]) -> Any:
    when, hid = point
    return or_(created_at < when, and_(created_at == when, hand_id < hid))


class RatingRemoval:
    """Removing a recorded hand together with its effect on ratings and rating history
    (``store.ratings.removal``)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @staticmethod
    def hands_mark(guild_id: int) -> Any:
        return select(func.count(), func.max(_H.c.id), func.sum(_H.c.id)).where(
            _H.c.guild_id == guild_id
        )

    async def lock_ratings(self, conn: AsyncConnection, guild_id: int, variant: str) -> None:
        """Lock the server's rating rows of ``variant``, then of ``*`` (the order
        `hands.record` takes them in, so the two never deadlock). No-op on SQLite, whose
        write transaction already excludes every other writer."""
        if self.db.dialect == "sqlite":
            return
        for scope in (variant, ALL_VARIANTS):
            await conn.execute(
                select(_R.c.user_id)
                .where(_R.c.guild_id == guild_id, _R.c.variant == scope)
                .order_by(_R.c.user_id, _R.c.is_ai)
                .with_for_update()
            )

    async def plan(self, conn: AsyncConnection, hand_id: int) -> UnratePlan | None:
        """Work out what removing the hand changes (None: no such hand)."""
        hand = (
            await conn.execute(
                select(_H.c.guild_id, _H.c.variant, _H.c.created_at).where(_H.c.id == hand_id)
            )
        ).one_or_none()
        if hand is None:
            return None
        guild_id, variant = hand.guild_id, hand.variant
        mark = tuple((await conn.execute(self.hands_mark(guild_id))).one())
        lines = (
            await conn.execute(
                select(_HR.c.user_id, _HR.c.is_ai, _HR.c.delta)
                .where(_HR.c.hand_id == hand_id)
                .order_by(_HR.c.seat)
            )
        ).all()
        plan = UnratePlan(hand_id, guild_id, variant, mark, [], Replay())
        if not is_rated([r.delta for r in lines]):
            return plan  # a hand that moved no rating
        plan.removed = [(r.user_id, r.is_ai) for r in lines]
        point = (hand.created_at, hand_id)
        start = await self._skills_before(conn, guild_id, variant, point)
        later, stored = await self._later_hands(conn, guild_id, variant, point)
        plan.later_hands = len(later)
        plan.replay = await asyncio.to_thread(
            replay_without, variant, plan.removed, start, later, stored, guild_id
        )
        return plan

    async def _skills_before(
        self, conn: AsyncConnection, guild_id: int, variant: str, point: tuple[datetime, int]
    ) -> dict[ScopedWho, Skill]:
        """Every rated player's skill (both scopes) just before ``point``, from the history."""
        x = _RH.alias("x")
        last = (
            select(x.c.id)
            .where(
                x.c.guild_id == _R.c.guild_id,
                x.c.user_id == _R.c.user_id,
                x.c.variant == _R.c.variant,
                x.c.is_ai == _R.c.is_ai,
                _before(x.c.created_at, x.c.hand_id, point),
            )
            .order_by(x.c.created_at.desc(), x.c.hand_id.desc())
            .limit(1)
            .scalar_subquery()
        )
        rows = await conn.execute(
            select(_R.c.variant, _R.c.user_id, _R.c.is_ai, _RH.c.mu, _RH.c.sigma)
            .select_from(_R.join(_RH, _RH.c.id == last))
            .where(_R.c.guild_id == guild_id, _R.c.variant.in_([variant, ALL_VARIANTS]))
        )
        return {(r.variant, r.user_id, r.is_ai): Skill(r.mu, r.sigma) for r in rows}

    async def _later_hands(
        self, conn: AsyncConnection, guild_id: int, variant: str, point: tuple[datetime, int]
    ) -> tuple[list[LaterHand], dict[tuple[int, str, int, bool], tuple[int, float, float]]]:
        """The server's hands after ``point`` (rating order, lines by seat) and their stored
        rating history in the two scopes."""
        after = _after(_H.c.created_at, _H.c.id, point)
        later: list[LaterHand] = []
        result = await conn.stream(
            select(_H.c.id, _H.c.variant, _H.c.created_at, _HR.c.user_id, _HR.c.is_ai, _HR.c.delta)
            .select_from(_H.join(_HR, _HR.c.hand_id == _H.c.id))
            .where(_H.c.guild_id == guild_id, after)
            .order_by(_H.c.created_at, _H.c.id, _HR.c.seat)
        )
        async for part in result.partitions(5000):  # let the bot run meanwhile
            for hid, hand_variant, when, user_id, is_ai, delta in part:
                if not later or later[-1].hand_id != hid:
                    later.append(LaterHand(hid, hand_variant, when, []))
                later[-1].lines.append((user_id, is_ai, delta))
        stored: dict[tuple[int, str, int, bool], tuple[int, float, float]] = {}
        result = await conn.stream(
            select(_RH.c.id, _RH.c.hand_id, _RH.c.variant, _RH.c.user_id, _RH.c.is_ai,
                   _RH.c.mu, _RH.c.sigma)
            .select_from(_H.join(_RH, _RH.c.hand_id == _H.c.id))
            .where(_H.c.guild_id == guild_id, after,
                   _RH.c.variant.in_([variant, ALL_VARIANTS]))
        )  # fmt: skip
        async for part in result.partitions(5000):
            for rid, hid, scope, user_id, is_ai, mu, sigma in part:
                stored[(hid, scope, user_id, is_ai)] = (rid, mu, sigma)
        return later, stored

    async def apply(self, conn: AsyncConnection, plan: UnratePlan, now: datetime) -> None:
        """Delete the hand (its lines and history go with it) and write the replay."""
        await conn.execute(delete(_H).where(_H.c.id == plan.hand_id))
        replay = plan.replay
        await self._rewrite_history(conn, replay.history)
        if replay.missing:
            await conn.execute(_RH.insert(), replay.missing)
        if plan.removed:
            who = tuple_(_R.c.user_id, _R.c.is_ai).in_(plan.removed)
            for scope in (plan.variant, ALL_VARIANTS):
                where = (_R.c.guild_id == plan.guild_id, _R.c.variant == scope, who)
                await conn.execute(
                    update(_R).where(*where).values(hands=_R.c.hands - 1, updated_at=now)
                )
                await conn.execute(delete(_R).where(*where, _R.c.hands <= 0))
        if replay.ratings:
            await conn.execute(
                update(_R)
                .where(
                    _R.c.guild_id == plan.guild_id,
                    _R.c.variant == bindparam("k_variant"),
                    _R.c.user_id == bindparam("k_user"),
                    _R.c.is_ai == bindparam("k_ai"),
                )
                .values(mu=bindparam("new_mu"), sigma=bindparam("new_sigma"), updated_at=now),
                [
                    {"k_variant": v, "k_user": u, "k_ai": ai, "new_mu": s.mu, "new_sigma": s.sigma}
                    for (v, u, ai), s in replay.ratings.items()
                ],
            )

    async def _rewrite_history(
        self, conn: AsyncConnection, rows: Sequence[tuple[int, float, float]]
    ) -> None:
        if not rows:
            return
        if self.db.dialect == "postgresql":
            stmt = text(
                "UPDATE rating_history AS rh SET mu = v.mu, sigma = v.sigma "
                "FROM unnest(CAST(:ids AS bigint[]), CAST(:mus AS float8[]), "
                "CAST(:sigmas AS float8[])) AS v(id, mu, sigma) WHERE rh.id = v.id"
            )
            for i in range(0, len(rows), CHUNK):
                part = rows[i : i + CHUNK]
                await conn.execute(
                    stmt,
                    {"ids": [r[0] for r in part], "mus": [r[1] for r in part],
                     "sigmas": [r[2] for r in part]},
                )  # fmt: skip
            return
        for i in range(0, len(rows), CHUNK):  # the driver's executemany: 3x SQLAlchemy's
            await conn.exec_driver_sql(
                "UPDATE rating_history SET mu = ?, sigma = ? WHERE id = ?",
                [(mu, sigma, rid) for rid, mu, sigma in rows[i : i + CHUNK]],
            )
