"""What a seat may do now (:func:`legal_actions`) and why anything else is refused."""

from __future__ import annotations

from engine import variants
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
from engine.game.rules import is_wildcard_wait, live_count, rules_of, seat_counts, waits_of
from engine.game.state import PHASE_CLAIM, PHASE_OVER, PHASE_ROB, GameState
from engine.refusal import Reason, Words
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
    wild = h.wildcards
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
        if rules.wild_melds:  # 南昌: a 精 kind is konged like any other (杠精)
            wild = frozenset()
        out.extend(ConcealedKong(k) for k in range(34) if counts[k] == 4 and k not in wild)
        out.extend(AddedKong(k) for k in sorted(pong_kinds) if counts[k] and k not in wild)
    if (
        h.indicator is not None
        and counts[h.indicator >> 2] == 3
        and variants.get(g.variant).indicator_kongs
    ):
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
    """Why ``action`` by ``seat`` is refused (``legal`` = what it may do now): a
    :class:`~engine.refusal.Reason`, English text with a catalogue key (``errors.illegal.*``)
    so the bot can say it in the player's language."""
    h = g.hand
    name = getattr(action, "type", type(action).__name__)
    if not hasattr(action, "type"):
        return _why("not_an_action", "{action} is not an action", action=repr(action))
    if h.phase == PHASE_OVER:
        return _why("hand_over", "the hand is over: the only action now is next_hand")
    if isinstance(action, NextHand):
        return _why("hand_on", "the hand is still being played: next_hand comes after it ends")
    what_ = _action(name)
    allowed = _allowed(legal)
    if h.phase in (PHASE_CLAIM, PHASE_ROB):
        c = h.claim
        assert c is not None
        what = (
            Reason("errors.illegal.robbing", "robbing the kong")
            if h.phase == PHASE_ROB
            else Reason(
                "errors.illegal.the_discard", "the discard {tile}", tile=tile_str(c.tile >> 2)
            )
        )
        if (
            isinstance(action, Pong | Kong | Chi)
            and c.tile >> 2 in h.wildcards
            and not rules_of(g.variant, g.options).wild_melds
        ):
            return _why(
                "wildcard_claim",
                "a discarded 宝 cannot be ponged, konged or chowed (only 接宝 takes it)",
            )
        if seat == c.from_seat:
            return _why(
                "own_tile",
                "seat {seat} cannot claim its own tile; waiting for the others on {what}",
                seat=seat,
                what=what,
            )
        if isinstance(action, Win) and c.responses[seat] is None:
            locked = _why_no_win(g, seat, c.tile >> 2)
            if locked is not None:
                return locked
        if c.options[seat] is None:
            return _why(
                "no_claim",
                "seat {seat} has no claim on {what}; it is not seat {seat}'s turn",
                seat=seat,
                what=what,
            )
        if c.responses[seat] is not None:
            return _why(
                "answered", "seat {seat} has already answered on {what}", seat=seat, what=what
            )
        if isinstance(action, Pong | Kong | Chi) and h.seats[seat].ready:
            return _why("ready_claim", "the hand is locked after 报听: only win or pass")
        if isinstance(action, Chi) and (c.from_seat + 1) % 4 != seat:
            return _why("chi_next_only", "only the discarder's 下家 may chi")
        if isinstance(action, Chi) and not rules_of(g.variant, g.options).chi:
            return _why("no_chi", "{variant} has no chi", variant=g.variant)
        if isinstance(action, Win):
            return _why("no_win_on", "seat {seat} cannot win on {what}", seat=seat, what=what)
        return _why(
            "cannot_on",
            "seat {seat} cannot {action} on {what}; it may: {allowed}",
            seat=seat,
            action=what_,
            what=what,
            allowed=allowed,
        )
    if seat != h.turn:
        return _why(
            "not_turn",
            "it is not seat {seat}'s turn (seat {turn} is playing)",
            seat=seat,
            turn=h.turn,
        )
    if isinstance(action, Pass | Pong | Kong | Chi):
        return _why(
            "no_discard",
            "there is no discard to {action}: it is seat {seat}'s turn to play",
            action=what_,
            seat=seat,
        )
    s = h.seats[seat]
    kinds = {t >> 2 for t in s.hand}
    if isinstance(action, Win):
        return _why("not_a_win", "the hand is not a legal win now")
    tile = getattr(action, "tile", getattr(action, "kind", None))
    if tile is not None and tile not in kinds:
        return _why(
            "not_in_hand",
            "{tile} is not in seat {seat}'s hand",
            tile=tile_str(tile) if 0 <= tile < 34 else tile,
            seat=seat,
        )
    if (
        any(isinstance(a, AddedKong) for a in legal)
        and len(legal) <= 2
        and s.drawn is not None
        and rules_of(g.variant, g.options).kong_after_pong
        and not s.ready
    ):
        return _why(
            "kong_after_pong",
            "the drawn {tile} is the 4th tile of a pong: kong it or win (rule 1)",
            tile=tile_str(s.drawn >> 2),
        )
    if s.ready and isinstance(action, Discard | ConcealedKong | AddedKong):
        return _why(
            "ready_locked",
            "the hand is locked after 报听: discard the drawn tile, win, or a kong that keeps "
            "the waits",
        )
    if s.drawn is None and isinstance(
        action, ConcealedKong | AddedKong | IndicatorKong | KeepDrawing
    ):
        return _why("after_claim", "after a claim the only move is a discard")
    if isinstance(action, KeepDrawing):
        return _why("touji", "偷机 needs a 宝吊头 self-draw win to decline")
    if isinstance(action, DeclareReady):
        return _why(
            "declare_ready", "报听 is only possible on the first turn, discarding to a ready hand"
        )
    if isinstance(action, ConcealedKong | AddedKong):
        if action.kind in h.wildcards:
            return _why("wildcard_kong", "宝 tiles are wildcards and are not konged")
        if live_count(h, rules_of(g.variant, g.options).reserve) == 0:
            return _why("no_replacement", "no tile is left for the kong's replacement")
        return _why(
            "no_kong", "seat {seat} has no kong of {tile}", seat=seat, tile=tile_str(action.kind)
        )
    if isinstance(action, IndicatorKong):
        return _why(
            "indicator_kong",
            "the indicator kong needs the three remaining tiles of the 跌宝牌's kind",
        )
    return _why(
        "cannot_now",
        "seat {seat} cannot {action} now; it may: {allowed}",
        seat=seat,
        action=what_,
        allowed=allowed,
    )


