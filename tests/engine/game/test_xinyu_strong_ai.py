"""The value-based policy (高级) in 新余: a kong pays 杠钱 on the spot (each other player 1,
2 for a concealed kong), more than a hand is worth on average, so it is declared even when it
costs the hand a step (never when it would break a ready hand), and a concealed triplet is
worth keeping for the kong it may become."""

from __future__ import annotations

from game_helpers import rig

from engine.ai.policies import baseline
from engine.ai.strong import choose
from engine.ai.value import unseen_of
from engine.arena import deal_seed
from engine.game import ConcealedKong, Discard, Kong, apply, legal_actions
from engine.game.machine import advance, new_game
from engine.game.state import PHASE_TURN
from engine.notation import format_tiles, parse_tiles


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


def test_a_concealed_triplet_is_kept_for_its_kong_to_come() -> None:
    # the arena's first 新余 deal (seed 0), played by 中级 for 32 actions: seat 0 holds
    # 111m 33m 99m 88p 88s and loose 4s 6s 9s, the last 1m unseen; throwing a 1m keeps the
    # 向听 as well as a loose tile does, but gives up the 暗杠 (2 from each) it may make
    step = new_game("xinyu", None, deal_seed("0", 0))
    for _ in range(32):
        seat = step.awaited[0]
        step = advance(step, seat, baseline(step.state, seat, step.legal_for(seat)))
    g = step.state
    assert step.awaited == (0,) and g.hand.phase == PHASE_TURN
    assert format_tiles(sorted(t >> 2 for t in g.hand.seats[0].hand)) == "1113399m88p46889s"
    assert unseen_of(g, 0)[K("1m")] == 1
    a = choose(g, 0, step.legal_for(0))
    assert isinstance(a, Discard) and a.tile != K("1m")
