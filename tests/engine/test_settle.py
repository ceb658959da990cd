"""Payments (engine.settle): each rule on its own, and every settlement sums to zero."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import variants
from engine.notation import Meld, MeldKind
from engine.scoring import ScoreResult
from engine.settle import (
    Settlement,
    follow_factor,
    kong_money,
    next_pao_value,
    pao_value,
    sanbao_feeder,
    settle_multi,
    settle_win,
    table_kong_money,
)

WIN = ScoreResult(True, 8, ())


def win(variant: str, **kw) -> Settlement:
    kw.setdefault("dealer", 0)
    kw.setdefault("payer", None)
    return settle_win(variant, None, result=kw.pop("result", WIN), **kw)


def test_shangrao_self_draw_each_pays() -> None:
    assert win("shangrao", winner=2, win="self").deltas == (-8, -8, 24, -8)


@pytest.mark.parametrize("how", ["discard", "rob_kong"])
def test_shangrao_discard_or_robbed_pays_three_shares(how: str) -> None:
    assert win("shangrao", winner=2, win=how, payer=3).deltas == (0, 0, 24, -24)


def test_shangrao_sanbao_feeder_pays_all() -> None:
    s = win("shangrao", winner=1, win="self", sanbao_feeder=3)
    assert s.deltas == (0, 24, 0, -24) and len(s.payments) == 1 and "叁包" in s.payments[0].reason


def test_sanbao_feeder_from_melds() -> None:
    fed = [
        Meld(MeldKind.PONG, (0, 0, 0), 2),
        Meld(MeldKind.CHI, (3, 4, 5), 2),
        Meld(MeldKind.KONG, (9, 9, 9, 9), 2),
    ]
    assert sanbao_feeder(fed) == 2
    assert sanbao_feeder([*fed[:2], Meld(MeldKind.PONG, (9, 9, 9), 1)]) is None
    assert sanbao_feeder([Meld(MeldKind.CONCEALED_KONG, (9, 9, 9, 9))]) is None


def test_xinyu_self_draw_and_discard() -> None:
    assert win("xinyu", winner=0, win="self").deltas == (24, -8, -8, -8)
    assert win("xinyu", winner=0, win="discard", payer=1).deltas == (8, -8, 0, 0)


def test_xinyu_several_winners_on_one_discard() -> None:
    s = settle_multi(
        "xinyu", None, winners=[(1, WIN), (3, ScoreResult(True, 2, ()))], payer=2, dealer=0
    )
    assert s.deltas == (0, 8, -10, 2)


def test_kong_money() -> None:
    assert kong_money("xinyu", 1, concealed=False).deltas == (-1, 3, -1, -1)
    assert kong_money("xinyu", 1, concealed=True).deltas == (-2, 6, -2, -2)
    assert kong_money("shangrao", 1, concealed=True).deltas == (0, 0, 0, 0)
    assert kong_money("jiujiang", 1, concealed=False).deltas == (0, 0, 0, 0)


def test_jiujiang_extras_are_its_variants_loser_extras_hook() -> None:
    jiujiang = variants.get("jiujiang")
    melds = [
        Meld(MeldKind.KONG, (0, 0, 0, 0)),  # +1
        Meld(MeldKind.CONCEALED_KONG, (9, 9, 9, 9)),  # +2
        Meld(MeldKind.PONG, (31, 31, 31)),  # 中 pong +1
        Meld(MeldKind.PONG, (5, 5, 5)),  # suit pong: 0
    ]
    assert jiujiang.extras_of(melds, flowers=2) == 6
    assert jiujiang.extras_of([Meld(MeldKind.KONG, (33,) * 4)], 0) == 3
    assert jiujiang.extras_of([Meld(MeldKind.CONCEALED_KONG, (33,) * 4)], 0) == 4
    with pytest.raises(ValueError):
        jiujiang.extras_of([], -1)


@pytest.mark.parametrize("name", ["shangrao", "xinyu"])
def test_variants_without_loser_extras_add_nothing(name: str) -> None:
    variant = variants.get(name)
    assert variant.loser_extras is None
    assert variant.extras_of([Meld(MeldKind.CONCEALED_KONG, (33,) * 4)], 3) == 0


def test_jiujiang_payments_eat_the_losers_extras_and_value() -> None:
    r = ScoreResult(True, 5, ())
    s = win("jiujiang", winner=0, win="self", result=r, loser_extras=(0, 1, 0, 3), value_per_pao=2)
    assert s.deltas == (38, -12, -10, -16)
    s = win("jiujiang", winner=0, win="discard", payer=3, result=r, loser_extras=(0, 1, 0, 3))
    assert s.deltas == (8, 0, 0, -8)
    s = win("jiujiang", winner=0, win="rob_kong", payer=1, result=r)
    assert s.deltas == (5, -5, 0, 0)


def test_illegal_or_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        win("xinyu", winner=0, win="self", result=ScoreResult(False, 0, ()))
    with pytest.raises(ValueError):
        win("xinyu", winner=0, win="discard", payer=None)
    with pytest.raises(ValueError):
        win("xinyu", winner=0, win="discard", payer=0)
    with pytest.raises(ValueError):
        win("mahjong", winner=0, win="self")


def test_follow_and_draw_values() -> None:
    assert follow_factor(0) == 1 and follow_factor(1) == 2 and follow_factor(2) == 4
    assert follow_factor(1, first_discard=31) == 4 and follow_factor(1, first_discard=33) == 4
    assert next_pao_value(1, dealer_keeps=True, drawn=True) == 2
    assert next_pao_value(2, dealer_keeps=True, drawn=True) == 4  # two draws in a row: ×4
    assert next_pao_value(4, dealer_keeps=True) == 4  # the same dealer keeps the raised value
    assert next_pao_value(4, dealer_keeps=False) == 1  # the deal passes: back to 1
    assert next_pao_value(1, dealer_keeps=False, followed=1) == 2
    assert next_pao_value(2, dealer_keeps=True, followed=2) == 8


seat = st.integers(0, 3)


@given(
    variant=st.sampled_from(["shangrao", "xinyu", "jiujiang"]),
    winner=seat,
    payer=seat,
    how=st.sampled_from(["self", "discard", "rob_kong"]),
    points=st.integers(1, 10_000),
    extras=st.tuples(*[st.integers(0, 30)] * 4),
    value=st.integers(1, 16),
    feeder=st.none() | seat,
)
def test_every_settlement_sums_to_zero(
    variant, winner, payer, how, points, extras, value, feeder
) -> None:
    if how != "self" and payer == winner:
        payer = (winner + 1) % 4
    if feeder == winner or variant != "shangrao":
        feeder = None
    s = settle_win(
        variant,
        None,
        winner=winner,
        result=ScoreResult(True, points, ()),
        win=how,
        payer=None if how == "self" else payer,
        dealer=0,
        sanbao_feeder=feeder,
        loser_extras=extras,
        value_per_pao=value,
    )
    assert sum(s.deltas) == 0
    assert s.deltas[winner] > 0 and all(d <= 0 for i, d in enumerate(s.deltas) if i != winner)
    assert all(p.amount > 0 and p.payee == winner for p in s.payments)


@given(
    owner=seat, concealed=st.booleans(), variant=st.sampled_from(["shangrao", "xinyu", "jiujiang"])
)
def test_kong_money_sums_to_zero(owner, concealed, variant) -> None:
    assert sum(kong_money(variant, owner, concealed).deltas) == 0


@given(payer=seat, pts=st.lists(st.integers(1, 100), min_size=1, max_size=3))
def test_multi_sums_to_zero(payer, pts) -> None:
    winners = [((payer + 1 + i) % 4, ScoreResult(True, p, ())) for i, p in enumerate(pts)]
    s = settle_multi("xinyu", None, winners=winners, payer=payer, dealer=0)
    assert sum(s.deltas) == 0 and s.deltas[payer] == -sum(pts)


def test_pao_value_after_raises_uses_next_pao_value() -> None:
    assert pao_value([]) == 1
    assert pao_value(["draw"]) == 2 and pao_value(["follow"]) == 2
    assert pao_value(["draw", "draw"]) == 4  # two 黄庄 in a row: ×4
    assert pao_value(["follow_dragon"]) == 4 and pao_value(["follow_twice"]) == 4
    assert pao_value(["draw", "follow_dragon"]) == 8
    assert pao_value(["follow"], start=4) == 8
    with pytest.raises(ValueError, match="unknown raise"):
        pao_value(["rain"])


def test_table_kong_money_sums_every_kong() -> None:
    s = table_kong_money("xinyu", [(0, True), (2, False)])
    assert s.deltas == (6 - 1, -2 - 1, -2 + 3, -2 - 1)
    assert table_kong_money("xinyu", []).deltas == (0, 0, 0, 0)
    assert table_kong_money("jiujiang", [(1, True)]).deltas == (0, 0, 0, 0)


@given(kongs=st.lists(st.tuples(seat, st.booleans()), max_size=6))
def test_table_kong_money_sums_to_zero(kongs) -> None:
    s = table_kong_money("xinyu", kongs)
    assert sum(s.deltas) == 0
    assert sum(d for d in s.deltas if d > 0) <= 6 * len(kongs)
