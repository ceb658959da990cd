"""Extra read queries for the stats commands: recent hands played with real tiles
(实体牌局) and display names in bulk. Functions over an opened :class:`db.store.Store`,
each in one read transaction; they return the store's plain values.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import select

from db.hands import hand_info
from db.models import Hand, HandResult, Player
from db.types import HandInfo

_H = Hand.__table__
_HR = HandResult.__table__
_P = Player.__table__


async def recent_record_hands(
    store: Any, guild_id: int, *, user_id: int | None = None, limit: int = 5
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
    async with store._read() as conn:
        return [hand_info(r) for r in await conn.execute(stmt)]


async def display_names(store: Any, user_ids: Iterable[int]) -> dict[int, str | None]:
    """Stored display names of these users (missing users are left out)."""
    wanted = sorted(set(user_ids))
    if not wanted:
        return {}
    async with store._read() as conn:
        rows = await conn.execute(
            select(_P.c.user_id, _P.c.display_name).where(_P.c.user_id.in_(wanted))
        )
        return {r.user_id: r.display_name for r in rows}


__all__ = ["display_names", "recent_record_hands"]
