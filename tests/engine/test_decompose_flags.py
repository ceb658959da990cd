"""Facts of readings without the readings: ``standard_flags`` / ``seven_pairs_flags`` must give
exactly the distinct masks of ``standard_readings`` / ``seven_pairs_readings``, in the order
they first appear there (scoring keeps the first best reading, so the order matters)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.decompose import (
    PAIR,
    SEQ,
    TRIPLET,
    Group,
    Reading,
    seven_pairs_flags,
    seven_pairs_readings,
    split_wilds,
    standard_flags,
    standard_readings,
)
from engine.notation import Hand
from engine.scoring.bench import _with_bao, random_hand
from engine.variants.shangrao.scoring import _flags_for

SHAPES = {SEQ: 0, TRIPLET: 1, PAIR: 2}
WILD_WEIGHTS = (10, 20, 25, 25, 20)  # 0–4 宝


class FineFlags:
    """A mask telling groups apart by shape, first kind and wildcards used: nearly every
    reading gets its own mask, so the order of the masks is checked reading by reading."""

    def __call__(self, g: Group) -> int:
        return 1 << ((SHAPES.get(g.shape, 3) * 34 + g.kinds[0]) * 4 + len(g.wild))

    def for_suit(self, lo: int) -> FineFlags:
        return self


def _expected(splits: list[tuple[Group, ...]], flags_of, start: int = 0) -> list[int]:
    out: dict[int, None] = {}
    for split in splits:
        mask = start
        for g in split:
            mask |= flags_of(g)
        out[mask] = None
    return list(out)


def _hand(seed: int) -> tuple[Hand, int]:
    rng = random.Random(seed)
    hand = random_hand(rng, list(range(34)))
    return _with_bao(rng, hand, WILD_WEIGHTS)


WILD_KIND_CHOICES = st.sampled_from([None, (27,), (0, 9), (4, 13, 22, 31)])


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**9), wild_kinds=WILD_KIND_CHOICES, runs=st.booleans())
def test_standard_flags_are_the_readings_masks_in_order(seed, wild_kinds, runs) -> None:
    hand, bao = _hand(seed)
    counts, w = split_wilds(hand, bao)
    splits = standard_readings(counts, w, wild_kinds=wild_kinds, wild_runs=runs)
    flags = FineFlags()
    got = standard_flags(counts, w, flags, start=5, wild_kinds=wild_kinds, wild_runs=runs)
    assert got == _expected(splits, flags, start=5)
    assert bool(got) == bool(splits)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**9), wild_kinds=WILD_KIND_CHOICES)
def test_per_suit_flaggers_give_the_same_masks(seed, wild_kinds) -> None:
    """Shangrao's flagger hands each suit a flagger that ignores a winning tile or 宝 of
    another suit; the masks must be those of the whole-hand flagger."""
    hand, bao = _hand(seed)
    counts, w = split_wilds(hand, bao)
    flags = _flags_for(hand.winning, bao)
    splits = standard_readings(counts, w, wild_kinds=wild_kinds, wild_runs=False)
    got = standard_flags(counts, w, flags, wild_kinds=wild_kinds, wild_runs=False)
    assert got == _expected(splits, flags)


def _seven_pairs_hand(seed: int) -> tuple[list[int], int]:
    rng = random.Random(seed)
    kinds = rng.sample(range(34), 7)
    if rng.random() < 0.4:
        kinds[6] = kinds[0]  # a four of a kind (豪华)
    tiles = [k for k in kinds for _ in (0, 1)]
    wilds = rng.choices(range(5), WILD_WEIGHTS)[0]
    for _ in range(wilds):
        tiles.remove(rng.choice(tiles))
    counts = [0] * 34
    for k in tiles:
        counts[k] += 1
    return counts, wilds


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**9), wild_kinds=WILD_KIND_CHOICES)
def test_seven_pairs_flags_are_the_readings_facts_in_order(seed, wild_kinds) -> None:
    counts, w = _seven_pairs_hand(seed)
    flags = FineFlags()
    splits = seven_pairs_readings(counts, w, wild_kinds=wild_kinds)
    expected: dict[tuple[int, int], None] = {}
    for split in splits:
        mask = 0
        for g in split:
            mask |= flags(g)
        expected[mask, Reading("pairs", pairs=split).luxury()] = None
    got = seven_pairs_flags(counts, w, flags, wild_kinds=wild_kinds)
    assert got == list(expected)
    assert got  # every such hand is 七对 (wildcards pair up the single tiles)
