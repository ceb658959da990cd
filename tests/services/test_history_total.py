"""A history hand's total agrees with its payments: a 九江 winner also receives each loser's
吃兴家 and the value per 炮, which the hand's own points leave out."""

from __future__ import annotations

import pytest

from db.store import Store
from services.records import RecordReport, RecordService
from services.stats_text import hand_field, winners_received

GUILD = 7200
A, B, C, D = 31, 32, 33, 34
PLAYERS = (A, B, C, D)


@pytest.fixture
async def jiujiang_hand(store: Store):  # type: ignore[no-untyped-def]
    """A confirmed desk record: A wins 3 自摸, B laid 2 发 open (吃兴家), after a 黄庄 (×2)."""
    svc = RecordService(store)
    record, _ = await svc.report(
        RecordReport(
            guild_id=GUILD,
            reporter_id=A,
            players=PLAYERS,
            winner=A,
            how="self",
            points=3,
            variant="jiujiang",
            others="下家 发2",
            streak="黄庄",
        )
    )
    for user in PLAYERS:
        outcome = await svc.confirm(record.id, user)
    assert outcome.record.hand_id is not None
    hand = await store.hands.get(outcome.record.hand_id)
    assert hand is not None
    return hand


async def test_a_jiujiang_total_counts_the_eaten_flowers(jiujiang_hand) -> None:  # type: ignore[no-untyped-def]
    hand = jiujiang_hand
    assert hand.points == 3
    paid = {int(d["seat"]): int(d["delta"]) for d in hand.deltas}
    assert paid == {0: 22, 1: -10, 2: -6, 3: -6}  # (3 + 2 发) × 2 from 下家, 3 × 2 from each other
    assert winners_received(hand) == 22 == -sum(v for v in paid.values() if v < 0)
    texts = {lang: hand_field(hand, None, lang).value for lang in ("zh", "zh-TW", "en", "zh+en")}
    assert "牌 3 分，赢家共收 22 分" in texts["zh"]
    assert "牌 3 分，贏家共收 22 分" in texts["zh-TW"]
    assert "hand 3 points; the winner received 22 points in all" in texts["en"]
    assert "共 3 分" not in texts["zh"] and "共 3 分" not in texts["zh+en"]


def _jiujiang_result_with_eaten_flowers():  # type: ignore[no-untyped-def]
    """A real 九江 hand played by the engine's AI where a loser paid 吃兴家."""
    from engine.game import apply, new_game
    from engine.game.actions import NextHand
    from engine.game.ai import choose_action
    from services.real_engine import RealEngine
    from services.showdown import pay_lines

    engine = RealEngine()
    for g in range(40):
        state, _ = new_game("jiujiang", {}, f"showdown-jiujiang-{g}")
        for _hand in range(5):
            while state.hand.phase != "over":
                h = state.hand
                if h.phase == "turn":
                    seat = h.turn
                else:
                    c = h.claim
                    seat = next(
                        s for s in range(4) if c.options[s] is not None and c.responses[s] is None
                    )
                state, _ = apply(state, seat, choose_action(state, seat))
            result = engine.hand_result(state)
            if any(line.kind == "xing" for line in pay_lines(result)):
                return result
            state, _ = apply(state, 0, NextHand())
    raise AssertionError("no 九江 hand with 吃兴家 in 40 games")


async def test_an_online_jiujiang_total_counts_the_eaten_flowers(store: Store) -> None:
    from services.gamelog import LiveGame
    from services.model import Seat
    from services.recording import hand_input
    from services.showdown import pay_lines

    result = _jiujiang_result_with_eaten_flowers()
    eaten = sum(line.amount for line in pay_lines(result) if line.kind == "xing")
    assert eaten > 0
    users = [41, 42, 43, 44]
    game = await store.games.create(
        GUILD, 1, "jiujiang", seats=[{"user_id": u} for u in users], status="active"
    )
    live = LiveGame(
        id=game.id, guild_id=GUILD, channel_id=1, variant="jiujiang", options={},
        status="active", version=0, totals=[0] * 4,
        seats=[Seat(name=str(u), user_id=u) for u in users], hand_no=1,
    )  # fmt: skip
    recorded = await store.hands.record(hand_input(live, result))
    hand = await store.hands.get(recorded.hand.id)
    assert hand is not None
    received = sum(result.deltas[s] for s in result.winners)
    assert winners_received(hand) == received > hand.points
    text = hand_field(hand, None, "zh").value
    assert f"牌 {hand.points} 分，赢家共收 {received} 分" in text, text
