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
    board = await store.leaderboards.page(GUILD, min_hands=1, limit=50)
    return {e.user_id: e.points for e in board.entries}


async def hands_of(store: Store, user: int) -> int:
    return (await store.stats.player_stats(GUILD, user)).hands


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
    hand = await store.hands.get(outcome.record.hand_id)
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
    assert len((await store.leaderboards.page(GUILD, by="rating", min_hands=1)).entries) == 4
    voided = await svc.void(record.id, is_admin=True)
    assert voided.status == "void"
    assert await board_points(store) == {}
    # ... and its ratings and rating history left with it, in the same call
    assert (await store.leaderboards.page(GUILD, by="rating", min_hands=1)).entries == []
    after = await store.stats.player_stats(GUILD, B)
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


async def test_a_xinyu_draw_records_the_kong_money(store: Store) -> None:
    # RULES §4.3: 杠钱 is paid at each kong, also when the hand ends in a draw
    svc = RecordService(store)
    report = RecordReport(
        guild_id=GUILD, reporter_id=A, players=PLAYERS, winner=None, variant="xinyu",
        others=f"<@{B}> [7777m]; <@{C}> (5555p)",
    )  # fmt: skip
    record, prepared = await svc.report(report)
    # B's exposed kong: 1 from each other; C's concealed kong: 2 from each other
    assert [p.delta for p in prepared.hand.players] == [-3, 1, 5, -3]
    assert prepared.details["parts"][2] == {"kong": -5}
    for user in (B, C, D):
        outcome = await svc.confirm(record.id, user)
    assert outcome.counted_now
    assert await board_points(store) == {A: -3, B: 1, C: 5, D: -3}


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"variant": "shangrao"}, "pays nothing in Shangrao"),
        ({"others": "下家 [7777m]"}, "mention"),
        ({"others": f"<@{B}> [7777m]; <@{B}> [1111p]"}, "named once"),
        ({"others": "<@999> [7777m]"}, "four players"),
    ],
)
async def test_a_draws_kong_money_needs_a_variant_with_it_and_mentions(
    store: Store, changes, words
) -> None:
    from dataclasses import replace

    report = RecordReport(
        guild_id=GUILD, reporter_id=A, players=PLAYERS, winner=None, variant="xinyu",
        others=f"<@{B}> [7777m]",
    )  # fmt: skip
    with pytest.raises(BadReport) as info:
        await RecordService(store).report(replace(report, **changes))
    assert info.value.field == "others" and words in str(info.value)
    assert await store.records.pending(GUILD) == []


async def test_server_default_variant_is_used(store: Store) -> None:
    await store.guilds.update_settings(GUILD, default_variant="xinyu")
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
        ({"how": None}, "how"),
        ({"how": "  "}, "how"),
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
    assert await store.records.pending(GUILD) == []


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
    await store.guilds.update_settings(GUILD, rule_options={"shangrao": {"scoring": "xingchen"}})
    svc = RecordService(store, default_expiry=timedelta(hours=24))
    assert await svc.expiry_for(GUILD) == timedelta(hours=24)
    assert await svc.set_expiry(GUILD, 2) == timedelta(hours=2)
    start = utcnow()
    record, _ = await svc.report(shangrao_self_draw(), now=start)
    assert record.expires_at - start == timedelta(hours=2)
    settings = await store.guilds.settings(GUILD)
    assert settings.rule_options == {"shangrao": {"scoring": "xingchen"}}  # house rules kept
    assert settings.record_expiry_hours == 2  # a column of its own, not in rule_options
    other = RecordService(store, default_expiry=timedelta(hours=6))
    assert await other.expiry_for(GUILD) == timedelta(hours=2)  # the server's beats the bot's
    assert await svc.set_expiry(GUILD, None) == timedelta(hours=24)
    assert (await store.guilds.settings(GUILD)).record_expiry_hours is None
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


# --- the rest of the table, as /mahjong score takes it --------------------------------------

from engine.scoring import ScoreResult  # noqa: E402
from engine.settle import settle_multi  # noqa: E402
from services.desk import TableInputError, score_desk  # noqa: E402
from services.records import (  # noqa: E402
    ExtraWinner,
    absolute_seat,
    others_text,
    prepare_record,
    seat_word,
)


def test_seat_words_follow_play_order() -> None:
    """player1..4 sit in play order: each one's 下家 is the next player, player4's is player1."""
    assert [seat_word(s, 2) for s in (3, 0, 1)] == ["next", "across", "prev"]
    assert [absolute_seat(rel, 2) for rel in (0, 1, 2, 3)] == [2, 3, 0, 1]
    assert [seat_word(s, 0) for s in (1, 2, 3)] == ["next", "across", "prev"]
    with pytest.raises(ValueError):
        seat_word(1, 1)


