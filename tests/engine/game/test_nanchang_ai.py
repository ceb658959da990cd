"""The AI with 南昌's two 精 kinds: it keeps its 精, konged 精 (杠精) pay, a held 精 is not
frozen into a claimed meld, a forced 精 discard feeds the least, and a 精钓 hand waits for
its self-draw; and ``python -m engine.simulate --each-option`` plays every option."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from game_helpers import rig, stand_in_nanchang

from engine.game import ConcealedKong, Discard, Pass, Pong, Win, apply, legal_actions
from engine.game.ai import _least_feeding, choose_action
from engine.game.rules import live_count
from engine.game.simulate import option_sets, simulate_each_option
from engine.notation import parse_tiles
from engine.variants.base import HandEnd


def K(text: str) -> int:
    return parse_tiles(text)[0]


@pytest.fixture
def table_only() -> Iterator[list[HandEnd]]:
    with stand_in_nanchang() as seen:
        yield seen


def test_the_ai_keeps_its_jing(table_only) -> None:
    # 正精 5p, 副精 6p: two lone 精 in a hand of loose tiles; they are never the discard
    g = rig("nanchang", ["5p 6p 1m 4m 7m 2s 5s 8s 1z 2z 3z 4z 5z 9m", "", "", ""], indicator="5p")
    a = choose_action(g, 0)
    assert isinstance(a, Discard) and a.tile not in g.hand.wildcards


def test_the_ai_konges_a_jing_kind(table_only) -> None:
    g = rig("nanchang", ["6p 6p 6p 6p 1m 2m 7m 7m 2s 5s 8s 1z 2z 3z", "", "", ""], indicator="5p")
    assert choose_action(g, 0) == ConcealedKong(K("6p"))  # 杠精: 10 from each


def test_the_ai_does_not_freeze_held_jing_into_a_pong(table_only) -> None:
    dealer = "6p 3m 1z 1z 1z 2z 2z 2z 4z 4z 4z 5s 5s 5s"
    g = rig("nanchang", [dealer, "", "6p 6p 1m 2m 4p 5p 1s 3s 7s 8s 1z 9m 9m", ""], indicator="5p")
    g = apply(g, 0, Discard(K("6p"))).state
    assert Pong() in legal_actions(g, 2)
    assert choose_action(g, 2) == Pass()
    # the same hand with a plain pair ponges (it comes closer to ready)
    g = rig(
        "nanchang",
        [dealer.replace("6p", "9p"), "", "9p 9p 1m 2m 4p 5p 1s 3s 7s 8s 1z 9m 9m", ""],
        indicator="5p",
    )
    g = apply(g, 0, Discard(K("9p"))).state
    assert choose_action(g, 2) == Pong()


def test_a_forced_jing_discard_feeds_the_least(table_only) -> None:
    g = rig("nanchang", ["5p 6p 1m 4m 7m 2s 5s 8s 1z 2z 3z 4z 5z 9m", "", "", ""], indicator="5p")
    # unseen by seat 0: 5p 2 (the indicator and its own are in sight), 6p 3 → 5p
    assert _least_feeding(g, 0, [K("5p"), K("6p")]) == K("5p")
    g.hand.seats[2].river += [t for t in g.hand.wall[g.hand.head :] if t >> 2 == K("6p")][:2]
    assert _least_feeding(g, 0, [K("5p"), K("6p")]) == K("6p")  # now 6p: one left unseen
    # never the fourth tile of another seat's exposed pong of a 精 (it would kong it: 杠精)
    g = rig(
        "nanchang",
        ["5p 6p 1m 4m 7m 2s 5s 8s 1z 2z 3z 4z 5z 9m", "1s 2s 3s 4s 5s 6s 7s 8s 9s 1z", "", ""],
        indicator="5p",
        melds={1: ["666p"]},
    )
    assert _least_feeding(g, 0, [K("5p"), K("6p")]) == K("5p")
    # equally unseen: the 副精 goes before the 正精, which counts double
    g = rig("nanchang", ["5p 6p 6p 1m 4m 7m 2s 5s 8s 1z 2z 3z 4z 9m", "", "", ""], indicator="5p")
    assert _least_feeding(g, 0, [K("5p"), K("6p")]) == K("6p")


JINGDIAO = "123m 456m 789m 123p 5p"
DEALER = "1z 2z 3z 4z 1s 4s 7s 2p 8p 9m 9m 9m 6z 5p"


def test_a_jingdiao_hand_passes_a_plain_discard_win_to_self_draw(table_only) -> None:
    g = rig(
        "nanchang",
        [DEALER, "", "", JINGDIAO],
        indicator="5p",
        options={"jingdiao_discard": "no_bonus"},
    )
    g.hand.discards = 4  # not the dealer's first discard
    g = apply(g, 0, Discard(K("1z"))).state
    assert Win() in legal_actions(g, 3) and live_count(g.hand, 34) > 12
    assert choose_action(g, 3) == Pass()  # the 精钓 ×2 is only paid on a self-draw
    late = rig(
        "nanchang",
        [DEALER, "", "", JINGDIAO],
        indicator="5p",
        options={"jingdiao_discard": "no_bonus"},
        left=40,
    )
    late.hand.discards = 4
    late = apply(late, 0, Discard(K("1z"))).state
    assert choose_action(late, 3) == Win()  # the wall is nearly out: take it
    g = rig("nanchang", [DEALER, "", "", JINGDIAO], indicator="5p")
    g.hand.discards = 4
    g = apply(g, 0, Discard(K("5p"))).state  # 德国 on the discarded 正精: taken at once
    assert choose_action(g, 3) == Win()


def test_every_option_has_a_set_of_its_own() -> None:
    sets = option_sets("nanchang")
    assert sets[0] == {}
    changed = {name for s in sets for name in s}
    from engine.variants.nanchang.options import NanchangOptions

    assert changed == set(NanchangOptions.INFO)
    assert all(len(s) == 1 for s in sets[1:])


def test_simulate_each_option_plays_every_set_zero_sum_and_replay_identical() -> None:
    sets = option_sets("nanchang")
    r = simulate_each_option("nanchang", len(sets) * 2, "each")
    assert r["option_sets"] == len(sets) and r["hands"] == len(sets) * 2
    assert [p["options"] for p in r["per_option"]] == sets
    assert all(p["hands"] == 2 for p in r["per_option"])
    assert r["errors"] == r["zero_sum_violations"] == r["replay_mismatches"] == 0


def test_the_ai_keeps_honours_that_make_a_sequence(table_only) -> None:
    # 123m 456p 789s 77m and 西 中 发: 中发 wait for 白 as a sequence, 西 is alone
    hand = "123m 456p 789s 7m 7m 3z 5z 6z"
    g = rig("nanchang", [hand, "", "", ""], indicator="4z")
    assert choose_action(g, 0) == Discard(K("3z"))
    g = rig("xinyu", [hand, "", "", ""])
    assert choose_action(g, 0) == Discard(K("6z"))  # no honour sequences: the highest goes


def test_of_equal_shapes_the_ai_keeps_the_one_nearer_deguo(table_only) -> None:
    # 精 9s and 1s. Throwing 3p or 7s both leave the hand ready; after 3p it is ready with
    # both 精 as their own faces (123s 345s 678s 33m, 7s9s waits on 8s: 德国 ×2 +5), after
    # 7s only with a 精 as a wildcard (more waits, no 德国)
    g = rig("nanchang", ["3m 3m 3p 1s 2s 3s 3s 4s 5s 6s 7s 7s 8s 9s", "", "", ""], indicator="9s")
    assert choose_action(g, 0) == Discard(K("3p"))
