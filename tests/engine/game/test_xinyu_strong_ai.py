"""The value-based policy (高级) in 新余: a kong pays 杠钱 on the spot (each other player 1,
2 for a concealed kong), more than a hand is worth on average, so it is declared even when it
costs the hand a step; never when it would break a ready hand."""

from __future__ import annotations

from game_helpers import rig

from engine.ai.strong import choose
from engine.game import ConcealedKong, Discard, Kong, apply, legal_actions
from engine.notation import parse_tiles


def K(text: str) -> int:
    return parse_tiles(text)[0]


#: 2222s is worth more as 11s 22s 2s 4s (pair and partial sets) than as a kong: the kong
#: costs a step of 向听, and pays 6 points at once.
LOOSE = "1m 7m 1s 1s 2s 2s 2s 2s 4s 7s 9s 1p 5p 9p"


def test_a_concealed_kong_that_costs_a_step_is_declared_for_its_kong_money() -> None:
    g = rig("xinyu", [LOOSE, "", "", ""])
    assert ConcealedKong(K("2s")) in legal_actions(g, 0)
    assert choose(g, 0) == ConcealedKong(K("2s"))


def test_without_kong_money_the_same_kong_is_declined() -> None:
    g = rig("jiujiang", [LOOSE, "", "", ""])
    assert ConcealedKong(K("2s")) in legal_actions(g, 0)
    assert isinstance(choose(g, 0), Discard)


def test_a_kong_that_would_break_a_ready_hand_is_declined() -> None:
    # seat 2 waits on 2s (123m 456m 123s 234s 2s); a kong of the discarded 2s takes the
    # middle of 123s and 234s (1s 3s 3s 4s left): one step back from ready
    dealer = "1z 1z 1z 2z 2z 2z 3z 3z 3z 4z 4z 4z 5z 2s"
    g = rig("xinyu", [dealer, "", "123m 456m 123s 234s 2s", ""])
    g = apply(g, 0, Discard(K("2s"))).state
    assert Kong() in legal_actions(g, 2)
    assert choose(g, 2) != Kong()
