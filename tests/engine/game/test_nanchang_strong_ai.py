"""The value-based policy (高级) with 南昌's two 精 kinds: it claims without freezing a held
精 into the meld, konges a 精 kind (杠精), throws a 精 only when nothing else is left (the
one that feeds least) and lets a 精钓 hand wait for its self-draw, as the 中级 AI does."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from game_helpers import rig, stand_in_nanchang

from engine.ai.strong import best_discard, choose
from engine.game import Chi, ConcealedKong, Discard, Kong, Pass, Pong, Win, apply, legal_actions
from engine.game.ai import _least_feeding
from engine.game.machine import advance, new_game
from engine.game.state import PHASE_OVER
from engine.notation import parse_tiles
from engine.variants.base import HandEnd


def K(text: str) -> int:
    return parse_tiles(text)[0]


@pytest.fixture
def table_only() -> Iterator[list[HandEnd]]:
    with stand_in_nanchang() as seen:
        yield seen


DEALER = "6p 3m 1z 1z 1z 2z 2z 2z 4z 4z 4z 5s 5s 5s"


def test_a_claim_that_would_freeze_a_held_jing_is_passed(table_only) -> None:
    # 正精 5p, 副精 6p: seat 2 may pong 6p only with its two held 6p (精), which would
    # become plain 6p in the meld
    g = rig("nanchang", [DEALER, "", "6p 6p 1m 2m 4p 5p 1s 3s 7s 8s 1z 9m 9m", ""], indicator="5p")
    g = apply(g, 0, Discard(K("6p"))).state
    assert Pong() in legal_actions(g, 2)
    assert choose(g, 2) == Pass()


def test_a_chi_through_a_held_jing_is_passed_and_a_plain_one_taken(table_only) -> None:
    # seat 1 holds 5p (正精) and 7p: chi of the dealer's 6p would use the 精 as a plain 5p
    g = rig(
        "nanchang",
        [DEALER, "5p 7p 8p 1m 1m 4m 7m 2s 5s 8s 3z 6z 7z", "", ""],
        indicator="5p",
    )
    g = apply(g, 0, Discard(K("6p"))).state
    chis = [a for a in legal_actions(g, 1) if isinstance(a, Chi)]
    assert Chi((K("5p"), K("6p"), K("7p"))) in chis
    assert choose(g, 1) in [Pass(), *(a for a in chis if K("5p") not in a.tiles)]


def test_a_pong_with_a_plain_pair_is_still_weighed(table_only) -> None:
    g = rig(
        "nanchang",
        [DEALER.replace("6p", "9p"), "", "9p 9p 1m 2m 4p 5p 1s 3s 7s 8s 1z 9m 9m", ""],
        indicator="5p",
    )
    g = apply(g, 0, Discard(K("9p"))).state
    assert choose(g, 2) == Pong()


def test_a_jing_kind_is_konged(table_only) -> None:
    g = rig("nanchang", ["6p 6p 6p 6p 1m 2m 7m 7m 2s 5s 8s 1z 2z 3z", "", "", ""], indicator="5p")
    assert choose(g, 0) == ConcealedKong(K("6p"))  # 杠精: 10 from each
    g = rig("nanchang", [DEALER, "", "6p 6p 6p 1m 2m 4p 1s 3s 7s 8s 1z 9m 9m", ""], indicator="5p")
    g = apply(g, 0, Discard(K("6p"))).state
    assert Kong() in legal_actions(g, 2)
    assert choose(g, 2) == Kong()


def test_a_forced_jing_discard_feeds_the_least(table_only) -> None:
    g = rig("nanchang", ["5p 6p 1m 4m 7m 2s 5s 8s 1z 2z 3z 4z 5z 9m", "", "", ""], indicator="5p")
    assert best_discard(g, 0, [K("5p"), K("6p")]) == _least_feeding(g, 0, [K("5p"), K("6p")])


JINGDIAO = "123m 456m 789m 123p 5p"
JD_DEALER = "1z 2z 3z 4z 1s 4s 7s 2p 8p 9m 9m 9m 6z 5p"


def test_a_jingdiao_hand_passes_a_plain_discard_win_to_self_draw(table_only) -> None:
    g = rig(
        "nanchang",
        [JD_DEALER, "", "", JINGDIAO],
        indicator="5p",
        options={"jingdiao_discard": "no_bonus"},
    )
    g.hand.discards = 4  # not the dealer's first discard
    g = apply(g, 0, Discard(K("1z"))).state
    assert Win() in legal_actions(g, 3)
    assert choose(g, 3) == Pass()


def test_the_strong_policy_plays_nanchang_hands_to_the_end() -> None:
    for n in range(6):
        step = new_game("nanchang", None, f"strong/{n}")
        for _ in range(2000):
            g = step.state
            if g.hand.phase == PHASE_OVER:
                break
            seat = step.awaited[0]
            legal = step.legal_for(seat)
            action = choose(g, seat, legal)
            assert action in legal
            step = advance(step, seat, action)
        assert step.state.hand.phase == PHASE_OVER
        assert sum(step.state.hand.deltas) == 0


@pytest.mark.parametrize(
    ("hand", "kept"),
    [
        ("1z 2z 3z 1m 2m 3m 4m 5m 6m 7p 8p 2s 5s 9p", "1z 2z 3z"),  # 东南西: a set
        ("5z 6z 7z 1m 2m 3m 4m 5m 6m 7p 8p 2s 5s 9p", "5z 6z 7z"),  # 中发白: a set
        ("1z 2z 4z 1m 2m 3m 4m 5m 6m 7p 8p 2s 5s 8s", "1z 2z 4z"),  # 东南北: a set
    ],
)
def test_an_honour_sequence_is_kept_as_a_set(table_only, hand: str, kept: str) -> None:
    # 精 9s / 1s (indicator 9s) play no part: the honours are sets in 南昌, not loose tiles
    g = rig("nanchang", [hand, "", "", ""], indicator="9s")
    a = choose(g, 0)
    assert isinstance(a, Discard) and a.tile not in parse_tiles(kept)
