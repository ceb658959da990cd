"""复盘 (engine.review): lines on rigged hands match 向听 / 进张 counted by hand."""

from __future__ import annotations

import pytest
from game_helpers import rig

from engine.game import Discard, Pass, Pong, Win, apply, legal_actions
from engine.game.simulate import simulate
from engine.logformat import GameLog
from engine.notation import parse_tiles
from engine.review import discard_options, review_hand, review_states, ukeire, unseen_of


def K(text: str) -> int:
    return parse_tiles(text)[0]


OTHERS = [
    "1p1p1p2p2p2p3p3p3p4p4p4p6p",
    "7p7p7p8p8p8p1s1s1s2s2s2s9s",
    "3s3s3s4s4s4s6p6p8s8s8s1z1z",
]


def discarded(g, seat: int, tile: str):
    """``[before, after]`` and the action list of ``seat`` discarding ``tile``."""
    action = Discard(K(tile))
    after, _ = apply(g, seat, action)
    return [g, after], [(seat, action)]


def test_a_discard_that_widens_the_shanten():
    # 123m 456m 789m 57s 1z1z + 9p: 打 9p leaves 听牌 on 6s (4 unseen); 打 5s leaves 向听 1
    g = rig("xinyu", ["1m2m3m4m5m6m7m8m9m5s7s1z1z9p", *OTHERS])
    states, actions = discarded(g, 0, "5s")
    [line] = review_states(states, actions, 0)
    assert line.kind == "discard" and line.step == 1
    assert line.data["played"] == K("5s") and line.data["suggested"] == K("9p")
    assert (line.data["shanten_before"], line.data["shanten"]) == (0, 1)
    assert (line.data["best_shanten"], line.data["best_ukeire"]) == (0, 4)
    assert line.zh == "打 五条：向听 0→1；建议 打 九筒：向听 0，进张 4 张"
    assert line.en == ("discard 5 Bamboo: shanten 0→1; better 9 Dots: shanten 0, 4 tiles improve")


def test_the_best_discard_gets_no_line():
    g = rig("xinyu", ["1m2m3m4m5m6m7m8m9m5s7s1z1z9p", *OTHERS])
    states, actions = discarded(g, 0, "9p")
    assert review_states(states, actions, 0) == []


def test_a_discard_that_loses_jinzhang_counts_only_what_the_seat_sees():
    # 123m 456m 789m 1z1z 23s 5s: 打 5s → 两面 1s/4s (8), 打 2s → 嵌张 4s (4)
    g = rig("xinyu", ["1m2m3m4m5m6m7m8m9m1z1z2s3s5s", *OTHERS])
    states, actions = discarded(g, 0, "2s")
    [line] = review_states(states, actions, 0)
    assert (line.data["shanten"], line.data["ukeire"]) == (0, 4)
    assert (line.data["best_shanten"], line.data["best_ukeire"]) == (0, 8)
    assert line.zh == "打 二条：向听 0，进张 4 张；建议 打 五条：向听 0，进张 8 张"
    # two 1s in seat 2's hand are hidden from seat 0: they still count as 进张
    assert "1s1s1s" in "".join(OTHERS)
    opts = discard_options(g, 0, [K("5s")])
    assert opts[K("5s")].ukeire == 8
    # a 4s in a river is seen: one fewer
    g.hand.seats[3].river.append(g.hand.wall[g.hand.head])  # any tile; make it a 4s below
    g.hand.seats[3].river[-1] = next(t for t in range(136) if t >> 2 == K("4s"))
    assert unseen_of(g, 0)[K("4s")] == 3
    assert discard_options(g, 0, [K("5s")])[K("5s")].ukeire == 7


def test_ukeire_by_hand():
    counts = [0] * 34
    for k in parse_tiles("1m2m3m4m5m6m7m8m9m1z1z2s3s"):
        counts[k] += 1
    unseen = [4] * 34
    kept = list(counts)
    assert ukeire(counts, 0, None, unseen) == 8  # 1s, 4s
    unseen[K("1s")] = 1
    assert ukeire(counts, 0, None, unseen) == 5
    assert counts == kept  # restored


