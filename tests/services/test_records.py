"""The record flow on a real SQLite store: pending until all four confirm, counted once."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from db.models import utcnow
from db.store import Store
from services.desk import DeskQuery, HandInputError
from services.records import (
    BadReport,
    NoSuchRecord,
    NotAdmin,
    NotNamed,
    RecordNotPending,
    RecordReport,
    RecordService,
    waiting_for,
)

GUILD = 7000
A, B, C, D = 11, 12, 13, 14
PLAYERS = (A, B, C, D)
REPORTER = 99  # a scorekeeper who did not play


async def board_points(store: Store) -> dict[int, int]:
    board = await store.leaderboard(GUILD, min_hands=1, limit=50)
    return {e.user_id: e.points for e in board.entries}


async def hands_of(store: Store, user: int) -> int:
    return (await store.player_stats(GUILD, user)).hands


def shangrao_self_draw(**kw) -> RecordReport:
    hand = DeskQuery(hand="123m456m789p234s99s +9s", variant="shangrao", bao="5p")
    return RecordReport(
        guild_id=GUILD,
        reporter_id=kw.pop("reporter_id", REPORTER),
        players=PLAYERS,
        winner=B,
        how="自摸",
        hand=hand,
        **kw,
    )


async def test_counts_only_after_every_player_confirmed(store: Store) -> None:
    svc = RecordService(store)
    record, prepared = await svc.report(shangrao_self_draw())
    assert record.status == "pending" and record.confirmations == []
    assert prepared.answer is not None and prepared.answer.points == 4
    assert [p.delta for p in prepared.hand.players] == [-4, 12, -4, -4]
    for user in (A, B, C):
        outcome = await svc.confirm(record.id, user)
        assert not outcome.counted_now and outcome.record.status == "pending"
        assert await board_points(store) == {}
    assert waiting_for(outcome.record) == [D]
    outcome = await svc.confirm(record.id, D)
    assert outcome.counted_now and outcome.record.status == "confirmed"
    assert await board_points(store) == {A: -4, B: 12, C: -4, D: -4}
    hand = await store.get_hand(outcome.record.hand_id)
    assert hand is not None and hand.source == "record" and hand.how == "self"
    assert [i["name"] for i in hand.items] == [i.name for i in prepared.answer.items]


async def test_double_click_counts_once(store: Store) -> None:
    svc = RecordService(store)
    record, _ = await svc.report(shangrao_self_draw())
    for user in (A, B, C):
        again = await svc.confirm(record.id, user)
    assert (await svc.confirm(record.id, C)).repeated  # same player twice: still pending
    assert again.record.status == "pending"
    results = await asyncio.gather(
        svc.confirm(record.id, D), svc.confirm(record.id, D), return_exceptions=True
    )
    counted = [r for r in results if not isinstance(r, Exception) and r.counted_now]
    refused = [r for r in results if isinstance(r, RecordNotPending)]
    assert len(counted) == 1 and len(refused) == 1 and refused[0].status == "confirmed"
    assert await hands_of(store, B) == 1
    with pytest.raises(RecordNotPending):
        await svc.confirm(record.id, A)
    assert await hands_of(store, B) == 1


async def test_reporter_who_played_is_counted_as_confirmed(store: Store) -> None:
    svc = RecordService(store)
    record, _ = await svc.report(shangrao_self_draw(reporter_id=A))
    assert record.confirmations == [A]
    assert waiting_for(record) == [B, C, D]


async def test_only_named_players_confirm(store: Store) -> None:
    svc = RecordService(store)
    record, _ = await svc.report(shangrao_self_draw())
    with pytest.raises(NotNamed):
        await svc.confirm(record.id, REPORTER)
    with pytest.raises(NoSuchRecord):
        await svc.confirm(record.id + 100, A)


async def test_expired_record_never_counts(store: Store) -> None:
    svc = RecordService(store, default_expiry=timedelta(hours=2))
    start = utcnow()
    record, _ = await svc.report(shangrao_self_draw(), now=start)
    assert record.expires_at - start == timedelta(hours=2)
    for user in (A, B, C):
        await svc.confirm(record.id, user, now=start + timedelta(minutes=5))
    with pytest.raises(RecordNotPending) as info:
        await svc.confirm(record.id, D, now=start + timedelta(hours=3))
    assert info.value.status == "expired"
    expired = await svc.expire_due(now=start + timedelta(hours=3))
    assert [r.id for r in expired] == [record.id]
    assert (await svc.get(record.id)).status == "expired"
    assert await board_points(store) == {}


async def test_admin_voids_a_counted_record(store: Store) -> None:
    svc = RecordService(store)
    record, _ = await svc.report(shangrao_self_draw())
    for user in PLAYERS:
        await svc.confirm(record.id, user)
    assert await board_points(store) != {}
    with pytest.raises(NotAdmin):
        await svc.void(record.id, is_admin=False)
    assert await board_points(store) != {}
    assert len((await store.leaderboard(GUILD, by="rating", min_hands=1)).entries) == 4
    voided = await svc.void(record.id, is_admin=True)
    assert voided.status == "void"
    assert await board_points(store) == {}
    # ... and its ratings and rating history left with it, in the same call
    assert (await store.leaderboard(GUILD, by="rating", min_hands=1)).entries == []
    after = await store.player_stats(GUILD, B)
    assert (after.rating, after.rating_history) == (None, [])
    with pytest.raises(RecordNotPending):
        await svc.void(record.id, is_admin=True)


async def test_points_instead_of_a_hand_follow_the_payment_rules(store: Store) -> None:
    svc = RecordService(store)
    # Shangrao 抢杠: the robbed player pays three shares (RULES §3.4).
    report = RecordReport(
        guild_id=GUILD, reporter_id=A, players=PLAYERS, winner=A, how="抢杠", discarder=C,
        points=8, variant="shangrao",
    )  # fmt: skip
    _, prepared = await svc.report(report)
    assert [p.delta for p in prepared.hand.players] == [24, 0, -24, 0]
    assert prepared.hand.discarder == 2 and prepared.hand.how == "rob_kong"
    # Jiujiang self-draw: each of the three pays the 炮.
    report = RecordReport(
        guild_id=GUILD, reporter_id=A, players=PLAYERS, winner=D, how="自摸", points=3,
        variant="jiujiang",
    )  # fmt: skip
    _, prepared = await svc.report(report)
    assert [p.delta for p in prepared.hand.players] == [-3, -3, -3, 9]


async def test_a_draw_records_nobody_winning(store: Store) -> None:
    svc = RecordService(store)
    record, prepared = await svc.report(
        RecordReport(guild_id=GUILD, reporter_id=A, players=PLAYERS, winner=None)
    )
    assert prepared.hand.how == "draw" and prepared.hand.winners == []
    for user in (B, C, D):
        outcome = await svc.confirm(record.id, user)
    assert outcome.counted_now
    assert await board_points(store) == {A: 0, B: 0, C: 0, D: 0}


async def test_server_default_variant_is_used(store: Store) -> None:
    await store.update_guild_settings(GUILD, default_variant="xinyu")
    svc = RecordService(store)
    report = RecordReport(
        guild_id=GUILD, reporter_id=A, players=PLAYERS, winner=B, how="自摸",
        hand=DeskQuery(hand="123m456m789p234s99s +9s"),
    )  # fmt: skip
    _, prepared = await svc.report(report)
    assert prepared.hand.variant == "xinyu"
    assert [p.delta for p in prepared.hand.players] == [-2, 6, -2, -2]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"players": (A, B, C)}, "players"),
        ({"players": (A, B, C, C)}, "players"),
        ({"winner": 55}, "winner"),
        ({"how": "点炮"}, "discarder"),
        ({"how": "点炮", "discarder": B}, "discarder"),
        ({"discarder": C, "how": "self"}, "discarder"),
        ({"winner": None, "how": None, "hand": None, "discarder": C}, "how"),
        ({"points": 4}, "hand"),
        ({"hand": None}, "hand"),
        ({"hand": None, "points": 0}, "points"),
        ({"winner": None, "how": None}, "hand"),
        ({"how": "流局"}, "winner"),
        ({"hand": DeskQuery(hand="123m456m78p5p234s99s +9s", bao="5p")}, "hand"),
    ],
)
async def test_bad_reports_are_refused_and_store_nothing(store: Store, changes, field) -> None:
    from dataclasses import replace

    svc = RecordService(store)
    report = replace(shangrao_self_draw(), **changes)
    with pytest.raises(BadReport) as info:
        await svc.report(report)
    assert info.value.field == field
    assert await store.pending_records(GUILD) == []


async def test_illegal_hand_report_says_why(store: Store) -> None:
    from dataclasses import replace

    svc = RecordService(store)
    report = replace(
        shangrao_self_draw(), hand=DeskQuery(hand="123m456m78p5p234s99s +9s", bao="5p")
    )
    with pytest.raises(BadReport, match="宝吊"):
        await svc.report(report)
    report = replace(shangrao_self_draw(), hand=DeskQuery(hand="123m 4x5p +3m", bao="5p"))
    with pytest.raises(HandInputError) as info:
        await svc.report(report)
    assert info.value.bad == "4x"


async def test_expiry_is_a_server_setting(store: Store) -> None:
    await store.update_guild_settings(GUILD, rule_options={"shangrao": {"scoring": "xingchen"}})
    svc = RecordService(store, default_expiry=timedelta(hours=24))
    assert await svc.expiry_for(GUILD) == timedelta(hours=24)
    assert await svc.set_expiry(GUILD, 2) == timedelta(hours=2)
    start = utcnow()
    record, _ = await svc.report(shangrao_self_draw(), now=start)
    assert record.expires_at - start == timedelta(hours=2)
    settings = await store.get_guild_settings(GUILD)
    assert settings.rule_options == {"shangrao": {"scoring": "xingchen"}}  # house rules kept
    assert settings.record_expiry_hours == 2  # a column of its own, not in rule_options
    other = RecordService(store, default_expiry=timedelta(hours=6))
    assert await other.expiry_for(GUILD) == timedelta(hours=2)  # the server's beats the bot's
    assert await svc.set_expiry(GUILD, None) == timedelta(hours=24)
    assert (await store.get_guild_settings(GUILD)).record_expiry_hours is None
    assert await other.expiry_for(GUILD) == timedelta(hours=6)
    with pytest.raises(BadReport):
        await svc.set_expiry(GUILD, 0)


async def test_a_named_discarder_means_a_discard_win(store: Store) -> None:
    svc = RecordService(store)
    report = RecordReport(
        guild_id=GUILD, reporter_id=A, players=PLAYERS, winner=A, discarder=D, points=2,
        variant="jiujiang",
    )  # fmt: skip
    _, prepared = await svc.report(report)
    assert prepared.hand.how == "discard"
    assert [p.delta for p in prepared.hand.players] == [2, 0, 0, -2]
