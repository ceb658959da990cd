"""上饶 scoring, each item and option on its own (RULES §3.3–§3.6, §7)."""

from __future__ import annotations

import copy
import pickle

import pytest
from scoring_helpers import names, sc, values, why

C = {"scoring": "classic"}
X = {"scoring": "xingchen"}


def classic(hand: str, win: str = "self", bao: str = "5p", **kw):
    return sc("shangrao", hand, win, bao=bao, options=kw.pop("options", C), **kw)


def xingchen(hand: str, win: str = "self", bao: str = "5p", **kw):
    return sc("shangrao", hand, win, bao=bao, options=kw.pop("options", X), **kw)


# --- classic ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "bao", "points", "item"),
    [
        ("123m456m789p234s99s +9s", "5p", 4, "平胡 无宝"),
        ("123m456m789p234s9s5p +9s", "5p", 4, "平胡 宝吊"),
        ("123m345m567m789m11m +5m", "5p", 16, "清一色平胡 无宝"),
        ("11p123p234p666p7p9p5p +1p", "5p", 8, "清一色平胡 有宝"),
        ("[222m] 777p 333s 555s 6m 5p +6m", "5p", 12, "碰碰胡 宝吊"),
        ("[222m] 777p 33s5p 555s 88m +8m", "5p", 8, "碰碰胡 有宝"),
        ("11m44m77m22p88p33s9s5p +9s", "5p", 12, "七对 宝吊"),
        ("147m39p28s1234567z +7z", "5p", 8, "七星十三烂 无宝"),
    ],
)
def test_classic_rows_and_their_item(hand: str, bao: str, points: int, item: str) -> None:
    r = classic(hand, bao=bao)
    assert (r.legal, r.points) == (True, points)
    assert r.items[0].name == item and r.items[0].value == f"{points}分"


def test_classic_pinghu_with_bao_in_use_is_not_legal_and_says_why() -> None:
    r = classic("123m456m78p5p234s99s +9s")
    assert (r.legal, r.points) == (False, 0)
    assert why(r) == ("engine.not_legal.youbao", {"name": "engine.item.pinghu"})
    assert "飞宝" in r.reason and "宝吊" in r.reason


def test_why_a_hand_is_no_win_keeps_its_keys_when_pickled_or_copied() -> None:
    r = classic("123m456m78p5p234s99s +9s")
    for again in (pickle.loads(pickle.dumps(r)), copy.deepcopy(r)):
        assert again == r and why(again) == why(r)  # the hand's name (a nested reason) too


def test_classic_feibao_makes_it_legal_and_doubles_per_flown_bao() -> None:
    one = classic("123m456m78p5p234s99s +9s", flown=1)
    assert (one.legal, one.points) == (True, 4) and values(one)["飞宝"] == "×2"
    three = classic("[222m] 777p 33s5p 555s 88m +8m", flown=3)
    assert three.points == 8 * 8 and values(three)["飞宝 ×3"] == "×8"


def test_classic_bao_standing_as_itself_is_still_youbao() -> None:
    # 宝 = 6z, the hand holds one 6z used as itself: classic 无宝 means no 宝 tile at all
    r = classic("147m369p258s12346z +6z", bao="6z")
    assert not r.legal and why(r) == ("engine.not_legal.youbao", {"name": "engine.item.shisanlan"})
    assert xingchen("147m369p258s12346z +6z", bao="6z").points == 4  # xingchen: no wildcard


def test_classic_changjiuyao_and_luxury() -> None:
    plain = classic("11m99m1p9p1s9s11z2z3z5z6z +6z")
    assert plain.points == 8 and "长九幺" in names(plain)
    lux = classic("1111m99m1p9p1s9s1z2z3z4z +4z")
    assert lux.points == 16 and names(lux) == ["九幺 无宝", "长九幺", "豪华长九幺"]
    # two four-of-a-kinds: 豪华长九幺 still doubles once (RULES §7)
    two = classic("1111m9999m1p9p1s9s1z2z +2z")
    assert two.points == 16 and names(two) == ["九幺 无宝", "长九幺", "豪华长九幺"]
    # a pong: 九幺 but not 长
    pong = classic("[111m] 99m1p9p1s9s11z2z3z5z +5z")
    assert pong.points == 4 and "长九幺" not in names(pong)