def _why_no_win(g: GameState, seat: int, kind: int) -> Reason | None:
    """Why ``seat`` may not win on the discarded / robbed ``kind`` under a 南昌 rule (弃先胡后,
    精钓), or ``None`` when none of them is the reason. Told to that seat alone."""
    rules = rules_of(g.variant, g.options)
    if not rules.missed_win_kind:
        return None
    s = g.hand.seats[seat]
    if s.missed_win:
        return _why(
            "missed_win_all",
            "seat {seat} let a win pass while waiting on a 精 (精钓): no discard can be won "
            "before its next draw",
            seat=seat,
        )
    if kind in s.missed_kinds:
        return _why(
            "missed_win_kind",
            "seat {seat} let a win on {tile} pass: that kind cannot be won again before its "
            "next draw (弃先胡后)",
            seat=seat,
            tile=tile_str(kind),
        )
    h = g.hand
    if (
        h.claim is not None
        and h.claim.kind == "discard"
        and not rules.wildcard_wait_discard
        and is_wildcard_wait(seat_counts(s), h.wildcards, rules.honour_sequences)
    ):
        return _why(
            "jingdiao_discard",
            "a hand waiting on a 精 (精钓) wins on a discard only as 德国, with no 精 used as a "
            "wildcard",
        )
    return None


def _why(name: str, english: str, /, **params: object) -> Reason:
    """A reason of :func:`explain_illegal`: key ``errors.illegal.<name>``."""
    return Reason(f"errors.illegal.{name}", english, **params)


def _action(kind: str) -> Reason:
    """An action's word (``pong`` → 碰 in Chinese)."""
    return Reason(f"common.action.{kind}", kind)


def _allowed(legal: list[Action]) -> Words:
    """The actions allowed now, as words (``discard, win``)."""
    return Words(_action(k) for k in sorted({a.type for a in legal}))
