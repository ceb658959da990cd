"""九江麻将 payments (RULES §5.3): each paying loser pays (the winner's 炮 + their own 吃兴家)
× the value per 炮; self-draw all three, a discard or 抢杠 the discarder / robbed alone."""

from __future__ import annotations

from collections.abc import Sequence

from engine.notation import Meld, MeldKind
from engine.payments import SEATS, Payment, others
from engine.tiles import RED, WHITE
from engine.variants.base import PayRequest

_WHY = {"self": "自摸 · self-draw", "discard": "放炮 · discard", "rob_kong": "抢杠 · robbed kong"}


def eaten_extras(melds: Sequence[Meld], flowers: int) -> int:
    """吃兴家 of one loser (§5.3): +1 per 发 laid open, +1 / +2 per exposed / concealed
    suit kong, 中/白 pong +1, exposed kong +3, concealed kong +4 (concealed 中/白 in hand are
    not eaten). The :attr:`Variant.loser_extras` hook of 九江."""
    if flowers < 0:
        raise ValueError("flowers cannot be negative")
    total = flowers
    for m in melds:
        dragon = m.tiles[0] in (RED, WHITE)
        if m.kind is MeldKind.PONG:
            total += 1 if dragon else 0
        elif m.kind is MeldKind.KONG:
            total += 3 if dragon else 1
        elif m.kind is MeldKind.CONCEALED_KONG:
            total += 4 if dragon else 2
    return total


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
