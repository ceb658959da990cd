"""Voiding a confirmed record takes it out of the ratings and rating history at once:
afterwards they equal both a fresh `rebuild_ratings` and a store that never had the record."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from db.models import Hand, Rating, RatingHistory
from db.store import Store
from db.types import HandInput, HandPlayer
from db.unrate import LaterHand, is_rated, replay_without

GUILD = 4242
OTHER_GUILD = 4343
NOW = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
VARIANTS = ("shangrao", "xinyu", "jiujiang")
PEOPLE = (1, 2, 3, 4, 5, 6)
LONER = 77  # plays only in the voided hand


def make_hands(count: int, seed: int = 5) -> list[HandInput]:
    """``count`` hands of varied variants, players, winners, draws and AI seats, a minute
    apart."""
    rng = random.Random(seed)
    hands = []
    for i in range(count):
        seated = rng.sample(PEOPLE, 4)
        ai = rng.random() < 0.2
        how = rng.choice(("self", "discard", "discard", "draw"))
        winner = rng.randrange(4)
        points = rng.randrange(1, 20)
        deltas = [0, 0, 0, 0]
        discarder = None
        if how == "self":
            deltas = [-points] * 4
            deltas[winner] = 3 * points
        elif how == "discard":
            discarder = rng.choice([s for s in range(4) if s != winner])
            deltas[winner], deltas[discarder] = points, -points
        players = [
            HandPlayer(s, -1 if ai and s == 3 else uid, deltas[s], is_ai=ai and s == 3)
            for s, uid in enumerate(seated)
        ]
        hands.append(
            HandInput(
                guild_id=GUILD, variant=VARIANTS[rng.randrange(3)], hand_no=i, source="record",
                how=how, players=players, winners=[] if how == "draw" else [winner],
                discarder=discarder, points=points, created_at=NOW + timedelta(minutes=i),
            )
        )  # fmt: skip
    return hands


def voided_hand(variant: str = "xinyu", *, draw: bool = False) -> HandInput:
    ids = (1, 2, 3, LONER)
    deltas = (0, 0, 0, 0) if draw else (30, -10, -10, -10)
    return HandInput(
        guild_id=GUILD, variant=variant, hand_no=1, source="record",
        how="draw" if draw else "self", winners=[] if draw else [0],
        players=[HandPlayer(s, uid, d) for s, (uid, d) in enumerate(zip(ids, deltas, strict=True))],
    )  # fmt: skip


async def ratings(store: Store, guild: int = GUILD) -> dict[tuple, tuple]:
    rt = Rating.__table__
    async with store.db.engine.connect() as conn:
        rows = await conn.execute(select(rt).where(rt.c.guild_id == guild))
        return {(r.variant, r.user_id, r.is_ai): (r.mu, r.sigma, r.hands) for r in rows}


async def history(store: Store, guild: int = GUILD) -> list[tuple]:
    """Every rating-history point as (time, scope, player, ai, mu, sigma), in a stable order."""
    rh = RatingHistory.__table__
    async with store.db.engine.connect() as conn:
        rows = await conn.execute(select(rh).where(rh.c.guild_id == guild))
        return sorted((r.created_at, r.variant, r.user_id, r.is_ai, r.mu, r.sigma) for r in rows)


def assert_same_ratings(got: dict[tuple, tuple], want: dict[tuple, tuple]) -> None:
    assert set(got) == set(want)
    for key, (mu, sigma, hands) in want.items():
        assert got[key][2] == hands, key
        assert got[key][:2] == pytest.approx((mu, sigma), rel=1e-9, abs=1e-9), key


def assert_same_history(got: list[tuple], want: list[tuple]) -> None:
    assert [g[:4] for g in got] == [w[:4] for w in want]
    for g, w in zip(got, want, strict=True):
        assert g[4:] == pytest.approx(w[4:], rel=1e-9, abs=1e-9), g[:4]


async def confirm_all(store: Store, hand: HandInput, at: datetime) -> int:
    record = await store.records.create(hand.players[0].user_id, hand, now=at)
    for p in hand.players[1:]:
        record = await store.records.confirm(record.id, p.user_id, now=at)
    assert record.status == "confirmed"
    return record.id


async def clean_store(tmp_path: Path, hands: list[HandInput]) -> Store:
    clean = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'clean.db'}")
    for hand in hands:
        await clean.hands.record(hand)
    return clean


async def check_against_rebuild_and_clean(
    store: Store, tmp_path: Path, kept: list[HandInput]
) -> None:
    after_void = await ratings(store)
    history_after_void = await history(store)
    clean = await clean_store(tmp_path, kept)
    try:
        assert_same_ratings(after_void, await ratings(clean))
        assert_same_history(history_after_void, await history(clean))
    finally:
        await clean.close()
    assert await store.ratings.rebuild(GUILD) == sum(1 for _ in kept)
    assert_same_ratings(await ratings(store), after_void)


@pytest.mark.parametrize("position", [0, 11, 24])
async def test_void_equals_never_confirmed(store: Store, tmp_path: Path, position: int) -> None:
    hands = make_hands(24)
    for hand in hands[:position]:
        await store.hands.record(hand)
    at = NOW + timedelta(minutes=position - 1, seconds=30)
    record_id = await confirm_all(store, voided_hand(), at)
    for hand in hands[position:]:
        await store.hands.record(hand)
    other = make_hands(3, seed=9)  # another server's hands are left alone
    for hand in other:
        await store.hands.record(replace(hand, guild_id=OTHER_GUILD))
    other_before = (await ratings(store, OTHER_GUILD), await history(store, OTHER_GUILD))
    assert any(key[1] == LONER for key in await ratings(store))

    voided = await store.records.void(record_id)

    assert (voided.status, voided.hand_id) == ("void", None)
    assert not any(key[1] == LONER for key in await ratings(store))
    assert (await store.stats.player_stats(GUILD, LONER)).rating_history == []
    assert (await ratings(store, OTHER_GUILD), await history(store, OTHER_GUILD)) == other_before
    await check_against_rebuild_and_clean(store, tmp_path, hands)


async def test_two_voids_and_an_unrated_draw(store: Store, tmp_path: Path) -> None:
    hands = make_hands(16, seed=3)
    ids = []
    for i, hand in enumerate(hands):
        await store.hands.record(hand)
        if i in (4, 9):
            ids.append(await confirm_all(store, voided_hand("shangrao"), hand.created_at))
        if i == 6:
            ids.append(await confirm_all(store, voided_hand(draw=True), hand.created_at))
    for record_id in (ids[1], ids[0], ids[2]):  # the draw moved no rating
        await store.records.void(record_id)
    await check_against_rebuild_and_clean(store, tmp_path, hands)


async def test_hands_recorded_between_plan_and_write(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand recorded while the void is being planned makes the plan stale: it is made
    again, and the result still equals never having had the record."""
    hands = make_hands(12, seed=8)
    for hand in hands[:6]:
        await store.hands.record(hand)
    record_id = await confirm_all(store, voided_hand(), NOW + timedelta(minutes=5, seconds=30))
    late = iter(hands[6:])
    plan_void = store.records.plan_void
    plans = 0

    async def plan_then_record(rid: int) -> Any:
        nonlocal plans
        plans += 1
        plan = await plan_void(rid)
        for hand in (next(late, None), next(late, None)):
            if hand is not None:
                await store.hands.record(hand)  # another writer slips in
        return plan

    monkeypatch.setattr(store.records, "plan_void", plan_then_record)
    await store.records.void(record_id, attempts=3)
    assert plans == 3  # every snapshot plan went stale: the last one ran under the lock
    for hand in late:
        await store.hands.record(hand)
    await check_against_rebuild_and_clean(store, tmp_path, hands)


