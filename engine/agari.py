"""Is a hand complete (和牌), and which tiles complete it (听牌) — with wildcards (宝).

Hands are 34-count vectors of the *concealed* tiles (kind index of RULES §1: 0–8 万,
9–17 筒, 18–26 条, 27–33 东南西北中发白); exposed melds are not included. Wildcards are
passed apart as a number: each stands for any kind, even a 5th copy (RULES §3.1).

Shapes (RULES §2.1): the standard shape (n sets + 1 pair; a set is a sequence 顺子 of one
suit or a triplet 刻子; honours only in triplets) for any total of 3n+2 tiles, and seven
pairs (七对) for exactly 14 tiles, four identical tiles counting as two pairs.

How it is fast: for each suit a shipped table (``engine._tables``) gives the fewest
wildcards that make the suit "all sets" (S) and "sets + pair" (P); honours follow a
formula. A hand is complete when ``ΣS + min(P - S) <= wilds`` (the rest of the wildcards
then form triplets among themselves).

>>> from engine.agari import is_complete, winning_tiles
>>> def hand(*kinds):
...     counts = [0] * 34
...     for k in kinds:
...         counts[k] += 1
...     return counts
>>> is_complete(hand(0, 1, 2, 9, 9))                      # 123m 11p
True
>>> is_complete(hand(0, 1, 2, 9, 10))                     # 123m 12p
False
>>> is_complete(hand(0, 1, 9, 10), wilds=1)               # 12m 12p 宝: no pair left
False
>>> is_complete(hand(0, 1, 9, 9), wilds=1)                # 12m 11p 宝 (宝 = 3m)
True
>>> is_complete(hand(27, 27, 28), wilds=2)                # 东东 南 宝宝 (南南南)
True
>>> is_complete(hand(27, 28), wilds=3)                    # 东宝宝 a set, 南宝 the pair
True
>>> is_complete(hand(27, 28, 29), wilds=2)                # 东南西 is no sequence
False
>>> sorted(winning_tiles(hand(0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 9)))  # 12345678m 9999m 1p
[9]
>>> sorted(winning_tiles(hand(0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)))  # 1112345678999m
[0, 1, 2, 3, 4, 5, 6, 7, 8]
>>> len(winning_tiles(hand(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), wilds=1))  # 宝吊头: anything
34
"""

from __future__ import annotations

from collections.abc import Sequence

from engine._tables import (
    DIGITS,
    MASK_BITS,
    build_complete_masks,
    build_honour_table,
    build_pair_table,
    load_suit_table,
    suit_needs,
)

__all__ = ["is_complete", "is_sets", "is_seven_pairs", "is_standard", "winning_tiles"]

_TABLE: bytes = load_suit_table()
_DIGITS = DIGITS
_HONOURS: bytes = build_honour_table()
_PAIR: bytes = build_pair_table()
_MASKS: list[int] = build_complete_masks()
#: Place value of each rank inside a suit key (first rank most significant).
_WEIGHT = tuple(5 ** (8 - r) for r in range(9))
#: Honours: wildcards needed to make a kind holding 0..4 tiles into triplets.
_HONOUR_S = (0, 2, 1, 0, 2)


