"""上饶麻将 payments (RULES §3.4): self-draw, each other pays the points; a discard win
(地胡 / 接宝 / ``discard_win``) or 抢杠, the discarder (robbed player) pays three shares;
叁包: the feeder pays three shares whatever the win."""

from __future__ import annotations

from engine.payments import Payment, check_seat, others
from engine.variants.base import PayRequest


def pay_win(r: PayRequest) -> list[Payment]:
    """The payments of one 上饶 winner."""
    if r.sanbao_feeder is not None:
        check_seat(r.sanbao_feeder, "sanbao_feeder")
        if r.sanbao_feeder == r.winner:
            raise ValueError("the 叁包 feeder cannot be the winner")
        return [Payment(r.sanbao_feeder, r.winner, 3 * r.points, "叁包 · feeder pays all")]
    if r.win == "self":
        return [Payment(s, r.winner, r.points, "自摸 · self-draw") for s in others(r.winner)]
    assert r.payer is not None  # checked by settle_win: a discard or 抢杠 has a payer
    why = "抢杠 · robbed kong" if r.win == "rob_kong" else "点炮 · discard"
    return [Payment(r.payer, r.winner, 3 * r.points, f"{why} pays three shares")]
