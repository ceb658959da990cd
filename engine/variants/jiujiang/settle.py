"""九江麻将 payments (RULES §5.3): each paying loser pays (the winner's 炮 + their own 吃兴家)
× the value per 炮; self-draw all three, a discard or 抢杠 the discarder / robbed alone."""

from __future__ import annotations

from engine.payments import SEATS, Payment, others
from engine.variants.base import PayRequest

_WHY = {"self": "自摸 · self-draw", "discard": "放炮 · discard", "rob_kong": "抢杠 · robbed kong"}


def pay_win(r: PayRequest) -> list[Payment]:
    """The payments of one 九江 winner."""
    extras = r.loser_extras
    if len(extras) != SEATS or any(x < 0 for x in extras):
        raise ValueError("loser_extras needs 4 non-negative numbers, one per seat")
    if r.win == "self":
        losers = others(r.winner)
    else:
        assert r.payer is not None  # checked by settle_win: a discard or 抢杠 has a payer
        losers = [r.payer]
    pays = []
    for s in losers:
        amount = (r.result.points + extras[s]) * r.value_per_pao
        extra = f" + 吃兴家 {extras[s]}" if extras[s] else ""
        pays.append(Payment(s, r.winner, amount, _WHY[r.win] + extra))
    return pays
