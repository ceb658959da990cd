"""AI players (also 托管 auto-play): ``choose_action(state, seat) -> Action``.

Sensible, fast mahjong: discard toward a winning hand by shanten (向听数), break ties by the
number of live winning tiles when ready and by how connected a tile is otherwise; keep the 宝;
claim pong / kong / chi only when it brings the hand closer to ready; declare every legal win
(except a 宝吊头 self-draw early in the wall under the ``xingchen`` preset, where 偷机 keeps
drawing for 宝吊宝 / 宝吊无宝); 报听 whenever it is allowed.
"""

from __future__ import annotations

from engine.agari import winning_tiles
from engine.game.actions import (
    Action,
    AddedKong,
    Chi,
    ConcealedKong,
    DeclareReady,
    Discard,
    IndicatorKong,
    KeepDrawing,
    Kong,
    NextHand,
    Pass,
    Pong,
    Win,
)
from engine.game.legal import legal_actions
from engine.game.rules import live_count, rules_of, seat_counts
from engine.game.state import PHASE_TURN, GameState
from engine.shanten import shanten

#: 偷机 only while more than this many tiles are left in the live wall.
TOUJI_MIN_WALL = 50


def choose_action(state: GameState, seat: int) -> Action:
    """The AI's choice for ``seat`` now. Raises ``ValueError`` if the seat has nothing to do."""
    legal = legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has nothing to do now")
    if len(legal) == 1:
        return legal[0]
    if any(isinstance(a, NextHand) for a in legal):
        return NextHand()
    h = state.hand
    if h.phase != PHASE_TURN:
        return _claim(state, seat, legal)
    return _turn(state, seat, legal)


def _split(counts: list[int], bao: int | None) -> tuple[list[int], int]:
    if bao is None:
        return counts, 0
    c = list(counts)
    w = c[bao]
    c[bao] = 0
    return c, w


def _turn(g: GameState, seat: int, legal: list[Action]) -> Action:
    h = g.hand
    s = h.seats[seat]
    if any(isinstance(a, Win) for a in legal):
        keep = [a for a in legal if isinstance(a, KeepDrawing)]
        if not (
            keep
            and g.variant == "shangrao"
            and getattr(g.options, "scoring", "") == "xingchen"
            and not s.touji
            and live_count(h, 0) > TOUJI_MIN_WALL
        ):
            return Win()
        kinds = [a.tile for a in keep]
        return KeepDrawing(_best_discard(g, seat, kinds))
    counts = seat_counts(s)
    bao = h.bao
    for a in legal:
        if isinstance(a, AddedKong | IndicatorKong):
            return a
        if isinstance(a, ConcealedKong):
            plain, w = _split(counts, bao)
            after = list(plain)
            after[a.kind] = 0
            now = (
                min(_sh_after_discard(plain, w, k) for k in range(34) if plain[k])
                if sum(plain)
                else 9
            )
            if shanten(after, w) <= now:
                return a
    ready = [a.tile for a in legal if isinstance(a, DeclareReady)]
    if ready:
        return DeclareReady(_best_discard(g, seat, ready))
    kinds = [a.tile for a in legal if isinstance(a, Discard)]
    if not kinds:
        return legal[0]
    return Discard(_best_discard(g, seat, kinds))


def _sh_after_discard(plain: list[int], w: int, k: int) -> int:
    plain[k] -= 1
    try:
        return shanten(plain, w)
    finally:
        plain[k] += 1


def _best_discard(g: GameState, seat: int, kinds: list[int]) -> int:
    """The discard (among ``kinds``) leaving the lowest shanten; ties by waits or shape."""
    h = g.hand
    counts = seat_counts(h.seats[seat])
    bao = h.bao
    plain, w = _split(counts, bao)
    cands = [k for k in kinds if k != bao] or list(kinds)  # keep the 宝
    if len(cands) == 1:
        return cands[0]
    whole = shanten(plain, w)
    if whole > 0:
        # Some discard keeps the 14-tile shanten; the least connected such tile goes first.
        for k in sorted(cands, key=lambda k: (_keep_value(plain, k), -k)):
            if _sh_after_discard(plain, w, k) == whole:
                return k
    scored = [(_sh_after_discard(plain, w, k), k) for k in cands]
    best = min(sc for sc, _ in scored)
    tied = [k for sc, k in scored if sc == best]
    if len(tied) == 1:
        return tied[0]
    if best == 0:
        unseen = _unseen(g, seat)

        def live_waits(k: int) -> int:
            plain[k] -= 1
            n = sum(unseen[x] for x in winning_tiles(plain, w))
            plain[k] += 1
            return n

        return max(tied, key=lambda k: (live_waits(k), -_keep_value(plain, k), k))
    return min(tied, key=lambda k: (_keep_value(plain, k), -k))


def _keep_value(c: list[int], k: int) -> int:
    """How well ``k`` connects to the rest of the hand (lower = discard first)."""
    n = c[k]
    if k >= 27:
        return 3 * (n - 1)
    r = k % 9
    v = 3 * (n - 1)
    for d, weight in ((1, 2), (2, 1)):
        if r - d >= 0:
            v += weight * min(c[k - d], 1)
        if r + d <= 8:
            v += weight * min(c[k + d], 1)
    if r in (0, 8):
        v -= 1
    return v


def _unseen(g: GameState, seat: int) -> list[int]:
    """Copies of each kind this seat cannot see (in the wall or the others' hands)."""
    h = g.hand
    seen = [0] * 34
    for t in h.seats[seat].hand:
        seen[t >> 2] += 1
    for s in h.seats:
        for t in s.river:
            seen[t >> 2] += 1
        for m in s.melds:
            for t in m.ids:
                seen[t >> 2] += 1
    if h.indicator is not None:
        seen[h.indicator >> 2] += 1
    return [max(0, 4 - x) for x in seen]


def _claim(g: GameState, seat: int, legal: list[Action]) -> Action:
    if any(isinstance(a, Win) for a in legal):
        return Win()
    h = g.hand
    c = h.claim
    assert c is not None
    k = c.tile >> 2
    counts = seat_counts(h.seats[seat])
    plain, w = _split(counts, h.bao)
    now = shanten(plain, w)
    best: tuple[int, Action] = (now, Pass())
    rules = rules_of(g.variant, g.options)
    for a in legal:
        if isinstance(a, Kong):
            after = list(plain)
            after[k] = 0
            sh = shanten(after, w)
            if sh <= now:  # a kong on a discard never hurts a hand that keeps its shanten
                return a
        elif isinstance(a, Pong | Chi):
            after = list(plain)
            if isinstance(a, Pong):
                after[k] -= 2
            else:
                for x in a.tiles:
                    if x != k:
                        after[x] -= 1
            sh = (
                min(_sh_after_discard(after, w, x) for x in range(34) if after[x])
                if sum(after)
                else 9
            )
            if sh < best[0]:
                best = (sh, a)
    _ = rules
    return best[1]
