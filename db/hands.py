"""Recording a finished hand (一局): the hand, one line per player, the game's totals and
the players' ratings, all in one transaction."""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, or_, select, update
from sqlalchemy.engine import Row
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from db.guilds import GuildsMixin
from db.models import (
    HAND_SOURCES,
    WIN_KINDS,
    Game,
    Guild,
    Hand,
    HandResult,
    Rating,
    RatingHistory,
    utcnow,
)
from db.ratings import MU, SIGMA, Skill, rate_hand
from db.types import (
    ALL_VARIANTS,
    DuplicateHand,
    GameNotFound,
    HandInfo,
    HandInput,
    RatingChange,
    RecordedHand,
)

_H = Hand.__table__
_HR = HandResult.__table__
_R = Rating.__table__
_RH = RatingHistory.__table__
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


class HandsMixin(GuildsMixin):
    """Finished hands, their per-player lines and ratings."""

    async def record_hand(self, hand: HandInput) -> RecordedHand:
        """Write the finished hand, one `hand_results` line per seat, add the deltas to the
        game's totals and update openskill ratings (the hand's variant and ``*``), in one
        transaction. A game's hand number is recorded once: again gives `DuplicateHand`."""
        validate_hand(hand)
        async with self._write() as conn:
            return await self._record_hand(conn, hand)

    async def _record_hand(self, conn: AsyncConnection, hand: HandInput) -> RecordedHand:
        validate_hand(hand)
        now = hand.created_at or utcnow()
        await self._ensure_guild(conn, hand.guild_id)
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
        changes: list[RatingChange] = []
        for variant in (hand.variant, ALL_VARIANTS):
            changes += await self._rate(conn, hand, variant, info.id, now)
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

    async def _rate(
        self, conn: AsyncConnection, hand: HandInput, variant: str, hand_id: int, now: Any
    ) -> list[RatingChange]:
        who = or_(*(and_(_R.c.user_id == p.user_id, _R.c.is_ai == p.is_ai) for p in hand.players))
        rows = await conn.execute(
            select(_R.c.user_id, _R.c.is_ai, _R.c.mu, _R.c.sigma)
            .where(_R.c.guild_id == hand.guild_id, _R.c.variant == variant, who)
            .with_for_update()
        )
        known = {(r.user_id, r.is_ai): Skill(r.mu, r.sigma) for r in rows}
        before = [known.get((p.user_id, p.is_ai), Skill(MU, SIGMA)) for p in hand.players]
        after = rate_hand(before, [p.delta for p in hand.players])
        if after is None:
            return []
        changes = []
        for p, old, new in zip(hand.players, before, after, strict=True):
            stmt = self._insert(_R).values(
                guild_id=hand.guild_id,
                variant=variant,
                user_id=p.user_id,
                is_ai=p.is_ai,
                mu=new.mu,
                sigma=new.sigma,
                hands=1,
                updated_at=now,
            )
            await conn.execute(
                stmt.on_conflict_do_update(
                    index_elements=["guild_id", "variant", "user_id", "is_ai"],
                    set_={
                        "mu": new.mu,
                        "sigma": new.sigma,
                        "hands": _R.c.hands + 1,
                        "updated_at": now,
                    },
                )
            )
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
