"""南昌 payments (RULES §8.4–§8.6): the win's payer factors and +5, the 精 settlement of every
seat (冲关, 霸王精, 杠精, 冲关 liability), kong points, 抄庄 and the 荒庄 penalty — all zero-sum."""

from __future__ import annotations

from typing import Any

import pytest

from engine.notation import Meld, MeldKind
from engine.options import make_options
from engine.scoring.types import ScoreResult
from engine.settle import settle_win
from engine.variants.base import HandEnd
from engine.variants.nanchang.settle import (
    JingHolding,
    chongguan,
    kong_points,
    settle_hand,
    settle_jing,
)

P5, P6 = 13, 14  # 5p (正精) and 6p (副精) when the indicator is 5p
PLAIN = ScoreResult(True, 1, ())
DEGUO = ScoreResult(True, 2, (), bonus=5)
HEAVEN = ScoreResult(True, 40, (), flat=True)


def pay(
    result: ScoreResult, win: str, winner: int, payer: int | None = None, **opts: Any
) -> list[int]:
    s = settle_win(
        "nanchang",
        make_options("nanchang", opts),
        winner=winner,
        result=result,
        win=win,  # type: ignore[arg-type]
        payer=payer,
        dealer=0,
    )
    assert sum(s.deltas) == 0
    out = [0] * 4
    for p in s.payments:
        assert p.payee == winner
        out[p.payer] += p.amount
    return out


def test_payer_factors_and_the_flat_bonus() -> None:
    # RULES §8.4 worked example: a non-dealer's plain self-draw costs non-dealers 2, the dealer 4
    assert pay(PLAIN, "self", 1) == [4, 0, 2, 2]
    assert pay(PLAIN, "discard", 1, 2) == [2, 0, 2, 1]
    assert pay(PLAIN, "discard", 1, 0) == [4, 0, 1, 1]  # a dealer discarder pays 4
    # 德国: +5 from every payer of a self-draw, only from the discarder of a discard win
    assert pay(DEGUO, "self", 2) == [13, 9, 0, 9]
    assert pay(DEGUO, "discard", 2, 3) == [4, 2, 0, 9]
    assert pay(DEGUO, "self", 0) == [0, 13, 13, 13]


def test_discard_pay_and_rob_kong_pay_options() -> None:
    assert pay(DEGUO, "discard", 2, 3, discard_pay="one") == [0, 0, 0, 9]
    assert pay(DEGUO, "rob_kong", 2, 3) == [13, 9, 0, 9]  # as a self-draw, each of the three
    assert pay(DEGUO, "rob_kong", 2, 3, rob_kong_pay="robbed") == [0, 0, 0, 31]


def test_heaven_and_earth_are_flat_from_each() -> None:
    assert pay(HEAVEN, "self", 0) == [0, 40, 40, 40]
    assert pay(ScoreResult(True, 20, (), flat=True), "discard", 2, 0) == [20, 20, 0, 20]


def test_chongguan_table() -> None:
    assert [chongguan(s) for s in range(11)] == [0, 1, 2, 3, 4, 10, 18, 28, 40, 54, 70]


def h(zheng: int = 0, fu: int = 0, kongs: int = 0, supplied: tuple = ()) -> JingHolding:
    return JingHolding(zheng, fu, kongs, supplied)


def test_jing_settlement_amounts_bawang_and_gang_jing() -> None:
    s = settle_jing([h(1, 1), h(0, 1), h(), h()])
    assert s.amount == (3, 1, 0, 0) and s.deltas == (8, 0, -4, -4) and s.bawang is None
    s = settle_jing([h(), h(2, 1), h(), h()])  # 5 → 冲关 10 → 霸王精 20
    assert s.amount == (0, 20, 0, 0) and s.chongguan[1] and s.bawang == 1
    assert s.deltas == (-20, 60, -20, -20)
    plus = settle_jing([h(), h(2, 1), h(), h()], make_options("nanchang", {"bawang": "plus10"}))
    assert plus.amount == (0, 20, 0, 0)  # 10 + 10
    plus = settle_jing([h(0, 1), h(), h(), h()], make_options("nanchang", {"bawang": "plus10"}))
    assert plus.amount == (11, 0, 0, 0)
    s = settle_jing([h(0, 4, 1), h(1), h(), h()])  # 杠精: 10 from each, not doubled
    assert s.gang_jing == (10, 0, 0, 0) and s.deltas == (40, -8, -16, -16)
    assert settle_jing([h(), h(), h(), h()]).payments == ()


