"""Physically played hands (实体牌局记录): reported, confirmed by every player, then counted
(``store.records``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Row
from sqlalchemy.ext.asyncio import AsyncConnection

from db.base import Database
from db.guilds import ensure_guild
from db.hands import HandRepository, validate_hand
from db.models import Hand, HandResult, PhysicalRecord, utcnow
from db.rating_repository import RatingRepository
from db.types import (
    HandInput,
    HandPlayer,
    Json,
    NotAPlayer,
    PhysicalRecordInfo,
    RecordClosed,
    RecordNotFound,
)
from db.unrate import UnratePlan

_PR = PhysicalRecord.__table__
_H = Hand.__table__
_HR = HandResult.__table__


def _hand_to_json(hand: HandInput) -> Json:
    data = asdict(hand)
    data.pop("created_at")
    return data


def _hand_from_json(data: Json) -> HandInput:
    fields = dict(data)
    fields["players"] = [HandPlayer(**p) for p in fields["players"]]
    return HandInput(**fields)


def _record(row: Row[Any]) -> PhysicalRecordInfo:
    return PhysicalRecordInfo(
        id=row.id,
        guild_id=row.guild_id,
        reporter_id=row.reporter_id,
        player_ids=list(row.player_ids),
        hand=_hand_from_json(row.payload["hand"]),
        payload=row.payload.get("details", {}),
        confirmations=list(row.confirmations),
        status=row.status,
        expires_at=row.expires_at,
        hand_id=row.hand_id,
        created_at=row.created_at,
    )


class RecordRepository:
    """Records of hands played with real tiles; they count once every player confirmed.
    Confirming the last one records the hand (``hands``) in the same transaction; voiding a
    counted one takes it out of the ratings (``ratings.removal``) in one transaction."""

    def __init__(self, db: Database, hands: HandRepository, ratings: RatingRepository) -> None:
        self.db = db
        self.hands = hands
        self.removal = ratings.removal

    async def create(
        self,
        reporter_id: int,
        hand: HandInput,
        *,
        payload: Json | None = None,
        expires_in: timedelta = timedelta(hours=24),
        now: datetime | None = None,
        winner_points: Mapping[int, int] | None = None,
    ) -> PhysicalRecordInfo:
        """Report a physically played hand (``hand.source`` becomes ``record``, no game).

        Every human player of the hand must confirm; the reporter's own confirmation is
        counted at once when they are one of the players. ``payload`` is kept for display.
        ``winner_points`` (seat → points) gives each winner's own hand value when several
        won on one discard (一炮多响); each winner's line then carries their own points
        instead of ``hand.points`` (the sum), so biggest-hand and average-win stats stay right.
        """
        hand = replace(hand, source="record", game_id=None, created_at=None)
        validate_hand(hand)
        if winner_points is not None and set(winner_points) != set(hand.winners):
            raise ValueError("winner_points needs exactly the winners' seats")
        players = [p.user_id for p in hand.players if not p.is_ai]
        now = now or utcnow()
        stored: Json = {"hand": _hand_to_json(hand), "details": payload or {}}
        if winner_points is not None:
            stored["winner_points"] = {str(s): int(p) for s, p in winner_points.items()}
        async with self.db.write() as conn:
            await ensure_guild(self.db, conn, hand.guild_id)
            row = (
                await conn.execute(
                    _PR.insert()
                    .values(
                        guild_id=hand.guild_id,
                        reporter_id=reporter_id,
                        player_ids=players,
                        payload=stored,
                        confirmations=[reporter_id] if reporter_id in players else [],
                        status="pending",
                        expires_at=now + expires_in,
                        created_at=now,
                        updated_at=now,
                    )
                    .returning(*_PR.c)
                )
            ).one()
            if set(row.confirmations) >= set(players):
                row = await self._confirmed(conn, row, now)
        return _record(row)

    async def _locked(self, conn: AsyncConnection, record_id: int) -> Row[Any]:
        row = (
            await conn.execute(select(_PR).where(_PR.c.id == record_id).with_for_update())
        ).one_or_none()
        if row is None:
            raise RecordNotFound(f"record {record_id} does not exist")
        locked: Row[Any] = row
        return locked

    async def confirm(
        self, record_id: int, user_id: int, *, now: datetime | None = None
    ) -> PhysicalRecordInfo:
        """A named player confirms. When the last one does, the hand is recorded (once) in
        the same transaction and the record becomes ``confirmed`` with its ``hand_id``.

        Raises `RecordNotFound`, `NotAPlayer`, or `RecordClosed` (already confirmed, void,
        or expired — also when ``expires_at`` passed but no sweep ran yet).
        """
        now = now or utcnow()
        async with self.db.write() as conn:
            row = await self._locked(conn, record_id)
            if row.status != "pending":
                raise RecordClosed(record_id, row.status)
            if row.expires_at <= now:
                raise RecordClosed(record_id, "expired")
            if user_id not in row.player_ids:
                raise NotAPlayer(f"user {user_id} is not a player of record {record_id}")
            if user_id not in row.confirmations:
                confirmations = [*row.confirmations, user_id]
                row = (
                    await conn.execute(
                        update(_PR)
                        .where(_PR.c.id == record_id)
                        .values(confirmations=confirmations, updated_at=now)
                        .returning(*_PR.c)
                    )
                ).one()
            if set(row.confirmations) >= set(row.player_ids):
                row = await self._confirmed(conn, row, now)
        return _record(row)

    async def _confirmed(self, conn: AsyncConnection, row: Row[Any], now: datetime) -> Row[Any]:
        hand = replace(_hand_from_json(row.payload["hand"]), created_at=now)
        recorded = await self.hands.record_in(conn, hand)
        own = row.payload.get("winner_points") or {}
        for seat, points in own.items():
            await conn.execute(
                update(_HR)
                .where(_HR.c.hand_id == recorded.hand.id, _HR.c.seat == int(seat))
                .values(points=int(points))
            )
        return (
            await conn.execute(
                update(_PR)
                .where(_PR.c.id == row.id)
                .values(status="confirmed", hand_id=recorded.hand.id, updated_at=now)
                .returning(*_PR.c)
            )
        ).one()

    async def void(
        self, record_id: int, *, now: datetime | None = None, attempts: int = 3
    ) -> PhysicalRecordInfo:
        """An admin voids a record. A confirmed one leaves everything it counted in, by the
        time the call returns: its hand is deleted (leaderboards, stats, history) and the
        ratings of its variant and of ``*`` are replayed from that hand onward, rating history
        included, exactly as if it had never been confirmed (see :mod:`db.unrate`).

        The replay is planned on a read snapshot (openskill in a worker thread) and written in
        a short transaction that first checks the server's hands did not change meanwhile;
        after ``attempts`` tries the plan is made under the write lock. Raises
        `RecordNotFound`, or `RecordClosed` when it is already void.
        """
        now = now or utcnow()
        attempts = max(1, attempts)
        for attempt in range(attempts):
            plan = await self.plan_void(record_id)
            async with self.db.write() as conn:
                row = await self._locked(conn, record_id)
                if row.status == "void":
                    raise RecordClosed(record_id, row.status)
                if row.hand_id is not None:
                    hand = (
                        await conn.execute(
                            select(_H.c.guild_id, _H.c.variant).where(_H.c.id == row.hand_id)
                        )
                    ).one_or_none()
                    if hand is not None:
                        await self.removal.lock_ratings(conn, hand.guild_id, hand.variant)
                        mark = tuple(
                            (await conn.execute(self.removal.hands_mark(hand.guild_id))).one()
                        )
                        if plan is None or plan.hand_id != row.hand_id or plan.mark != mark:
                            if attempt + 1 < attempts:
                                continue  # the server changed meanwhile: plan again
                            plan = await self.removal.plan(conn, row.hand_id)
                        assert plan is not None
                        await self.removal.apply(conn, plan, now)
                row = (
                    await conn.execute(
                        update(_PR)
                        .where(_PR.c.id == record_id)
                        .values(status="void", hand_id=None, updated_at=now)
                        .returning(*_PR.c)
                    )
                ).one()
            return _record(row)
        raise AssertionError("unreachable: the last attempt plans under the lock")

    async def plan_void(self, record_id: int) -> UnratePlan | None:
        """Phase one of a void, on a read snapshot: what removing the record's hand changes
        (None when it has no hand)."""
        async with self.db.read() as conn:
            hand_id = await conn.scalar(select(_PR.c.hand_id).where(_PR.c.id == record_id))
            return None if hand_id is None else await self.removal.plan(conn, hand_id)

    async def expire(self, *, now: datetime | None = None) -> list[PhysicalRecordInfo]:
        """Mark every pending record past its ``expires_at`` as expired; return them."""
        now = now or utcnow()
        async with self.db.write() as conn:
            rows = await conn.execute(
                update(_PR)
                .where(_PR.c.status == "pending", _PR.c.expires_at <= now)
                .values(status="expired", updated_at=now)
                .returning(*_PR.c)
            )
            return [_record(r) for r in rows]

    async def attach_message(self, record_id: int, channel_id: int, message_id: int) -> None:
        """Remember which channel message shows the record (kept in its details, whatever
        its status), so the bot can update it later. `RecordNotFound` for no record."""
        async with self.db.write() as conn:
            row = await self._locked(conn, record_id)
            payload = dict(row.payload)
            details = dict(payload.get("details") or {})
            details["message"] = {"channel_id": channel_id, "message_id": message_id}
            payload["details"] = details
            await conn.execute(update(_PR).where(_PR.c.id == record_id).values(payload=payload))

    async def get(self, record_id: int) -> PhysicalRecordInfo | None:
        """One record, or None."""
        async with self.db.read() as conn:
            row = (await conn.execute(select(_PR).where(_PR.c.id == record_id))).one_or_none()
        return None if row is None else _record(row)

    async def pending(self, guild_id: int | None = None) -> list[PhysicalRecordInfo]:
        """Pending records (of one server, or all), oldest first, e.g. to re-arm buttons."""
        stmt = select(_PR).where(_PR.c.status == "pending").order_by(_PR.c.id)
        if guild_id is not None:
            stmt = stmt.where(_PR.c.guild_id == guild_id)
        async with self.db.read() as conn:
            return [_record(r) for r in await conn.execute(stmt)]