def test_mentions_in_others_become_seats_seen_from_the_winner() -> None:
    text = f"<@{D}> 发2 [9999m]; <@!{A}> (1111p)"
    assert others_text(text, PLAYERS, 2).split() == ["下家", "发2", "[9999m];", "对家", "(1111p)"]
    with pytest.raises(BadReport) as info:
        others_text(f"<@{C}> [7777m]", PLAYERS, 2)  # the winner
    assert info.value.field == "others"
    with pytest.raises(BadReport):
        others_text(f"<@{REPORTER}> [7777m]", PLAYERS, 2)  # not playing
    assert others_text("  ", PLAYERS, 2) is None


def calculator_deltas(query: DeskQuery, winner: int) -> list[int]:
    """What ``/mahjong score`` settles for the same hand, turned from the winner's view
    (seat 0) to the players' seats."""
    answer = score_desk(query)
    assert answer.legal and answer.settlement is not None
    out = [0, 0, 0, 0]
    for rel, delta in enumerate(answer.settlement.deltas):
        out[(winner + rel) % 4] = delta
    return out


JJ_HAND = "234m567m345p678s11s +8s"
TABLE_CASES = [
    # (id, calculator query, record fields, expected deltas by seat A B C D)
    (
        "jiujiang-self-eaten-streak",
        DeskQuery(hand=JJ_HAND, variant="jiujiang", win="self",
                  others="下家 发2 [9999m]; 对家 (1111p) [中中中]", streak="黄庄 跟庄"),
        {"winner": C, "how": "self", "others": "下家 发2 [9999m]; 对家 (1111p) [中中中]",
         "streak": "黄庄 跟庄"},
        [-24, -12, 60, -24],
    ),
    (
        "jiujiang-discard-mentions",
        DeskQuery(hand=JJ_HAND, variant="jiujiang", win="discard", discarder="上家",
                  others="上家 发1 [9999m]; 对家 (1111p)", streak="跟庄"),
        {"winner": A, "how": "点炮", "discarder": D,
         "others": f"<@{D}> 发1 [9999m]; <@{C}> (1111p)", "streak": "跟庄"},
        [8, 0, 0, -8],
    ),
    (
        "xinyu-kong-money",
        DeskQuery(hand="123m456m789p(5555s)99s +9s", variant="xinyu", win="discard",
                  options="discard_win=true", discarder="对家",
                  others="下家 [7777m]; 上家 (1111p)"),
        {"winner": B, "how": "discard", "discarder": D, "options": "discard_win=true",
         "others": "下家 [7777m]; 上家 (1111p)"},
        [3, 5, -1, -7],
    ),
    (
        "shangrao-sanbao",
        DeskQuery(hand="[123m] [555p] [777s] 99s 5z5z5z +5z", variant="shangrao", bao="1p",
                  win="self", feeder="上家"),
        {"winner": D, "how": "自摸", "feeder": C},
        [0, 0, -12, 12],
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("query", "fields", "expected"), [c[1:] for c in TABLE_CASES], ids=[c[0] for c in TABLE_CASES]
)
def test_record_pays_what_the_calculator_shows(
    query: DeskQuery, fields: dict, expected: list[int]
) -> None:
    fields = dict(fields)
    hand = DeskQuery(
        hand=query.hand, variant=query.variant, bao=query.bao, options=fields.pop("options", None)
    )
    report = RecordReport(guild_id=GUILD, reporter_id=A, players=PLAYERS, hand=hand, **fields)
    prepared = prepare_record(report)
    winner = PLAYERS.index(report.winner)
    deltas = [p.delta for p in prepared.hand.players]
    assert deltas == calculator_deltas(query, winner) == expected
    assert prepared.details["deltas"] == deltas
    assert prepared.answer is not None and prepared.answer.points == score_desk(query).points
    # each payer's part is kept for the message: what it pays for the win, eaten, kong money
    parts = prepared.details["parts"]
    for seat in range(4):
        if seat != winner:
            assert -deltas[seat] == parts[seat]["win"] + parts[seat]["kong"]
    won = sum(parts[s]["win"] for s in range(4) if s != winner)
    assert deltas[winner] == won - parts[winner].get("kong", 0)
    assert ("kong" in parts[winner]) == (query.variant == "xinyu")


def test_points_record_takes_the_table_too() -> None:
    """Given points (no hand), the others' 吃兴家 and the value per 炮 still apply; the 叁包
    feeder pays all on the reporter's word."""
    report = RecordReport(
        guild_id=GUILD, reporter_id=A, players=PLAYERS, winner=A, how="self", points=3,
        variant="jiujiang", others="下家 发2", streak="黄庄",
    )  # fmt: skip
    prepared = prepare_record(report)
    assert [p.delta for p in prepared.hand.players] == [22, -10, -6, -6]
    assert prepared.details["pao_value"] == 2 and prepared.details["raises"] == ["draw"]
    assert prepared.details["others"] == [{"user_id": B, "flowers": 2, "melds": []}]
    sanbao = RecordReport(
        guild_id=GUILD, reporter_id=A, players=PLAYERS, winner=A, how="self", points=4,
        variant="shangrao", feeder=C,
    )  # fmt: skip
    prepared = prepare_record(sanbao)
    assert [p.delta for p in prepared.hand.players] == [12, 0, -12, 0]
    assert prepared.details["feeder"] == C and prepared.details["parts"][2]["feeder"]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"variant": "xinyu", "streak": "黄庄"}, "streak"),
        ({"variant": "jiujiang", "feeder": C}, "feeder"),
        ({"variant": "shangrao", "others": "下家 [7777m]"}, "others"),
        ({"variant": "jiujiang", "others": "下家 [99x9m]"}, "others"),
    ],
)
def test_a_table_rule_of_another_variant_gets_the_calculators_error(changes, field) -> None:
    report = RecordReport(
        guild_id=GUILD, reporter_id=A, players=PLAYERS, winner=A, how="self", points=2,
        **changes,
    )  # fmt: skip
    with pytest.raises(TableInputError) as info:
        prepare_record(report)
    assert info.value.field == field


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"feeder": A}, "feeder"),  # the winner
        ({"feeder": REPORTER}, "feeder"),  # not playing
        ({"winner": None, "how": None, "points": None, "feeder": C}, "feeder"),
    ],
)
def test_bad_feeder_is_refused(changes, field) -> None:
    base = {"winner": A, "how": "self", "points": 2, "variant": "shangrao"}
    report = RecordReport(guild_id=GUILD, reporter_id=A, players=PLAYERS, **{**base, **changes})
    with pytest.raises(BadReport) as info:
        prepare_record(report)
    assert info.value.field == field