def test_chongguan_liability_falls_on_the_supplier() -> None:
    # seat 1 holds 2 正精 + 1 副精 (5): one 正精 came from seat 3's discard → without it, 3
    held = [h(), h(2, 1, supplied=((3, 2),)), h(0, 1), h()]
    s = settle_jing(held)
    assert s.liable == (None, 3, None, None)
    assert s.amount == (0, 10, 1, 0)
    # seat 3 pays all three shares of seat 1's 冲关; seat 2's 1 is paid by each as usual
    assert s.deltas == (-1, 30 - 1, 3, -30 - 1)
    off = settle_jing(held, make_options("nanchang", {"chongguan_liability": False}))
    assert off.liable == (None, None, None, None) and off.deltas == (-11, 29, -7, -11)
    # already in 冲关 without the supplied 精: nobody is liable
    assert settle_jing([h(), h(3, 1, supplied=((3, 1),)), h(), h()]).liable == (None,) * 4
    # a seat is never liable for its own 精
    assert settle_jing([h(), h(2, 1, supplied=((1, 2),)), h(), h()]).liable == (None,) * 4


def test_jing_settlement_refuses_bad_holdings() -> None:
    with pytest.raises(ValueError, match="one holding per seat"):
        settle_jing([h()] * 3)
    with pytest.raises(ValueError, match="negative"):
        settle_jing([h(-1), h(), h(), h()])


def kong(kind: int, concealed: bool = False) -> Meld:
    return Meld(MeldKind.CONCEALED_KONG if concealed else MeldKind.KONG, (kind,) * 4)


def test_kong_points_and_jing_kongs() -> None:
    jing = frozenset({P5, P6})
    melds = [[kong(0)], [kong(27, concealed=True)], [kong(P6, concealed=True)], []]
    pays = kong_points(melds, jing)
    got = {(p.payee, p.amount) for p in pays}
    assert got == {(0, 2), (1, 2)} and len(pays) == 6  # the 副精 kong is 杠精, not here
    pays = kong_points(melds, jing, make_options("nanchang", {"kong_points": "1/2"}))
    assert {(p.payee, p.amount) for p in pays} == {(0, 1), (1, 2)}


def end(**kw: Any) -> HandEnd:
    base: dict[str, Any] = {
        "options": make_options("nanchang"),
        "dealer": 0,
        "winner": None,
        "how": "draw",
        "payer": None,
        "indicator": P5,
        "wildcards": frozenset({P5, P6}),
        "hands": ((P5, P6, 1, 2), (P6, 3), (4,), (5,)),
        "melds": ((kong(9),), (), (), ()),
        "discarded": ((), (P5,), (), ()),
        "claimed": ((), (), (), ()),
    }
    base.update(kw)
    return HandEnd(**base)


def deltas(e: HandEnd) -> tuple[int, ...]:
    s = settle_hand(e)
    d = [0] * 4
    for p in s.payments:
        d[p.payer] -= p.amount
        d[p.payee] += p.amount
    assert sum(d) == 0
    assert [line["net"] for line in s.seats] == d
    return tuple(d)


def test_settle_hand_on_a_drawn_hand_and_its_options() -> None:
    # 精: seat 0 holds 3, seat 1 holds 1; kong points: seat 0's 明杠 2 from each
    assert deltas(end()) == (8 + 6, 0 - 2, -4 - 2, -4 - 2)
    line = settle_hand(end()).seats[0]
    assert (line["zheng"], line["fu"], line["jing"], line["amount"], line["kong_points"]) == (
        1,
        1,
        3,
        3,
        6,
    )
    opts = make_options("nanchang", {"jing_on_draw": False})
    assert deltas(end(options=opts)) == (6, -2, -2, -2)
    opts = make_options("nanchang", {"jing_on_draw": False, "kong_points_on_draw": False})
    assert deltas(end(options=opts)) == (0, 0, 0, 0)
    opts = make_options("nanchang", {"draw_penalty": True})
    assert deltas(end(options=opts)) == (14 - 15, -2 + 5, -6 + 5, -6 + 5)
    # count_discarded_jing: seat 1's discarded 正精 counts (1 + 2 = 3)
    opts = make_options("nanchang", {"count_discarded_jing": True})
    assert settle_hand(end(options=opts)).seats[1]["amount"] == 3


def test_settle_hand_after_a_win_with_chaozhuang_and_liability() -> None:
    e = end(
        winner=1,
        how="discard",
        payer=3,
        hands=((1, 2), (P5, P5, P6, 3), (4,), (5,)),
        melds=((), (), (), ()),
        claimed=((), ((P5, 3),), (), ()),
        winning_tile=P5,
        followed=True,
    )
    # seat 1: 2 + 2 + 1 = 5 → 冲关 10, 霸王精 20, only through seat 3's 正精: seat 3 pays 60;
    # 抄庄: the dealer pays 5 to each
    assert deltas(e) == (-15, 60 + 5, 5, -60 + 5)
    assert settle_hand(e).seats[1]["liable"] == 3
    no_chao = make_options("nanchang", {"chaozhuang": False})
    assert deltas(end(**{**e.__dict__, "options": no_chao})) == (0, 60, 0, -60)
