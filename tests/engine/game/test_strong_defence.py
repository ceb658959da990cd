"""The strong AI's defence (守牌): a discard is scored by its win payoff against the net cost of
dealing in; a hand far from ready folds when the risk is large, a ready hand never folds (it
may keep the safer of two waits), and a small difference changes nothing."""

from __future__ import annotations

from test_ai_defence import ready_seats, ready_threat

from engine import variants
from engine.ai.strong import FOLD_SHANTEN, choose
from engine.game import Discard
from engine.game.danger import risks, sight_of
from engine.game.rules import seat_counts
from engine.notation import parse_tiles
from engine.shanten import shanten
from engine.variants.nanchang.options import NanchangOptions


def K(text: str) -> int:
    return parse_tiles(text)[0]


def all_ready(hand0: str, rivers: tuple[str, str, str], *, discards0: int = 6):
    """九江: seat 0 (dealer) to discard from ``hand0``; seats 1–3 each threw ``rivers[i]``
    and declared 报听."""
    return ready_seats(hand0, rivers, discards0=discards0)


FAR = "2m 4m 6m 8m 3p 5p 7p 9p 2s 4s 6s 8s 9s 1s"


def test_a_far_hand_throws_a_safe_tile_to_ready_seats() -> None:
    # Seat 0 is four steps from ready; the three others declared 报听, each after throwing
    # 5p. Attacking, seat 0 throws the edge 9s (dangerous to all three); defending, the 5p
    # (现物 of every ready seat: a locked hand cannot wait on a tile it threw).
    g = all_ready(FAR, ("5p 6m", "5p 9m", "5p 7z"))
    assert shanten(list(seat_counts(g.hand.seats[0])), 0) >= FOLD_SHANTEN
    r = risks(sight_of(g, 0), [K("9s"), K("5p")])
    assert r[K("5p")] == 0.0 < r[K("9s")]
    assert choose(g, 0, defend=False) == Discard(K("9s"))
    assert choose(g, 0) == Discard(K("5p"))


def test_a_small_risk_does_not_fold_a_far_hand() -> None:
    # The same hand against one ready seat: 9s risks too little to give up the hand for
    g = ready_threat(FAR, "5p 6m", discards0=6)
    assert choose(g, 0) == choose(g, 0, defend=False) == Discard(K("9s"))


def test_a_ready_hand_does_not_fold_for_a_safe_tile() -> None:
    # Seat 0 is ready after throwing 1p (waits 1s / 4s); 2s is safe (each ready seat threw
    # it) but throwing it breaks the wait: the ready hand throws 1p all the same.
    g = all_ready("123m 456m 789p 23s 5z5z 1p", ("9m 2s", "6z 2s", "7z 2s"), discards0=3)
    r = risks(sight_of(g, 0), [K("1p"), K("2s")])
    assert r[K("2s")] == 0.0 < r[K("1p")]
    assert choose(g, 0) == choose(g, 0, defend=False) == Discard(K("1p"))


def test_a_ready_hand_keeps_the_safer_of_two_waits() -> None:
    # 七对 一向听 → 听牌 either way: throwing 6p waits on 4m, throwing 4m waits on 6p. Attacking
    # keeps the 4m wait; the middle 6p (no 筋) is the more dangerous tile to the ready
    # seats, so the defending hand throws 4m and stays ready.
    g = all_ready("2m2m 3m3m 4m 6m6m 1s1s 3s3s 5z5z 6p", ("5z", "6z", "7z"), discards0=4)
    r = risks(sight_of(g, 0), [K("4m"), K("6p")])
    assert r[K("4m")] < r[K("6p")]
    assert choose(g, 0, defend=False) == Discard(K("6p"))
    assert choose(g, 0) == Discard(K("4m"))


def test_nanchang_deal_in_costs_more_where_only_the_discarder_pays() -> None:
    """The net cost of a deal-in is what it costs minus what the seat pays anyway: under
    ``discard_pay=one`` a bystander pays nothing for a discard win, so dealing in costs more."""
    ai = variants.get("nanchang").ai
    three = ai.deal_in_loss - ai.bystander_loss(NanchangOptions())
    one = ai.deal_in_loss - ai.bystander_loss(NanchangOptions(discard_pay="one"))
    assert 0 < three < one < ai.deal_in_loss


def test_no_threat_no_defence() -> None:
    # seat 1 has thrown one tile, shows no meld and has not declared: nothing changes
    g = ready_threat(FAR, "5p")
    g.hand.seats[1].ready = False
    assert choose(g, 0) == choose(g, 0, defend=False)
