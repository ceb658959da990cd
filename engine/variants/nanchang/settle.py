"""南昌麻将 payments (RULES §8.4–§8.6), as pure functions the hand end calls for all four seats.

- :func:`pay_win` ``(r: PayRequest) -> list[Payment]`` — the win (the ``Variant.pay_win`` hook):
  each payer pays H × payer factors (self-draw / 抢杠 ×2, discarder ×2, bystander ×1, ×2 when
  the payer or the winner is the dealer), then + the flat bonus (德国 / 德中德 +5: every payer
  of a self-draw or 抢杠, only the discarder of a discard win). 天胡 / 地胡: a flat amount from
  each of the three. Options ``discard_pay`` and ``rob_kong_pay``.
- :class:`JingHolding` ``(zheng, fu, kongs=0, supplied=())`` — one seat's 精; ``.points()`` is
  s = 2 × 正精 + 1 × 副精. :func:`holdings_of` ``(end: HandEnd)`` reads the four from a hand end.
- :func:`settle_jing` ``(holdings: Sequence[JingHolding], options) -> JingSettlement`` — 精
  settlement (§8.5): 冲关 s × (s − 3) from s = 5, 霸王精, each seat's amount from each other
  seat, 杠精 10 from each, 冲关 liability (包) on a supplied 精.
- :func:`kong_points` ``(melds: Sequence[Sequence[Meld]], jing, options) -> list[Payment]`` —
  §8.6 kong points (kongs of a 精 kind are 杠精 instead).
- :func:`settle_hand` ``(end: HandEnd) -> HandSettlement`` — the ``Variant.settle_hand`` hook:
  every payment of a hand end besides the win's (精 settlement, kong points, 抄庄, 荒庄 penalty),
  won or drawn, with one JSON-ready line per seat (精 held, s, amount, 冲关, 霸王精, 杠精, who
  paid for whom, net). Every result is zero-sum: made of :class:`Payment` transfers only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from engine.notation import Meld, MeldKind
from engine.payments import SEATS, Payment, Settlement, check_seat, others
from engine.tiles import successor
from engine.variants.base import HandEnd, HandSettlement, PayRequest
from engine.variants.nanchang.options import NanchangOptions

#: 冲关 starts at this many 精 points (§8.5).
CHONGGUAN_FROM = 5
#: 杠精: what each other player pays for a declared kong of a 精 kind (§8.5).
GANG_JING = 10
#: 抄庄 and the 荒庄 penalty: what the dealer pays each other player (§8.6).
DEALER_PENALTY = 5

_WHY = {"self": "自摸 · self-draw", "discard": "点炮 · discard", "rob_kong": "抢杠 · robbed kong"}


def _options(options: object) -> NanchangOptions:
    return options if isinstance(options, NanchangOptions) else NanchangOptions()


def pay_win(r: PayRequest) -> list[Payment]:
    """The payments of one 南昌 winner (§8.4); ``r.points`` is H (天胡 / 地胡: the flat amount)."""
    opts = _options(r.options)
    res = r.result
    if res.flat:  # 天胡 / 地胡: the same from each of the three, nothing else
        name = "天胡 / 地胡 · flat"
        return [Payment(s, r.winner, r.points, name) for s in others(r.winner)]

    def dealer_x(payer: int) -> int:
        return 2 if r.dealer in (payer, r.winner) else 1

    h, bonus = r.points, res.bonus
    plus = f" + {bonus}" if bonus else ""
    if r.win == "discard":
        assert r.payer is not None  # checked by settle_win: a discard has a payer
        pays = [
            Payment(
                r.payer, r.winner, h * 2 * dealer_x(r.payer) + bonus, f"{_WHY['discard']}{plus}"
            )
        ]
        if opts.discard_pay == "three":
            pays += [
                Payment(s, r.winner, h * dealer_x(s), "点炮 · bystander")
                for s in others(r.winner)
                if s != r.payer
            ]
        return pays
    shares = [(s, h * 2 * dealer_x(s) + bonus) for s in others(r.winner)]
    if r.win == "rob_kong" and opts.rob_kong_pay == "robbed":
        assert r.payer is not None  # checked by settle_win: 抢杠 has a robbed player
        total = sum(a for _, a in shares)
        return [Payment(r.payer, r.winner, total, f"{_WHY['rob_kong']} pays three shares")]
    return [Payment(s, r.winner, a, f"{_WHY[r.win]}{plus}") for s, a in shares]


@dataclass(frozen=True)
class JingHolding:
    """One seat's 精 at the hand end (§8.5): ``zheng`` 正精 and ``fu`` 副精 tiles held in hand
    and melds (discarded ones too under ``count_discarded_jing``), ``kongs`` declared kongs of a
    精 kind (杠精; their tiles are also in ``zheng`` / ``fu``), and ``supplied`` the 精 points
    each other seat's discards gave it (a claimed meld of a 精, the winning discard), as
    ``(seat, points)`` pairs — what 冲关 liability (包) reads."""

    zheng: int
    fu: int
    kongs: int = 0
    supplied: tuple[tuple[int, int], ...] = ()

    def points(self) -> int:
        """s = 2 × 正精 + 1 × 副精."""
        return 2 * self.zheng + self.fu


@dataclass(frozen=True)
class JingSettlement:
    """The 精 settlement of the four seats: ``amount`` (after 冲关 and 霸王精), ``gang_jing``
    (10 per 杠精), ``liable`` (the seat paying a 冲关 for all three, or ``None``), the
    ``payments`` and their ``deltas`` (zero-sum)."""

    points: tuple[int, ...]
    amount: tuple[int, ...]
    chongguan: tuple[bool, ...]
    bawang: int | None
    gang_jing: tuple[int, ...]
    liable: tuple[int | None, ...]
    payments: tuple[Payment, ...]

    @property
    def deltas(self) -> tuple[int, int, int, int]:
        return Settlement.of(self.payments).deltas


def chongguan(s: int) -> int:
    """冲关 (§8.5): s × (s − 3) from s = 5 (5→10, 6→18 … 10→70); below 5, s itself.

    >>> [chongguan(s) for s in (0, 4, 5, 6, 10)]
    [0, 4, 10, 18, 70]
    """
    return s * (s - 3) if s >= CHONGGUAN_FROM else s


def _liable(holding: JingHolding, seat: int) -> int | None:
    """The seat whose discarded 精 took ``holding`` into 冲关: without that seat's supply the
    points fall below 5 (the largest supplier first when several would)."""
    s = holding.points()
    if s < CHONGGUAN_FROM:
        return None
    for by, pts in sorted(holding.supplied, key=lambda x: (-x[1], x[0])):
        check_seat(by, "supplier")
        if by != seat and pts > 0 and s - pts < CHONGGUAN_FROM:
            return by
    return None


def settle_jing(holdings: Sequence[JingHolding], options: object = None) -> JingSettlement:
    """The 精 settlement of four seats (§8.5).

    >>> s = settle_jing([JingHolding(2, 1), JingHolding(0, 1), JingHolding(0, 0), JingHolding(0, 0)])
    >>> s.amount, s.deltas
    ((10, 1, 0, 0), (29, -7, -11, -11))
    """
    opts = _options(options)
    if len(holdings) != SEATS:
        raise ValueError("settle_jing needs one holding per seat (4)")
    for h in holdings:
        if min(h.zheng, h.fu, h.kongs) < 0:
            raise ValueError("精 counts cannot be negative")
    points = tuple(h.points() for h in holdings)
    amount = [chongguan(s) for s in points]
    holders = [i for i, s in enumerate(points) if s > 0]
    bawang = holders[0] if len(holders) == 1 else None
    if bawang is not None:
        amount[bawang] = amount[bawang] * 2 if opts.bawang == "double" else amount[bawang] + 10
    liable = tuple(
        _liable(h, i) if opts.chongguan_liability else None for i, h in enumerate(holdings)
    )
    pays: list[Payment] = []
    for seat, a in enumerate(amount):
        if not a:
            continue
        big = points[seat] >= CHONGGUAN_FROM
        why = "冲关 · 精 over the bar" if big else "精分 · 精 held"
        if bawang == seat:
            why += " · 霸王精"
        by = liable[seat]
        if by is not None:
            pays.append(Payment(by, seat, 3 * a, f"{why} · 包 (supplied the 精)"))
        else:
            pays += [Payment(o, seat, a, why) for o in others(seat)]
    gang = tuple(GANG_JING * h.kongs for h in holdings)
    for seat, g in enumerate(gang):
        if g:
            pays += [Payment(o, seat, g, "杠精 · kong of a 精") for o in others(seat)]
    return JingSettlement(
        points,
        tuple(amount),
        tuple(s >= CHONGGUAN_FROM for s in points),
        bawang,
        gang,
        liable,
        tuple(pays),
    )


def is_jing_kong(meld: Meld, jing: frozenset[int]) -> bool:
    """A declared kong of a 精 kind (杠精)."""
    return meld.is_kong and meld.tiles[0] in jing


def kong_points(
    melds: Sequence[Sequence[Meld]], jing: frozenset[int], options: object = None
) -> list[Payment]:
    """Kong points (§8.6) of every seat's kongs: each other player pays 2 for an exposed, added
    or concealed kong (``kong_points = 1/2``: exposed 1, concealed 2); a kong of a 精 kind is
    杠精 instead (see :func:`settle_jing`)."""
    opts = _options(options)
    pays = []
    for seat, seat_melds in enumerate(melds):
        for m in seat_melds:
            if not m.is_kong or is_jing_kong(m, jing):
                continue
            concealed = m.kind is MeldKind.CONCEALED_KONG
            amount = opts.concealed_kong_points() if concealed else opts.exposed_kong_points()
            why = "暗杠 · concealed kong" if concealed else "明杠 · exposed kong"
            pays += [Payment(o, seat, amount, why) for o in others(seat)]
    return pays


def jing_kinds(end: HandEnd) -> tuple[int, int]:
    """(正精, 副精) of a hand end: the indicator's kind and the next."""
    if end.indicator is None:
        raise ValueError("a 南昌 hand end needs its indicator (正精)")
    return end.indicator, successor(end.indicator)


