"""Physically played hands: they count once, and only after every player confirmed."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from db.models import Hand, HandResult
from db.store import Store
from db.types import HandInput, HandPlayer, NotAPlayer, RecordClosed, RecordNotFound

GUILD = 77
NOW = datetime(2026, 11, 18, 12, 0, tzinfo=UTC)


def real_hand() -> HandInput:
    return HandInput(
        guild_id=GUILD,
        variant="jiujiang",
        hand_no=1,
        players=[
            HandPlayer(s, uid, d) for s, (uid, d) in enumerate([(1, 24), (2, -8), (3, -8), (4, -8)])
        ],
        how="self",
        winners=[0],
        points=8,
        items=[{"name": "七对", "value": 2}],
    )


async def _hands(store: Store) -> int:
    async with store.db.engine.connect() as conn:
        return (await conn.execute(select(func.count()).select_from(Hand))).scalar_one()


async def test_counts_only_after_every_player_confirmed(store: Store) -> None:
    record = await store.records.create(
        2, real_hand(), payload={"hand": "11223344556677万"}, now=NOW
    )
    assert record.status == "pending"
    assert record.confirmations == [2]  # the reporter is a player
    assert record.player_ids == [1, 2, 3, 4]
    assert record.hand.source == "record"
    assert record.payload == {"hand": "11223344556677万"}
    assert (await store.records.pending(GUILD))[0].id == record.id
    for uid in (1, 3):
        record = await store.records.confirm(record.id, uid, now=NOW)
        assert record.status == "pending"
        assert (await store.leaderboards.page(GUILD)).entries == []
    record = await store.records.confirm(record.id, 3, now=NOW)  # again: no change
    assert sorted(record.confirmations) == [1, 2, 3]
    with pytest.raises(NotAPlayer):
        await store.records.confirm(record.id, 99, now=NOW)
    record = await store.records.confirm(record.id, 4, now=NOW)
    assert record.status == "confirmed"
    assert record.hand_id is not None
    hand = await store.hands.get(record.hand_id)
    assert (hand.source, hand.game_id, hand.items) == (
        "record",
        None,
        [{"name": "七对", "value": 2}],
    )
    board = await store.leaderboards.page(GUILD)
    assert next((e.user_id, e.points) for e in board.entries) == (1, 24)
    with pytest.raises(RecordClosed):
        await store.records.confirm(record.id, 4, now=NOW)
    assert await _hands(store) == 1
    assert await store.records.pending(GUILD) == []


async def test_last_confirmations_at_once_record_exactly_once(store: Store, db_url: str) -> None:
    record = await store.records.create(9, real_hand(), now=NOW)
    assert record.confirmations == []
    await store.records.confirm(record.id, 1, now=NOW)
    await store.records.confirm(record.id, 2, now=NOW)
    other = await Store.open(db_url)
    try:
        results = await asyncio.gather(
            store.records.confirm(record.id, 3, now=NOW),
            other.records.confirm(record.id, 4, now=NOW),
        )
    finally:
        await other.close()
    assert sorted(r.status for r in results) == ["confirmed", "pending"]
    final = await store.records.get(record.id)
    assert final.status == "confirmed"
    assert sorted(final.confirmations) == [1, 2, 3, 4]
    assert await _hands(store) == 1


async def test_expired_record_never_counts(store: Store) -> None:
    record = await store.records.create(1, real_hand(), expires_in=timedelta(hours=1), now=NOW)
    assert await store.records.expire(now=NOW + timedelta(minutes=30)) == []
    with pytest.raises(RecordClosed):
        await store.records.confirm(record.id, 2, now=NOW + timedelta(hours=2))
    expired = await store.records.expire(now=NOW + timedelta(hours=2))
    assert [r.id for r in expired] == [record.id]
    assert expired[0].status == "expired"
    with pytest.raises(RecordClosed):
        await store.records.confirm(record.id, 2, now=NOW)
    assert await _hands(store) == 0


async def test_void_removes_a_confirmed_record(store: Store) -> None:
    record = await store.records.create(1, real_hand(), now=NOW)
    for uid in (2, 3, 4):
        record = await store.records.confirm(record.id, uid, now=NOW)
    assert len((await store.leaderboards.page(GUILD)).entries) == 4
    voided = await store.records.void(record.id)
    assert (voided.status, voided.hand_id) == ("void", None)
    assert (await store.leaderboards.page(GUILD)).entries == []
    assert (await store.stats.player_stats(GUILD, 1)).hands == 0
    assert await _hands(store) == 0
    with pytest.raises(RecordClosed):
        await store.records.void(record.id)
    with pytest.raises(RecordNotFound):
        await store.records.void(record.id + 100)
    with pytest.raises(RecordNotFound):
        await store.records.confirm(record.id + 100, 1)
    assert await store.records.get(record.id + 100) is None


async def test_bad_record_is_refused(store: Store) -> None:
    bad = HandInput(
        guild_id=GUILD, variant="xinyu", hand_no=1, how="discard", winners=[0],
        players=[HandPlayer(0, 1, 3), HandPlayer(1, 2, -3)],
    )  # fmt: skip
    with pytest.raises(ValueError):
        await store.records.create(1, bad)
    assert await store.records.pending() == []


async def test_rebuild_ratings_after_void_matches_never_having_it(store: Store, tmp_path) -> None:  # type: ignore[no-untyped-def]
    def variant_of(i: int) -> str:
        return "jiujiang" if i % 2 else "xinyu"

    def nth(i: int) -> HandInput:
        deltas = [(1, 9), (2, -3), (3, -3), (4, -3)]
        deltas[i % 4], deltas[0] = deltas[0], deltas[i % 4]
        winner = next(s for s, (_, d) in enumerate(deltas) if d > 0)
        return HandInput(
            guild_id=GUILD, variant=variant_of(i), hand_no=i, source="record", how="self",
            players=[HandPlayer(s, uid, d) for s, (uid, d) in enumerate(deltas)],
            winners=[winner], created_at=NOW + timedelta(minutes=i),
        )  # fmt: skip

    for i in range(3):
        await store.hands.record(nth(i))
    record = await store.records.create(1, nth(3), now=NOW)
    for uid in (2, 3, 4):
        await store.records.confirm(record.id, uid, now=NOW + timedelta(minutes=3))
    await store.hands.record(nth(4))
    await store.records.void(record.id)
    assert await store.ratings.rebuild(GUILD) == 4

    clean = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'clean.db'}")
    try:
        for i in (0, 1, 2, 4):
            await clean.hands.record(nth(i))
        for variant in (None, "xinyu", "jiujiang"):
            rebuilt = await store.leaderboards.page(GUILD, by="rating", variant=variant)
            expected = await clean.leaderboards.page(GUILD, by="rating", variant=variant)
            assert [(e.user_id, e.hands) for e in rebuilt.entries] == [
                (e.user_id, e.hands) for e in expected.entries
            ]
            for got, want in zip(rebuilt.entries, expected.entries, strict=True):
                assert (got.mu, got.sigma) == pytest.approx((want.mu, want.sigma))
        got = await store.stats.player_stats(GUILD, 1)
        want = await clean.stats.player_stats(GUILD, 1)
        assert (got.rating.mu, got.rating.sigma) == pytest.approx(
            (want.rating.mu, want.rating.sigma)
        )
        assert len(got.rating_history) == len(want.rating_history)  # the void's point left
    finally:
        await clean.close()


def several_winners_hand(hand_no: int = 1, at: datetime | None = None) -> HandInput:
    """新余 一炮多响: seats 0 and 1 win on seat 3's discard (2 and 1 points; seat 0's
    concealed kong brings 杠钱 from each other seat)."""
    return HandInput(
        guild_id=GUILD, variant="xinyu", hand_no=hand_no, how="discard", winners=[0, 1],
        discarder=3, points=3, created_at=at,
        players=[HandPlayer(s, uid, d) for s, (uid, d) in enumerate([(1, 8), (2, -1), (3, -2), (4, -5)])],
        items=[{"name": "开杠", "en": "kong", "value": "×2", "seat": 0}],
    )  # fmt: skip


async def _lines(store: Store, hand_id: int) -> list[tuple[int, int, bool, bool, int]]:
    """(seat, delta, won, dealt_in, points) of each line of a hand."""
    table = HandResult.__table__
    async with store.db.engine.connect() as conn:
        rows = await conn.execute(
            select(table.c.seat, table.c.delta, table.c.won, table.c.dealt_in, table.c.points)
            .where(table.c.hand_id == hand_id)
            .order_by(table.c.seat)
        )
        return [tuple(r) for r in rows]


async def _skills(store: Store) -> dict[int, tuple[float, float]]:
    board = await store.leaderboards.page(GUILD, by="rating", min_hands=1, limit=50)
    return {e.user_id: (e.mu, e.sigma) for e in board.entries}


async def test_several_winners_count_once_and_void_cleanly(store: Store) -> None:
    """One record, two winners on one discard: counted once after all four confirmed, each
    winner's line carries their own points, ratings rank the players by their change; a
    void leaves the ratings exactly as the earlier hand had left them."""
    earlier = replace(real_hand(), source="record", created_at=NOW - timedelta(hours=1))
    await store.hands.record(earlier)
    before = await _skills(store)
    with pytest.raises(ValueError):  # the points must name exactly the winners
        await store.records.create(9, several_winners_hand(), winner_points={0: 2}, now=NOW)
    record = await store.records.create(
        9, several_winners_hand(), winner_points={0: 2, 1: 1}, payload={"x": 1}, now=NOW
    )
    for uid in (1, 2, 3):
        record = await store.records.confirm(record.id, uid, now=NOW)
        assert record.status == "pending"
    assert await _hands(store) == 1
    record = await store.records.confirm(record.id, 4, now=NOW)
    assert record.status == "confirmed" and record.payload == {"x": 1}
    assert await _hands(store) == 2
    hand = await store.hands.get(record.hand_id)
    assert (hand.winner_seats, hand.winner_user_ids, hand.discarder_seat) == ([0, 1], [1, 2], 3)
    assert await _lines(store, record.hand_id) == [
        (0, 8, True, False, 2),
        (1, -1, True, False, 1),
        (2, -2, False, False, 0),
        (3, -5, False, True, 0),
    ]
    assert (await store.stats.player_stats(GUILD, 2)).wins == 1
    after = await _skills(store)
    # ranked by the change in this hand: +8 > -1 > -2 > -5
    gained = {uid: after[uid][0] - before[uid][0] for uid in (1, 2, 3, 4)}
    assert gained[1] > gained[2] > gained[3] > gained[4]

    voided = await store.records.void(record.id)
    assert voided.status == "void"
    assert await _hands(store) == 1
    restored = await _skills(store)
    assert restored.keys() == before.keys()
    for uid, skill in before.items():
        assert restored[uid] == pytest.approx(skill)
    assert (await store.stats.player_stats(GUILD, 2)).wins == 0
    assert len((await store.stats.player_stats(GUILD, 1)).rating_history) == 1