def test_classic_changjiuyao_with_bao_in_use_needs_feibao() -> None:
    r = classic("111m99m1p9p1s9s1z2z3z4z5p +4z")
    assert not r.legal
    r = classic("111m99m1p9p1s9s1z2z3z4z5p +4z", flown=1)
    assert (
        r.legal and r.points == 2 * 2 * 2 * 2
    )  # 九幺 有宝 2, 长 ×2, 豪华 (宝 completes 1m) ×2, 飞宝 ×2


def test_classic_qixing_jiuyao_wilds_fill_missing_honours() -> None:
    r = classic("11m99m1p9p1s9s11z2z3z5z6z +6z", bao="1m")
    assert r.points == 8 and r.items[0].name == "七星九幺 有宝"


def test_classic_luxury_seven_pairs_completed_by_bao() -> None:
    r = classic("111m44m22p88p33s66s5p +6s")
    assert r.points == 16 and values(r) == {"七对 有宝": "8分", "豪华": "×2"}


def test_classic_kong_bloom_doubles_once() -> None:
    for n in (1, 2):
        r = classic("(1111m)(9999p)234s678s88p +8p", kong_draws=n)
        assert r.points == 8 and values(r)["杠上开花"] == "×2"


def test_classic_discard_needs_earth_jiebao_or_option() -> None:
    assert not classic("123m456m789p234s99s +9s", "discard").legal
    opt = {"scoring": "classic", "discard_win": True}
    r = classic("123m456m789p234s99s +9s", "discard", options=opt)
    assert (r.legal, r.points) == (True, 4)
    assert classic("123m456m789p234s99s +9s", "discard", flags=("earth",)).points == 16


def test_classic_rob_kong_uses_the_same_columns_and_bao_diao() -> None:
    r = classic("123m456m789p234s9s5p +9s", "rob_kong")
    assert (r.legal, r.points, r.items[0].name) == (True, 4, "平胡 宝吊")


def test_classic_heaven_needs_a_complete_hand() -> None:
    r = classic("123m456m789p234s9s1z +9s", flags=("heaven", "dealer"))
    assert not r.legal and r.points == 0


def test_classic_jiebao_points_option_and_own_hand_if_higher() -> None:
    hand = "1m5m9m2p6p1s5s9s1z3z5p5p5p5p +5p"
    r = classic(
        hand, "discard", flags=("jiebao",), options={"scoring": "classic", "jiebao_points": 20}
    )
    assert (r.points, names(r)) == (20, ["接宝"])
    own = classic("11s22s44s66s77s88s99s +4s", flags=("four_bao",))
    assert own.points == 32 and own.items[0].name == "清一色七对 无宝"


# --- xingchen ---------------------------------------------------------------------------------


def test_xingchen_baodiao_with_another_wild_in_use_is_still_baodiao() -> None:
    r = xingchen("123m456m78p234s9s5p5p +9s")
    assert (r.points, names(r)) == (3, ["宝吊头"])


def test_xingchen_pph_baodiao_bao_after_touji() -> None:
    # a drawn 宝 completing a face triplet of 宝 is 宝吊宝 and 宝吊无宝 at once; the larger
    # row pays: 碰碰胡宝吊无宝 ×16 (RULES §7, vector fid3-A-00), not 清碰碰胡 ×10
    r = xingchen("222m777p333s555s5z5z +5z", bao="5z", flags=("touji",))
    assert (r.points, names(r)) == (16, ["碰碰胡宝吊无宝"])
    # 宝吊无宝 proper: the drawn 8m frees the 宝 (7z) of the 678m they played, a face pair
    r = xingchen("222m678m333s555s7z7z +8m", bao="7z", flags=("touji",))
    assert (r.points, names(r)) == (6, ["宝吊无宝"])
    # without 偷机 the 宝 read as themselves make 清碰碰胡 ×10 (not 碰碰胡宝吊头 ×8)
    assert xingchen("222m777p333s555s5z5z +5z", bao="5z").points == 10


def test_xingchen_touji_without_a_baodiao_head_adds_nothing() -> None:
    assert xingchen("123m456m789p234s99s +9s", flags=("touji",)).points == 2


def test_xingchen_pinghu_in_use_needs_feibao() -> None:
    r = xingchen("123m456m78p5p234s99s +9s")
    assert not r.legal and why(r) == ("engine.not_legal.youbao", {"name": "engine.item.pinghu"})
    r = xingchen("123m456m78p5p234s99s +9s", flown=2)
    assert (r.legal, r.points) == (True, 8)


