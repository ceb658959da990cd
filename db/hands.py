"""Finished hands (一局) (``store.hands``): recording one — the hand, one line per player, the
game's totals and the players' ratings, all in one transaction — and reading them."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Row
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from db.base import Database
from db.errors import is_conflict
from db.guilds import ensure_guild
from db.models import (
    HAND_SOURCES,
    WIN_KINDS,
    Game,
    Guild,
    Hand,
    HandResult,
    utcnow,
)
from db.rating_repository import RatingRepository
from db.types import DuplicateHand, GameNotFound, HandInfo, HandInput, RecordedHand

_H = Hand.__table__
_HR = HandResult.__table__
_G = Game.__table__
_GU = Guild.__table__


def hand_info(row: Row[Any]) -> HandInfo:
    """A ``hands`` row as a plain value."""
    m = row._mapping
    return HandInfo(**{name: m[name] for name in HandInfo.__dataclass_fields__})


def validate_hand(hand: HandInput) -> None:
    """Reject a hand that cannot be right; raises ValueError saying why."""
    seats = [p.seat for p in hand.players]
    if len(set(seats)) != len(seats):
        raise ValueError("each seat may appear once")
    people = [(p.user_id, p.is_ai) for p in hand.players]
    if len(set(people)) != len(people):
        raise ValueError("each player may appear once (give AI seats distinct ids)")
    if hand.how not in WIN_KINDS:
        raise ValueError(f"how must be one of {WIN_KINDS}")
    if hand.source not in HAND_SOURCES:
        raise ValueError(f"source must be one of {HAND_SOURCES}")
    if not set(hand.winners) <= set(seats):
        raise ValueError("every winner must be a seat of the hand")
    if (hand.how == "draw") != (not hand.winners):
        raise ValueError("a drawn hand (荒庄) has no winner, any other hand has one")
    if hand.discarder is not None and hand.discarder not in seats:
        raise ValueError("the discarder must be a seat of the hand")
    if (hand.how in ("discard", "rob_kong")) != (hand.discarder is not None):
        raise ValueError("a discard or robbed kong win needs the discarder, others none")
    if hand.source == "online" and hand.game_id is None:
        raise ValueError("an online hand belongs to a game")


#: how many times a hand is recorded when PostgreSQL breaks a deadlock
_ATTEMPTS = 3


class HandRepository:
    """Finished hands and their per-player lines (``store.hands``); recording one also
    rates it (``ratings``) in the same transaction."""

    def __init__(self, db: Database, ratings: RatingRepository) -> None:
        self.db = db
        self.ratings = ratings

    async def record(self, hand: HandInput) -> RecordedHand:
        """Write the finished hand, one `hand_results` line per seat, add the deltas to the
        game's totals and update openskill ratings (the hand's variant and ``*``), in one
        transaction. A game's hand number is recorded once: again gives `DuplicateHand`."""
        validate_hand(hand)
        for attempt in range(_ATTEMPTS):
            try:
                async with self.db.write() as conn:
                    return await self.record_in(conn, hand)
            except DBAPIError as error:
                # Rating rows are locked in one order, so a deadlock should not happen; if
                # PostgreSQL still breaks one, the whole transaction was rolled back and
                # recording again is safe.
                if not is_conflict(error) or attempt == _ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    async def record_in(self, conn: AsyncConnection, hand: HandInput) -> RecordedHand:
        """`record` inside the caller's write transaction (a unit of work spanning
        repositories, e.g. a confirmed physical record)."""
        validate_hand(hand)
        now = hand.created_at or utcnow()
        await ensure_guild(self.db, conn, hand.guild_id)
        season = hand.season
        if season is None:
            season = await conn.scalar(
                select(_GU.c.current_season).where(_GU.c.id == hand.guild_id)
            )
        totals = await self._add_to_totals(conn, hand) if hand.game_id is not None else None
        by_seat = {p.seat: p for p in hand.players}
        discarder = by_seat[hand.discarder] if hand.discarder is not None else None
        values = {
            "game_id": hand.game_id,
            "source": hand.source,
            "guild_id": hand.guild_id,
            "variant": hand.variant,
            "season": season,
            "hand_no": hand.hand_no,
            "winner_seats": list(hand.winners),
            "winner_user_ids": [by_seat[s].user_id for s in hand.winners],
            "how": hand.how,
            "discarder_seat": hand.discarder,
            "discarder_user_id": None if discarder is None else discarder.user_id,
            "points": hand.points,
            "items": list(hand.items),
            "deltas": [
                {"seat": p.seat, "user_id": p.user_id, "delta": p.delta, "is_ai": p.is_ai}
                for p in hand.players
            ],
            "seed_reveal": hand.seed_reveal,
            "created_at": now,
        }
        try:
            row = (await conn.execute(_H.insert().values(**values).returning(*_H.c))).one()
        except IntegrityError as error:
            if "hand_no" in str(error.orig) or "uq_hands_game_hand_no" in str(error.orig):
                raise DuplicateHand(
                    f"game {hand.game_id} hand {hand.hand_no} is already recorded"
                ) from error
            raise
        info = hand_info(row)
        own_points = dict.fromkeys(hand.winners, hand.points)
        own_points.update(zip(hand.winners, hand.winner_points, strict=False))
        await conn.execute(
            _HR.insert(),
            [
                {
                    "hand_id": info.id,
                    "seat": p.seat,
                    "user_id": p.user_id,
                    "guild_id": hand.guild_id,
                    "game_id": hand.game_id,
                    "source": hand.source,
                    "variant": hand.variant,
                    "season": season,
                    "delta": p.delta,
                    "points": own_points.get(p.seat, 0),
                    "won": p.seat in hand.winners,
                    "self_draw": p.seat in hand.winners and hand.how == "self",
                    "dealt_in": p.seat == hand.discarder,
                    "is_ai": p.is_ai,
                    "created_at": now,
                }
                for p in hand.players
            ],
        )
        changes = await self.ratings.rate_in(conn, hand, info.id, now)
        return RecordedHand(hand=info, totals=totals, ratings=changes)

    async def _add_to_totals(self, conn: AsyncConnection, hand: HandInput) -> list[int]:
        row = (
            await conn.execute(
                select(_G.c.totals, _G.c.guild_id).where(_G.c.id == hand.game_id).with_for_update()
            )
        ).one_or_none()
        if row is None:
            raise GameNotFound(hand.game_id or 0)
        if row.guild_id != hand.guild_id:
            raise ValueError("the hand's server is not its game's server")
        totals = list(row.totals)
        for p in hand.players:
            totals.extend([0] * (p.seat + 1 - len(totals)))
            totals[p.seat] += p.delta
        await conn.execute(
            update(_G).where(_G.c.id == hand.game_id).values(totals=totals, updated_at=utcnow())
        )
        return totals

    async def get(self, hand_id: int) -> HandInfo | None:
        """One recorded hand, or None."""
        async with self.db.read() as conn:
            row = (await conn.execute(select(_H).where(_H.c.id == hand_id))).one_or_none()
        return None if row is None else hand_info(row)

    async def of_game(self, game_id: int) -> list[HandInfo]:
        """Every recorded hand of a game, in order (winner, items, payments, seed reveal)."""
        async with self.db.read() as conn:
            rows = await conn.execute(
                select(_H).where(_H.c.game_id == game_id).order_by(_H.c.hand_no, _H.c.id)
            )
            return [hand_info(r) for r in rows]