async def test_void_of_a_pending_or_expired_record_touches_no_rating(store: Store) -> None:
    for hand in make_hands(5):
        await store.hands.record(hand)
    before = await ratings(store), await history(store)
    record = await store.records.create(1, voided_hand(), now=NOW)
    assert (await store.records.void(record.id)).status == "void"
    assert (await ratings(store), await history(store)) == before
    async with store.db.engine.connect() as conn:
        assert len((await conn.execute(select(Hand.__table__.c.id))).all()) == 5


def test_replay_skips_hands_without_a_changed_player() -> None:
    """Pure replay: a later hand none of whose players were touched keeps its stored
    history; one with a touched player is rated again and spreads the change."""
    removed = [(1, False), (2, False)]
    later = [
        LaterHand(10, "xinyu", NOW, [(3, False, 5), (4, False, -5)]),
        LaterHand(11, "xinyu", NOW, [(1, False, 5), (3, False, -5)]),
        LaterHand(12, "jiujiang", NOW, [(5, False, 5), (6, False, -5)]),
    ]
    stored = {
        (hid, scope, u, False): (100 * hid + u + (50 if scope == "*" else 0), 20.0 + u, 7.0)
        for hid, us in ((10, (3, 4)), (11, (1, 3)), (12, (5, 6)))
        for scope in ("*", "xinyu" if hid != 12 else "jiujiang")
        for u in us
    }
    out = replay_without("xinyu", removed, {}, later, stored, GUILD)
    assert out.rerated_hands == 1
    assert sorted(r[0] for r in out.history) == [1101, 1103, 1151, 1153]
    assert set(out.ratings) == {(s, u, False) for s in ("xinyu", "*") for u in (1, 2, 3)}
    assert out.missing == []
    assert not is_rated([0, 0, 0, 0]) and is_rated([3, -1, -1, -1])


async def test_void_while_another_process_records_hands(
    store: Store, db_url: str, tmp_path: Path
) -> None:
    """Hands recorded by another process while the void runs end up rated exactly as if
    the record had never been there, whichever commits first."""
    hands = make_hands(20, seed=11)
    for hand in hands[:12]:
        await store.hands.record(hand)
    record_id = await confirm_all(store, voided_hand(), NOW + timedelta(minutes=4, seconds=30))
    other = await Store.open(db_url)

    async def record_rest() -> None:
        for hand in hands[12:]:
            await other.hands.record(hand)

    try:
        await asyncio.gather(store.records.void(record_id), record_rest())
    finally:
        await other.close()
    await check_against_rebuild_and_clean(store, tmp_path, hands)
