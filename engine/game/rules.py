"""Hand checks the table flow needs: wins (via the scorer), waits, 宝吊头, the live wall.

A win is legal iff :func:`engine.scoring.score` says so; a cheap shape test
(:func:`engine.agari.is_complete` and the variant's shape-free hands) comes first so that most
non-winning hands never reach the scorer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from engine import variants
from engine.agari import is_complete, is_sets, winning_tiles
from engine.decompose import wildcard_set
from engine.game.state import GameState, HandState, MeldRec, SeatState
from engine.game.variants import TableRules, table_rules
from engine.honour_sequences import Runs, honour_table
from engine.notation import Hand, Meld, MeldKind
from engine.options import RuleOptions
from engine.scoring import ScoreResult, WinContext, WinKind, score


@lru_cache(maxsize=64)
def rules_of(variant: str, options: RuleOptions) -> TableRules:
    """Cached :func:`table_rules`."""
    return table_rules(variant, options)


def live_count(h: HandState, reserve: int) -> int:
    """Tiles that may still be drawn (live wall; replacements come off the same stock).

    A face-up indicator left in the wall (南昌) is one of the ``reserve`` never drawn; once
    the replacements have passed it, it still counts among them (the kept block moves
    forward)."""
    n = h.tail - h.head + 1 - reserve
    if h.indicator_pos is not None and h.indicator_pos > h.tail:
        n += 1
    return max(0, n)


def seat_counts(s: SeatState) -> list[int]:
    """34-count vector of a seat's concealed tiles."""
    c = [0] * 34
    for t in s.hand:
        c[t >> 2] += 1
    return c


def to_meld(m: MeldRec) -> Meld:
    """The notation :class:`Meld` (kinds) of a table meld (physical ids)."""
    return Meld(MeldKind(m.kind), tuple(sorted(t >> 2 for t in m.ids)), m.fed_by)


def split_wilds(counts: list[int], wildcards: int | Iterable[int] | None) -> tuple[list[int], int]:
    """Counts without the wildcards (宝 / 精: one kind, a set of kinds, or none) and how many
    wildcard tiles there were."""
    if wildcards is None:
        return counts, 0
    if isinstance(wildcards, int):
        wildcards = (wildcards,)
    c = counts
    w = 0
    for k in wildcards:
        if c is counts:
            c = list(counts)
        w += c[k]
        c[k] = 0
    return c, w


def _maybe_special(variant: str, counts: list[int], wilds: int, melds: list[MeldRec]) -> bool:
    """Shape-free hands the standard test misses (the variant's ``maybe_special``: 十三烂 /
    九幺, 全风向…)."""
    return variants.get(variant).maybe_special(
        counts, wilds, [t >> 2 for m in melds for t in m.ids]
    )


def win_flags(
    g: GameState, seat: int, how: WinKind, extra: frozenset[str] = frozenset()
) -> frozenset[str]:
    """The RULES §6 flags of a win by ``seat`` now (``how``: self / discard / rob_kong)."""
    h = g.hand
    s = h.seats[seat]
    f = set(extra)
    if seat == h.dealer:
        f.add("dealer")
    if how == "self" and seat == h.dealer and h.discards == 0 and not h.interrupted:
        f.add("heaven")
    if (
        how == "discard"
        and seat != h.dealer
        and h.discards == 1
        and not h.interrupted
        and h.claim is not None
        and h.claim.from_seat == h.dealer
    ):
        f.add("earth")
    if (
        how == "self"
        and seat != h.dealer
        and s.discards == 0
        and not h.interrupted
        and rules_of(g.variant, g.options).earth_self_draw
    ):
        f.add("earth")  # 九江: a non-dealer self-draws on its own first draw, no claim before
    if how == "self" and h.last_tile:
        f.add("last_tile")
    reads = variants.get(g.variant).flags
    if "no_jing_elsewhere" in reads and h.wildcards and not _wildcards_elsewhere(h, seat):
        f.add("no_jing_elsewhere")  # 南昌 德中德: no other seat holds a 精 (hand or melds)
    if s.touji:
        f.add("touji")
    if s.ready:
        f.add("ready_declared")
    return frozenset(f & reads)


