"""A player's stats (战绩) and the history of games and hands (``store.stats``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Integer, cast, exists, func, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection

from db import sessions as session_queries
from db.base import Database
from db.games import game_info
from db.hands import hand_info
from db.leaderboard import Scope, resolve_scope
from db.models import Game, Hand, HandResult, Rating, RatingHistory
from db.ratings import ordinal
from db.types import (
    ALL_VARIANTS,
    BiggestHand,
    GameSummary,
    HandInfo,
    PlayerStats,
    RatingPoint,
    SessionRecord,
    SessionTally,
)

_HR = HandResult.__table__
_H = Hand.__table__
_G = Game.__table__
_R = Rating.__table__
_RH = RatingHistory.__table__


def _sum(column: Any) -> Any:
    return func.coalesce(func.sum(cast(column, Integer)), 0)


class StatsRepository:
    """Per-player stats and game/hand history (``store.stats``)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def player_stats(
        self,
        guild_id: int,
        user_id: int,
        *,
        variant: str | None = None,
        period: str = "all",
        season: int | None = None,
        history_limit: int = 100,
        now: datetime | None = None,
    ) -> PlayerStats:
        """Hands, wins, self-draw share (自摸 / wins), deal-in share (点炮 / hands), average
        win, biggest hand with its items, favourite variant, rating and its recent history."""
        async with self.db.read() as conn:
            scope = await resolve_scope(conn, guild_id, variant, period, season, now)
            mine = [*scope.where(), _HR.c.user_id == user_id]
            row = (
                await conn.execute(
                    select(
                        func.count().label("hands"),
                        _sum(_HR.c.won).label("wins"),
                        _sum(_HR.c.self_draw).label("self_draws"),
                        _sum(_HR.c.dealt_in).label("deal_ins"),
                        func.coalesce(func.sum(_HR.c.delta), 0).label("points"),
                        func.coalesce(func.sum(_HR.c.delta * cast(_HR.c.won, Integer)), 0).label(
                            "won_points"
                        ),
                    ).where(*mine)
                )
            ).one()
            favourite = await conn.scalar(
                select(_HR.c.variant)
                .where(*Scope(guild_id, None, scope.season, scope.since, scope.sqlite).where(),
                       _HR.c.user_id == user_id)
                .group_by(_HR.c.variant)
                .order_by(func.count().desc(), _HR.c.variant)
                .limit(1)
            )  # fmt: skip
            biggest = await self._biggest_hand(conn, mine)
            rating, history = await self._rating_history(
                conn, guild_id, user_id, variant or ALL_VARIANTS, history_limit
            )
        hands, wins = int(row.hands), int(row.wins)
        return PlayerStats(
            guild_id=guild_id,
            user_id=user_id,
            variant=variant,
            period=period,
            hands=hands,
            wins=wins,
            self_draws=int(row.self_draws),
            deal_ins=int(row.deal_ins),
            points=int(row.points),
            win_rate=wins / hands if hands else 0.0,
            self_draw_share=int(row.self_draws) / wins if wins else 0.0,
            deal_in_share=int(row.deal_ins) / hands if hands else 0.0,
            average_win=int(row.won_points) / wins if wins else 0.0,
            biggest_hand=biggest,
            favourite_variant=favourite,
            rating=rating,
            rating_history=history,
        )

    async def _biggest_hand(self, conn: AsyncConnection, mine: list[Any]) -> BiggestHand | None:
        best = (
            await conn.execute(
                select(_HR.c.hand_id, _HR.c.delta, _HR.c.points)
                .where(*mine, _HR.c.won.is_(True))
                .order_by(_HR.c.points.desc(), _HR.c.delta.desc(), _HR.c.hand_id)
                .limit(1)
            )
        ).one_or_none()
        if best is None:
            return None
        hand = (await conn.execute(select(_H).where(_H.c.id == best.hand_id))).one()
        return BiggestHand(
            hand_id=hand.id,
            variant=hand.variant,
            points=int(best.points),  # the player's own hand (一炮多响: not the sum)
            delta=best.delta,
            how=hand.how,
            items=hand.items,
            created_at=hand.created_at,
        )

    async def _rating_history(
        self, conn: AsyncConnection, guild_id: int, user_id: int, variant: str, limit: int
    ) -> tuple[RatingPoint | None, list[RatingPoint]]:
        current = (
            await conn.execute(
                select(_R.c.mu, _R.c.sigma, _R.c.updated_at).where(
                    _R.c.guild_id == guild_id,
                    _R.c.variant == variant,
                    _R.c.user_id == user_id,
                    _R.c.is_ai.is_(False),
                )
            )
        ).one_or_none()
        rows = await conn.execute(
            select(_RH.c.mu, _RH.c.sigma, _RH.c.created_at)
            .where(
                _RH.c.guild_id == guild_id,
                _RH.c.user_id == user_id,
                _RH.c.variant == variant,
                _RH.c.is_ai.is_(False),
            )
            .order_by(_RH.c.created_at.desc(), _RH.c.id.desc())
            .limit(limit)
        )
        history = [RatingPoint(r.created_at, r.mu, r.sigma, ordinal(r.mu, r.sigma)) for r in rows]
        history.reverse()
        point = (
            None
            if current is None
            else RatingPoint(
                current.updated_at, current.mu, current.sigma, ordinal(current.mu, current.sigma)
            )
        )
        return point, history

    async def recent_games(
        self,
        guild_id: int,
        *,
        user_id: int | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[GameSummary]:
        """The server's games, latest activity first, with their totals and hand counts;
        with ``user_id`` only games in which that player has a recorded hand. Lobbies, and
        games abandoned before a hand ended, are left out.

        Pages the games first (``ix_games_guild_updated``), then counts the hands of each
        listed game (``uq_hands_game_hand_no``) and tests the player (``ix_hand_results_game``)
        per game, so the cost does not grow with the server's hands."""
        hands = (
            select(func.count())
            .select_from(_H)
            .where(_H.c.game_id == _G.c.id)
            .correlate(_G)
            .scalar_subquery()
        )
        stmt = (
            select(_G, hands.label("hand_count"))
            .where(_G.c.guild_id == guild_id, _G.c.status != "lobby")
            # a game abandoned before any hand ended was never played: not history
            .where(or_(_G.c.status != "abandoned", hands > 0))
            .order_by(_G.c.updated_at.desc(), _G.c.id.desc())
            .limit(limit)
            .offset(offset)
        )
        if user_id is not None:
            played = exists().where(_HR.c.game_id == _G.c.id, _HR.c.user_id == user_id)
            stmt = stmt.where(played.correlate(_G))
        async with self.db.read() as conn:
            rows = await conn.execute(stmt)
            return [GameSummary(game=game_info(r), hands=int(r.hand_count)) for r in rows]

    async def record_hands(
        self, guild_id: int, *, user_id: int | None = None, limit: int = 5
    ) -> list[HandInfo]:
        """The server's latest confirmed physical-record hands (``source = record``), newest
        first; with ``user_id`` only hands in which that person (not an AI seat) played.

        Served by ``ix_hand_results_player`` (a player's lines) or ``ix_hands_guild_created``.
        """
        if user_id is None:
            stmt = (
                select(_H)
                .where(_H.c.guild_id == guild_id, _H.c.source == "record")
                .order_by(_H.c.created_at.desc(), _H.c.id.desc())
                .limit(limit)
            )
        else:
            mine = (
                select(_HR.c.hand_id)
                .where(
                    _HR.c.guild_id == guild_id,
                    _HR.c.user_id == user_id,
                    _HR.c.is_ai.is_(False),
                    _HR.c.source == "record",
                )
                .order_by(_HR.c.created_at.desc(), _HR.c.hand_id.desc())
                .limit(limit)
                .subquery()
            )
            stmt = (
                select(_H)
                .join(mine, mine.c.hand_id == _H.c.id)
                .order_by(_H.c.created_at.desc(), _H.c.id.desc())
            )
        async with self.db.read() as conn:
            return [hand_info(r) for r in await conn.execute(stmt)]

    # ------------------------------------------------------------------ sessions (场次战绩)

    async def sessions(
        self, guild_id: int, user_id: int, *, limit: int = 10, offset: int = 0
    ) -> list[SessionRecord]:
        """The person's ended online sessions in the server, latest first (by their last
        hand), each with every player's total, rank and the 大赢家 (:mod:`db.sessions`)."""
        async with self.db.read() as conn:
            return await session_queries.player_sessions(
                conn, guild_id, user_id, limit=limit, offset=offset
            )

    async def session(self, guild_id: int, game_id: int) -> SessionRecord | None:
        """One ended session of the server, or None."""
        async with self.db.read() as conn:
            return await session_queries.one_session(conn, guild_id, game_id)

    async def session_tally(self, guild_id: int, user_id: int) -> SessionTally:
        """The person's sessions played, 大赢家 count and points over them in the server."""
        async with self.db.read() as conn:
            return await session_queries.session_tally(conn, guild_id, user_id)