def holdings_of(end: HandEnd) -> tuple[JingHolding, ...]:
    """Each seat's :class:`JingHolding` at ``end``: 精 in hand and melds (and discarded ones
    under ``count_discarded_jing``), 精 kongs, and the 精 points each seat's discards supplied
    (claimed tiles: melds, the winning discard)."""
    opts = _options(end.options)
    zheng, fu = jing_kinds(end)
    jing = frozenset((zheng, fu))
    out = []
    for seat in range(SEATS):
        tiles = list(end.hands[seat])
        for m in end.melds[seat]:
            tiles.extend(m.tiles)
        if opts.count_discarded_jing:
            tiles.extend(end.discarded[seat])
        supplied: dict[int, int] = {}
        for kind, by in end.claimed[seat]:
            if kind in jing and by != seat:
                supplied[by] = supplied.get(by, 0) + (2 if kind == zheng else 1)
        out.append(
            JingHolding(
                tiles.count(zheng),
                tiles.count(fu),
                sum(1 for m in end.melds[seat] if is_jing_kong(m, jing)),
                tuple(sorted(supplied.items())),
            )
        )
    return tuple(out)


def settle_hand(end: HandEnd) -> HandSettlement:
    """Every payment of a 南昌 hand end besides the win's (§8.5–§8.6), won or drawn: the 精
    settlement (on a drawn hand only under ``jing_on_draw``), kong points (``kong_points_on_draw``),
    抄庄 (the dealer pays 5 to each), the 荒庄 penalty (``draw_penalty``)."""
    opts = _options(end.options)
    check_seat(end.dealer, "dealer")
    drawn = end.winner is None
    zheng, fu = jing_kinds(end)
    jing = frozenset((zheng, fu))
    pays: list[Payment] = []
    js: JingSettlement | None = None
    holdings = holdings_of(end)
    if not drawn or opts.jing_on_draw:
        js = settle_jing(holdings, opts)
        pays += js.payments
    kongs: list[Payment] = []
    if not drawn or opts.kong_points_on_draw:
        kongs = kong_points(end.melds, jing, opts)
        pays += kongs
    if end.followed and opts.chaozhuang:
        pays += [
            Payment(end.dealer, s, DEALER_PENALTY, "抄庄 · followed") for s in others(end.dealer)
        ]
    if drawn and opts.draw_penalty:
        pays += [
            Payment(end.dealer, s, DEALER_PENALTY, "荒庄 · drawn hand") for s in others(end.dealer)
        ]
    deltas = Settlement.of(pays).deltas
    seats: list[dict[str, Any]] = []
    for seat in range(SEATS):
        h = holdings[seat]
        line: dict[str, Any] = {"zheng": h.zheng, "fu": h.fu, "jing": h.points()}
        if js is not None:
            line.update(
                amount=js.amount[seat],
                chongguan=js.chongguan[seat],
                bawang=js.bawang == seat,
                gang_jing=js.gang_jing[seat],
                liable=js.liable[seat],
            )
        line["kong_points"] = sum(p.amount for p in kongs if p.payee == seat) - sum(
            p.amount for p in kongs if p.payer == seat
        )
        line["net"] = deltas[seat]
        seats.append(line)
    return HandSettlement(tuple(pays), tuple(seats))


