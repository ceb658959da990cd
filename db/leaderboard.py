"""Server leaderboards (排行榜) by points, rating or win rate, over a period
(``store.leaderboards``)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Integer, cast, func, literal_column, select
from sqlalchemy.ext.asyncio import AsyncConnection

from db.base import Database
from db.models import Guild, HandResult, Player, Rating, utcnow
from db.periods import period_start
from db.ratings import ordinal
from db.rebuild import Line, replay
from db.types import ALL_VARIANTS, Leaderboard, LeaderboardEntry

ORDERS = ("points", "rating", "winrate")
_HR = HandResult.__table__
_R = Rating.__table__
_P = Player.__table__
_GU = Guild.__table__


@dataclass(frozen=True, slots=True)
class Scope:
    """Which hands count: a server, optionally one variant, a season and a start time."""

    guild_id: int
    variant: str | None
    season: int | None
    since: datetime | None
    sqlite: bool = False

    def where(self, table: Any = _HR) -> list[ColumnElement[bool]]:
        conds = [table.c.guild_id == self.guild_id]
        if self.variant is not None:
            conds.append(table.c.variant == self.variant)
        if self.season is not None:
            conds.append(table.c.season == self.season)
        if self.since is not None:
            recent = table.c.created_at >= self.since
            # Tell SQLite's planner a period is a small slice, so it takes the time index.
            conds.append(func.likelihood(recent, literal_column("0.05")) if self.sqlite else recent)
        return conds


async def resolve_scope(
    conn: AsyncConnection,
    guild_id: int,
    variant: str | None,
    period: str,
    season: int | None,
    now: datetime | None,
) -> Scope:
    """The `Scope` of a period; ``season`` defaults to the server's current one."""
    since = period_start(period, now or utcnow())
    if period == "season" and season is None:
        season = await conn.scalar(select(_GU.c.current_season).where(_GU.c.id == guild_id))
        season = season or 1
    elif period != "season":
        season = None
    return Scope(guild_id, variant, season, since, conn.dialect.name == "sqlite")


def _as_int(column: Any) -> Any:
    return func.sum(cast(column, Integer))


class LeaderboardRepository:
    """Leaderboards of humans (AI seats are rated too, but never listed here)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def page(
        self,
        guild_id: int,
        *,
        variant: str | None = None,
        period: str = "all",
        by: str = "points",
        season: int | None = None,
        user_id: int | None = None,
        offset: int = 0,
        limit: int = 10,
        min_hands: int = 10,
        now: datetime | None = None,
    ) -> Leaderboard:
        """One page of the server's ranking and the asking ``user_id``'s own line.

        ``variant`` None = all variants. ``period``: all | season (``season`` or the current
        one) | month | week (calendar, UTC). ``by``: points (sum of deltas) | rating (openskill
        ordinal of the variant, or of all variants; players who played in the period) |
        winrate (wins / hands, only players with at least ``min_hands`` hands).
        """
        if by not in ORDERS:
            raise ValueError(f"by must be one of {ORDERS}")
        if offset < 0 or limit < 1:
            raise ValueError("offset must be >= 0 and limit >= 1")
        async with self.db.read() as conn:
            scope = await resolve_scope(conn, guild_id, variant, period, season, now)
            rows = await conn.execute(
                select(
                    _HR.c.user_id,
                    func.count().label("hands"),
                    _as_int(_HR.c.won).label("wins"),
                    func.sum(_HR.c.delta).label("points"),
                )
                .where(*scope.where(), _HR.c.is_ai.is_(False))
                .group_by(_HR.c.user_id)
            )
            totals = {r.user_id: (int(r.hands), int(r.wins or 0), int(r.points or 0)) for r in rows}
            if by == "rating" and (scope.season is not None or scope.since is not None):
                skills = await _period_skills(conn, scope)
            else:
                skills = {
                    r.user_id: (r.mu, r.sigma)
                    for r in await conn.execute(
                        select(_R.c.user_id, _R.c.mu, _R.c.sigma).where(
                            _R.c.guild_id == guild_id,
                            _R.c.variant == (variant or ALL_VARIANTS),
                            _R.c.is_ai.is_(False),
                        )
                    )
                }
            entries = [_entry(uid, t, skills.get(uid)) for uid, t in totals.items()]
            ranked = _rank(entries, by, min_hands)
            page = ranked[offset : offset + limit]
            me = next((e for e in ranked if e.user_id == user_id), None)
            if me is None and user_id is not None and user_id in totals:
                me = _entry(user_id, totals[user_id], skills.get(user_id))
            wanted = {e.user_id for e in page} | ({me.user_id} if me else set())
            names = await self._names(conn, wanted)
        return Leaderboard(
            guild_id=guild_id,
            variant=variant,
            period=period,
            by=by,
            season=scope.season,
            since=scope.since,
            total=len(ranked),
            offset=offset,
            entries=[_named(e, names) for e in page],
            me=None if me is None else _named(me, names),
        )

    async def _names(self, conn: AsyncConnection, user_ids: set[int]) -> dict[int, str | None]:
        if not user_ids:
            return {}
        rows = await conn.execute(
            select(_P.c.user_id, _P.c.display_name).where(_P.c.user_id.in_(user_ids))
        )
        return {r.user_id: r.display_name for r in rows}


async def _period_skills(conn: AsyncConnection, scope: Scope) -> dict[int, tuple[float, float]]:
    """Ratings earned within the period alone (a season, month or week): the period's hands
    rated from a fresh start, in the order they were played, as `hands.record` rates them.
    The stored ratings are all-time, so a season table ranked by them would not be a
    season's."""
    rows = await conn.execute(
        select(_HR.c.hand_id, _HR.c.user_id, _HR.c.is_ai, _HR.c.delta, _HR.c.variant)
        .where(*scope.where())
        .order_by(_HR.c.created_at, _HR.c.hand_id, _HR.c.seat)
    )
    lines = [Line(*r) for r in rows]
    state = await asyncio.to_thread(replay, lines)
    key = scope.variant or ALL_VARIANTS
    return {
        uid: (skill.mu, skill.sigma)
        for (variant, uid, is_ai), (skill, _) in state.items()
        if variant == key and not is_ai
    }


def _entry(
    user_id: int, totals: tuple[int, int, int], skill: tuple[float, float] | None
) -> LeaderboardEntry:
    hands, wins, points = totals
    mu, sigma = skill if skill else (None, None)
    return LeaderboardEntry(
        rank=None,
        user_id=user_id,
        display_name=None,
        hands=hands,
        wins=wins,
        points=points,
        win_rate=wins / hands if hands else 0.0,
        mu=mu,
        sigma=sigma,
        rating=None if mu is None or sigma is None else ordinal(mu, sigma),
    )


def _rank(entries: list[LeaderboardEntry], by: str, min_hands: int) -> list[LeaderboardEntry]:
    """Sort and number the entries; ties keep a stable order (more hands first, then id)."""
    if by == "points":
        eligible = sorted(entries, key=lambda e: (-e.points, -e.wins, e.hands, e.user_id))
    elif by == "winrate":
        eligible = sorted(
            (e for e in entries if e.hands >= min_hands),
            key=lambda e: (-e.win_rate, -e.hands, e.user_id),
        )
    else:
        eligible = sorted(
            (e for e in entries if e.rating is not None),
            key=lambda e: (-(e.rating or 0.0), -e.hands, e.user_id),
        )
    return [replace(e, rank=i) for i, e in enumerate(eligible, start=1)]


def _named(entry: LeaderboardEntry, names: dict[int, str | None]) -> LeaderboardEntry:
    return replace(entry, display_name=names.get(entry.user_id))
