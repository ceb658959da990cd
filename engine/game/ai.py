"""AI players (also 托管 auto-play): ``choose_action(state, seat) -> Action``.

Sensible, fast mahjong: discard toward a winning hand by shanten (向听数), break ties by the
number of live winning tiles when ready and by how connected a tile is otherwise; keep the 宝;
claim pong / kong / chi only when it brings the hand closer to ready; declare every legal win
(except a 宝吊头 self-draw early in the wall under the ``xingchen`` preset, where 偷机 keeps
drawing for 宝吊宝 / 宝吊无宝); 报听 whenever it is allowed.

Defence (守牌 / 防守), where a discard can be won (九江, and 新余 under ``discard_win``; without
it no discard pays for a win, so the AI only attacks; in 上饶 a 宝吊头 hand wins on any tile,
so it attacks there too, see :mod:`engine.game.danger`). It decides from public
information only (:mod:`engine.game.danger`: 现物, 筋, 壁, honours in sight, 报听, melds, how
late it is), never from other seats' concealed tiles or the wall order:

1. No clear threat (no other seat's threat reaches :data:`~engine.game.danger.THREAT_MIN`:
   报听, 3+ melds, 2 melds mid-hand, or late in the hand) → attack as above.
2. Far from ready (向听 ≥ :data:`FOLD_SHANTEN` = 2 whatever is discarded) against a strong
   threat (≥ :data:`FOLD_THREAT`: 报听, 3+ melds, or very late) → 弃和 (fold): discard the
   safest tile (lowest risk; ties by the better shape).
3. Otherwise attack, with two safety checks: if the attacking discard is very dangerous
   (risk above :data:`~engine.game.danger.VERY_DANGEROUS`, e.g. an unread middle tile against
   报听) take the best-shaped tile below that risk (避铳); if every tile is very dangerous a
   ready hand still pushes and a 一向听 hand folds. Not ready, a tile of the same 向听 that is
   clearly safer (by :data:`SAFER_BY`) replaces the attacking one (安全牌优先; ties by shape).
4. Claims: under a clear threat a pong / chi is taken only if it leaves the hand 听牌 or
   一向听 (a fold keeps its safe tiles in hand). Wins are always declared.

Measured (``python -m engine.simulate --defend 0101`` and ``1010``, mixed tables): defending
seats deal in (点炮) in about 16 % of hands against 18.5–19 % for attacking seats, in 九江 and in
新余 with ``discard_win``, for the same net score within noise. In 九江 a self-draw costs every
loser about what a deal-in costs the discarder, so folding harder (earlier, or on more tiles)
only gave up wins and points.

The 宝 is never thrown (it is a wildcard for us; 飞宝 only when nothing else is left).
``choose_action(..., defend=False)`` plays pure offence (the simulator compares the two).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import variants
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
from engine.game.claims import wins_plain
from engine.game.danger import THREAT_MIN, VERY_DANGEROUS, Sight, risks, sight_of, threats
from engine.game.legal import legal_actions
from engine.game.rules import is_wildcard_wait, live_count, rules_of, seat_counts
from engine.game.state import PHASE_TURN, GameState
from engine.honour_sequences import Runs
from engine.shanten import shanten

#: 偷机 only while more than this many tiles are left in the live wall.
TOUJI_MIN_WALL = 50
#: 弃和 (fold) when the hand is at least this many exchanges from ready (向听) ...
FOLD_SHANTEN = 2
#: ... and some seat's threat reaches this (报听, 3+ melds, or late with melds).
FOLD_THREAT = 0.8
#: Swap the attacking discard for one of the same 向听 when that is safer by this much risk.
SAFER_BY = 0.15


def choose_action(
    state: GameState,
    seat: int,
    *,
    defend: bool = True,
    legal: Sequence[Action] | None = None,
) -> Action:
    """The AI's choice for ``seat`` now. Raises ``ValueError`` if the seat has nothing to do.

    ``defend=False`` turns the defence (守牌) off: pure offence. ``legal``: the seat's legal
    actions when the caller holds them already (a :class:`~engine.game.step.Step`'s), so
    they are not worked out again.
    """
    legal = list(legal_actions(state, seat) if legal is None else legal)
    if not legal:
        raise ValueError(f"seat {seat} has nothing to do now")
    if len(legal) == 1:
        return legal[0]
    if any(isinstance(a, NextHand) for a in legal):
        return NextHand()
    h = state.hand
    if h.phase != PHASE_TURN:
        return _claim(state, seat, legal, defend)
    return _turn(state, seat, legal, defend)


def _threat(g: GameState, seat: int, defend: bool) -> tuple[Sight, list[float]] | None:
    """What ``seat`` sees and each seat's threat, when defending against a clear threat
    where a discard can be won; else ``None`` (attack)."""
    if not defend or not rules_of(g.variant, g.options).discard_win:
        return None
    sight = sight_of(g, seat)
    t = threats(sight)
    return (sight, t) if max(t) >= THREAT_MIN else None


def _split(counts: list[int], wildcards: frozenset[int]) -> tuple[list[int], int]:
    """Counts without the wildcards (宝) and how many there were."""
    if not wildcards:
        return counts, 0
    c = list(counts)
    w = 0
    for k in wildcards:
        w += c[k]
        c[k] = 0
    return c, w


def _turn(g: GameState, seat: int, legal: list[Action], defend: bool) -> Action:
    h = g.hand
    s = h.seats[seat]
    if any(isinstance(a, Win) for a in legal):
        keep = [a for a in legal if isinstance(a, KeepDrawing)]
        if not (
            keep
            and variants.get(g.variant).ai.keeps_drawing(g.options)
            and not s.touji
            and live_count(h, 0) > TOUJI_MIN_WALL
        ):
            return Win()
        kinds = [a.tile for a in keep]
        return KeepDrawing(_best_discard(g, seat, kinds))
    counts = seat_counts(s)
    wild = h.wildcards
    for a in legal:
        if isinstance(a, AddedKong | IndicatorKong):
            return a
        if isinstance(a, ConcealedKong):
            if a.kind in wild:
                return a  # 杠精 (南昌): 10 from each other player, its 精 still count
            plain, w = _split(counts, wild)
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
    if len(kinds) > 1:
        seen = _threat(g, seat, defend)
        if seen is not None:
            return Discard(_defend(g, seat, kinds, *seen))
    return Discard(_best_discard(g, seat, kinds))


def _defend(g: GameState, seat: int, kinds: list[int], sight: Sight, threat: list[float]) -> int:
    """The discard under a clear threat: fold when far, else the safer of equal shapes, and
    no very dangerous tile when close (see the module docstring)."""
    h = g.hand
    runs = rules_of(g.variant, g.options).honour_sequences
    plain, w = _split(seat_counts(h.seats[seat]), h.wildcards)
    cands = [k for k in kinds if k not in h.wildcards] or list(kinds)  # keep the 宝
    sh = {k: _sh_after_discard(plain, w, k) for k in cands}
    risk = risks(sight, cands, threat)
    best = min(sh.values())
    if best >= FOLD_SHANTEN and max(threat) >= FOLD_THREAT:  # 弃和: the safest tile
        return min(cands, key=lambda k: (risk[k], sh[k], _keep_value(plain, k, runs), -k))
    pick = _best_discard(g, seat, kinds)
    if risk[pick] > VERY_DANGEROUS:  # 避铳: a safer tile, keeping the shape if possible
        safer = [k for k in cands if risk[k] <= VERY_DANGEROUS]
        if safer:
            return min(safer, key=lambda k: (sh[k], risk[k], _keep_value(plain, k, runs), -k))
        if best > 0:  # 一向听 and every tile very dangerous: fold; ready: push
            return min(cands, key=lambda k: (risk[k], sh[k], _keep_value(plain, k, runs), -k))
        return pick
    if best > 0:  # 安全牌优先: an equally good tile that is clearly safer
        same = min(
            (k for k in cands if sh[k] == best),
            key=lambda k: (risk[k], _keep_value(plain, k, runs), -k),
        )
        if risk[same] + SAFER_BY <= risk[pick]:
            return same
    return pick


def _sh_after_discard(plain: list[int], w: int, k: int) -> int:
    plain[k] -= 1
    try:
        return shanten(plain, w)
    finally:
        plain[k] += 1


def _best_discard(g: GameState, seat: int, kinds: list[int]) -> int:
    """The discard (among ``kinds``) leaving the lowest shanten; ties by waits or shape."""
    h = g.hand
    runs = rules_of(g.variant, g.options).honour_sequences
    counts = seat_counts(h.seats[seat])
    wild = h.wildcards
    plain, w = _split(counts, wild)
    cands = [k for k in kinds if k not in wild]  # keep the 宝 / 精
    if not cands:
        return _least_feeding(g, seat, kinds)
    if len(cands) == 1:
        return cands[0]
    whole = shanten(plain, w)
    if whole > 0:
        # Some discard keeps the 14-tile shanten; the least connected such tile goes first.
        for k in sorted(cands, key=lambda k: (_keep_value(plain, k, runs), -k)):
            if _sh_after_discard(plain, w, k) == whole:
                return k
    scored = [(_sh_after_discard(plain, w, k), k) for k in cands]
    best = min(sc for sc, _ in scored)
    tied = [k for sc, k in scored if sc == best]
    if len(tied) == 1:
        return tied[0]
    if len(tied) > 1 and wild and rules_of(g.variant, g.options).wild_melds:
        # 德国 (南昌): of equal shapes keep the one nearer a hand needing no 精 as a wildcard
        # (×2 and +5 from each payer), reading every held 精 as its own face
        face = {k: _sh_after_discard(counts, 0, k) for k in tied}
        least = min(face.values())
        tied = [k for k in tied if face[k] == least]
        if len(tied) == 1:
            return tied[0]
    if best == 0:
        unseen = _unseen(g, seat)

        def live_waits(k: int) -> int:
            plain[k] -= 1
            n = sum(unseen[x] for x in winning_tiles(plain, w))
            plain[k] += 1
            return n

        return max(tied, key=lambda k: (live_waits(k), -_keep_value(plain, k, runs), k))
    return min(tied, key=lambda k: (_keep_value(plain, k, runs), -k))


def _keep_value(c: list[int], k: int, runs: Runs = ()) -> int:
    """How well ``k`` connects to the rest of the hand (lower = discard first); an honour
    connects to the partners it holds of its honour sequences ``runs`` (南昌 中发白, winds)."""
    n = c[k]
    if k >= 27:
        partners = {x for run in runs if k in run for x in run if x != k and c[x]}
        return 3 * (n - 1) + len(partners)
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


def _least_feeding(g: GameState, seat: int, kinds: list[int]) -> int:
    """The discard when only wildcards (精) are left to throw: the kind least likely to feed
    another seat's kong (杠精) or 冲关 — never the fourth of another seat's exposed pong if
    avoidable, then fewest copies unseen (they could be ponged), then the lesser (副精) before
    the indicator's own kind (正精), which counts double in the 精 settlement."""
    unseen = _unseen(g, seat)
    h = g.hand
    primary = h.indicator >> 2 if h.indicator is not None else -1
    ponged = {
        m.ids[0] >> 2
        for i, other in enumerate(h.seats)
        if i != seat
        for m in other.melds
        if m.kind == "pong"
    }
    return min(kinds, key=lambda k: (k in ponged, unseen[k], k == primary, k))


#: 精钓 (南昌 ``jingdiao_discard = no_bonus``): pass a discard win that drops the ×2 while the
#: live wall still holds this many tiles, to win it by self-draw.
JINGDIAO_MIN_WALL = 12


def _waits_for_self_draw(g: GameState, seat: int) -> bool:
    """A 精钓 hand offered a discard win that is no 德国: worth passing, to self-draw it
    (each of the three pays ×2, and 精钓 counts) while the wall is long enough."""
    h = g.hand
    rules = rules_of(g.variant, g.options)
    c = h.claim
    if not rules.wild_melds or c is None or c.kind != "discard":
        return False
    if live_count(h, rules.reserve) < JINGDIAO_MIN_WALL:
        return False
    counts = seat_counts(h.seats[seat])
    if not is_wildcard_wait(counts, h.wildcards, rules.honour_sequences):
        return False
    return not wins_plain(g, seat, c.tile, rules)


def _claim(g: GameState, seat: int, legal: list[Action], defend: bool) -> Action:
    if any(isinstance(a, Win) for a in legal):
        if Pass() in legal and _waits_for_self_draw(g, seat):
            return Pass()
        return Win()
    h = g.hand
    c = h.claim
    assert c is not None
    k = c.tile >> 2
    counts = seat_counts(h.seats[seat])
    wild = h.wildcards
    plain, w = _split(counts, wild)
    now = shanten(plain, w)
    best: tuple[int, Action] = (now, Pass())
    folding = any(isinstance(a, Pong | Chi) for a in legal) and _threat(g, seat, defend) is not None
    for a in legal:
        if isinstance(a, Kong):
            if k in wild:
                return a  # 杠精 (南昌): 10 from each other player
            after = list(plain)
            after[k] = 0
            sh = shanten(after, w)
            if sh <= now:  # a kong on a discard never hurts a hand that keeps its shanten
                return a
        elif isinstance(a, Pong | Chi):
            used = [k, k] if isinstance(a, Pong) else [x for x in a.tiles if x != k]
            if not wild.isdisjoint(used):
                continue  # a held 精 would freeze into the meld as its face value: keep it wild
            after = list(plain)
            for x in used:
                after[x] -= 1
            sh = (
                min(_sh_after_discard(after, w, x) for x in range(34) if after[x])
                if sum(after)
                else 9
            )
            if sh < best[0] and (not folding or sh <= 1):
                best = (sh, a)
    return best[1]