# --- several winners on one discard (一炮多响) -------------------------------------------------

XY_KONG = "123m456m789p(5555s)99s +9s"  # 2 points on a discard, a concealed kong
XY_PLAIN = "111m456m789p234s99s +9s"  # 1 point on a discard
XY_WIN = "discard_win=true"


def xinyu_three_winners(**changes) -> RecordReport:
    """D discards; B (the reporter's winner), C (points) and A win on it."""
    fields = {
        "guild_id": GUILD, "reporter_id": A, "players": PLAYERS, "winner": B, "how": "点炮",
        "discarder": D, "variant": "xinyu", "options": XY_WIN,
        "hand": DeskQuery(hand=XY_PLAIN, variant="xinyu", options=XY_WIN),
        "more_winners": (ExtraWinner.of(C, "4"), ExtraWinner.of(A, XY_KONG)),
    }  # fmt: skip
    return RecordReport(**{**fields, **changes})


def test_several_winners_each_paid_by_the_discarder() -> None:
    prepared = prepare_record(xinyu_three_winners())
    hand = prepared.hand
    # each winner as the calculator pays them alone, plus A's kong money once
    alone_a = calculator_deltas(
        DeskQuery(hand=XY_KONG, variant="xinyu", win="discard", options=XY_WIN,
                  discarder="上家"), 0)  # fmt: skip
    alone_b = calculator_deltas(
        DeskQuery(hand=XY_PLAIN, variant="xinyu", win="discard", options=XY_WIN,
                  discarder="对家"), 1)  # fmt: skip
    alone_c = [0, 0, 4, -4]  # 4 points given: the discarder pays one share (RULES §4.3)
    summed = [a + b + c for a, b, c in zip(alone_a, alone_b, alone_c, strict=True)]
    assert [p.delta for p in hand.players] == summed == [8, -1, 2, -9]
    # settle_multi for the wins; 杠钱 of A's concealed kong (2 from each other seat)
    results = [(0, ScoreResult(True, 2, ())), (1, ScoreResult(True, 1, ())),
               (2, ScoreResult(True, 4, ()))]  # fmt: skip
    wins = settle_multi("xinyu", None, winners=results, payer=3, dealer=0)
    assert [w + k for w, k in zip(wins.deltas, (6, -2, -2, -2), strict=True)] == summed
    assert hand.winners == [0, 1, 2]  # play order from the discarder
    assert (hand.discarder, hand.how, hand.points) == (3, "discard", 7)
    assert prepared.winner_points == {0: 2, 1: 1, 2: 4}
    assert [w["user_id"] for w in prepared.details["winners"]] == [A, B, C]
    assert {i["seat"] for i in hand.items} == {0, 1}  # items say whose they are
    assert prepared.details["parts"][3] == {"win": 7, "eaten": 0, "kong": 2, "feeder": False}


