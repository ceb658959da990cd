"""The win check with honour sequences (南昌 中发白, three different winds) against brute force.

:func:`engine.honour_sequences.honour_table` gives :mod:`engine.agari` the honour entries for a
variant's honour sequences; here every answer is compared with a plain recursive split of the
tiles (each wildcard filling a missing tile of a set or pair) on random hands.
"""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest

from engine.agari import is_complete, is_sets, is_standard, winning_tiles
from engine.honour_sequences import DRAGON_RUN, WIND_RUNS, honour_table

RUNS = DRAGON_RUN + WIND_RUNS
SUIT_SEQS = tuple((s * 9 + r, s * 9 + r + 1, s * 9 + r + 2) for s in range(3) for r in range(7))


@cache
def split(counts: tuple[int, ...], wilds: int, pair: bool, runs: tuple) -> bool:
    """Whether ``counts`` and ``wilds`` split into sets (and one pair when ``pair``)."""
    i = next((j for j, c in enumerate(counts) if c), None)
    if i is None:
        return (wilds - 2) % 3 == 0 and wilds >= 2 if pair else wilds % 3 == 0
    c = list(counts)
    for use in range(1, min(c[i], 3) + 1):  # a triplet of kind i (wildcards fill it)
        if 3 - use <= wilds:
            c[i] -= use
            if split(tuple(c), wilds - 3 + use, pair, runs):
                return True
            c[i] += use
    if pair:
        for use in range(1, min(c[i], 2) + 1):
            if 2 - use <= wilds:
                c[i] -= use
                if split(tuple(c), wilds - 2 + use, False, runs):
                    return True
                c[i] += use
    for seq in SUIT_SEQS + runs:
        if i not in seq:
            continue
        for mask in itertools.product((0, 1), repeat=3):
            real = [k for k, m in zip(seq, mask, strict=True) if m]
            if i not in real or any(not c[k] for k in real) or 3 - len(real) > wilds:
                continue
            for k in real:
                c[k] -= 1
            ok = split(tuple(c), wilds - 3 + len(real), pair, runs)
            for k in real:
                c[k] += 1
            if ok:
                return True
    return False


def random_counts(rng: random.Random, n: int) -> list[int]:
    while True:
        pool = range(27, 34) if rng.random() < 0.5 else range(34)
        counts = [0] * 34
        for k in rng.choices(pool, k=n):
            counts[k] += 1
        if max(counts) <= 4:
            return counts


@pytest.mark.parametrize("runs", [RUNS, DRAGON_RUN, ()], ids=["winds+dragons", "dragons", "none"])
def test_win_checks_with_honour_sequences_match_brute_force(runs: tuple) -> None:
    table = honour_table(runs)
    rng = random.Random(24)
    for _ in range(1500):
        wilds = rng.randint(0, 3)
        n = rng.choice([2, 5, 8, 11, 14]) - wilds
        if n < 0:
            continue
        counts = random_counts(rng, n)
        assert is_standard(counts, wilds, table) == split(tuple(counts), wilds, True, runs)
        sets_n = rng.choice([0, 3, 6, 9, 12]) - wilds
        if sets_n >= 0:
            c = random_counts(rng, sets_n)
            assert is_sets(c, wilds, table) == split(tuple(c), wilds, False, runs)
        if n + wilds != 14:  # 七对 aside, is_complete is the standard shape
            assert is_complete(counts, wilds, table) == is_standard(counts, wilds, table)
    for _ in range(300):
        wilds = rng.randint(0, 2)
        counts = random_counts(rng, rng.choice([1, 4, 7, 10]) - wilds + 3 * (wilds > 1))
        if (sum(counts) + wilds) % 3 != 1:
            continue
        want = set()
        for k in range(34):
            if counts[k] < 4:
                counts[k] += 1
                if is_complete(counts, wilds, table):
                    want.add(k)
                counts[k] -= 1
        assert winning_tiles(counts, wilds, table) == want


def test_honour_sequences_complete_what_triplets_cannot() -> None:
    counts = [0] * 34
    for k in (27, 28, 30, 31, 32, 33, 0, 1, 2, 9, 10, 11, 18, 18):  # 东南北 中发白 123m 123p 11s
        counts[k] += 1
    assert is_complete(counts, 0, honour_table(RUNS))
    assert not is_complete(counts, 0, honour_table(DRAGON_RUN))  # 东南北 needs wind sequences
    assert not is_complete(counts)  # the plain check: honours form triplets only
    assert 32 in winning_tiles([c - (k == 32) for k, c in enumerate(counts)], 0, honour_table(RUNS))


def test_a_mixed_or_short_honour_sequence_is_refused() -> None:
    with pytest.raises(ValueError, match="mixes"):
        honour_table(((27, 28, 31),))
    with pytest.raises(ValueError, match="three different honours"):
        honour_table(((27, 27, 28),))
