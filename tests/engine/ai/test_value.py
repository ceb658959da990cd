"""The hand evaluation of the strong AI (engine.ai.value) and its discard rule."""

from __future__ import annotations

import random

import pytest

from engine.ai.policies import baseline
from engine.ai.strong import best_discard
from engine.ai.value import Outlook, _standard, discard_values, hand_value, reach_chance
from engine.game.actions import Discard
from engine.game.machine import advance, new_game
from engine.game.rules import seat_counts, split_wilds
from engine.game.state import PHASE_OVER, PHASE_TURN
from engine.shanten import shanten, shanten_standard
from engine.variants.base import AiTuning


def hand(text: str) -> list[int]:
    counts = [0] * 34
    base = {"m": 0, "p": 9, "s": 18, "z": 27}
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            for d in digits:
                counts[base[ch] + int(d) - 1] += 1
            digits = ""
    return counts


def outlook(**kw: object) -> Outlook:
    fields = {
        "unseen": tuple([3] * 34),
        "draws": 15,
        "wild": frozenset(),
        "melds": (),
        "tuning": AiTuning(),
    }
    fields.update(kw)
    return Outlook(**fields)  # type: ignore[arg-type]


def test_reach_chance_orders_hands() -> None:
    assert reach_chance(-1, 0, 100, 10) == 1.0
    assert reach_chance(0, 0, 100, 10) == 0.0
    assert reach_chance(3, 20, 100, 2) == 0.0  # four steps cannot come in two draws
    ready_wide, ready_narrow = reach_chance(0, 8, 100, 10), reach_chance(0, 2, 100, 10)
    assert 0 < ready_narrow < ready_wide < 1
    assert reach_chance(1, 8, 100, 10) < ready_wide
    assert reach_chance(0, 8, 100, 5) < ready_wide
    assert reach_chance(0, 8, 100, 10, last_boost=2.0) > ready_wide


def test_ukeire_of_the_standard_route_counts_every_improving_kind() -> None:
    rng = random.Random(5)
    for _ in range(200):
        w = rng.choice((0, 0, 1, 2))
        counts = [0] * 34
        for t in rng.sample(range(136), 13 - w):
            counts[t >> 2] += 1
        unseen = tuple(rng.randint(0, 4) for _ in range(34))
        o = outlook(unseen=unseen)
        base = shanten_standard(counts, w)
        want = 0
        for x in range(34):
            if counts[x] < 4 and unseen[x]:
                counts[x] += 1
                want += unseen[x] if shanten_standard(counts, w) < base else 0
                counts[x] -= 1
        assert _standard(counts, w, o) == (base, want)


def test_a_wider_wait_is_worth_more() -> None:
    o = outlook()
    two_sided = hand("123m456p789s11z56m")  # waits on 4m 7m
    closed = hand("123m456p789s11z57m")  # waits on 6m only
    assert hand_value(two_sided, 0, o) > hand_value(closed, 0, o)
    assert two_sided == hand("123m456p789s11z56m")  # restored


def test_the_one_suit_route_counts_where_it_pays() -> None:
    counts = hand("11233456789m59p1z")  # 14 tiles, one suit but for 5p 9p 1z
    plain = outlook(tuning=AiTuning(flush_value=1.0))
    flush = outlook(tuning=AiTuning(flush_value=6.0))
    kinds = [k for k in range(34) if counts[k]]
    cheap, dear = discard_values(counts, 0, kinds, plain), discard_values(counts, 0, kinds, flush)
    assert dear[9 + 4] > cheap[9 + 4]  # throwing 5p keeps the 清一色 route
    assert max(dear, key=dear.get) in (9 + 4, 9 + 8, 27)  # an off-suit tile goes


@pytest.mark.parametrize("variant", ["shangrao", "xinyu", "jiujiang"])
def test_the_strong_discard_keeps_the_least_shanten_and_the_wildcard(variant: str) -> None:
    seen = 0
    for n in range(4):
        step = new_game(variant, None, f"value/{n}")
        for _ in range(2000):
            g = step.state
            if g.hand.phase == PHASE_OVER:
                break
            seat = step.awaited[0]
            legal = step.legal_for(seat)
            kinds = sorted({a.tile for a in legal if isinstance(a, Discard)})
            if g.hand.phase == PHASE_TURN and len(kinds) > 1:
                h = g.hand
                pick = best_discard(g, seat, kinds, defend=False)
                plain, w = split_wilds(seat_counts(h.seats[seat]), h.wildcards)
                plain = list(plain)

                plain_kinds = [k for k in kinds if k not in h.wildcards]
                if plain_kinds:
                    assert pick not in h.wildcards
                    least = min(_after(plain, w, k) for k in plain_kinds)
                    assert _after(plain, w, pick) == least
                    seen += 1
            step = advance(step, seat, baseline(g, seat, legal))
    assert seen > 20


def _after(plain: list[int], w: int, k: int) -> int:
    """向听 after discarding ``k`` (not a wildcard)."""
    plain[k] -= 1
    out = shanten(plain, w)
    plain[k] += 1
    return out
