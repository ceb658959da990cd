"""Payments after a hand (结算): who pays whom, per variant (RULES §3.4, §4.3, §5.1, §5.3).

Every :class:`Settlement` sums to zero. Seats are 0–3; ``deltas[i]`` is seat *i*'s change.
This module holds what takes a variant's name and asks the registry (:func:`settle_win`,
:func:`settle_multi`, :func:`kong_money`); the payments and the shared arithmetic (叁包,
value per 炮) live in :mod:`engine.payments`, re-exported here; a loser's 吃兴家 is the
variant's :attr:`~engine.variants.Variant.loser_extras` hook.

>>> from engine.scoring.types import ScoreResult
>>> s = settle_win("xinyu", None, winner=1, result=ScoreResult(True, 4, ()), win="self",
...                payer=None, dealer=0)
>>> s.deltas
(-4, 12, -4, -4)
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import variants
from engine.payments import (
    EMPTY,
    PAO_RAISES,
    SEATS,
    Payment,
    Settlement,
    check_seat,
    follow_factor,
    next_pao_value,
    others,
    pao_value,
    sanbao_feeder,
)
from engine.scoring.types import ScoreResult, WinKind
from engine.variants import PayRequest, RuleOptions

__all__ = [
    "EMPTY",
    "PAO_RAISES",
    "SEATS",
    "Payment",
    "Settlement",
    "check_seat",
    "follow_factor",
    "kong_money",
    "next_pao_value",
    "others",
    "pao_value",
    "sanbao_feeder",
    "settle_multi",
    "settle_win",
    "table_kong_money",
]


def settle_win(
    variant: str,
    options: object,
    *,
    winner: int,
    result: ScoreResult,
    win: WinKind,
    payer: int | None,
    dealer: int,
    sanbao_feeder: int | None = None,
    loser_extras: Sequence[int] = (0, 0, 0, 0),
    value_per_pao: int = 1,
) -> Settlement:
    """Payments for one winner.

    - 上饶 (§3.4): self-draw, each other pays the points; 地胡 / 接宝 / ``discard_win`` discard
      and 抢杠, the discarder (robbed player) pays three shares; 叁包: ``sanbao_feeder`` pays
      three shares whatever the win.
    - 新余 (§4.3): self-draw, each other pays; a discard (``discard_win``), the discarder alone
      pays one share.
    - 九江 (§5.3): each paying loser pays (winner's 炮 + their own 吃兴家 ``loser_extras[seat]``)
      × ``value_per_pao``; self-draw all three, a discard or 抢杠 the discarder / robbed alone.

    ``options`` is the variant's rule options (unused today; kept for house rules).
    ``dealer`` is the seat of the dealer (no variant here adds a dealer share).
    """
    check_seat(winner, "winner")
    check_seat(dealer, "dealer")
    if not result.legal:
        raise ValueError("a hand that is not a legal win pays nothing: do not settle it")
    if win not in ("self", "discard", "rob_kong"):
        raise ValueError(f"unknown win kind {win!r}")
    if win != "self":
        check_seat(payer, "payer")
        if payer == winner:
            raise ValueError("the winner cannot pay for their own win")
    if value_per_pao < 1:
        raise ValueError("value_per_pao must be at least 1")
    request = PayRequest(
        options if isinstance(options, RuleOptions) else None,
        winner,
        result,
        win,
        payer,
        dealer,
        result.points * value_per_pao,
        sanbao_feeder,
        loser_extras,
        value_per_pao,
    )
    pays = variants.get(variant).pay_win(request)
    return Settlement.of(pays)


def settle_multi(
    variant: str,
    options: object,
    *,
    winners: Sequence[tuple[int, ScoreResult]],
    payer: int,
    dealer: int,
    win: WinKind = "discard",
    loser_extras: Sequence[int] = (0, 0, 0, 0),
    value_per_pao: int = 1,
) -> Settlement:
    """Several winners on one discard (新余 ``discard_win``: 一炮多响): the discarder pays each."""
    if not winners:
        raise ValueError("settle_multi needs at least one winner")
    seats = [w for w, _ in winners]
    if len(set(seats)) != len(seats) or payer in seats:
        raise ValueError("winners must be distinct seats other than the payer")
    total = EMPTY
    for seat, result in winners:
        total = total + settle_win(
            variant,
            options,
            winner=seat,
            result=result,
            win=win,
            payer=payer,
            dealer=dealer,
            loser_extras=loser_extras,
            value_per_pao=value_per_pao,
        )
    return total


def kong_money(variant: str, owner: int, concealed: bool) -> Settlement:
    """新余 杠钱 (§4.3): each other player pays 1 for a 明杠 / 补杠, 2 for an 暗杠, at once.

    Other variants pay nothing for a kong (an empty settlement).
    """
    check_seat(owner, "owner")
    v = variants.get(variant)
    if not v.rules(v.options_class()).kong_money:
        return EMPTY
    amount = 2 if concealed else 1
    why = "暗杠 · concealed kong" if concealed else "明杠 · exposed kong"
    return Settlement.of([Payment(s, owner, amount, why) for s in others(owner)])


def table_kong_money(variant: str, kongs: Sequence[tuple[int, bool]]) -> Settlement:
    """新余 杠钱 of every kong on the table (§4.3): ``kongs`` holds ``(owner, concealed)`` per
    kong, whoever declared it; each is paid by the three other players (see :func:`kong_money`)."""
    total = EMPTY
    for owner, concealed in kongs:
        total = total + kong_money(variant, owner, concealed)
    return total
