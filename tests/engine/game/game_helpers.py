"""Build game states directly (chosen hands and wall) and check invariants."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager

from engine import variants
from engine.game.machine import _open_turn
from engine.game.rules import rules_of
from engine.game.state import GameState, HandState, MeldRec, SeatState
from engine.game.wall import tile_ids
from engine.notation import parse_tiles
from engine.options import make_options
from engine.payments import Payment
from engine.scoring.types import ScoreResult, WinContext
from engine.tiles import successor
from engine.variants.base import HandEnd, HandSettlement, PayRequest


def rig(
    variant: str,
    hands: list[str],
    *,
    draws: str = "",
    tails: str = "",
    dealer: int = 0,
    indicator: str | None = None,
    options: dict | None = None,
    seed: str = "rig",
    melds: dict[int, list[str]] | None = None,
    left: int | None = None,
) -> GameState:
    """A hand whose seats hold ``hands`` (the dealer's has 14 tiles), whose next live draws
    are ``draws`` and next tail replacements ``tails``; the rest of the wall follows, cut to
    ``left`` tiles (the others lie in the rivers) when given."""
    opts = make_options(variant, options or {})
    rules = rules_of(variant, opts)
    free = tile_ids(rules.kinds)
    free.sort(reverse=True)

    def take(kind: int) -> int:
        for t in free:
            if t >> 2 == kind:
                free.remove(t)
                return t
        raise AssertionError(f"no copy of kind {kind} left")

    seats = [SeatState() for _ in range(4)]
    dealt: list[int] = []
    ind = None
    if indicator is not None:
        ind = take(parse_tiles(indicator)[0])
    for i, text in enumerate(hands):
        ids = [take(k) for k in parse_tiles(text)]
        seats[i].hand = sorted(ids)
        dealt.extend(ids)
    for seat, texts in (melds or {}).items():
        for text in texts:
            ids = tuple(sorted(take(k) for k in parse_tiles(text)))
            kind = "pong" if len(ids) == 3 and len({t >> 2 for t in ids}) == 1 else "chi"
            if len(ids) == 4:
                kind = "kong"
            seats[seat].melds.append(MeldRec(kind, ids, (seat + 3) % 4))
    head = [take(k) for k in parse_tiles(draws)]
    tail = [take(k) for k in parse_tiles(tails)]
    middle = sorted(free)
    if left is not None:  # the rest of the wall was played already: it lies in the rivers
        gone, middle = middle[: len(middle) - left], middle[len(middle) - left :]
        for i, t in enumerate(gone):
            seats[i % 4].river.append(t)
    wall = dealt + head + middle
    in_wall = ind is not None and rules.indicator_in_wall
    if in_wall:  # 南昌: face up in its place, just before the tail replacements
        wall.append(ind)
    wall += list(reversed(tail))
    if ind is not None and not in_wall:
        wall.append(ind)
    h = HandState(
        0,
        seed,
        tuple(wall),
        len(dealt),
        len(wall) - 1 - (ind is not None and not in_wall),
        dealer,
        seats,
        dealer,
    )
    if ind is not None:
        h.indicator = ind
        if in_wall:
            h.indicator_pos = len(wall) - 1 - len(tail)
        pick = variants.get(variant).wildcards_of
        h.wildcards = pick(ind >> 2) if pick is not None else frozenset({successor(ind >> 2)})
        for s in seats:
            s.bao_drawn = sum(1 for t in s.hand if t >> 2 in h.wildcards)
    seats[dealer].drawn = seats[dealer].hand[-1]
    g = GameState(variant, opts, seed, h, dealer)
    _open_turn(g, [])
    return g


def all_places(g: GameState) -> list[int]:
    """Every physical tile the state holds, wherever it is."""
    h = g.hand
    out = list(h.wall[h.head : h.tail + 1])
    for s in h.seats:
        out += s.hand + s.river + s.flowers
        for m in s.melds:
            out += list(m.ids)
    if h.indicator is not None:
        # 南昌: the face-up indicator may still lie in the wall, or be in a hand (``take``)
        in_wall = h.indicator_pos is not None and h.head <= h.indicator_pos <= h.tail
        taken = h.indicator_pos is None and rules_of(g.variant, g.options).indicator_in_wall
        if not in_wall and not taken:
            out.append(h.indicator)
    if h.claim is not None and h.claim.kind == "rob":
        out.append(h.claim.tile)
    return out


def check_conservation(g: GameState) -> None:
    """Every physical tile of the variant is in exactly one place."""
    places = all_places(g)
    expect = sorted(tile_ids(rules_of(g.variant, g.options).kinds))
    assert sorted(places) == expect, "tiles lost or duplicated"


def _score_any_complete(ctx: WinContext) -> ScoreResult:
    """A stand-in scorer: the engine's shape test passed, so any hand of 14 tiles wins 1."""
    full = len(ctx.hand.concealed) + 3 * len(ctx.hand.melds) == 14
    return ScoreResult(full, 1 if full else 0, ())


def _pay_one(r: PayRequest) -> list[Payment]:
    payers = [r.payer] if r.payer is not None else [s for s in range(4) if s != r.winner]
    return [Payment(p, r.winner, 1, "win") for p in payers]


@contextmanager
def stand_in_nanchang() -> Iterator[list[HandEnd]]:
    """南昌 with a stand-in scorer (any complete hand wins 1 from the payer or each other
    seat) and a hand-end hook that records what it was given and pays nothing, so that a
    test checks the table flow alone; yields the recorded hand ends."""
    real = variants.get("nanchang")
    seen: list[HandEnd] = []

    def settle_hand(end: HandEnd) -> HandSettlement:
        seen.append(end)
        return HandSettlement((), tuple({"seat": i} for i in range(4)))

    fake = dataclasses.replace(
        real, score=_score_any_complete, pay_win=_pay_one, settle_hand=settle_hand, _rules={}
    )
    variants.register(fake, replace=True)
    rules_of.cache_clear()
    try:
        yield seen
    finally:
        variants.register(real, replace=True)
        rules_of.cache_clear()
