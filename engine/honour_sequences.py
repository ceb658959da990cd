"""Honour sequences (字牌顺子) as data: which honour triples a variant reads as sequences, and
the honour lookup table the win check (:mod:`engine.agari`) uses for them.

Most variants form honours into triplets only. A variant may name honour triples that are
sequences (南昌 RULES §8.1: 中发白, and any three different winds): :func:`honour_table` builds,
for those triples, the same per-group entries as the suit table of :mod:`engine._tables` —
``S`` (fewest wildcards making the honours sets only) and ``P`` (sets plus one pair), one byte
``S * 4 + (P - S + 1)`` per base-5 key of the 7 honour counts — so that
``is_complete(counts, wilds, honours=honour_table(runs))`` answers with honour sequences at the
speed of the plain check. Winds and dragons never share a triple here, so each is solved on its
own (625 and 125 states) and the two combined.

>>> from engine.tiles import EAST, NORTH, RED, SOUTH, WEST
>>> DRAGON_RUN
((31, 32, 33),)
>>> len(WIND_RUNS), (EAST, SOUTH, NORTH) in WIND_RUNS
(4, True)
>>> t = honour_table(DRAGON_RUN + WIND_RUNS)
>>> e = t[int("1101111", 5)]  # 东南北 中发白: two sequences, S = 0; a pair costs 2 wildcards
>>> e >> 2, (e & 3) - 1
(0, 2)
>>> e = honour_table(())[int("1101111", 5)]  # triplets only: 12 wildcards, or 11 with a pair
>>> e >> 2, (e & 3) - 1
(12, -1)
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

from engine.tiles import DRAGONS, HONORS, WINDS

Runs = tuple[tuple[int, int, int], ...]

#: 中发白 as a sequence.
DRAGON_RUN: Runs = (DRAGONS,)
#: Any three different winds (东南西, 东南北, 东西北, 南西北) as a sequence.
WIND_RUNS: Runs = tuple(combinations(WINDS, 3))


_Memo = dict[tuple[int, ...], tuple[int, int]]


def _needs(
    counts: tuple[int, ...], runs: tuple[tuple[int, ...], ...], memo: _Memo
) -> tuple[int, int]:
    """``(S, P)`` of one honour family (``counts`` indexed from its first kind; ``runs`` as
    local indices), by the recursion of :func:`engine._tables.suit_needs`: the lowest kind
    present goes into a triplet, the pair, or a sequence (missing kinds are wildcards)."""
    found = memo.get(counts)
    if found is not None:
        return found
    i = next((j for j, c in enumerate(counts) if c), None)
    if i is None:
        memo[counts] = (0, 2)
        return 0, 2
    c = counts[i]
    rest = list(counts)
    used = min(c, 3)
    rest[i] -= used
    s, p = _needs(tuple(rest), runs, memo)
    best_s, best_p = s + 3 - used, p + 3 - used
    rest[i] = c - min(c, 2)
    s, _ = _needs(tuple(rest), runs, memo)
    best_p = min(best_p, s + 2 - min(c, 2))
    for run in runs:
        if i not in run:
            continue
        rest = list(counts)
        missing = 0
        for j in run:
            if j >= i and rest[j]:  # kinds below i hold nothing: they are wildcards
                rest[j] -= 1
            else:
                missing += 1
        s, p = _needs(tuple(rest), runs, memo)
        best_s, best_p = min(best_s, s + missing), min(best_p, p + missing)
    best_p = min(best_p, best_s + 2)
    memo[counts] = (best_s, best_p)
    return best_s, best_p


def _family(kinds: tuple[int, ...], runs: Runs) -> list[tuple[int, int]]:
    """``(S, P)`` of every count vector (0–4 each) of the honour kinds ``kinds``, indexed by
    its base-5 key (first kind most significant)."""
    local = tuple(tuple(kinds.index(k) for k in run) for run in runs if set(run) <= set(kinds))
    memo: _Memo = {}
    out = []
    n = len(kinds)
    for key in range(5**n):
        v = tuple(key // 5 ** (n - 1 - j) % 5 for j in range(n))
        out.append(_needs(v, local, memo))
    return out


@cache
def honour_table(runs: Runs) -> bytes:
    """The honour lookup table (5^7 entries, :mod:`engine._tables` encoding) when the honour
    triples ``runs`` are sequences; honours not in any run form triplets only."""
    for run in runs:
        if len(run) != 3 or len(set(run)) != 3 or not set(run) <= set(HONORS):
            raise ValueError(f"an honour sequence is three different honours, not {run!r}")
        if not (set(run) <= set(WINDS) or set(run) <= set(DRAGONS)):
            raise ValueError("an honour sequence mixes no winds and dragons")
    winds = _family(WINDS, runs)
    dragons = _family(DRAGONS, runs)
    out = bytearray(5**7)
    for wk, (ws, wp) in enumerate(winds):
        for dk, (ds, dp) in enumerate(dragons):
            s = ws + ds
            p = min(ws + dp, wp + ds)
            out[wk * 125 + dk] = s * 4 + (p - s + 1)
    return bytes(out)
