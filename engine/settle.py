"""Payments after a hand (结算): who pays whom, per variant (RULES §3.4, §4.3, §5.1, §5.3).

Every :class:`Settlement` sums to zero. Seats are 0–3; ``deltas[i]`` is seat *i*'s change.

>>> from engine.scoring.types import ScoreResult
>>> s = settle_win("xinyu", None, winner=1, result=ScoreResult(True, 4, ()), win="self",
...                payer=None, dealer=0)
>>> s.deltas
(-4, 12, -4, -4)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.notation import Meld, MeldKind
from engine.scoring.types import ScoreResult, WinKind
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
            _check_seat(p.payer)
            _check_seat(p.payee)
            d[p.payer] -= p.amount
            d[p.payee] += p.amount
        return Settlement((d[0], d[1], d[2], d[3]), tuple(payments))

    def __add__(self, other: Settlement) -> Settlement:
        return Settlement.of(self.payments + other.payments)


EMPTY = Settlement((0, 0, 0, 0), ())


def _check_seat(seat: int | None, what: str = "seat") -> None:
    if seat is None or not 0 <= seat < SEATS:
        raise ValueError(f"{what} must be a seat 0–3, not {seat!r}")


def _others(seat: int) -> list[int]:
    return [s for s in range(SEATS) if s != seat]


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
    _check_seat(winner, "winner")
    _check_seat(dealer, "dealer")
    if not result.legal:
        raise ValueError("a hand that is not a legal win pays nothing: do not settle it")
    if win not in ("self", "discard", "rob_kong"):
        raise ValueError(f"unknown win kind {win!r}")
    if win != "self":
        _check_seat(payer, "payer")
        if payer == winner:
            raise ValueError("the winner cannot pay for their own win")
    if value_per_pao < 1:
        raise ValueError("value_per_pao must be at least 1")
    pts = result.points * value_per_pao
    pays: list[Payment] = []
    if variant == "shangrao":
        if sanbao_feeder is not None:
            _check_seat(sanbao_feeder, "sanbao_feeder")
            if sanbao_feeder == winner:
                raise ValueError("the 叁包 feeder cannot be the winner")
            pays.append(Payment(sanbao_feeder, winner, 3 * pts, "叁包 · feeder pays all"))
        elif win == "self":
            pays += [Payment(s, winner, pts, "自摸 · self-draw") for s in _others(winner)]
        else:
            assert payer is not None  # checked above: a discard or 抢杠 has a payer
            why = "抢杠 · robbed kong" if win == "rob_kong" else "点炮 · discard"
            pays.append(Payment(payer, winner, 3 * pts, f"{why} pays three shares"))
    elif variant == "xinyu":
        if win == "self":
            pays += [Payment(s, winner, pts, "自摸 · self-draw") for s in _others(winner)]
        else:
            assert payer is not None  # checked above: a discard has a payer
            pays.append(Payment(payer, winner, pts, "点胡 · discard"))
    elif variant == "jiujiang":
        if len(loser_extras) != SEATS or any(x < 0 for x in loser_extras):
            raise ValueError("loser_extras needs 4 non-negative numbers, one per seat")
        if win == "self":
            losers = _others(winner)
        else:
            assert payer is not None  # checked above: a discard or 抢杠 has a payer
            losers = [payer]
        for s in losers:
            amount = (result.points + loser_extras[s]) * value_per_pao
            why_of = {
                "self": "自摸 · self-draw",
                "discard": "放炮 · discard",
                "rob_kong": "抢杠 · robbed kong",
            }
            extra = f" + 吃兴家 {loser_extras[s]}" if loser_extras[s] else ""
            pays.append(Payment(s, winner, amount, why_of[win] + extra))
    else:
        raise ValueError(f"unknown variant {variant!r}")
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
    _check_seat(owner, "owner")
    if variant != "xinyu":
        return EMPTY
    amount = 2 if concealed else 1
    why = "暗杠 · concealed kong" if concealed else "明杠 · exposed kong"
    return Settlement.of([Payment(s, owner, amount, why) for s in _others(owner)])


def table_kong_money(variant: str, kongs: Sequence[tuple[int, bool]]) -> Settlement:
    """新余 杠钱 of every kong on the table (§4.3): ``kongs`` holds ``(owner, concealed)`` per
    kong, whoever declared it; each is paid by the three other players (see :func:`kong_money`)."""
    total = EMPTY
    for owner, concealed in kongs:
        total = total + kong_money(variant, owner, concealed)
    return total


def jiujiang_extras(melds: Sequence[Meld], flowers: int) -> int:
    """九江 吃兴家 of one loser (§5.3): +1 per 发 laid open, +1 / +2 per exposed / concealed
    suit kong, 中/白 pong +1, exposed kong +3, concealed kong +4 (concealed 中/白 in hand are
    not eaten)."""
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