def is_complete(counts: Sequence[int], wilds: int = 0, honours: bytes | None = None) -> bool:
    """Whether ``counts`` (34 concealed counts) plus ``wilds`` 宝 (>= 0) is complete (和牌).

    Standard shape (n sets + 1 pair) for any total of 3n+2 tiles, or 七对 when the total
    is 14. Any other total is never complete. Counts are 0–4; a higher count (a 宝 written
    as a 5th copy, say) or a suit of more than 14 tiles is answered on a slower path.
    Raises ``ValueError`` for a vector that is not 34 non-negative counts. ``honours`` is the
    honour table of a variant with honour sequences (:func:`engine.honour_sequences.honour_table`);
    by default honours form triplets only.

    >>> is_complete([2] * 7 + [0] * 27)                    # 11223344556677m: 七对 (and 平胡)
    True
    >>> is_complete([4, 4, 2, 2, 2] + [0] * 29)            # 七对 with two 4-of-a-kind
    True
    >>> is_complete([4, 4, 2, 2, 1] + [0] * 29, wilds=1)
    True
    >>> is_complete([0] * 27 + [2, 2, 2, 2, 2, 2, 2])      # 七对 of honours
    True
    >>> is_complete([0] * 27 + [2, 2, 2, 2, 2, 2, 1], 1)
    True
    >>> is_complete([0] * 34, wilds=2), is_complete([0] * 34, wilds=3)
    (True, False)
    """
    s = bytes(counts).translate(_DIGITS)
    if len(s) != 34:
        raise ValueError(f"expected 34 counts, got {len(s)}")
    table = _TABLE
    pair = _PAIR
    try:
        m = _MASKS[
            pair[table[int(s[:9], 5)] << 8 | table[int(s[9:18], 5)]] << 8
            | pair[table[int(s[18:27], 5)] << 8 | (honours or _HONOURS)[int(s[27:], 5)]]
        ]
    except ValueError:  # a count above 4 (a 5th copy, say): not in the tables
        return _is_complete_slow(counts, wilds, honours)
    if m >> wilds & 1:
        return m > 0 or _is_complete_slow(counts, wilds, honours)  # m == -1: a suit of 15+ tiles
    if wilds >= MASK_BITS:
        return _is_complete_slow(counts, wilds, honours)
    # 七对: 14 tiles, each odd count needs one 宝 (two 宝 pair up by themselves).
    return s.count(b"1") + s.count(b"3") <= wilds and sum(counts) + wilds == 14


def is_seven_pairs(counts: Sequence[int], wilds: int = 0) -> bool:
    """Whether the 14 tiles form 七对 (four identical tiles count as two pairs).

    >>> is_seven_pairs([2, 2, 2, 2, 2, 2, 1] + [0] * 27, wilds=1)
    True
    >>> is_seven_pairs([2, 2, 2, 2, 2, 2, 1] + [0] * 27)
    False
    """
    odd = sum(c & 1 for c in counts)
    return odd <= wilds and sum(counts) + wilds == 14


def is_standard(counts: Sequence[int], wilds: int = 0, honours: bytes | None = None) -> bool:
    """Whether ``counts`` plus ``wilds`` form the standard shape (n sets + 1 pair) — without
    the 七对 reading :func:`is_complete` also accepts.

    >>> is_standard([0] * 27 + [2] * 7), is_complete([0] * 27 + [2] * 7)  # 七对 of honours
    (False, True)
    >>> is_standard([2] * 7 + [0] * 27)  # 11223344556677m: also 123m 123m 456m 456m 77m
    True
    """
    if wilds < 0 or min(counts) < 0:
        raise ValueError("counts and wilds must not be negative")
    groups = _groups(counts, honours)
    need = sum(g[0] for g in groups) + min(p - s for s, p in groups)
    return need <= wilds and (wilds - need) % 3 == 0


def is_sets(counts: Sequence[int], wilds: int = 0, honours: bytes | None = None) -> bool:
    """Whether ``counts`` plus ``wilds`` are sets only (n sets, no pair): a hand that waits on
    a single tile to pair (南昌 精钓 asks it of the hand without its winning tile and 精).

    >>> is_sets([1, 1, 1] + [0] * 31), is_sets([1, 1, 0] + [0] * 31, 1), is_sets([1] + [0] * 33)
    (True, True, False)
    """
    if wilds < 0 or min(counts) < 0:
        raise ValueError("counts and wilds must not be negative")
    need = sum(s for s, _ in _groups(counts, honours))
    return need <= wilds and (wilds - need) % 3 == 0


def _groups(counts: Sequence[int], honours: bytes | None) -> list[tuple[int, int]]:
    """``(S, P)`` of the three suits and the honours (see :mod:`engine._tables`)."""
    memo: dict[tuple[int, ...], tuple[int, int]] = {}
    groups = [_suit_group(counts[i : i + 9], memo) for i in (0, 9, 18)]
    h = counts[27:]
    if honours is not None and max(h) <= 4:
        e = honours[int(bytes(h).translate(_DIGITS), 5)]
        groups.append((e >> 2, (e >> 2) + (e & 3) - 1))
    else:
        hs = sum(-c % 3 for c in h)
        groups.append((hs, hs - 1 if hs else 2))
    return groups


def _suit_group(v: Sequence[int], memo: dict[tuple[int, ...], tuple[int, int]]) -> tuple[int, int]:
    if max(v) <= 4 and sum(v) <= 14:
        e = _TABLE[int(bytes(v).translate(_DIGITS), 5)]
        return e >> 2, (e >> 2) + (e & 3) - 1
    return suit_needs(v, memo)