def test_a_missed_self_draw_win():
    g = rig("xinyu", ["1m2m3m4m5m6m7m8m9m1z1z2s3s4s", *OTHERS])
    assert Win() in legal_actions(g, 0)
    states, actions = discarded(g, 0, "4s")
    [line] = review_states(states, actions, 0)
    assert line.kind == "missed_win"
    # rig() makes the highest tile the drawn one: 1z
    assert line.zh.startswith("打 四条：没有胡 东风（自摸）；建议 胡，")
    assert "passed up a win on East (self-draw); better: win, " in line.en
    assert line.data["points"] and line.data["points"] > 0


def test_a_pong_that_does_not_help_gives_up_menqing():
    # seat 1 (xinyu): 123m 456m 789m 99p 57s, 听牌 on 6s (4 进张); 碰 9p leaves a 单钓 on
    # 5s or 7s (3 unseen each: one copy in its own hand) and the hand is no longer 门清
    g = rig(
        "xinyu",
        [
            "1p1p1p2p2p2p3p3p3p4p4p4p9p6p",
            "1m2m3m4m5m6m7m8m9m9p9p5s7s",
            "7p7p7p8p8p8p1s1s1s2s2s2s9s",
            "3s3s3s4s4s4s6p6p8s8s8s1z1z",
        ],
    )
    before, _ = apply(g, 0, Discard(K("9p")))
    assert Pong() in legal_actions(before, 1)
    after, _ = apply(before, 1, Pong())
    lines = review_states([g, before, after], [(0, Discard(K("9p"))), (1, Pong())], 1)
    [line] = lines
    assert line.kind == "claim" and line.step == 2
    assert (line.data["shanten_before"], line.data["shanten_after"]) == (0, 0)
    assert (line.data["ukeire_before"], line.data["ukeire_after"]) == (4, 3)
    assert line.data["menqing"] is True
    assert line.zh == "碰 九筒：向听 0→0，进张 4→3 张，失去门清；建议 过"


def test_a_deal_in_into_a_ready_seat():
    # 九江: seat 1 declared 报听 (waits on 5s) and threw 9m; seat 0 throws 5s, not the 现物 9m
    g = rig(
        "jiujiang",
        [
            "1m4m7m9m4p5p2s6s9s5z7z3m8p5s",
            "1m2m3m4m5m6m7m8m9m1p1p5s5s",
            "7p7p7p8p8p8p9p9p9p4s4s4s2p",
            "6s6s6s7s7s7s8s8s8s4p6p3p9s",
        ],
        draws="9m",
    )
    h = g.hand
    t = h.wall[h.head]
    h.seats[1].river.append(t)
    h.head += 1
    h.seats[1].ready = True
    h.seats[1].waits = (K("5s"),)
    h.seats[0].hand.append(0)  # keep 14 tiles: a 1m stands for the moved one
    h.seats[0].hand.remove(next(x for x in h.seats[0].hand if x >> 2 == K("3m")))
    h.seats[0].hand.append(next(x for x in range(136) if x >> 2 == K("9m") and x != t))
    h.seats[0].hand.remove(0)
    h.seats[0].hand.sort()
    h.seats[0].drawn = h.seats[0].hand[-1]
    before, _ = apply(g, 0, Discard(K("5s")))
    assert Win() in legal_actions(before, 1)
    end, _ = apply(before, 1, Win())
    assert end.hand.result["how"] == "discard" and end.hand.result["payer"] == 0
    lines = review_states([g, before, end], [(0, Discard(K("5s"))), (1, Win())], 0)
    [line] = [x for x in lines if x.kind == "deal_in"]
    assert line.data["played"] == K("5s") and line.data["suggested"] == K("9m")
    assert line.data["best_risk"] == 0.0 and line.data["threat"] == 1.0
    assert line.zh.startswith("打 五条 点炮给下家：危险度 ")
    assert line.zh.endswith("；建议 打 九万：危险度 0.0")