def test_several_winners_with_the_others_kongs() -> None:
    # 对家 of B (the first winner named) is D: D's exposed kong earns 1 from each other seat
    prepared = prepare_record(xinyu_three_winners(others="对家 [7777m]"))
    assert [p.delta for p in prepared.hand.players] == [7, -2, 1, -6]
    with pytest.raises(BadReport) as info:  # 上家 of B is A, a winner
        prepare_record(xinyu_three_winners(others="上家 [7777m]"))
    assert info.value.field == "others"


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"variant": "shangrao", "hand": None, "points": 4, "options": None}, "winner2",
         "one winner per discard"),
        ({"variant": "jiujiang", "hand": None, "points": 4, "options": None}, "winner2",
         "one winner per discard"),
        ({"options": None, "hand": DeskQuery(hand=XY_PLAIN)}, "winner2", "discard_win=true"),
        ({"how": "自摸", "discarder": None}, "winner2", "自摸"),
        ({"discarder": A}, "discarder", "winner"),
        ({"more_winners": (ExtraWinner.of(B, "2"),)}, "winner2", "once"),
        ({"more_winners": (ExtraWinner.of(C, None),)}, "hand2", "either"),
        ({"more_winners": (ExtraWinner.of(REPORTER, "2"),)}, "winner2", "four players"),
        ({"more_winners": (ExtraWinner.of(C, "0"),)}, "hand2", "whole number"),
        ({"more_winners": (ExtraWinner.of(C, "123m456m78p5p234s99s +9s"),)}, "hand2",
         "not a legal win"),
    ],
)  # fmt: skip
def test_several_winners_refused_where_the_rules_say_so(changes, field, words) -> None:
    with pytest.raises(BadReport) as info:
        prepare_record(xinyu_three_winners(**changes))
    assert info.value.field == field
    assert words in info.value.detail


def test_xinyu_house_rule_allows_several_winners() -> None:
    report = xinyu_three_winners(
        options=None, hand=DeskQuery(hand=XY_PLAIN), more_winners=(ExtraWinner.of(C, "4"),)
    )
    prepared = prepare_record(report, house_rules={"xinyu": {"discard_win": True}})
    assert [p.delta for p in prepared.hand.players] == [0, 1, 4, -5]


async def test_several_winners_count_once_then_void(store: Store) -> None:
    svc = RecordService(store)
    record, _ = await svc.report(xinyu_three_winners())
    for user in (B, C):
        assert not (await svc.confirm(record.id, user)).counted_now
    assert await board_points(store) == {}
    outcome = await svc.confirm(record.id, D)
    assert outcome.counted_now
    assert await board_points(store) == {A: 8, B: -1, C: 2, D: -9}
    stats = await store.stats.player_stats(GUILD, C)
    assert stats.wins == 1 and stats.biggest_hand is not None and stats.biggest_hand.delta == 2
    await svc.void(record.id, is_admin=True)
    assert await board_points(store) == {}
    assert (await store.leaderboards.page(GUILD, by="rating", min_hands=1)).entries == []


def test_record_message_lists_each_seats_change_and_the_table() -> None:
    from cogs.desk.text import player_lines, record_lines

    report = RecordReport(
        guild_id=GUILD, reporter_id=A, players=PLAYERS, winner=A, how="点炮", discarder=D,
        hand=DeskQuery(hand=JJ_HAND, variant="jiujiang"),
        others=f"<@{D}> 发1 [9999m]; <@{C}> (1111p)", streak="跟庄",
    )  # fmt: skip
    prepared = prepare_record(report)
    deltas = [p.delta for p in prepared.hand.players]
    lines = player_lines(PLAYERS, [A], deltas, "en", prepared.details["parts"])
    assert lines[0].startswith(f"1. <@{A}>  `+8`") and "confirmed" in lines[0]
    assert lines[3] == f"4. <@{D}>  `-8` (incl. 2 pao eaten (吃兴家)) · ⏳ waiting"
    shown = record_lines(prepared.hand, prepared.details, "en")
    assert f"Others: <@{C}> `(1111p)`; <@{D}> 发×1 `[9999m]`" in shown
    assert "Value per pao ×2 (followed)" in shown

    several = prepare_record(xinyu_three_winners())
    shown = record_lines(several.hand, several.details, "zh")
    assert shown[:3] == [
        f"<@{A}> 胡牌（点炮）2分",
        f"<@{B}> 胡牌（点炮）1分",
        f"<@{C}> 胡牌（点炮）4分",
    ]
    lines = player_lines(PLAYERS, [], [p.delta for p in several.hand.players], "zh",
                         several.details["parts"])  # fmt: skip
    assert lines[3] == f"4. <@{D}>  `-9`（杠钱 付 2） · ⏳ 待确认"