def _is_complete_slow(counts: Sequence[int], wilds: int, honours: bytes | None = None) -> bool:
    """The same answer without the fast masks (a suit of 15+ tiles, a count above 4)."""
    return is_standard(counts, wilds, honours) or is_seven_pairs(counts, wilds)


def winning_tiles(counts: Sequence[int], wilds: int = 0, honours: bytes | None = None) -> set[int]:
    """The kinds whose draw completes a 3n+1 hand (standard shape, and 七对 at 13 tiles);
    ``honours``: the honour table of a variant with honour sequences (see :func:`is_complete`).

    A kind of which the concealed counts already hold all 4 copies is left out (there is no
    5th tile to draw), with or without wildcards. A hand whose total is not 3n+1 has no
    winning tiles (empty set).

    >>> sorted(winning_tiles([1, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0] + [0] * 22))  # 12m 11p
    [2]
    >>> sorted(winning_tiles([1, 1, 1, 1] + [0] * 30))                          # 1234m
    [0, 3]
    >>> sorted(winning_tiles([4, 1, 1, 1] + [0] * 30))  # 1111m 234m: 1m would win, none left
    [3]
    >>> sorted(winning_tiles([2, 2, 2, 2, 2, 2, 1] + [0] * 27))   # 七对 wait on 7m
    [0, 3, 6]
    """
    s = bytes(counts).translate(_DIGITS)
    if len(s) != 34:
        raise ValueError(f"expected 34 counts, got {len(s)}")
    if wilds < 0:
        raise ValueError("wilds must not be negative")
    real = sum(counts)
    total = real + wilds
    if total % 3 != 1:
        return set()
    if real > 13 or max(counts) > 4:
        return _winning_tiles_slow(counts, wilds, honours)
    keys = (int(s[:9], 5), int(s[9:18], 5), int(s[18:27], 5))
    table = _TABLE
    entries = [table[k] for k in keys]
    h = s[27:]
    if honours is None:
        hs = 2 * (h.count(b"1") + h.count(b"4")) + h.count(b"2")
        hd = -1 if hs else 2
    else:
        hkey = int(h, 5)
        he = honours[hkey]
        hs, hd = he >> 2, (he & 3) - 1
    groups_s = [e >> 2 for e in entries]
    groups_d = [(e & 3) - 1 for e in entries]
    groups_s.append(hs)
    groups_d.append(hd)
    sum_s = sum(groups_s)
    out: set[int] = set()
    # 七对 at 13 tiles: a drawn kind with an odd count removes a single, others add one.
    if total == 13:
        odd = s.count(b"1") + s.count(b"3")
        if odd + 1 <= wilds:
            out.update(k for k in range(34) if counts[k] < 4)
        elif odd - 1 <= wilds:
            out.update(k for k in range(34) if counts[k] & 1)
    weight = _WEIGHT
    for g in range(3):
        rest_s = sum_s - groups_s[g]
        rest_d = min(groups_d[:g] + groups_d[g + 1 :])
        key = keys[g]
        base = 9 * g
        for r in range(9):
            if counts[base + r] == 4:
                continue
            e = table[key + weight[r]]
            d = (e & 3) - 1
            if rest_s + (e >> 2) + (d if d < rest_d else rest_d) <= wilds:
                out.add(base + r)
    rest_s = sum_s - hs
    rest_d = min(groups_d[:3])
    for k in range(27, 34):
        c = counts[k]
        if c == 4:
            continue
        if honours is None:
            new_hs = hs - _HONOUR_S[c] + _HONOUR_S[c + 1]
            d = -1 if new_hs else 2
        else:
            he = honours[hkey + _WEIGHT[k - 25]]
            new_hs, d = he >> 2, (he & 3) - 1
        if rest_s + new_hs + (d if d < rest_d else rest_d) <= wilds:
            out.add(k)
    return out


def _winning_tiles_slow(
    counts: Sequence[int], wilds: int, honours: bytes | None = None
) -> set[int]:
    out = set()
    work = list(counts)
    for k in range(34):
        if work[k] >= 4:
            continue
        work[k] += 1
        if is_complete(work, wilds, honours):
            out.add(k)
        work[k] -= 1
    return out
