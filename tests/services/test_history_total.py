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
