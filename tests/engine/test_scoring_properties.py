"""Properties of scoring on random complete hands (all variants)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.options import make_options
from engine.scoring import WinContext, score
from engine.scoring.bench import HEAVY_BAO, _with_bao, random_hand
from engine.scoring.impossible import refusal
from engine.tiles import RED, WHITE

JJ_KINDS = [*range(27), RED, WHITE]


def make(variant: str, seed: int, preset: str = "classic") -> WinContext:
    rng = random.Random(seed)
    hand = random_hand(rng, JJ_KINDS if variant == "jiujiang" else list(range(34)))
    bao = None
    opts = {}
    if variant == "shangrao":
        hand, bao = _with_bao(rng, hand, HEAVY_BAO)
        opts = {"scoring": preset}
    win = rng.choice(["self", "discard", "rob_kong"])
    wildcards = frozenset() if bao is None else frozenset({bao})
    return WinContext(variant, make_options(variant, opts), hand, win, wildcards=wildcards)  # type: ignore[arg-type]


@settings(max_examples=150, deadline=None)
@given(
    variant=st.sampled_from(["shangrao", "xinyu", "jiujiang"]),
    seed=st.integers(0, 10**9),
    preset=st.sampled_from(["classic", "xingchen"]),
)
def test_results_are_consistent(variant: str, seed: int, preset: str) -> None:
    ctx = make(variant, seed, preset)
    r = score(ctx)
    if r.legal:
        assert r.points > 0 and r.items and not r.reason
    else:
        assert r.points == 0 and r.reason
    assert all(i.name and i.en and i.value for i in r.items)


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    flown=st.integers(1, 3),
    preset=st.sampled_from(["classic", "xingchen"]),
)
def test_each_flown_bao_doubles(seed: int, flown: int, preset: str) -> None:
    ctx = dataclasses.replace(make("shangrao", seed, preset), win="self")
    # only hands a table can produce: 宝 in hand + flown ≤ 4, no claimed 宝 (RULES §7)
    assume(not refusal(dataclasses.replace(ctx, flown=flown)))
    base = score(ctx)
    more = score(dataclasses.replace(ctx, flown=flown))
    assert more.legal  # 飞宝 makes every complete hand legal
    if base.legal:
        assert more.points == base.points * 2**flown


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_heaven_is_a_floor(seed: int) -> None:
    for variant, preset, floor in (("shangrao", "classic", 16), ("shangrao", "xingchen", 10)):
        ctx = dataclasses.replace(make(variant, seed, preset), win="self")
        assume(not refusal(ctx))  # a random hand may hold 4 of the face-up indicator
        own = score(ctx)
        heaven = score(dataclasses.replace(ctx, flags=frozenset({"heaven", "dealer"})))
        assert heaven.legal and heaven.points == max(floor, own.points)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), preset=st.sampled_from(["classic", "xingchen"]))
def test_wildcard_shortcuts_lose_nothing(seed: int, preset: str) -> None:
    """Scoring tries only representative kinds for groups of wildcards alone; trying every
    kind, sequences included, must give the same result."""
    import engine.variants.shangrao.scoring as sr
    from engine import decompose

    ctx = make("shangrao", seed, preset)
    fast = score(ctx)

    readings_flags = sr._readings_flags

    def every_reading(hand, bao, wild_kinds, counts, w, wild_runs=False, more_pair_kinds=None):
        # every kind for every group of wildcards alone: no fallback kinds needed
        return readings_flags(hand, bao, decompose.ALL_KINDS, counts, w, wild_runs=True)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sr, "_readings_flags", every_reading)
        slow = score(ctx)
    assert (fast.legal, fast.points) == (slow.legal, slow.points)
