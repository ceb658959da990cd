"""What a seat may do now (:func:`legal_actions`) and why anything else is refused."""

from __future__ import annotations

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
    action_from_json,
)
from engine.game.rules import live_count, rules_of, seat_counts, waits_of
from engine.game.state import PHASE_CLAIM, PHASE_OVER, PHASE_ROB, GameState
from engine.tiles import tile_str


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Exactly the actions ``seat`` may take now (empty when it has nothing to do)."""
    h = state.hand
    if h.phase == PHASE_OVER:
        return [NextHand()]
    if h.phase in (PHASE_CLAIM, PHASE_ROB):
        c = h.claim
        if c is None:
            return []
        options = c.options[seat]
        if options is None or c.responses[seat] is not None:
            return []
        return [action_from_json(o) for o in options]
    if seat != h.turn:
        return []
    return _turn_actions(state, seat)


def waiting_for(state: GameState) -> list[int]:
    """The seats the game waits on now (the turn seat, the seats yet to answer a claim window,
    or every seat when the hand is over: any of them may start the next hand)."""
    h = state.hand
    if h.phase == PHASE_OVER:
        return [0, 1, 2, 3]
    if h.phase in (PHASE_CLAIM, PHASE_ROB) and h.claim is not None:
        c = h.claim
        return [s for s in range(4) if c.options[s] is not None and c.responses[s] is None]
    return [h.turn]


def _turn_actions(g: GameState, seat: int) -> list[Action]:
    h = g.hand
    rules = rules_of(g.variant, g.options)
    s = h.seats[seat]
    out: list[Action] = []
    if h.self_win:
        out.append(Win())
    counts = seat_counts(s)
    live = live_count(h, rules.reserve)
    drawn = s.drawn
    pong_kinds = {m.ids[0] >> 2 for m in s.melds if m.kind == "pong"}
    if drawn is None:  # after a claim: discard (or 报听 with the discard)
        kinds = sorted({t >> 2 for t in s.hand})
        out.extend(Discard(k) for k in kinds)
        if rules.declare_ready and s.discards == 0 and not s.ready:
            out.extend(DeclareReady(k) for k in _ready_discards(counts, kinds))
        return out
    dk = drawn >> 2
    if rules.last_tile_discard and h.last_tile:
        out.append(Discard(dk))  # 海底: the last tile is won or discarded
        return out
    if rules.kong_after_pong and dk in pong_kinds and live > 0 and not s.ready:
        out.append(AddedKong(dk))  # rule 1: the drawn 4th tile of a pong is konged (or won)
        return out
    bao = h.bao
    if s.ready:
        for k in range(34):
            if counts[k] == 4 and live > 0:
                c = list(counts)
                c[k] = 0
                if waits_of(c) == s.waits:
                    out.append(ConcealedKong(k))
        if dk in pong_kinds and live > 0:
            out.append(AddedKong(dk))
        out.append(Discard(dk))
        return out
    if live > 0:
        out.extend(ConcealedKong(k) for k in range(34) if counts[k] == 4 and k != bao)
        out.extend(AddedKong(k) for k in sorted(pong_kinds) if counts[k] and k != bao)
    if h.indicator is not None and counts[h.indicator >> 2] == 3:
        out.append(IndicatorKong())
    kinds = [k for k in range(34) if counts[k]]
    out.extend(Discard(k) for k in kinds)
    if h.self_win and h.baodiao:
        out.extend(KeepDrawing(k) for k in kinds)
    if rules.declare_ready and s.discards == 0 and not s.ready:
        out.extend(DeclareReady(k) for k in _ready_discards(counts, kinds))
    return out


def _ready_discards(counts: list[int], kinds: list[int]) -> list[int]:
    """Kinds whose discard leaves a ready (听牌) hand."""
    out = []
    for k in kinds:
        c = list(counts)
        c[k] -= 1
        if waits_of(c):
            out.append(k)
    return out


def explain_illegal(g: GameState, seat: int, action: Action, legal: list[Action]) -> str:
    """Why ``action`` by ``seat`` is refused (``legal`` = what it may do now)."""
    h = g.hand
    name = getattr(action, "type", type(action).__name__)
    if not hasattr(action, "type"):
        return f"{action!r} is not an action"
    if h.phase == PHASE_OVER:
        return "the hand is over: the only action now is next_hand"
    if isinstance(action, NextHand):
        return "the hand is still being played: next_hand comes after it ends"
    if h.phase in (PHASE_CLAIM, PHASE_ROB):
        c = h.claim
        assert c is not None
        what = (
            "robbing the kong" if h.phase == PHASE_ROB else f"the discard {tile_str(c.tile >> 2)}"
        )
        if isinstance(action, Pong | Kong | Chi) and h.bao is not None and c.tile >> 2 == h.bao:
            return "a discarded 宝 cannot be ponged, konged or chowed (only 接宝 takes it)"
        if seat == c.from_seat:
            return f"seat {seat} cannot claim its own tile; waiting for the others on {what}"
        if c.options[seat] is None:
            return f"seat {seat} has no claim on {what}; it is not seat {seat}'s turn"
        if c.responses[seat] is not None:
            return f"seat {seat} has already answered on {what}"
        if isinstance(action, Pong | Kong | Chi) and h.seats[seat].ready:
            return "the hand is locked after 报听: only win or pass"
        if isinstance(action, Chi) and (c.from_seat + 1) % 4 != seat:
            return "only the discarder's 下家 may chi"
        if isinstance(action, Chi) and not rules_of(g.variant, g.options).chi:
            return f"{g.variant} has no chi"
        if isinstance(action, Win):
            return f"seat {seat} cannot win on {what}"
        allowed = ", ".join(sorted({a.type for a in legal}))
        return f"seat {seat} cannot {name} on {what}; it may: {allowed}"
    if seat != h.turn:
        return f"it is not seat {seat}'s turn (seat {h.turn} is playing)"
    if isinstance(action, Pass | Pong | Kong | Chi):
        return f"there is no discard to {name}: it is seat {seat}'s turn to play"
    s = h.seats[seat]
    kinds = {t >> 2 for t in s.hand}
    if isinstance(action, Win):
        return "the hand is not a legal win now"
    tile = getattr(action, "tile", getattr(action, "kind", None))
    if tile is not None and tile not in kinds:
        return f"{tile_str(tile) if 0 <= tile < 34 else tile} is not in seat {seat}'s hand"
    if (
        any(isinstance(a, AddedKong) for a in legal)
        and len(legal) <= 2
        and s.drawn is not None
        and rules_of(g.variant, g.options).kong_after_pong
        and not s.ready
    ):
        return (
            f"the drawn {tile_str(s.drawn >> 2)} is the 4th tile of a pong: kong it or win (rule 1)"
        )
    if s.ready and isinstance(action, Discard | ConcealedKong | AddedKong):
        return "the hand is locked after 报听: discard the drawn tile, win, or a kong that keeps the waits"
    if s.drawn is None and isinstance(
        action, ConcealedKong | AddedKong | IndicatorKong | KeepDrawing
    ):
        return "after a claim the only move is a discard"
    if isinstance(action, KeepDrawing):
        return "偷机 needs a 宝吊头 self-draw win to decline"
    if isinstance(action, DeclareReady):
        return "报听 is only possible on the first turn, discarding to a ready hand"
    if isinstance(action, ConcealedKong | AddedKong):
        if h.bao is not None and action.kind == h.bao:
            return "宝 tiles are wildcards and are not konged"
        if live_count(h, rules_of(g.variant, g.options).reserve) == 0:
            return "no tile is left for the kong's replacement"
        return f"seat {seat} has no kong of {tile_str(action.kind)}"
    if isinstance(action, IndicatorKong):
        return "the indicator kong needs the three remaining tiles of the 跌宝牌's kind"
    allowed = ", ".join(sorted({a.type for a in legal}))
    return f"seat {seat} cannot {name} now; it may: {allowed}"