def _wildcards_elsewhere(h: HandState, seat: int) -> bool:
    """Whether a seat other than ``seat`` holds a wildcard-kind tile, concealed or melded."""
    for i, other in enumerate(h.seats):
        if i == seat:
            continue
        if any(t >> 2 in h.wildcards for t in other.hand):
            return True
        if any(t >> 2 in h.wildcards for m in other.melds for t in m.ids):
            return True
    return False


def evaluate_win(
    g: GameState,
    seat: int,
    how: WinKind,
    tile: int | None = None,
    extra: frozenset[str] = frozenset(),
) -> tuple[ScoreResult, WinContext] | None:
    """Score a win by ``seat`` (``tile``: the claimed physical tile for discard / rob_kong).

    Returns ``(result, context)`` when the win is legal, else ``None``.
    """
    h = g.hand
    s = h.seats[seat]
    rules = rules_of(g.variant, g.options)
    kinds = [t >> 2 for t in s.hand]
    if tile is not None:
        kinds.append(tile >> 2)
        winning = tile >> 2
    else:
        winning = (s.drawn if s.drawn is not None else s.hand[-1]) >> 2
    flags = win_flags(g, seat, how, extra)
    if not (flags & {"jiebao", "four_bao"}):
        counts = [0] * 34
        for k in kinds:
            counts[k] += 1
        if tile is not None and rules.wild_melds:
            counts[tile >> 2] -= 1  # a claimed wildcard (南昌 精) is only its face value
        plain, wilds = split_wilds(counts, h.wildcards)
        if tile is not None and rules.wild_melds:
            plain = list(plain)
            plain[tile >> 2] += 1
        if not is_complete(plain, wilds, honours_of(rules.honour_sequences)) and not _maybe_special(
            g.variant, plain, wilds, s.melds
        ):
            return None
    hand = Hand(tuple(sorted(kinds)), tuple(to_meld(m) for m in s.melds), winning)
    ctx = WinContext(
        g.variant,
        g.options,
        hand,
        how,
        wildcards=h.wildcards,
        flown=s.flown,
        kong_draws=s.kong_chain if how == "self" else 0,
        flowers=len(s.flowers),
        flags=flags,
    )
    r = score(ctx)
    return (r, ctx) if r.legal else None


def is_baodiao(counts13: list[int], wildcards: int | Iterable[int] | None) -> bool:
    """宝吊头: the 13 tiles, without one wildcard (宝), are complete but for the pair (any draw
    wins)."""
    plain, wilds = split_wilds(counts13, wildcards)
    if wilds == 0:
        return False
    taken = wildcard_set(wildcards)
    x = next((k for k in range(27, 34) if plain[k] == 0 and k not in taken), None)
    if x is None:
        return len(winning_tiles(plain, wilds)) == 34
    plain = list(plain)
    plain[x] = 2
    return is_complete(plain, wilds - 1)


def waits_of(
    counts13: list[int], wildcards: int | Iterable[int] | None = None, runs: Runs = ()
) -> tuple[int, ...]:
    """Sorted winning kinds of a 3n+1 concealed hand (standard shape and 七对; ``runs``: the
    honour triples that are sequences too, 南昌)."""
    plain, wilds = split_wilds(counts13, wildcards)
    return tuple(sorted(winning_tiles(plain, wilds, honours_of(runs))))


def honours_of(runs: Runs) -> bytes | None:
    """The honour table of :mod:`engine.agari` when the honour triples ``runs`` are sequences
    (南昌); ``None`` (honours in triplets only) when there are none."""
    return honour_table(runs) if runs else None


def is_wildcard_wait(
    counts13: Sequence[int], wildcards: Iterable[int] | None, runs: Runs = ()
) -> bool:
    """精钓: without one wildcard, the concealed 3n+1 tiles are complete but for one single
    tile, so any tile wins with that wildcard as its pair: the rest makes sets only
    (standard shape, 大七对), or six pairs (小七对)."""
    plain, wilds = split_wilds(list(counts13), wildcards)
    if wilds == 0:
        return False
    if is_sets(plain, wilds - 1, honours_of(runs)):
        return True
    return sum(plain) + wilds == 13 and sum(c & 1 for c in plain) <= wilds - 1
