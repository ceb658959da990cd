"""新余 scoring, each item, group and option on its own (RULES §4.2–§4.3, §7)."""

from __future__ import annotations

from scoring_helpers import names, sc, values, why


def xy(hand: str, win: str = "self", **kw):
    return sc("xinyu", hand, win, **kw)


def test_nothing_but_the_win_is_one() -> None:
    r = xy("[555z] 123m 456m 789p 22s +2s")
    assert (r.legal, r.points, names(r)) == (True, 1, ["平胡"])


def test_menqing_needs_self_draw_and_no_meld_at_all() -> None:
    assert values(xy("123m456m789p234s99s +9s")) == {"门清": "×2"}
    assert "门清" not in names(xy("(7777m) 123p 456p 789s 11s +1s"))  # a concealed kong too


def test_kong_counts_once_however_many() -> None:
    r = xy("[7777m] [1111p] 123s 456s 99s +9s")
    assert (r.points, names(r)) == (2, ["开杠"])


def test_pairs_group_keeps_the_largest() -> None:
    assert xy("11m44m77m22p88p33s66s +6s").points == 8
    lux = xy("1111s2222s55s66s88s +8s")  # two four-of-a-kinds: still ×8, with 清一色 and 门清
    assert lux.points == 8 * 4 * 2 and "七小对" not in names(lux)


def test_colour_group() -> None:
    assert values(xy("[EEE] 123m 345m 678m 99m +9m"))["混一色"] == "×2"
    assert values(xy("[222p] 345p 678p 789p 11p +1p"))["清一色"] == "×4"
    honours = xy("[EEE] 222z 333z 444z 55z +5z")  # all honours with a pong: 全风向, not 清一色
    assert honours.points == 16 and set(names(honours)) == {"碰碰胡", "全风向"}


def test_all_honours_concealed_wins_whatever_shape_but_not_with_melds() -> None:
    assert xy("111z22z3z44z55z6z777z +6z").points == 16
    r = xy("[EEE] 22z 333z 444z 56z7z +5z")
    assert not r.legal and r.points == 0


def test_pongs_and_flying() -> None:
    assert values(xy("[222m] [777p] 333s 555s 88m +8m")) == {"碰碰胡": "×2"}
    fly = xy("[222m] [777p] [333s] [555s] 88m +8m")
    assert fly.points == 8 and values(fly)["飞起来"] == "×4"
    concealed = xy("[222m] [777p] [333s] (5555s) 88m +8m")  # a concealed kong is not exposed
    assert "飞起来" not in names(concealed) and concealed.points == 4


def test_kong_bloom() -> None:
    r = xy("(7777m) 123p 456p 789s 11s +1s", kong_draws=1)
    assert values(r) == {"开杠": "×2", "杠上开花": "×2"}


def test_discard_and_rob_kong_need_the_option() -> None:
    for win in ("discard", "rob_kong"):
        r = xy("123m456m789p234s99s +9s", win)
        assert not r.legal and why(r) == (
            "engine.not_legal.xinyu_self_draw_only",
            {"what": f"common.how.{win}"},
        )
        r = xy("123m456m789p234s99s +9s", win, options={"discard_win": True})
        assert (r.legal, r.points) == (True, 1)  # no 门清: not self-drawn


def test_incomplete_hand_is_not_a_win() -> None:
    r = xy("123m456m789p234s9s1z +9s")
    assert not r.legal and r.reason
