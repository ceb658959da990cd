"""A slow 南昌 scorer written from RULES §8 alone, to check the real one against.

Nothing here is shared with ``engine/variants/nanchang``: every free 精 (a concealed 精 that
was not taken from another seat) is tried as itself and as each of the 34 kinds, each such
reading is decomposed tile by tile (suit sequences, the honour sequences of §8.1, triplets,
one pair; seven pairs; 十三烂), and the best-paying reading is kept.

- §8.3 shapes: 平胡; 小七对 (14 concealed, 7 pairs, four equal = two pairs); 大七对 (4
  triplets/kongs + pair, no chi); 十三烂 (14 concealed, all different, suit tiles ≥ 3 apart);
  七星十三烂 (all 7 honours real: a 精 honour read as itself counts, a 精 read as another
  honour does not).
- 德国: the reading with every 精 as itself; 德中德 with flag ``no_jing_elsewhere``.
- 精钓: without the winning tile, one free 精 set aside, the rest (other 精 tried as anything)
  is 4 − melds sets, or six pairs with no melds.
- §8.4 values, §8.1 discard limits, 天胡 / 地胡 flat 20 / 40, 杠开 ×2; of the readings the
  largest 2·H + bonus, then the largest H (what a non-dealer payer pays: the project's reading
  of 计大不计小 when 德国's +5 makes a smaller H pay more).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations_with_replacement, pairwise, product

from engine.notation import MeldKind
from engine.scoring.types import WinContext

DRAGON_SEQ = ((31, 32, 33),)
WIND_SEQS = ((27, 28, 29), (27, 28, 30), (27, 29, 30), (28, 29, 30))


def sequences(wind_sequences: bool) -> tuple[tuple[int, int, int], ...]:
    """Every sequence of §8.1: suit runs, 中发白, and the wind triples when allowed."""
    suit = tuple((s * 9 + r, s * 9 + r + 1, s * 9 + r + 2) for s in range(3) for r in range(7))
    return suit + DRAGON_SEQ + (WIND_SEQS if wind_sequences else ())


@cache
def decompose(
    counts: tuple[int, ...], pair: bool, seqs: tuple[tuple[int, int, int], ...]
) -> frozenset[bool]:
    """The ways ``counts`` split into sets (and one pair when ``pair``): for each way, whether
    it used a sequence (``True``) or only triplets (``False``). Empty: no way."""
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        return frozenset({False}) if not pair else frozenset()
    out: set[bool] = set()
    c = list(counts)
    if c[i] >= 3:
        c[i] -= 3
        out |= decompose(tuple(c), pair, seqs)
        c[i] += 3
    if pair and c[i] >= 2:
        c[i] -= 2
        out |= decompose(tuple(c), False, seqs)
        c[i] += 2
    for seq in seqs:
        if seq[0] == i and all(c[k] for k in seq):
            for k in seq:
                c[k] -= 1
            out |= {True for _ in decompose(tuple(c), pair, seqs)}
            for k in seq:
                c[k] += 1
    return frozenset(out)


def thirteen(counts: tuple[int, ...]) -> bool:
    """十三烂 of 14 tiles: all different, same-suit tiles 3 or more apart."""
    if sum(counts) != 14 or max(counts) > 1:
        return False
    for s in range(3):
        ranks = [r for r in range(9) if counts[s * 9 + r]]
        if any(b - a < 3 for a, b in pairwise(ranks)):
            return False
    return True


def readings(counts: list[int], free: list[int]) -> Iterator[tuple[tuple[int, ...], list[int]]]:
    """Every reading of the hand: ``counts`` without its free 精 (``free``: their kinds), each
    free 精 as any kind. Yields the read counts and the 精 read as themselves."""
    by_kind: dict[int, int] = {}
    for j in free:
        by_kind[j] = by_kind.get(j, 0) + 1
    kinds = sorted(by_kind)
    choices = [list(combinations_with_replacement(range(34), by_kind[j])) for j in kinds]
    for pick in product(*choices):
        read = list(counts)
        as_self: list[int] = []
        for j, targets in zip(kinds, pick, strict=True):
            for t in targets:
                read[t] += 1
                if t == j:
                    as_self.append(j)
        yield tuple(read), as_self


def shapes_of(
    read: tuple[int, ...],
    real_honours: set[int],
    melds: list[MeldKind],
    big_pairs: int,
    seqs: tuple[tuple[int, int, int], ...],
) -> dict[str, int]:
    """The shapes one reading makes, with their × (§8.4)."""
    out: dict[str, int] = {}
    ways = decompose(read, True, seqs)
    if ways:
        out["平胡"] = 1
        if False in ways and MeldKind.CHI not in melds:
            out["大七对"] = big_pairs
    if not melds and sum(read) == 14:
        if all(c % 2 == 0 for c in read):
            out["小七对"] = 2
        if thirteen(read):
            out["七星十三烂" if real_honours >= set(range(27, 34)) else "十三烂"] = (
                4 if real_honours >= set(range(27, 34)) else 2
            )
    return out


def is_jingdiao(ctx: WinContext, seqs: tuple[tuple[int, int, int], ...]) -> bool:
    """§8.3 精钓 from its definition."""
    jing = ctx.wildcards
    hand = ctx.hand
    rest = list(hand.concealed)
    rest.remove(hand.winning)
    free = [k for k in rest if k in jing]
    if not free:
        return False
    sets = 4 - len(hand.melds)
    for single in set(free):
        others = list(free)
        others.remove(single)
        base = [0] * 34
        for k in rest:
            if k not in jing:
                base[k] += 1
        for read, _ in readings(base, others):
            if sum(read) == 3 * sets and decompose(read, False, seqs):
                return True
            if not hand.melds and sum(read) == 12 and all(c % 2 == 0 for c in read):
                return True
    return False


def reference_score(ctx: WinContext) -> tuple[bool, int, int]:
    """(legal, H, bonus) of a 南昌 hand by brute force over every reading."""
    opts = ctx.options
    jing = ctx.wildcards
    hand = ctx.hand
    win = hand.winning
    assert win is not None
    seqs = sequences(opts.wind_sequences)
    if ctx.win == "discard" and win in jing and opts.win_on_discarded_jing == "no":
        return False, 0, 0
    counts = [0] * 34
    free: list[int] = []
    taken_left = ctx.win != "self"
    for k in hand.concealed:
        if k in jing and not (taken_left and k == win):
            free.append(k)
        else:
            if k == win and k in jing:
                taken_left = False  # the one taken copy is a plain tile
            counts[k] += 1
    melds = [m.kind for m in hand.melds]
    natural = tuple(counts[k] + free.count(k) for k in range(34))  # every 精 as itself
    nat_honours = {k for k in range(27, 34) if natural[k]}
    natural_shapes = shapes_of(natural, nat_honours, melds, opts.big_pairs, seqs)
    all_shapes: dict[str, int] = {}
    for read, as_self in readings(counts, free):
        real = {k for k in range(27, 34) if counts[k]} | {k for k in as_self if k >= 27}
        all_shapes.update(shapes_of(read, real, melds, opts.big_pairs, seqs))
    if not all_shapes:
        return False, 0, 0
    diao = is_jingdiao(ctx, seqs)
    if ctx.flags & {"heaven", "earth"}:
        return True, 40 if diao else 20, 0
    allowed = all_shapes
    if diao and ctx.win == "discard":
        diao = False
        if opts.jingdiao_discard == "forbid":
            allowed = natural_shapes
            if not allowed:
                return False, 0, 0
    mult = (2 if diao else 1) * (2 if ctx.kong_draws >= 1 and ctx.win == "self" else 1)
    deguo = 4 if "no_jing_elsewhere" in ctx.flags else 2
    best: tuple[int, int, int] | None = None
    for shape, x in allowed.items():
        is_deguo = shape in natural_shapes
        h = x * (deguo if is_deguo else 1) * mult
        bonus = 5 if is_deguo else 0
        key = (2 * h + bonus, h, bonus)
        if best is None or key > best:
            best = key
    assert best is not None
    return True, best[1], best[2]
