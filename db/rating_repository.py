"""Players' ratings (openskill, per server and variant, and ``*`` over all variants): rating
a finished hand, replaying them from scratch, taking a removed hand out (``store.ratings``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import and_, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection

from db.base import Database
from db.models import Rating, RatingHistory
from db.ratings import MU, SIGMA, Skill, rate_hand
from db.rebuild import RatingRebuild
from db.types import ALL_VARIANTS, HandInput, HandPlayer, RatingChange
from db.unrate import RatingRemoval

_R = Rating.__table__
_RH = RatingHistory.__table__


class RatingRepository:
    """Ratings and rating history (``store.ratings``)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        #: taking a removed hand out of the ratings (a voided record)
        self.removal = RatingRemoval(db)
        self._rebuild = RatingRebuild(db)

    async def rebuild(self, guild_id: int, *, attempts: int = 3) -> int:
        """Replace the server's ratings by replaying its hands (see `RatingRebuild`)."""
        return await self._rebuild.rebuild(guild_id, attempts=attempts)

    async def rate_in(
        self, conn: AsyncConnection, hand: HandInput, hand_id: int, now: datetime
    ) -> list[RatingChange]:
        """Rate a hand being recorded in ``conn``'s transaction: its variant, then ``*``."""
        changes: list[RatingChange] = []
        for variant in (hand.variant, ALL_VARIANTS):
            changes += await self._rate_scope(conn, hand, variant, hand_id, now)
        return changes

    async def _rate_scope(
        self, conn: AsyncConnection, hand: HandInput, variant: str, hand_id: int, now: Any
    ) -> list[RatingChange]:
        who = or_(*(and_(_R.c.user_id == p.user_id, _R.c.is_ai == p.is_ai) for p in hand.players))
        rows = await conn.execute(
            select(_R.c.user_id, _R.c.is_ai, _R.c.mu, _R.c.sigma)
            .where(_R.c.guild_id == hand.guild_id, _R.c.variant == variant, who)
            .order_by(_R.c.user_id, _R.c.is_ai)
            .with_for_update()
        )
        known = {(r.user_id, r.is_ai): Skill(r.mu, r.sigma) for r in rows}
        before = [known.get((p.user_id, p.is_ai), Skill(MU, SIGMA)) for p in hand.players]
        after = rate_hand(before, [p.delta for p in hand.players])
        if after is None:
            return []
        changes = []
        # Rows are locked and written in one order (user id, then AI flag) whatever the
        # seats: two hands sharing players (the same AI seats in many games of a server)
        # recorded at once on PostgreSQL would otherwise deadlock on each other's rows.
        order = sorted(range(len(hand.players)), key=lambda i: _lock_key(hand.players[i]))
        stmt = self.db.insert(_R)
        await conn.execute(
            stmt.on_conflict_do_update(
                index_elements=["guild_id", "variant", "user_id", "is_ai"],
                set_={
                    "mu": stmt.excluded.mu,
                    "sigma": stmt.excluded.sigma,
                    "hands": _R.c.hands + 1,
                    "updated_at": stmt.excluded.updated_at,
                },
            ),
            [  # one statement for the four rows, run row by row in this order
                {
                    "guild_id": hand.guild_id,
                    "variant": variant,
                    "user_id": hand.players[i].user_id,
                    "is_ai": hand.players[i].is_ai,
                    "mu": after[i].mu,
                    "sigma": after[i].sigma,
                    "hands": 1,
                    "updated_at": now,
                }
                for i in order
            ],
        )
        for p, old, new in zip(hand.players, before, after, strict=True):
            changes.append(
                RatingChange(p.user_id, p.is_ai, variant, old.mu, old.sigma, new.mu, new.sigma)
            )
        await conn.execute(
            _RH.insert(),
            [
                {
                    "guild_id": hand.guild_id,
                    "variant": variant,
                    "user_id": c.user_id,
                    "is_ai": c.is_ai,
                    "hand_id": hand_id,
                    "mu": c.mu,
                    "sigma": c.sigma,
                    "created_at": now,
                }
                for c in changes
            ],
        )
        return changes


def _lock_key(player: HandPlayer) -> tuple[int, bool]:
    """The order rating rows are locked in (``ORDER BY user_id, is_ai``)."""
    return (player.user_id, player.is_ai)
