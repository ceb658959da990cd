"""Shanten with honour sequences (南昌 中发白, three winds): complete exactly when the win
check with the same sequences says so, never more than without them, and unchanged when no
sequences are named."""

from __future__ import annotations

import random

from engine.agari import is_complete
from engine.honour_sequences import DRAGON_RUN, WIND_RUNS, honour_table
from engine.notation import parse_tiles
from engine.shanten import shanten, shanten_standard

RUNS = DRAGON_RUN + WIND_RUNS


def counts(text: str) -> list[int]:
    c = [0] * 34
    for k in parse_tiles(text):
        c[k] += 1
    return c


def test_honour_sequences_are_sets() -> None:
    hand = counts("1z 2z 3z 5z 6z 7z 123m 456m 99p")  # 东南西 中发白 123m 456m 99p
    assert shanten_standard(hand) > 0
    assert shanten_standard(hand, 0, RUNS) == -1
    assert shanten(hand, 0, RUNS) == -1
    ready = counts("1z 2z 4z 123m 456m 789m 9p")  # 东南北 as a set: waits on 9p
    assert shanten(ready, 0, RUNS) == 0 and shanten(ready) == 2
    assert shanten(counts("1z 2z 123m 456m 789m 9p 9p"), 0, RUNS) == 0  # 东南 waits on 西 / 北


def test_complete_exactly_when_the_win_check_says_so() -> None:
    table = honour_table(RUNS)
    rng = random.Random(7)
    for _ in range(3000):
        w = rng.choice((0, 0, 1, 2))
        c = [0] * 34
        pool = range(72, 136) if rng.random() < 0.7 else range(136)  # mostly 索 and honours
        for t in rng.sample(list(pool), 14 - w):
            c[t >> 2] += 1
        s = shanten_standard(c, w, RUNS)
        assert (shanten(c, w, RUNS) == -1) == is_complete(c, w, honours=table)  # 七对 too
        assert s <= shanten_standard(c, w)
        assert shanten_standard(c, w, ()) == shanten_standard(c, w)