def test_xingchen_rob_kong_times_six_and_kong_bloom_per_kong() -> None:
    r = xingchen("123m456m789p234s9s5p +9s", "rob_kong")
    assert r.points == 18 and values(r)["抢杠"] == "×6"
    r = xingchen("(1111m)(9999p)234s678s88p +8p", kong_draws=2)
    assert r.points == 8 and values(r)["杠上开花"] == "×4"


def test_xingchen_jiuyao_natural_and_in_use() -> None:
    assert xingchen("11m99m1p9p1s9s11z2z3z5z6z +6z").points == 4
    r = xingchen("11m99m1p9p1s5p11z2z3z5z6z +6z")
    assert r.points == 2 and names(r) == ["九幺有宝"]


def test_xingchen_four_bao_floor_ten() -> None:
    r = xingchen("1m5m9m2p6p1s5s9s1z3z5p5p5p5p +5p", flags=("four_bao",))
    assert (r.points, names(r)) == (10, ["四个宝"])


def test_xingchen_heaven_floor_and_items() -> None:
    r = xingchen("234m567m678p678s11s +1s", flags=("heaven", "dealer"))
    assert (r.points, values(r)) == (10, {"天胡": "×10"})


def test_shangrao_needs_a_bao() -> None:
    with pytest.raises(ValueError):
        sc("shangrao", "123m456m789p234s99s +9s", options=C)


def test_indicator_kong_is_a_set_and_not_changjiuyao() -> None:
    r = classic("123m456m789p99s(444s) +9s", bao="5s")
    assert (r.legal, r.points) == (True, 4)
    r = classic("11m99m1s9s1z2z3z4z5z(999p) +5z", bao="1p")
    assert r.points == 4 and "长九幺" not in names(r)  # the 3-tile kong is a kong declared
    with pytest.raises(ValueError, match="indicator"):
        classic("123m456m789p99s(444s) +9s", bao="6s")
    with pytest.raises(ValueError, match="shangrao"):
        sc("xinyu", "123m456m789p99s(444s) +9s")


# --- floors (天胡 / 地胡 / 接宝 / 四个宝) that the hand's own points beat ------------------------


@pytest.mark.parametrize(
    ("flags", "name"),
    [(("heaven", "dealer"), "天胡"), (("earth",), "地胡"), (("four_bao",), "四个宝"),
     (("jiebao",), "接宝")],
)  # fmt: skip
def test_classic_floor_below_the_hand_is_listed_but_adds_nothing(flags, name) -> None:
    hand = "11s22s44s66s77s88s99s +4s"  # 清一色七对 无宝: 32 > 16
    plain = classic(hand)
    r = classic(hand, "discard" if "earth" in flags or "jiebao" in flags else "self", flags=flags)
    assert (r.legal, r.points) == (True, plain.points) == (True, 32)
    assert names(r) == [*names(plain), name]  # the hand's own row first, then the floor
    assert values(r)[name] == "16分 未计 · not added (计大不计小)"


def test_floor_item_sits_before_the_doublings() -> None:
    r = classic("11s22s44s66s77s88s99s +4s", flags=("heaven", "dealer"), flown=1)
    assert r.points == 64
    assert names(r) == ["清一色七对 无宝", "天胡", "飞宝"]
    assert "未计" in values(r)["天胡"]


def test_xingchen_floor_below_the_hand_is_listed_but_adds_nothing() -> None:
    hand = "11s22s44s66s66s88s99s +4s"  # 清豪华七对 ×20 > 10
    plain = xingchen(hand)
    r = xingchen(hand, flags=("heaven", "dealer"))
    assert r.points == plain.points == 20
    assert names(r) == [*names(plain), "天胡"]
    assert values(r)["天胡"] == "×10 未计 · not added (计大不计小)"
    opts = {"scoring": "xingchen", "jiebao_points": 12}
    r = xingchen(hand, "discard", flags=("jiebao",), options=opts)
    assert r.points == 20 and values(r)["接宝"] == "×12 未计 · not added (计大不计小)"


def test_floor_that_raises_the_hand_has_no_not_added_mark() -> None:
    r = classic("123m456m789p234s99s +9s", flags=("heaven", "dealer"))  # 平胡 4 < 16
    assert (r.points, values(r)) == (16, {"天胡": "16分"})
