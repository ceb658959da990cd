"""九江 scoring, each item and rule on its own (RULES §5.2–§5.3, §7)."""

from __future__ import annotations

from scoring_helpers import names, sc, values, why

from engine.notation import parse_hand
from engine.variants.jiujiang.scoring import waits


def jj(hand: str, win: str = "self", **kw):
    return sc("jiujiang", hand, win, **kw)


def test_one_pao_is_not_a_win() -> None:
    r = jj("[222m] 567m 345p 678s 11s +8s", "discard")
    assert (r.legal, r.points) == (False, 0)
    assert why(r) == ("engine.not_legal.jiujiang_two_pao", {"points": 1})  # 二炮起胡
    assert r.reason.startswith("1 炮 only")


def test_small_hand_items() -> None:
    assert values(jj("234m567m345p678s11s +8s", "discard")) == {"点炮": "+1炮", "门清": "+1炮"}
    assert values(jj("[222m] 567m 345p 678s 11s +8s")) == {"自摸": "+2炮"}
    assert jj("[222m] 567m 345p 678s 11s +8s", "discard", flowers=2).points == 3
    assert jj("[7777m] (1111p) 234s 678s 99m +8s", "discard").points == 4


def test_rob_kong_is_valued_as_self_drawn() -> None:
    r = jj("234m567m345p678s11s +8s", "rob_kong")
    assert r.points == 3 and values(r)["抢杠"] == "+2炮"


def test_dragon_sets() -> None:
    assert values(jj("[5555z] 234m 567p 678s 11s +8s", "discard"))["中明杠"] == "+3炮"
    assert values(jj("(7777z) 234m 567p 678s 11s +8s", "discard"))["白暗杠"] == "+4炮"
    assert values(jj("777z 234m 567p 678s 11s +7z"))["白暗刻"] == "+2炮"
    on_discard = jj("777z 234m 567p 678s 11s +7z", "discard")
    assert on_discard.points == 3 and values(on_discard)["白碰"] == "+1炮"


def test_single_wait_and_the_four_tile_rule() -> None:
    # 1234m waits 1m/4m, but all four 4m are in the hand: 4m is no wait -> 独听
    r = jj("[444m] 11234m 567p 789s +1m", "discard")
    assert (r.legal, r.points) == (True, 2) and "独听" in names(r)
    assert waits(parse_hand("[444m] 11234m 567p 789s +1m")) == {0}
    r = jj("[555p] 11234m 567p 789s +1m", "discard")
    assert not r.legal
    assert waits(parse_hand("[555p] 11234m 567p 789s +1m")) == {0, 3}


def test_chi_option_breaks_menqing() -> None:
    r = jj("[123m] 567m 345p 678s 11s +8s", options={"chi": True})
    assert names(r) == ["自摸"]


def test_big_hand_values() -> None:
    # a big hand won on a discard does not keep the discard's 炮; 发 keep +1 each
    r = jj("[222m] 345m 567m 789m 11m +9m", "discard", flowers=3)
    assert r.points == 13 and set(names(r)) == {"清一色", "兴家 ×3"}
    r = jj("[222m] 345m 567m 789m 11m +9m", "self")
    assert values(r)["自摸"] == "+5炮"


def test_all_exposed_needs_a_discard_not_rob_kong() -> None:
    assert "全求人" in names(jj("[222m] [777p] [333s] [888s] 99m +9m", "discard"))
    r = jj("[222m] [777p] [333s] [888s] 99m +9m", "rob_kong")
    assert "全求人" not in names(r) and r.points == 20


def test_luxury_pairs_add_ten_per_four_of_a_kind() -> None:
    r = jj("1111m4444m22p88p66s +6s")
    assert r.points == 10 + 20 + 5 + 5 + 5 and values(r)["豪华七对 ×2"] == "+20炮"


def test_fairies_never_single_wait() -> None:
    r = jj("22334455667788p +8p")
    assert "七仙女" in names(r) and "独听" not in names(r)


def test_red_flags_and_dragon() -> None:
    assert "红旗飘飘" in names(jj("[555z] [777z] 234m 678p 99s +8p"))
    assert "一条龙" in names(jj("[222s] 123m 456m 789m 55p +9m"))


def test_flag_big_hands() -> None:
    base = "[222m] 567m 345p 678s 11s +8s"
    assert jj(base, flags=("last_tile",)).points == 15
    assert not jj(base, "discard", flags=("last_tile",)).legal  # 海底放炮: nothing extra
    assert jj(base, flags=("ready_declared",)).points == 15
    assert jj("(1111p) 234m 567m 678s 99s +8s", kong_draws=1).points == 22


def test_no_winds_or_green_in_jiujiang() -> None:
    for hand in ("[EEE] 345m 567m 789m 11m +9m", "234m567m345p678s66z +6z"):
        r = jj(hand, "discard")
        assert not r.legal and why(r) == ("engine.not_legal.jiujiang_winds", {})