def settle_holdings(holdings: object, options: object = None) -> dict[str, list[int]]:
    """A RULES §8.7 ``jing_settlement`` line: ``holdings`` per seat ``[正精, 副精, 精 kongs]``
    → ``{"amount", "gang_jing", "net"}``; ``ValueError`` naming what is wrong.

    >>> settle_holdings([[0, 1, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]])["net"]
    [6, -2, -2, -2]
    """
    if (
        not isinstance(holdings, list)
        or len(holdings) != SEATS
        or any(not isinstance(h, list) or len(h) != 3 for h in holdings)
        or any(type(x) is not int or x < 0 for h in holdings for x in h)
    ):
        raise ValueError("field 'holdings' needs 4 seats of [正精, 副精, 精 kongs], whole numbers")
    rows = [JingHolding(h[0], h[1], h[2]) for h in cast(list[list[int]], holdings)]
    for h in rows:
        if h.zheng > 3 or h.fu > 4 or 4 * h.kongs > h.zheng + h.fu:
            raise ValueError(
                "at most 3 正精 (one is the face-up indicator) and 4 副精; a 精 kong holds 4 tiles"
            )
    if sum(h.zheng for h in rows) > 3 or sum(h.fu for h in rows) > 4:
        raise ValueError("the four seats hold at most 3 正精 and 4 副精 between them")
    js = settle_jing(rows, options)
    return {"amount": list(js.amount), "gang_jing": list(js.gang_jing), "net": list(js.deltas)}


def jing_settlement_line(line: dict[str, Any], options: object) -> dict[str, Any]:
    """Answer a RULES §8.7 ``"kind": "jing_settlement"`` line (the ``line_kinds`` hook)."""
    return settle_holdings(line.get("holdings"), options)
