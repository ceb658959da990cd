"""Recomputing a server's ratings from its recorded hands (a repair tool)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from itertools import groupby
from typing import Any, NamedTuple

from sqlalchemy import func, select

from db.base import Database
from db.models import HandResult, Rating, utcnow
from db.ratings import MU, SIGMA, Skill, rate_hand
from db.types import ALL_VARIANTS, StoreError

_HR = HandResult.__table__
_R = Rating.__table__
Key = tuple[str, int, bool]


class Line(NamedTuple):
    """One player's line of a hand, as the replay needs it."""

    hand_id: int
    user_id: int
    is_ai: bool
    delta: int
    variant: str


def replay(rows: Sequence[Line]) -> dict[Key, tuple[Skill, int]]:
    """Rate the hands' lines (ordered by time, hand, seat) as `hands.record` does:
    ``(variant, user_id, is_ai) -> (skill, rated hands)``."""
    state: dict[Key, tuple[Skill, int]] = {}
    for _, lines in groupby(rows, key=lambda r: r.hand_id):
        seats = list(lines)
        for variant in (seats[0].variant, ALL_VARIANTS):
            keys = [(variant, r.user_id, r.is_ai) for r in seats]
            before = [state[k][0] if k in state else Skill(MU, SIGMA) for k in keys]
            after = rate_hand(before, [r.delta for r in seats])
            for key, new in zip(keys, after or [], strict=False):
                rated = state[key][1] if key in state else 0
                state[key] = (new, rated + 1)
    return state


class RatingRebuild:
    """Ratings replayed from scratch, hand by hand, in the order they were played."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def rebuild(self, guild_id: int, *, attempts: int = 3) -> int:
        """Replace the server's current ratings by replaying every recorded hand (by time,
        then id) as `hands.record` rates them; returns the number of hands replayed.

        A repair tool (about 8 s for 100,000 hands on SQLite): `records.void` already
        replays the ratings it touches (see :mod:`db.unrate`), so after a void the ratings
        equal what this computes. The rows stream in chunks, the replay runs in a worker
        thread, the write is short; if hands were recorded meanwhile it starts again. The
        rating history is left as it is.
        """
        for _ in range(attempts):
            rows: list[Line] = []
            async with self.db.read() as conn:
                mark = (await conn.execute(self._mark(guild_id))).one()
                result = await conn.stream(
                    select(_HR.c.hand_id, _HR.c.user_id, _HR.c.is_ai, _HR.c.delta, _HR.c.variant)
                    .where(_HR.c.guild_id == guild_id)
                    .order_by(_HR.c.created_at, _HR.c.hand_id, _HR.c.seat)
                )
                async for part in result.partitions(5000):  # let the bot run meanwhile
                    rows += [Line(*r) for r in part]
            state = await asyncio.to_thread(replay, rows)
            now = utcnow()
            async with self.db.write() as conn:
                if (await conn.execute(self._mark(guild_id))).one() != mark:
                    continue  # a hand was recorded or removed meanwhile: replay again
                await conn.execute(_R.delete().where(_R.c.guild_id == guild_id))
                if state:
                    await conn.execute(
                        _R.insert(),
                        [
                            {"guild_id": guild_id, "variant": v, "user_id": u, "is_ai": ai,
                             "mu": skill.mu, "sigma": skill.sigma, "hands": rated,
                             "updated_at": now}
                            for (v, u, ai), (skill, rated) in state.items()
                        ],
                    )  # fmt: skip
            return len({r.hand_id for r in rows})
        raise StoreError(f"server {guild_id} kept changing; ratings not rebuilt")

    @staticmethod
    def _mark(guild_id: int) -> Any:
        return select(func.count(), func.max(_HR.c.hand_id), func.sum(_HR.c.hand_id)).where(
            _HR.c.guild_id == guild_id
        )
