"""新余麻将 payments (RULES §4.3): self-draw, each other pays; a discard (``discard_win``),
the discarder alone pays one share. 杠钱 is paid at each kong (engine.settle.kong_money)."""

from __future__ import annotations

from engine.payments import Payment, others
from engine.variants.base import PayRequest


def pay_win(r: PayRequest) -> list[Payment]:
    """The payments of one 新余 winner."""
    if r.win == "self":
        return [Payment(s, r.winner, r.points, "自摸 · self-draw") for s in others(r.winner)]
    assert r.payer is not None  # checked by settle_win: a discard has a payer
    return [Payment(r.payer, r.winner, r.points, "点胡 · discard")]
