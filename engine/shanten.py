"""Shanten (向听数): how many tile exchanges a hand is from 听牌 (ready), with wildcards (宝).

``-1`` means complete, ``0`` ready (one tile from complete), ``1`` one exchange from ready,
and so on. Hands are 34-count vectors of the concealed tiles (exposed melds not included)
plus a number of wildcards, each standing for any kind. The total (tiles + wildcards) is
3n+1 (before the draw) or 3n+2 (after it), at most 14.

Method: for each suit, and for each target "k sets (0–4), with or without the pair", the
fewest tiles missing from that suit's tiles (the other tiles being discarded) is computed
once by recursion and cached per suit pattern. The groups' answers are combined for
n sets + 1 pair; each wildcard fills one missing tile. The 4-copy limit is ignored (a wait
on a 5th copy counts as a wait), as a wildcard may be a 5th copy anyway.

>>> def hand(text):
...     counts = [0] * 34
...     base = {"m": 0, "p": 9, "s": 18, "z": 27}
...     digits = ""
...     for ch in text:
...         if ch.isdigit():
...             digits += ch
...         else:
...             for d in digits:
...                 counts[base[ch] + int(d) - 1] += 1
...             digits = ""
...     return counts
>>> shanten(hand("123m456p789s11122z"))             # complete: 平胡
-1
>>> shanten(hand("123m456p789s1122z"))              # ready (听牌) on 1z or 2z
0
>>> shanten(hand("123m456p789s2z"), wilds=3)        # 宝宝 + 2z a set, one 宝 waits (宝吊)
0
>>> shanten(hand("123m456p789s123z"), wilds=1)   # 1z+宝 pair; 2z 3z: one exchange
1
>>> shanten(hand("1m4m7m2p5p8p3s6s9s1234z"))        # 13 unrelated tiles
6
>>> shanten(hand("1m4m7m2p5p8p3s6s9s"), wilds=4)  # 七对: 4 宝 pair 4 singles
2
>>> shanten(hand("1122m3344p5566s7z"))              # 七对 ready
0
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["clear_caches", "shanten", "shanten_chiitoi", "shanten_standard", "shanten_within"]

#: Largest number of sets a hand of at most 14 tiles needs.
MAX_SETS = 4
#: Honour triples (tile kinds 27–33) that are sequences in a variant (南昌).
HonourRuns = tuple[tuple[int, int, int], ...]
_WIDTH = 2 * (MAX_SETS + 1)  # entries per group: index 2 * sets + pair
_INF = 99

_EMPTY = tuple(3 * (i // 2) + 2 * (i % 2) for i in range(_WIDTH))
_suit_cache: dict[bytes, tuple[int, ...]] = {b"\0" * 9: _EMPTY}
_honour_cache: dict[bytes, tuple[int, ...]] = {b"": _EMPTY}
#: whole hands' shanten, (counts, wildcards) → shanten: the AI asks again for the hands it
#: asked about moments before (a seat's hand in each claim window until its next draw, the
#: hand left by a discard it weighed last turn) — about one call in five during play
_hand_cache: dict[tuple[bytes, int] | tuple[bytes, int, HonourRuns], int] = {}
#: hands kept in ``_hand_cache`` before it starts afresh
HAND_CACHE_SIZE = 1 << 15
#: two groups' answers merged, (a, b, sets) → :func:`_merge` of them: suits take few
#: distinct answers, so the same pairs come back (the AI weighs a dozen discards of one hand,
#: each changing one suit) and a look-up replaces the merge's loops
_merge_cache: dict[tuple[tuple[int, ...], tuple[int, ...], int], tuple[int, ...]] = {}
#: merges kept in ``_merge_cache`` before it starts afresh
MERGE_CACHE_SIZE = 1 << 15


def clear_caches() -> None:
    """Forget the per-suit results (benchmarks measure the first pass with this)."""
    _suit_cache.clear()
    _suit_cache[b"\0" * 9] = _EMPTY
    _honour_cache.clear()
    _honour_cache[b""] = _EMPTY
    _hand_cache.clear()
    _merge_cache.clear()


def _missing(v: bytes, sequences: bool, cache: dict[bytes, tuple[int, ...]]) -> tuple[int, ...]:
    """Fewest missing tiles for ``sets`` sets (+ ``pair``) from the tiles ``v``.

    Entry ``2 * sets + pair``. Tiles not used are discarded. The lowest tile is either
    discarded or the lowest real tile of a triplet, a sequence or the pair; a set takes
    every real tile of its shape it can (exchanging tiles between sets changes nothing).
    """
    found = cache.get(v)
    if found is not None:
        return found
    i = len(v) - len(v.lstrip(b"\0"))
    if i == len(v):
        cache[v] = _EMPTY
        return _EMPTY
    c = v[i]
    w = bytearray(v)
    w[i] -= 1
    best = list(_missing(bytes(w), sequences, cache))  # tile i discarded
    # Triplet (刻子) at i.
    used = min(c, 3)
    w = bytearray(v)
    w[i] -= used
    sub = _missing(bytes(w), sequences, cache)
    cost = 3 - used
    for k in range(2, _WIDTH):
        t = sub[k - 2] + cost
        if t < best[k]:
            best[k] = t
    # Sequence (顺子) holding i as its lowest real tile.
    if sequences:
        for start in (i - 2, i - 1, i):
            if not 0 <= start <= 6:
                continue
            w = bytearray(v)
            cost = 0
            for j in (start, start + 1, start + 2):
                if j >= i and w[j]:
                    w[j] -= 1
                else:
                    cost += 1
            sub = _missing(bytes(w), sequences, cache)
            for k in range(2, _WIDTH):
                t = sub[k - 2] + cost
                if t < best[k]:
                    best[k] = t
    # The pair (将) at i.
    used = min(c, 2)
    w = bytearray(v)
    w[i] -= used
    sub = _missing(bytes(w), sequences, cache)
    cost = 2 - used
    for k in range(1, _WIDTH, 2):
        t = sub[k - 1] + cost
        if t < best[k]:
            best[k] = t
    result = tuple(best)
    cache[v] = result
    return result


def _suit(v: bytes) -> tuple[int, ...]:
    found = _suit_cache.get(v)
    return found if found is not None else _missing(v, True, _suit_cache)


def _honours(v: bytes) -> tuple[int, ...]:
    key = bytes(sorted(v)).lstrip(b"\0")  # order of honours does not matter
    found = _honour_cache.get(key)
    return found if found is not None else _missing(key, False, _honour_cache)


#: Per honour-sequence set (南昌 中发白, winds): the honours' answers, as ``_honour_cache``.
_run_caches: dict[tuple[tuple[int, ...], ...], dict[bytes, tuple[int, ...]]] = {}


def _missing_runs(
    v: bytes, runs: tuple[tuple[int, ...], ...], cache: dict[bytes, tuple[int, ...]]
) -> tuple[int, ...]:
    """As :func:`_missing` for the 7 honours (``v`` in kind order), where the honour
    triples ``runs`` (indices 0–6) are sequences too."""
    found = cache.get(v)
    if found is not None:
        return found
    i = len(v) - len(v.lstrip(b"\0"))
    if i == len(v):
        cache[v] = _EMPTY
        return _EMPTY
    c = v[i]
    w = bytearray(v)
    w[i] -= 1
    best = list(_missing_runs(bytes(w), runs, cache))  # tile i discarded
    # Triplet (刻子) at i, and each sequence holding i as its lowest real tile.
    takes: list[tuple[bytes, int]] = []
    w = bytearray(v)
    w[i] -= min(c, 3)
    takes.append((bytes(w), 3 - min(c, 3)))
    for run in runs:
        if i in run:
            w = bytearray(v)
            cost = 0
            for j in run:
                if j >= i and w[j]:
                    w[j] -= 1
                else:
                    cost += 1
            takes.append((bytes(w), cost))
    for rest, cost in takes:
        sub = _missing_runs(rest, runs, cache)
        for k in range(2, _WIDTH):
            t = sub[k - 2] + cost
            if t < best[k]:
                best[k] = t
    # The pair (将) at i.
    w = bytearray(v)
    w[i] -= min(c, 2)
    sub = _missing_runs(bytes(w), runs, cache)
    cost = 2 - min(c, 2)
    for k in range(1, _WIDTH, 2):
        t = sub[k - 1] + cost
        if t < best[k]:
            best[k] = t
    result = tuple(best)
    cache[v] = result
    return result


def _indices(runs: HonourRuns) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(k - 27 for k in run) for run in runs)


def _honours_with(v: bytes, runs: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    cache = _run_caches.setdefault(runs, {b"": _EMPTY})
    return _missing_runs(v, runs, cache)


def _merge(a: tuple[int, ...] | list[int], b: tuple[int, ...], sets: int) -> list[int]:
    """Min-plus merge of two groups, for up to ``sets`` sets; one pair at most."""
    out = []
    for n in range(sets + 1):
        x0 = x1 = _INF
        for i in range(n + 1):
            j = 2 * (n - i)
            a0 = a[2 * i]
            a1 = a[2 * i + 1]
            b0 = b[j]
            b1 = b[j + 1]
            t = a0 + b0
            if t < x0:
                x0 = t
            t = a0 + b1
            if t < x1:
                x1 = t
            t = a1 + b0
            if t < x1:
                x1 = t
        out.append(x0)
        out.append(x1)
    return out


def _merged(a: tuple[int, ...], b: tuple[int, ...], sets: int) -> tuple[int, ...]:
    """:func:`_merge` of ``a`` and ``b``, remembered."""
    key = (a, b, sets)
    found = _merge_cache.get(key)
    if found is None:
        if len(_merge_cache) >= MERGE_CACHE_SIZE:
            _merge_cache.clear()
        found = _merge_cache[key] = tuple(_merge(a, b, sets))
    return found


def _size(counts: Sequence[int], wilds: int) -> int:
    total = sum(counts) + wilds
    if total % 3 == 0 or total > 14 or len(counts) != 34 or wilds < 0:
        raise ValueError(
            f"shanten needs 34 counts and a total of 3n+1 or 3n+2 tiles up to 14, got {total}"
        )
    return total


def shanten_standard(counts: Sequence[int], wilds: int = 0, runs: HonourRuns = ()) -> int:
    """Shanten for the standard shape (n sets + 1 pair; 平胡 shape); ``runs``: honour
    triples (kinds) that are sequences too (南昌 中发白, three winds).

    >>> shanten_standard([1, 1, 1, 1, 1, 1, 1, 1, 1, 2] + [0] * 24)  # 123456789m 11p: -1
    -1
    >>> shanten_standard([2, 2, 2, 2, 2, 2, 2] + [0] * 27)  # 11223344556677m
    -1
    >>> shanten_standard([0] * 27 + [2, 2, 2, 2, 2, 2, 2])  # 七对 of honours: 4 pongs short
    3
    """
    total = _size(counts, wilds)
    sets = total // 3
    raw = bytes(counts)
    group = _merged(_merged(_suit(raw[:9]), _suit(raw[9:18]), sets), _suit(raw[18:27]), sets)
    h = _honours_with(raw[27:], _indices(runs)) if runs else _honours(raw[27:])
    n = sets
    best = _INF
    for i in range(n + 1):
        j = 2 * (n - i)
        t = group[2 * i] + h[j + 1]
        if t < best:
            best = t
        t = group[2 * i + 1] + h[j]
        if t < best:
            best = t
    return best - wilds - 1


def shanten_chiitoi(counts: Sequence[int], wilds: int = 0) -> int:
    """Shanten for 七对 (13 or 14 tiles; four identical tiles count as two pairs).

    Each 宝 pairs with a single tile, or two 宝 make a pair.

    >>> shanten_chiitoi([2, 2, 2, 2, 2, 2, 1, 1] + [0] * 26)
    0
    >>> shanten_chiitoi([4, 4, 2, 1, 1] + [0] * 29, wilds=2)
    -1
    """
    total = _size(counts, wilds)
    if total < 13:
        raise ValueError(f"七对 needs 13 or 14 tiles, got {total}")
    raw = _small_counts(counts)
    if raw is not None:  # counted in C: c >> 1 is 1 for 2 and 3, 2 for 4
        pairs = len(raw) - raw.count(0) - raw.count(1) + raw.count(4)
        odd = raw.count(1) + raw.count(3)
    else:
        pairs = sum(c >> 1 for c in counts)
        odd = sum(c & 1 for c in counts)
    used = min(wilds, odd)
    pairs += used + (wilds - used) // 2
    return 6 - min(pairs, 7)


def _small_counts(counts: Sequence[int]) -> bytes | None:
    """The counts as bytes when each is 0–4 (as in any real hand), else None."""
    try:
        raw = bytes(counts)
    except (TypeError, ValueError):
        return None
    return raw if max(raw, default=0) <= 4 else None


def shanten(counts: Sequence[int], wilds: int = 0, runs: HonourRuns = ()) -> int:
    """Shanten of the hand: the smaller of the standard shape (with the honour sequences
    ``runs``) and (at 13–14 tiles) 七对.

    >>> shanten([2, 2, 2, 2, 2, 2, 1] + [0] * 20 + [1] + [0] * 6)  # 七对 ready
    0
    """
    key: tuple[bytes, int] | tuple[bytes, int, HonourRuns] | None
    try:
        key = (bytes(counts), wilds, runs) if runs else (bytes(counts), wilds)
    except (TypeError, ValueError):
        key = None  # not counts at all: the checks below say why
    if key is not None:
        found = _hand_cache.get(key)
        if found is not None:
            return found
    best = shanten_standard(counts, wilds, runs)
    if best >= 0 and sum(counts) + wilds >= 13:
        best = min(best, shanten_chiitoi(counts, wilds))
    if key is not None:
        if len(_hand_cache) >= HAND_CACHE_SIZE:
            _hand_cache.clear()
        _hand_cache[key] = best
    return best


def shanten_within(counts: Sequence[int], wilds: int, suits: Sequence[int], honours: bool) -> int:
    """Shanten of the standard shape built from the tiles of ``suits`` (0 m, 1 p, 2 s) and,
    if ``honours``, the honours only: the 清一色 / 混一色 route. Tiles outside are to be thrown
    (the hand's size, and so its number of sets, is that of all its tiles).

    >>> c = [1, 1, 1, 1, 1, 1, 0, 0, 0] + [0] * 9 + [1, 1, 1, 0, 0, 0, 0, 0, 0] + [2] + [0] * 6
    >>> shanten(c)  # 123456m 123s 11z: complete
    -1
    >>> shanten_within(c, 0, (0,), False), shanten_within(c, 0, (0,), True)  # a set, a pair
    (4, 2)
    """
    total = _size(counts, wilds)
    sets = total // 3
    raw = bytes(counts)
    group: tuple[int, ...] = _EMPTY
    for suit in (0, 1, 2):
        part = _suit(raw[9 * suit : 9 * suit + 9]) if suit in suits else _EMPTY
        group = _merged(group, part, sets)
    h = _honours(raw[27:]) if honours else _EMPTY
    best = _INF
    for i in range(sets + 1):
        j = 2 * (sets - i)
        best = min(best, group[2 * i] + h[j + 1], group[2 * i + 1] + h[j])
    return best - wilds - 1
