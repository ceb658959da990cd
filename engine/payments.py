"""Payments after a hand (结算) and the settlement arithmetic the variants share.

Low on purpose: the variants' settlement hooks build on it without importing the registry;
the dispatchers that take a variant's name (:func:`engine.settle.settle_win`,
:func:`engine.settle.kong_money`…) sit in :mod:`engine.settle`, above the registry. Every
:class:`Settlement` sums to zero. Seats are 0–3; ``deltas[i]`` is seat *i*'s change.

>>> Settlement.of([Payment(0, 1, 2, "test")]).deltas
(-2, 2, 0, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.notation import Meld
from engine.tiles import RED, WHITE

SEATS = 4


@dataclass(frozen=True)
class Payment:
    """One transfer: ``payer`` gives ``amount`` points to ``payee``; ``reason`` says why."""

    payer: int
    payee: int
    amount: int
    reason: str


@dataclass(frozen=True)
class Settlement:
    """Each seat's change in points and the transfers behind them (sums to zero)."""

    deltas: tuple[int, int, int, int]
    payments: tuple[Payment, ...]

    @staticmethod
    def of(payments: Sequence[Payment]) -> Settlement:
        """Sum transfers into per-seat deltas."""
        d = [0] * SEATS
        for p in payments:
            check_seat(p.payer)
            check_seat(p.payee)
            d[p.payer] -= p.amount
            d[p.payee] += p.amount
        return Settlement((d[0], d[1], d[2], d[3]), tuple(payments))

    def __add__(self, other: Settlement) -> Settlement:
        return Settlement.of(self.payments + other.payments)


EMPTY = Settlement((0, 0, 0, 0), ())


def check_seat(seat: int | None, what: str = "seat") -> None:
    """Raise ``ValueError`` unless ``seat`` is a seat 0–3 (``what`` names it)."""
    if seat is None or not 0 <= seat < SEATS:
        raise ValueError(f"{what} must be a seat 0–3, not {seat!r}")


def others(seat: int) -> list[int]:
    """The three seats other than ``seat``."""
    return [s for s in range(SEATS) if s != seat]


def sanbao_feeder(melds: Sequence[Meld]) -> int | None:
    """上饶 叁包 (§3.1): the seat that fed 3 or 4 of the winner's chi/pong/kong, if any."""
    fed: dict[int, int] = {}
    for m in melds:
        if m.fed_by is not None:
            fed[m.fed_by] = fed.get(m.fed_by, 0) + 1
    for seat, n in fed.items():
        if n >= 3:
            return seat
    return None


def follow_factor(followed: int, first_discard: int | None = None) -> int:
    """九江 跟庄 (§5.1): ×2 when the three others followed the dealer's first discard; ×4 when
    that discard was 中 or 白, or when the dealer's second discard was followed too."""
    if followed <= 0:
        return 1
    if followed >= 2 or first_discard in (RED, WHITE):
        return 4
    return 2


def next_pao_value(
    current: int,
    *,
    dealer_keeps: bool,
    drawn: bool = False,
    followed: int = 0,
    first_discard: int | None = None,
) -> int:
    """九江 value per 炮 of the next hand (§5.1 跟庄 / 黄庄).

    ``current`` is this hand's value; ``dealer_keeps`` whether the same dealer deals next (a
    draw always keeps the deal); ``drawn`` this hand was a 黄庄; ``followed`` how many of the
    dealer's opening discards were followed by all three others (跟庄, 0–2) and
    ``first_discard`` the kind of the dealer's first discard. Raised values stay while the
    dealer keeps the deal (each 黄庄 doubles again: two in a row ×4) and fall back to 1 when
    the deal passes; this hand's 跟庄 raises the next hand's value either way.
    """
    if current < 1:
        raise ValueError("the value per 炮 is at least 1")
    base = current if (dealer_keeps or drawn) else 1
    return base * follow_factor(followed, first_discard) * (2 if drawn else 1)


#: 九江 events that raise the value per 炮 (§5.1), by code: what each does to the value.
PAO_RAISES: dict[str, str] = {
    "draw": "黄庄 ×2",
    "follow": "跟庄 ×2",
    "follow_dragon": "跟庄 中/白 ×4",
    "follow_twice": "跟庄 ×4 (second discard followed too)",
}


def pao_value(raises: Sequence[str], start: int = 1) -> int:
    """九江 value per 炮 of a hand after ``raises`` (codes of :data:`PAO_RAISES`), oldest
    first: the 黄庄 / 跟庄 of the hands that raised it while the same dealer kept the deal
    (§5.1; each step is :func:`next_pao_value`).

    >>> pao_value(["draw", "follow"]), pao_value(["follow_dragon"]), pao_value([])
    (4, 4, 1)
    """
    value = start
    for code in raises:
        if code == "draw":
            value = next_pao_value(value, dealer_keeps=True, drawn=True)
        elif code == "follow":
            value = next_pao_value(value, dealer_keeps=True, followed=1)
        elif code == "follow_dragon":
            value = next_pao_value(value, dealer_keeps=True, followed=1, first_discard=RED)
        elif code == "follow_twice":
            value = next_pao_value(value, dealer_keeps=True, followed=2)
        else:
            raise ValueError(f"unknown raise {code!r}: use {', '.join(PAO_RAISES)}")
    return value