def test_review_reads_only_what_the_seat_could_see():
    """The lines of a seat do not change when the other seats' concealed tiles and the wall
    are reshuffled (the hand then plays differently, so compare at the first decision)."""
    g = rig("xinyu", ["1m2m3m4m5m6m7m8m9m1z1z2s3s5s", *OTHERS])
    from test_ai_defence import scrambled

    g2 = scrambled(g, 0)
    a = review_states(*discarded(g, 0, "2s"), 0)
    b = review_states(*discarded(g2, 0, "2s"), 0)
    assert [x.zh for x in a] == [x.zh for x in b]


@pytest.mark.parametrize("variant", ["shangrao", "xinyu", "jiujiang"])
def test_review_of_simulated_hands_never_fails(variant):
    games: list = []
    simulate(variant, 6, "review", None, verify=False, record=games)
    log = GameLog(variant, {}, games)
    for _game, hand in log.hands():
        for seat in range(4):
            for line in review_hand(variant, {}, hand, seat):
                assert line.zh and line.en and line.step >= 1
    with pytest.raises(ValueError):
        review_hand(variant, {}, log.games[0].hands[0], 4)


def _pong_9p(variant: str, hand: str, act):  # type: ignore[no-untyped-def]
    """Seat 0 throws 9p; seat 1 (``hand``, a 9p pair) answers ``act``: its review lines."""
    g = rig(variant, ["1p1p1p2p2p2p3p3p3p4p4p4p9p6p", hand, *OTHERS[1:]])
    before, _ = apply(g, 0, Discard(K("9p")))
    assert Pong() in legal_actions(before, 1)
    after, _ = apply(before, 1, act)
    return review_states([g, before, after], [(0, Discard(K("9p"))), (1, act)], 1)


def test_a_pass_where_the_strong_ai_pongs():
    # 123m 456m 9p9p 57s 1z2z3z: 碰 9p takes the hand from 向听 2 to 1
    [line] = _pong_9p("xinyu", "1m2m3m4m5m6m9p9p5s7s1z2z3z", Pass())
    assert line.kind == "missed_claim" and line.step == 2
    assert line.data["suggested"] == "pong"
    assert (line.data["shanten_before"], line.data["shanten_after"]) == (2, 1)
    assert line.zh == "过 九筒；建议 碰 九筒：向听 2→1，进张 10 张"
    assert line.en == "pass on 9 Dots; better: pong 9 Dots: shanten 2→1, 10 tiles improve"
    assert line.text("zh-TW") == "過 九筒；建議 碰 九筒：向聽 2→1，進張 10 張"
    # the pong itself: what the strong AI plays, no line
    assert _pong_9p("xinyu", "1m2m3m4m5m6m9p9p5s7s1z2z3z", Pong()) == []


def test_a_pong_that_costs_the_hand_its_value():
    # five pairs (七对 向听 1) and 9p: the pong makes the hand ready on 3 tiles, but the 七对
    # it gives up was worth more than twice as much (the strong AI passes)
    [line] = _pong_9p("shangrao", "1m1m3m3m5m5m7m7m9p9p2m6m8m", Pong())
    assert line.kind == "claim"
    assert (line.data["shanten_before"], line.data["shanten_after"]) == (1, 0)
    assert 0 < line.data["value_kept"] < 0.5
    share = round(100 * line.data["value_kept"])
    assert line.zh == f"碰 九筒：向听 1→0，进张 20→3 张，牌价值只剩 {share}%；建议 过"
    assert line.text("zh-TW").endswith(f"牌價值只剩 {share}%；建議 過")
    # passing it: no line either way
    assert _pong_9p("shangrao", "1m1m3m3m5m5m7m7m9p9p2m6m8m", Pass()) == []


def test_a_pong_no_worse_gets_no_line():
    # same 向听, more 进张, no 门清 to lose (上饶): the strong AI would pass, but it is no
    # mistake worth a line
    assert _pong_9p("shangrao", "1m2m3m4m5m6m7m8m2m4m9p9p1z", Pong()) == []
