"""Slow, obviously-correct references and hand strategies for the hand-analysis tests.

Two independent references for "complete with wildcards (宝)":

* ``complete_by_substitution`` — each wildcard tried as each of the 34 kinds (every multiset
  of kinds), then a plain recursive check without wildcards. Exhaustive but slow for 3–4 宝.
* ``complete_by_search`` — a backtracking decomposition: the lowest remaining real tile is
  put into every possible triplet, sequence or pair, each missing tile taken from the 宝
  pool (also when a real tile would do); spare 宝 must form triplets (and the pair).
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from hypothesis import HealthCheck, assume, settings
from hypothesis import strategies as st


def relaxed(examples: int) -> settings:
    """Hypothesis settings: ``examples`` runs, no deadline (the references are slow)."""
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
    )


def parse(text: str) -> list[int]:
    """``"123m 55z"`` → counts (test-local, so these tests don't depend on engine.notation)."""
    counts = [0] * 34
    base = {"m": 0, "p": 9, "s": 18, "z": 27}
    digits = ""
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            digits += ch
        else:
            for d in digits:
                counts[base[ch] + int(d) - 1] += 1
            digits = ""
    return counts


def _sets_only(c: list[int]) -> bool:
    i = next((k for k in range(34) if c[k]), None)
    if i is None:
        return True
    if c[i] >= 3:
        c[i] -= 3
        ok = _sets_only(c)
        c[i] += 3
        if ok:
            return True
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        ok = _sets_only(c)
        for k in (i, i + 1, i + 2):
            c[k] += 1
        if ok:
            return True
    return False


def complete_plain(counts: list[int]) -> bool:
    """No wildcards: n sets + pair (any 3n+2 total), or 七对 at 14 (4 of a kind = 2 pairs)."""
    if sum(counts) == 14 and all(x % 2 == 0 for x in counts):
        return True
    return standard_plain(counts)


def standard_plain(counts: list[int]) -> bool:
    """No wildcards: the standard shape only, n sets + pair (any 3n+2 total)."""
    c = list(counts)
    if sum(c) % 3 != 2:
        return False
    for k in range(34):
        if c[k] >= 2:
            c[k] -= 2
            ok = _sets_only(c)
            c[k] += 2
            if ok:
                return True
    return False


def complete_by_substitution(counts: list[int], wilds: int, *, standard_only: bool = False) -> bool:
    """Each wildcard tried as each kind; ``standard_only`` leaves out 七对."""
    check = standard_plain if standard_only else complete_plain
    for kinds in combinations_with_replacement(range(34), wilds):
        c = list(counts)
        for k in kinds:
            c[k] += 1
        if check(c):
            return True
    return False


def _search(c: list[int], w: int, pair_done: bool) -> bool:
    i = next((k for k in range(34) if c[k]), None)
    if i is None:  # only 宝 left: they make triplets (and the pair if still missing)
        return w % 3 == 0 if pair_done else w >= 2 and (w - 2) % 3 == 0
    # Triplet or pair of kind i with r real tiles and the rest 宝.
    for size in (3, 2):
        if size == 2 and pair_done:
            continue
        for r in range(1, min(c[i], size) + 1):
            if size - r <= w:
                c[i] -= r
                ok = _search(c, w - (size - r), pair_done or size == 2)
                c[i] += r
                if ok:
                    return True
    # Sequences holding i (i is the lowest real tile, so lower ranks are 宝).
    if i < 27:
        rank = i % 9
        for start in (rank - 2, rank - 1, rank):
            if not 0 <= start <= 6:
                continue
            others = [i - rank + start + d for d in range(3) if i - rank + start + d != i]
            # Each other tile is real (when present and above i) or a 宝.
            for use_real in ((a, b) for a in (False, True) for b in (False, True)):
                if any(u and (k < i or not c[k]) for u, k in zip(use_real, others, strict=True)):
                    continue
                cost = sum(not u for u in use_real)
                if cost > w:
                    continue
                c[i] -= 1
                for u, k in zip(use_real, others, strict=True):
                    c[k] -= u
                ok = _search(c, w - cost, pair_done)
                c[i] += 1
                for u, k in zip(use_real, others, strict=True):
                    c[k] += u
                if ok:
                    return True
    return False


def complete_by_search(counts: list[int], wilds: int) -> bool:
    total = sum(counts) + wilds
    if total == 14 and sum(x % 2 for x in counts) <= wilds:
        return True
    return total % 3 == 2 and _search(list(counts), wilds, False)


def waits_by_search(counts: list[int], wilds: int) -> set[int]:
    """Kinds completing the hand, a kind held 4 times left out (no 5th tile to draw)."""
    out = set()
    for k in range(34):
        if counts[k] < 4:
            c = list(counts)
            c[k] += 1
            if complete_by_search(c, wilds):
                out.add(k)
    return out


# --- strategies --------------------------------------------------------------------------

SET = st.one_of(
    st.tuples(st.just("seq"), st.integers(0, 2), st.integers(0, 6)),
    st.tuples(st.just("trip"), st.integers(0, 33), st.just(0)),
)


@st.composite
def hands(
    draw: st.DrawFn,
    sets: tuple[int, int] = (4, 4),
    wilds: tuple[int, int] = (0, 4),
    drop: int = 0,
    max_mutations: int = 2,
) -> tuple[list[int], int]:
    """(counts, wilds): random sets + pair, then ``wilds`` tiles turned into 宝, ``drop``
    tiles removed, and up to ``max_mutations`` tiles swapped for other kinds (near misses).
    Sometimes instead a plain random hand of the same size."""
    n_sets = draw(st.integers(*sets))
    w = draw(st.integers(*wilds))
    size = 3 * n_sets + 2 - drop
    assume(w <= size)
    counts = [0] * 34
    if draw(st.integers(0, 4)) == 0:
        for k in draw(st.lists(st.integers(0, 33), min_size=size - w, max_size=size - w)):
            counts[k] += 1
        assume(max(counts) <= 4)
        return counts, w
    for shape, a, b in draw(st.lists(SET, min_size=n_sets, max_size=n_sets)):
        kinds = [9 * a + b, 9 * a + b + 1, 9 * a + b + 2] if shape == "seq" else [a] * 3
        for k in kinds:
            counts[k] += 1
    counts[draw(st.integers(0, 33))] += 2
    assume(max(counts) <= 4)
    for _ in range(w + drop):
        present = [k for k in range(34) if counts[k]]
        counts[draw(st.sampled_from(present))] -= 1
    for _ in range(draw(st.integers(0, max_mutations))):
        present = [k for k in range(34) if counts[k]]
        if not present:
            break
        old = draw(st.sampled_from(present))
        new = draw(st.integers(0, 33))
        if counts[new] < 4 or new == old:
            counts[old] -= 1
            counts[new] += 1
    return counts, w
