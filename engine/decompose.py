"""All readings (拆牌) of a complete hand, wildcards (宝) included.

A *reading* says how a finished hand is made: its sets (顺子 sequence, 刻子 triplet, 杠 kong —
the exposed melds and concealed kongs included as they are), its pair (将), or its seven pairs
(七对, four identical tiles counting as two pairs), and where each wildcard stands and as
what. Scoring looks at every reading and keeps the one that pays most (计大不计小).

Wildcards are passed apart from the counts (like :mod:`engine.agari`) and may stand for any
kind, even a 5th copy (RULES §3.1). A group made of wildcards only could stand for any of many
kinds; ``wild_kinds`` limits the kinds such a group may take (default: every kind), so a
scorer can ask only for the representatives it cares about.

A scorer that only asks yes/no questions of the groups can skip the readings altogether:
:func:`standard_flags` and :func:`seven_pairs_flags` give the distinct bit masks of the
readings (per-suit results cached), in the order the readings come.

>>> from engine.tiles import counts_of
>>> rs = standard_readings(counts_of([0, 1, 2, 9, 9, 9, 18, 18]), 0)
>>> [[g.text() for g in r] for r in rs]
[['123m', '111p', '11s']]
>>> [[g.text() for g in r] for r in standard_readings(counts_of([0, 1, 9, 9]), 1)]
[['12m3m*', '11p']]
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Protocol

from engine.notation import Hand, Meld, MeldKind
from engine.tiles import N_KINDS, tile_str

SEQ, TRIPLET, KONG, PAIR = "seq", "triplet", "kong", "pair"
ALL_KINDS: tuple[int, ...] = tuple(range(N_KINDS))


@dataclass(frozen=True, order=True)
class Group:
    """One set or pair of a reading.

    ``kinds`` are the kinds it stands for (``(3, 4, 5)``, ``(7, 7, 7)``); ``wild`` the kinds
    among them played by wildcards (a sub-multiset of ``kinds``); ``meld`` the table meld it
    is, when it is one (exposed melds and concealed kongs).
    """

    shape: str
    kinds: tuple[int, ...]
    wild: tuple[int, ...] = ()
    meld: Meld | None = field(default=None, compare=False)

    @property
    def real(self) -> tuple[int, ...]:
        """The kinds of the real (non-wild) tiles in the group."""
        if not self.wild:
            return self.kinds
        out = list(self.kinds)
        for k in self.wild:
            out.remove(k)
        return tuple(out)

    @property
    def is_triplet_like(self) -> bool:
        """刻子 or 杠 (碰碰胡 counts these)."""
        return self.shape in (TRIPLET, KONG)

    @property
    def exposed(self) -> bool:
        """An exposed meld (chi, pong, exposed kong), not a concealed kong."""
        return self.meld is not None and not self.meld.is_concealed

    def text(self) -> str:
        """``123m``, ``12m3m*`` (3m played by a wildcard), ``[555p]`` for a meld."""
        if self.meld is not None:
            return self.meld.text()
        if not self.wild:
            return _run(self.kinds)
        return _run(self.real) + "".join(tile_str(k) + "*" for k in self.wild)


def _run(kinds: Sequence[int]) -> str:
    if not kinds:
        return ""
    s = tile_str(kinds[0])
    return "".join(tile_str(k)[0] for k in kinds) + s[1]


@dataclass(frozen=True)
class Reading:
    """A whole-hand reading: ``form`` is ``"standard"`` (``sets`` + ``pair``) or ``"pairs"``
    (七对: seven groups in ``pairs``, a four-of-a-kind giving two)."""

    form: str
    sets: tuple[Group, ...] = ()
    pair: Group | None = None
    pairs: tuple[Group, ...] = ()

    @property
    def groups(self) -> tuple[Group, ...]:
        if self.form == "pairs":
            return self.pairs
        return self.sets + ((self.pair,) if self.pair is not None else ())

    def wild_as(self) -> tuple[int, ...]:
        """The kinds the wildcards stand for, sorted."""
        return tuple(sorted(k for g in self.groups for k in g.wild))

    def kinds(self) -> list[int]:
        """Every tile as the kind it stands for (wildcards replaced), melds included."""
        return [k for g in self.groups for k in g.kinds]

    def concealed_real(self) -> list[int]:
        """The real concealed tiles the reading uses (melds excluded), sorted."""
        return sorted(k for g in self.groups if g.meld is None for k in g.real)

    def luxury(self) -> int:
        """七对: how many kinds fill two pairs (豪华, four of a kind)."""
        if self.form != "pairs":
            return 0
        seen: dict[int, int] = {}
        for g in self.pairs:
            seen[g.kinds[0]] = seen.get(g.kinds[0], 0) + 1
        return sum(1 for n in seen.values() if n >= 2)

    def text(self) -> str:
        return " ".join(g.text() for g in self.groups)


# --- one suit --------------------------------------------------------------------------------


#: A group as a plain tuple ``(shape, kinds, wild)``: what groups sort and compare by.
GroupKey = tuple[str, tuple[int, ...], tuple[int, ...]]


@lru_cache(maxsize=1 << 16)
def _suit(
    counts: tuple[int, ...], wilds: int, need_pair: bool, base: int
) -> tuple[tuple[Group, ...], ...]:
    """All ways to split one suit's real tiles (``counts``, 9 ranks, or 7 honours when
    ``base`` is 27) into groups using exactly ``wilds`` wildcards, each group holding at least
    one real tile; with exactly one pair when ``need_pair``. Each split is sorted, and the
    splits too (by their groups)."""
    return tuple(
        tuple(_group(key) for key in split) for split in _suit_keys(counts, wilds, need_pair, base)
    )


@lru_cache(maxsize=4096)
def _group(key: GroupKey) -> Group:
    return Group(*key)


@lru_cache(maxsize=1 << 15)
def _suit_keys(
    counts: tuple[int, ...], wilds: int, need_pair: bool, base: int
) -> tuple[tuple[GroupKey, ...], ...]:
    """:func:`_suit` with each group as its :data:`GroupKey` (cheap to sort and hash)."""
    if (sum(counts) + wilds) % 3 != (2 if need_pair else 0):
        return ()  # sets of 3 (and a pair of 2) cannot use up the tiles
    first = next((i for i, n in enumerate(counts) if n), -1)
    if first < 0:
        return ((),) if wilds == 0 and not need_pair else ()
    k = base + first
    out: set[tuple[GroupKey, ...]] = set()
    c = list(counts)

    def go(group: GroupKey, used: dict[int, int], w: int, pair_left: bool) -> None:
        """Take ``group`` (using ``used`` real tiles and its wildcards), split the rest."""
        if w < 0:
            return
        for i, n in used.items():
            c[i] -= n
        for rest in _suit_keys(tuple(c), w, pair_left, base):
            at = bisect_left(rest, group)
            out.add((*rest[:at], group, *rest[at:]))
        for i, n in used.items():
            c[i] += n

    n = counts[first]
    if need_pair:
        if n >= 2:
            go((PAIR, (k, k), ()), {first: 2}, wilds, False)
        go((PAIR, (k, k), (k,)), {first: 1}, wilds - 1, False)
    for real in (3, 2, 1):
        if n >= real:
            go((TRIPLET, (k, k, k), (k,) * (3 - real)), {first: real}, wilds - 3 + real, need_pair)
    if base < 27:  # sequences holding the lowest tile
        for pos in range(3):
            start = first - pos
            if start < 0 or start > 6:
                continue
            below = tuple(base + start + j for j in range(pos))  # no real tiles left below
            above = [start + j for j in range(pos + 1, 3)]
            for mask in range(1 << len(above)):
                used = {first: 1}
                wild = list(below)
                ok = True
                for bit, i in enumerate(above):
                    if mask >> bit & 1:
                        if counts[i] == 0:
                            ok = False
                            break
                        used[i] = 1
                    else:
                        wild.append(base + i)
                if ok:
                    kinds = (base + start, base + start + 1, base + start + 2)
                    go((SEQ, kinds, tuple(sorted(wild))), used, wilds - len(wild), need_pair)
    return tuple(sorted(out))


def _gkey(g: Group) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    return (g.shape, g.kinds, g.wild)


@lru_cache(maxsize=64)
def _wild_pairs(kinds: tuple[int, ...]) -> tuple[tuple[Group, ...], ...]:
    return tuple((Group(PAIR, (k, k), (k, k)),) for k in kinds)


@lru_cache(maxsize=64)
def _wild_set_combos(kinds: tuple[int, ...], n: int, runs: bool) -> tuple[tuple[Group, ...], ...]:
    return tuple(combinations_with_replacement(_wild_sets(kinds, runs), n))


def _wild_sets(kinds: Sequence[int], runs: bool = True) -> list[Group]:
    """Sets made of wildcards only, standing for the given kinds (triplets, and when ``runs``
    sequences starting at a suited kind of rank 1–7)."""
    out = [Group(TRIPLET, (k, k, k), (k, k, k)) for k in kinds]
    if not runs:
        return out
    out += [
        Group(SEQ, (k, k + 1, k + 2), (k, k + 1, k + 2)) for k in kinds if k < 27 and k % 9 <= 6
    ]
    return out


_SUIT_SPANS = ((0, 9), (9, 18), (18, 27), (27, 34))


def standard_readings(
    counts: Sequence[int],
    wilds: int = 0,
    *,
    pair: bool = True,
    wild_kinds: Iterable[int] | None = None,
    wild_runs: bool = True,
) -> list[tuple[Group, ...]]:
    """Every standard-shape split (n sets + 1 pair, or n sets when ``pair`` is false) of the
    concealed ``counts`` plus ``wilds`` wildcards. Each split is a tuple of groups (suit by
    suit, then the groups of wildcards only); no split is given twice.

    Honours form triplets (and the pair) only. Groups made only of wildcards stand for kinds
    in ``wild_kinds`` (default: all 34), as triplets and (when ``wild_runs``) sequences.
    """
    total = sum(counts) + wilds
    if total % 3 != (2 if pair else 0):
        return []
    parts = [(lo, tuple(counts[lo:hi])) for lo, hi in _SUIT_SPANS if any(counts[lo:hi])]
    wk = ALL_KINDS if wild_kinds is None else tuple(sorted(set(wild_kinds)))
    results: list[tuple[Group, ...]] = []
    holders: list[int | None] = [*range(len(parts)), None] if pair else [None]
    if wilds == 0:  # fast path: no wildcard to share out
        for holder in holders:
            if holder is None and pair:
                continue
            combos: list[tuple[Group, ...]] = [()]
            for i, (lo, cs) in enumerate(parts):
                opts = _suit(cs, 0, holder == i, lo)
                if not opts:
                    break
                combos = [a + b for a in combos for b in opts]
            else:
                results.extend(combos)
        return results
    for holder in holders:

        def walk(
            i: int, w: int, acc: list[tuple[tuple[Group, ...], ...]], holder: int | None = holder
        ) -> None:
            if i == len(parts):
                _finish(w, pair and holder is None, acc, wk, results, wild_runs)
                return
            lo, cs = parts[i]
            for u in range(w + 1):
                opts = _suit(cs, u, holder == i, lo)
                if opts:
                    acc.append(opts)
                    walk(i + 1, w - u, acc)
                    acc.pop()

        walk(0, wilds, [])
    return results


def _finish(
    w: int,
    need_pair: bool,
    acc: list[tuple[tuple[Group, ...], ...]],
    wk: tuple[int, ...],
    results: list[tuple[Group, ...]],
    runs: bool,
) -> None:
    rest = w - (2 if need_pair else 0)
    if rest < 0 or rest % 3:
        return
    pair_opts = _wild_pairs(wk) if need_pair else ((),)
    set_opts = _wild_set_combos(wk, rest // 3, runs)
    combos: list[tuple[Group, ...]] = [()]
    for opts in acc:
        combos = (
            [a + b for a in combos for b in opts]
            if len(opts) > 1 or len(combos) > 1
            else [combos[0] + opts[0]]
        )
    for base in combos:
        for p in pair_opts:
            for s in set_opts:
                results.append(base + p + s)


# --- facts of readings, without the readings ---------------------------------------------------
#
# A scorer that only asks yes/no questions of a reading's groups ("is some set a sequence?",
# "does a wildcard stand for a 2–8?", "is the pair 宝吊?") reads each reading as the OR of
# one bit mask per group. Many readings then look alike (a 宝 playing 3m or 4m inside a
# sequence), so :func:`standard_flags` combines the masks suit by suit and keeps each
# distinct value once, never building the readings themselves.


class GroupFlags(Hashable, Protocol):
    """What a scorer asks of one group, as a bit mask (see :func:`standard_flags`). Must be
    hashable (hence the :class:`~collections.abc.Hashable` base): the per-suit caches are
    keyed by it (by identity is fine when equal flaggers are shared objects)."""

    def __call__(self, group: Group, /) -> int:
        """The mask of one group; always the same for the same group."""
        ...

    def for_suit(self, lo: int, /) -> GroupFlags:
        """A flagger giving the same masks for every group holding a real tile of the suit
        whose first kind is ``lo`` (0, 9, 18, or 27 for honours), shared by as many hands as
        possible: the per-suit caches are keyed by it."""
        ...


def _distinct(values: Iterable[int]) -> tuple[int, ...]:
    """The distinct values, in order of first appearance."""
    return tuple(dict.fromkeys(values))


def _or_all(flags_of: GroupFlags, groups: Iterable[Group]) -> int:
    mask = 0
    for g in groups:
        mask |= flags_of(g)
    return mask


@lru_cache(maxsize=1 << 15)
def _key_mask(flags_of: GroupFlags, key: GroupKey) -> int:
    return flags_of(_group(key))


def _or_keys(flags_of: GroupFlags, keys: Iterable[GroupKey]) -> int:
    mask = 0
    for key in keys:
        mask |= _key_mask(flags_of, key)
    return mask


SuitFlags = tuple[tuple[int, tuple[int, ...]], ...]


@lru_cache(maxsize=1 << 15)
def _suit_flags(
    counts: tuple[int, ...], wilds: int, base: int, flags_of: GroupFlags
) -> tuple[SuitFlags, SuitFlags]:
    """For one suit (as :func:`_suit`): ``(u, masks)`` for each number ``u`` ≤ ``wilds`` of
    wildcards it can absorb, ``masks`` being the distinct masks of its splits in their order
    — first without the pair, then with it."""
    return _suit_table(counts, wilds, base, flags_of, False), _suit_table(
        counts, wilds, base, flags_of, True
    )


def _suit_table(
    counts: tuple[int, ...], wilds: int, base: int, flags_of: GroupFlags, need_pair: bool
) -> SuitFlags:
    out = []
    # sets of 3 and a pair of 2: only one ``u`` in three can use up the suit's tiles
    for u in range((2 * need_pair - sum(counts)) % 3, wilds + 1, 3):
        splits = _suit_keys(counts, u, need_pair, base)
        masks = _distinct(_or_keys(flags_of, split) for split in splits)
        if masks:
            out.append((u, masks))
    return tuple(out)


@lru_cache(maxsize=1 << 12)
def _wild_only_flags(
    wilds: int, need_pair: bool, kinds: tuple[int, ...], runs: bool, flags_of: GroupFlags
) -> tuple[int, ...]:
    """The distinct masks of the groups made of ``wilds`` wildcards alone (as ``_finish``)."""
    rest = wilds - (2 if need_pair else 0)
    if rest < 0 or rest % 3:
        return ()
    pair_opts = _wild_pairs(kinds) if need_pair else ((),)
    set_opts = _wild_set_combos(kinds, rest // 3, runs)
    return _distinct(_or_all(flags_of, p + s) for p in pair_opts for s in set_opts)


def _or_product(masks: Sequence[int], more: Sequence[int]) -> tuple[int, ...]:
    """Every ``a | b`` (``a`` first, then ``b``), each distinct value once, first seen first."""
    if len(masks) == 1 and len(more) == 1:
        return (masks[0] | more[0],)
    return _distinct(a | b for a in masks for b in more)


#: (wildcards left, the distinct masks so far) for each way of sharing out the wildcards.
_States = list[tuple[int, tuple[int, ...]]]


def _advance(states: _States, table: SuitFlags) -> _States:
    """Read one more suit: every state with every way the suit takes ``u`` wildcards."""
    return [(w - u, _or_product(masks, more)) for w, masks in states for u, more in table if u <= w]


def standard_flags(
    counts: Sequence[int],
    wilds: int,
    flags_of: GroupFlags,
    *,
    start: int = 0,
    wild_kinds: Iterable[int] | None = None,
    wild_runs: bool = True,
) -> list[int]:
    """The distinct values of ``start | flags_of(g) | …`` over the groups of each reading
    :func:`standard_readings` gives (with a pair), in the order they first appear there.

    So a scorer whose verdict on a reading depends only on this OR of masks can score the
    masks instead of the readings and, keeping the first best, pick the same one (readings
    that differ only in what the scorer ignores are scored once). ``start`` holds the masks
    of the melds.

    >>> from engine.tiles import counts_of
    >>> class Seq:
    ...     def __call__(self, g): return 1 if g.shape == SEQ else 0
    ...     def for_suit(self, lo): return self
    >>> standard_flags(counts_of([0, 0, 0, 1, 1, 1, 2, 2, 2, 9, 9]), 0, Seq())  # 111222333m 11p
    [1, 0]
    """
    if (sum(counts) + wilds) % 3 != 2:
        return []
    parts = []
    for lo, hi in _SUIT_SPANS:
        cs = tuple(counts[lo:hi])
        if any(cs):
            parts.append(_suit_flags(cs, wilds, lo, flags_of.for_suit(lo)))
    wk = ALL_KINDS if wild_kinds is None else tuple(sorted(set(wild_kinds)))
    found: dict[int, None] = {}

    def finish(states: _States, need_pair: bool) -> None:
        for w, masks in states:
            if w == 0 and not need_pair:
                found.update(dict.fromkeys(masks))
            elif tail := _wild_only_flags(w, need_pair, wk, wild_runs, flags_of):
                found.update(dict.fromkeys(_or_product(masks, tail)))

    # The pair in suit 0, 1, … and then among wildcards alone, as standard_readings walks;
    # before the pair's suit every suit is read without a pair, so those steps are shared.
    no_pair: list[_States] = [[(wilds, (start,))]]
    for part in parts:
        no_pair.append(_advance(no_pair[-1], part[0]))
    for holder, part in enumerate(parts):
        states = _advance(no_pair[holder], part[1])
        for later in parts[holder + 1 :]:
            if not states:
                break
            states = _advance(states, later[0])
        finish(states, False)
    if wilds >= 2:  # else the pair would need two wildcards alone
        finish(no_pair[-1], True)
    return list(found)


def seven_pairs_readings(
    counts: Sequence[int], wilds: int = 0, *, wild_kinds: Iterable[int] | None = None
) -> list[tuple[Group, ...]]:
    """Every 七对 split of 14 concealed tiles: seven pair groups, a kind filling at most two
    pairs (four of a kind = two pairs, 豪华); wildcards pair up single tiles, and left-over
    wildcards form pairs of a kind in ``wild_kinds`` or of a kind already in the hand.

    Two wildcards joining a real pair of a kind make two pairs of that kind either way they
    are grouped: as a pair of wildcards beside the real pair, or each wildcard with one real
    tile (``5p5p*`` twice: the 宝 pairs with a real tile, so 七对 宝吊 is possible, RULES §7).
    Both are given, the second right after the first. Splits come in the order of the kinds
    of the wildcard pairs (``combinations_with_replacement`` over sorted kinds).

    >>> from engine.tiles import counts_of
    >>> [" ".join(g.text() for g in r) for r in seven_pairs_readings(
    ...     counts_of([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]), 2, wild_kinds=[])]  # doctest: +ELLIPSIS
    ['11m 1m*1m* 22m ...', '1m1m* 1m1m* 22m ...', ...]
    """
    counts = list(counts)
    if sum(counts) + wilds != 14 or counts.count(1) + counts.count(3) > wilds:
        return []
    base: list[Group] = []
    used: dict[int, int] = {}
    need = 0
    for k, n in enumerate(counts):
        if n == 0:
            continue
        if n > 4:
            return []
        base += [Group(PAIR, (k, k))] * (n // 2)
        if n % 2:
            base.append(Group(PAIR, (k, k), (k,)))
            need += 1
        used[k] = (n + 1) // 2
    rest = wilds - need
    if rest < 0 or rest % 2:
        return []
    wk = ALL_KINDS if wild_kinds is None else tuple(sorted(set(wild_kinds) | set(used)))
    out: dict[tuple[Group, ...], None] = {}
    for combo in combinations_with_replacement(wk, rest // 2):
        tally = dict(used)
        ok = True
        for k in combo:
            tally[k] = tally.get(k, 0) + 1
            if tally[k] > 2:
                ok = False
                break
        if not ok:
            continue
        groups = base + [Group(PAIR, (k, k), (k, k)) for k in combo]
        for ways in _half_pair_ways([k for k in combo if counts[k] == 2]):
            split = list(groups)
            for k in ways:
                split.remove(Group(PAIR, (k, k)))
                split.remove(Group(PAIR, (k, k), (k, k)))
                split += [Group(PAIR, (k, k), (k,))] * 2
            out[tuple(sorted(split, key=_gkey))] = None
    return list(out)


def _half_pair_ways(kinds: list[int]) -> list[tuple[int, ...]]:
    """The subsets of ``kinds`` (real pairs joined by a pair of wildcards) to regroup as two
    half-wild pairs, the empty one first: ``[(), (a,), (b,), (a, b)]``."""
    ways: list[tuple[int, ...]] = [()]
    for k in kinds:
        ways += [(*w, k) for w in ways]
    return ways


@lru_cache(maxsize=1 << 15)
def _pair_mask(flags_of: GroupFlags, kind: int, wild: int) -> int:
    """The mask of a pair of ``kind`` holding ``wild`` wildcards (0, 1 or 2)."""
    return flags_of(Group(PAIR, (kind, kind), (kind,) * wild))


def seven_pairs_flags(
    counts: Sequence[int],
    wilds: int,
    flags_of: GroupFlags,
    *,
    wild_kinds: Iterable[int] | None = None,
) -> list[tuple[int, int]]:
    """``(mask, luxury)`` — the OR of ``flags_of`` over the pairs, and
    :meth:`Reading.luxury` — of each reading :func:`seven_pairs_readings` gives, each
    distinct value once, in the order they first appear there (as :func:`standard_flags`),
    without building the readings.

    >>> from engine.tiles import counts_of
    >>> class Wild:
    ...     def __call__(self, g): return len(g.wild)
    ...     def for_suit(self, lo): return self
    >>> seven_pairs_flags(counts_of([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]), 2, Wild(), wild_kinds=[27])
    [(2, 1), (1, 1), (2, 0)]
    """
    counts = list(counts)
    if sum(counts) + wilds != 14 or counts.count(1) + counts.count(3) > wilds:
        return []
    if any(n > 4 for n in counts):
        return []
    kind_mask: dict[int, int] = {}  # the real pairs and half-wild pairs of each kind
    used: dict[int, int] = {}  # pairs of each kind among the real tiles
    twos: set[int] = set()  # kinds held as one real pair (wildcards may join them)
    local = [flags_of.for_suit(lo) for lo, _ in _SUIT_SPANS]
    for k, n in enumerate(counts):
        if n:
            mask = 0
            if n == 2:
                twos.add(k)
            if n >= 2:
                mask |= _pair_mask(local[k // 9], k, 0)
            if n % 2:
                mask |= _pair_mask(local[k // 9], k, 1)
            kind_mask[k] = mask
            used[k] = (n + 1) // 2
    base = 0
    for mask in kind_mask.values():
        base |= mask
    rest = wilds - sum(n % 2 for n in counts)
    if rest < 0 or rest % 2:
        return []
    wk = ALL_KINDS if wild_kinds is None else tuple(sorted(set(wild_kinds) | set(used)))
    wild_masks = {k: _pair_mask(flags_of, k, 2) for k in wk} if rest else {}
    luxury = sum(1 for n in used.values() if n == 2)
    found: dict[tuple[int, int], None] = {}
    for combo in combinations_with_replacement(wk, rest // 2):
        tally: dict[int, int] = {}  # pairs of the kinds the wildcard pairs stand for
        for k in combo:
            tally[k] = tally.get(k, used.get(k, 0)) + 1
        if not all(n <= 2 for n in tally.values()):
            continue
        lux = luxury + sum(1 for n in tally.values() if n == 2)
        if twos.isdisjoint(tally):
            mask = base
            for k in tally:
                mask |= wild_masks[k]
            found[mask, lux] = None
            continue
        for ways in _half_pair_ways([k for k in tally if k in twos]):
            mask = base
            if ways and any(kind_mask[k] for k in ways):
                mask = 0  # an OR cannot be undone: rebuild it without the regrouped kinds
                for k, m in kind_mask.items():
                    if k not in ways:
                        mask |= m
            for k in tally:
                if k in ways:
                    mask |= _pair_mask(local[k // 9], k, 1)
                else:
                    mask |= wild_masks[k]
            found[mask, lux] = None
    return list(found)


# --- whole hands -----------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def meld_group(m: Meld) -> Group:
    """The group a table meld is: chi → sequence, pong / indicator kong → triplet, kongs → kong."""
    if m.kind is MeldKind.CHI:
        return Group(SEQ, tuple(sorted(m.tiles)), (), m)
    if m.kind in (MeldKind.PONG, MeldKind.INDICATOR_KONG):
        return Group(TRIPLET, tuple(m.tiles), (), m)
    return Group(KONG, tuple(m.tiles), (), m)


def wildcard_set(wildcards: int | Iterable[int] | None) -> frozenset[int]:
    """The wildcard kinds (宝 / 精) as a set: one kind, several, or none (``None``)."""
    if wildcards is None:
        return frozenset()
    if isinstance(wildcards, int):
        return frozenset((wildcards,))
    return frozenset(wildcards)


def split_wilds(hand: Hand, wildcards: int | Iterable[int] | None) -> tuple[list[int], int]:
    """Concealed counts without the wildcard tiles (宝), and how many the concealed hand holds
    (of every wildcard kind together)."""
    counts = hand.counts()
    if wildcards is None:
        return counts, 0
    if isinstance(wildcards, int):  # one kind (上饶 宝): the common case, kept fast
        w = counts[wildcards]
        counts[wildcards] = 0
        return counts, w
    w = 0
    for k in wildcards:
        w += counts[k]
        counts[k] = 0
    return counts, w


def readings(
    hand: Hand,
    bao: int | Iterable[int] | None = None,
    *,
    wild_kinds: Iterable[int] | None = None,
    wild_runs: bool = True,
    pairs: bool = True,
) -> list[Reading]:
    """Every reading of a finished hand: standard (melds as they are + the concealed split)
    and, for a hand with no melds, seven pairs (unless ``pairs`` is false). The concealed
    tiles of the kind(s) ``bao`` (one kind or a set) are wildcards (each may also stand as its
    own kind); groups of
    wildcards alone take kinds from ``wild_kinds``, as sequences too when ``wild_runs``."""
    counts, w = split_wilds(hand, bao)
    wk = None if wild_kinds is None else tuple(wild_kinds)
    fixed = tuple(meld_group(m) for m in hand.melds)
    out: list[Reading] = []
    for split in standard_readings(counts, w, wild_kinds=wk, wild_runs=wild_runs):
        sets = list(fixed)
        pair = None
        for g in split:
            if g.shape == PAIR:
                pair = g
            else:
                sets.append(g)
        out.append(Reading("standard", tuple(sets), pair))
    if pairs and not hand.melds:
        for split in seven_pairs_readings(counts, w, wild_kinds=wk):
            out.append(Reading("pairs", pairs=split))
    return out


def rebuild(reading: Reading, wild_kind: int | None = None) -> tuple[list[int], tuple[Meld, ...]]:
    """The concealed tiles (sorted; each wildcard given as ``wild_kind`` when set) and the
    melds a reading uses — for checking that a reading rebuilds its hand exactly."""
    tiles = reading.concealed_real()
    if wild_kind is not None:
        tiles = sorted(tiles + [wild_kind] * len(reading.wild_as()))
    melds = tuple(g.meld for g in reading.groups if g.meld is not None)
    return tiles, melds
