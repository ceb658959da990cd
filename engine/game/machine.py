"""The table flow as a pure state machine: ``apply(state, seat, action) -> Step`` (the new
state, its events, who is awaited and their legal actions; see :mod:`engine.game.step`).

RULES §2, §3.1, §4.1, §5.1. The input state is never changed: the machine copies it and
changes the copy. An illegal action raises :class:`IllegalAction` (with the reason) and leaves
everything as it was. Draws happen by themselves (the turn passes → the next seat draws); the
players' choices are the actions of :mod:`engine.game.actions`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import variants
from engine.game import events as ev
from engine.game import wall as wall_
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
    Win,
    action_from_json,
    action_to_json,
)
from engine.game.claims import claim_options, decide, rob_options, settled
from engine.game.ending import finish_draw, finish_win
from engine.game.events import Event
from engine.game.legal import explain_illegal, legal_actions
from engine.game.rules import (
    evaluate_win,
    is_baodiao,
    is_wildcard_wait,
    live_count,
    rules_of,
    seat_counts,
    waits_of,
)
from engine.game.state import (
    PHASE_CLAIM,
    PHASE_OVER,
    PHASE_ROB,
    PHASE_TURN,
    ClaimWindow,
    GameState,
    HandState,
    MeldRec,
    SeatState,
)
from engine.game.step import Step, step_of
from engine.game.variants import TableRules
from engine.options import RuleOptions, make_options
from engine.refusal import Reason, Refusal
from engine.scoring import WinKind
from engine.settle import (
    kong_money,
)
from engine.tiles import successor


class IllegalAction(Refusal):
    """An action that may not be taken now; ``reason`` says why (a translatable
    :class:`~engine.refusal.Reason`). The state is unchanged."""

    key = "errors.illegal"

    def __init__(self, reason: str, seat: int | None = None, action: Any = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.seat = seat
        self.action = action


# --- starting ----------------------------------------------------------------------------


def new_game(
    variant: str,
    options: RuleOptions | dict[str, Any] | None = None,
    seed: str | None = None,
) -> Step:
    """A new game and its first hand, dealt (the first :class:`~engine.game.step.Step`).
    ``seed`` defaults to a fresh CSPRNG seed.

    First dealer: 上饶, every seat rolls two dice and the highest sum deals (ties roll again);
    新余, seat 0 (座位号0); 九江, seat 0.
    """
    if options is None or isinstance(options, dict):
        options = make_options(variant, options or {})
    seed = seed if seed is not None else wall_.new_seed()
    events: list[Event] = []
    dealer = 0
    if variants.get(variant).rules(options).roll_for_first_dealer:
        dealer = _roll_for_dealer(seed, events)
    placeholder = HandState(
        -1, "", (), 0, -1, dealer, [SeatState() for _ in range(4)], dealer, PHASE_OVER
    )
    g = GameState(variant, options, seed, placeholder, dealer)
    _start_hand(g, 0, events)
    return step_of(g, events)


def _wildcards_of(variant: str, indicator: int) -> frozenset[int]:
    """The wildcard kinds the face-up indicator makes (上饶: the 宝 follows it)."""
    pick = variants.get(variant).wildcards_of
    return pick(indicator) if pick is not None else frozenset((successor(indicator),))


def _roll_for_dealer(seed: str, events: list[Event]) -> int:
    contenders = [0, 1, 2, 3]
    for attempt in range(20):
        rolls = {
            s: wall_.dice(wall_.derive_seed(seed, f"dealer/{attempt}/{s}"), "dealer", 2)
            for s in contenders
        }
        events.append(ev.Dice("dealer", rolls={str(s): r for s, r in rolls.items()}))
        best = max(sum(r) for r in rolls.values())
        contenders = [s for s in contenders if sum(rolls[s]) == best]
        if len(contenders) == 1:
            break
    return contenders[0]


def _start_hand(g: GameState, number: int, events: list[Event], seed: str | None = None) -> None:
    """Deal hand ``number`` from its seed (HMAC of the game seed unless ``seed`` is given:
    :func:`engine.replay.deal_hand` rebuilds one hand of a log from its revealed seed)."""
    rules = rules_of(g.variant, g.options)
    if seed is None:
        seed = wall_.derive_seed(g.seed, f"hand/{number}")
    wall = tuple(wall_.shuffle(wall_.tile_ids(rules.kinds), seed))
    dealer = g.dealer
    h = HandState(
        number, seed, wall, 0, len(wall) - 1, dealer, [SeatState() for _ in range(4)], dealer
    )
    g.hand = h
    events.append(
        ev.HandStarted(
            hand=number,
            dealer=dealer,
            value_per_pao=g.value_per_pao,
            wall_size=len(wall),
            commitment=wall_.commitment(seed, wall),
        )
    )
    events.append(ev.Dice("deal", values=wall_.dice(seed, "deal", rules.dealer_dice)))
    for i in range(4):
        seat = (dealer + i) % 4
        n = 14 if i == 0 else 13
        h.seats[seat].hand = sorted(wall[h.head : h.head + n])
        h.head += n
        if i == 0:
            h.seats[seat].drawn = wall[h.head - 1]  # the dealer's 14th tile stands as "drawn"
    if rules.indicator:
        roll = wall_.dice(seed, "indicator", 2)
        events.append(ev.Dice("indicator", values=roll))
        if rules.indicator_in_wall:
            # 南昌: count the dice's stacks (two tiles each) from the tail and turn the top
            # tile of that stack face up; it stays there, among the tiles never drawn
            h.indicator_pos = len(wall) - 2 * sum(roll)
            h.indicator = wall[h.indicator_pos]
        else:
            h.indicator = wall[h.tail]
            h.tail -= 1
        h.wildcards = _wildcards_of(g.variant, h.indicator >> 2)
        k = h.indicator >> 2
        events.append(ev.Indicator(k, sorted(h.wildcards), k if k in h.wildcards else None))
        for s in h.seats:
            s.bao_drawn = sum(1 for t in s.hand if t >> 2 in h.wildcards)
    for seat in range(4):
        events.append(ev.Dealt(seat, [t >> 2 for t in h.seats[seat].hand]))
    if rules.flowers:
        for i in range(4):
            seat = (dealer + i) % 4
            s = h.seats[seat]
            last = None  # the last replacement this seat took
            while True:
                fl = [t for t in s.hand if t >> 2 in rules.flowers]
                if not fl:
                    break
                for t in fl:
                    s.hand.remove(t)
                    s.flowers.append(t)
                    events.append(ev.Flower(seat, t >> 2))
                for _ in fl:
                    if live_count(h, rules.reserve) == 0:
                        finish_draw(g, events)
                        return
                    t = h.wall[h.tail]
                    h.tail -= 1
                    s.hand.append(t)
                    last = t
                    events.append(ev.Drawn(seat, t >> 2, True))
                s.hand.sort()
            if seat == dealer and last is not None:
                s.drawn = last  # 天胡's winning tile: the last tile the dealer took
    h.turn = dealer
    h.phase = PHASE_TURN
    _open_turn(g, events)
    events.append(ev.Turn(dealer))


# --- applying ----------------------------------------------------------------------------


def apply(state: GameState, seat: int, action: Action) -> Step:
    """Apply ``action`` by ``seat``; returns the :class:`~engine.game.step.Step` made (the new
    state, its events, who is awaited and their legal actions).

    Raises :class:`IllegalAction` (the state is not changed) when the action is not legal now.
    """
    _check_seat(seat, action)
    return _apply_legal(state, seat, action, legal_actions(state, seat))


def advance(step: Step, seat: int, action: Action) -> Step:
    """:func:`apply` on the state of ``step``, checked against the step's own legal actions
    (worked out when the step was made, not again)."""
    _check_seat(seat, action)
    return _apply_legal(step.state, seat, action, step.legal_for(seat))


def _check_seat(seat: int, action: Action) -> None:
    if type(seat) is not int or not 0 <= seat < 4:
        raise IllegalAction(
            Reason(
                "errors.illegal.no_seat", "there is no seat {seat!r} (seats are 0–3)", seat=seat
            ),
            seat,
            action,
        )


def _apply_legal(state: GameState, seat: int, action: Action, legal: Sequence[Action]) -> Step:
    g, events = _change(state, seat, action, legal)
    return step_of(g, events)


def apply_quiet(state: GameState, seat: int, action: Action) -> GameState:
    """:func:`apply` for replaying a log: only the new state. Legality is checked as in
    :func:`apply` (against ``seat``'s legal actions now), but no step is made — neither
    the next state's awaited seats and legal actions nor its events are kept — so a replay
    works out legal actions once per action, not for every awaited seat of every state (the
    last state's step is made once, by :func:`~engine.game.step.step_of`)."""
    _check_seat(seat, action)
    return _change(state, seat, action, legal_actions(state, seat))[0]


def _change(
    state: GameState, seat: int, action: Action, legal: Sequence[Action]
) -> tuple[GameState, list[Event]]:
    """The new state and its events (``action`` checked against ``legal``)."""
    if action not in legal:
        raise IllegalAction(explain_illegal(state, seat, action, list(legal)), seat, action)
    g = state.copy()
    events: list[Event] = []
    h = g.hand
    if isinstance(action, NextHand):
        _next_hand(g, events)
    elif h.phase in (PHASE_CLAIM, PHASE_ROB):
        _respond(g, seat, action, events)
    else:
        _turn_action(g, seat, action, events)
    g.actions += 1
    return g, events


def apply_json(state: GameState, seat: int, action: dict[str, Any]) -> Step:
    """:func:`apply` on a JSON action (raises ``ActionError`` if it cannot be read)."""
    return apply(state, seat, action_from_json(action))


def replay(
    variant: str,
    options: RuleOptions | dict[str, Any] | None,
    seed: str,
    log: list[tuple[int, Action]],
) -> GameState:
    """Rebuild a game from its seed and action log (each action checked, as by
    :func:`apply`; see :func:`apply_quiet`)."""
    state = new_game(variant, options, seed).state
    for seat, action in log:
        state = apply_quiet(state, seat, action)
    return state


# --- a turn ------------------------------------------------------------------------------


def _open_turn(g: GameState, events: list[Event]) -> None:
    """The turn seat now holds 14 (3n+2) tiles: note whether it may win (自摸) and 宝吊头."""
    h = g.hand
    seat = h.turn
    s = h.seats[seat]
    h.self_win = False
    h.baodiao = False
    if s.drawn is None:
        return  # the turn began with a claim: discard only
    h.self_win = evaluate_win(g, seat, "self", None, _four_bao(h, s)) is not None
    if h.self_win and h.wildcards and rules_of(g.variant, g.options).touji:
        counts = seat_counts(s)
        counts[s.drawn >> 2] -= 1
        h.baodiao = is_baodiao(counts, h.wildcards)


def _four_bao(h: HandState, s: SeatState) -> frozenset[str]:
    """The 四个宝 flag when the seat may declare it now: it has received all 4 宝 and has not
    discarded since the 4th came (the right holds on that turn only, RULES §7)."""
    if h.wildcards and s.bao_drawn >= 4 and not s.four_bao_lost:
        return frozenset({"four_bao"})
    return frozenset()


def _turn_action(g: GameState, seat: int, action: Action, events: list[Event]) -> None:
    h = g.hand
    s = h.seats[seat]
    if isinstance(action, Win):
        won = evaluate_win(g, seat, "self", None, _four_bao(h, s))
        assert won is not None
        finish_win(g, [(seat, won)], "self", None, None, events)
    elif isinstance(action, Discard | KeepDrawing | DeclareReady):
        _discard(g, seat, action, events)
    elif isinstance(action, ConcealedKong):
        ids = [t for t in s.hand if t >> 2 == action.kind]
        for t in ids:
            s.hand.remove(t)
        s.melds.append(MeldRec("concealed_kong", tuple(ids), None))
        h.interrupted = True
        events.append(ev.KongDeclared(seat, "concealed_kong", action.kind))
        _pay_kong_money(g, seat, True, events)
        s.kong_chain += 1
        _draw(g, seat, events, from_tail=True)
    elif isinstance(action, AddedKong):
        t = next(t for t in s.hand if t >> 2 == action.kind)
        s.hand.remove(t)
        h.interrupted = True
        options = rob_options(g, seat, t)
        if any(o is not None for o in options):
            h.claim = ClaimWindow("rob", t, seat, options, [None] * 4)
            h.phase = PHASE_ROB
            h.self_win = False
            events.append(ev.AddedKongDeclared(seat, action.kind))
            _announce_window(h, events)
        else:
            _complete_added_kong(g, seat, t, events)
    elif isinstance(action, IndicatorKong):
        assert h.indicator is not None  # legal only where there is a 跌宝牌 (上饶)
        k = h.indicator >> 2
        ids = [t for t in s.hand if t >> 2 == k]
        for t in ids:
            s.hand.remove(t)
        s.melds.append(MeldRec("indicator_kong", tuple(ids), None))
        if s.drawn in ids:
            s.drawn = s.hand[-1]  # the kong used the drawn tile: another one stands as "drawn"
        h.interrupted = True
        events.append(ev.KongDeclared(seat, "indicator_kong", k))
        _open_turn(g, events)


def _complete_added_kong(g: GameState, seat: int, t: int, events: list[Event]) -> None:
    h = g.hand
    s = h.seats[seat]
    i = next(i for i, m in enumerate(s.melds) if m.kind == "pong" and m.ids[0] >> 2 == t >> 2)
    old = s.melds[i]
    s.melds[i] = MeldRec("kong", (*old.ids, t), old.fed_by, old.claimed, added=True)
    h.claim = None
    events.append(ev.KongDeclared(seat, "added_kong", t >> 2))
    _pay_kong_money(g, seat, False, events)
    s.kong_chain += 1
    _draw(g, seat, events, from_tail=True)


def _pay_kong_money(g: GameState, seat: int, concealed: bool, events: list[Event]) -> None:
    """新余 杠钱 at declaration, and the one die rolled for the replacement (narrated)."""
    if not rules_of(g.variant, g.options).kong_money:
        return
    h = g.hand
    label = f"kong/{h.tail}"
    events.append(ev.Dice("replacement", values=wall_.dice(h.seed, label, 1)))
    st = kong_money(g.variant, seat, concealed)
    for i in range(4):
        g.hand.deltas[i] += st.deltas[i]
        g.scores[i] += st.deltas[i]
    events.append(ev.KongMoney(seat, concealed, list(st.deltas), list(g.scores)))


def _discard(
    g: GameState, seat: int, action: Discard | KeepDrawing | DeclareReady, events: list[Event]
) -> None:
    h = g.hand
    s = h.seats[seat]
    k = action.tile
    if s.drawn is not None and s.drawn >> 2 == k and s.drawn in s.hand:
        t = s.drawn
    else:
        t = max(x for x in s.hand if x >> 2 == k)
    if h.self_win and h.baodiao and not s.touji:
        s.touji = True
        events.append(ev.KeptDrawing(seat))  # private: it tells the hand
    s.hand.remove(t)
    s.river.append(t)
    s.discards += 1
    h.discards += 1
    if h.wildcards and s.bao_drawn >= 4:
        s.four_bao_lost = True  # 四个宝 is declared at once or never
    if k in h.wildcards:
        s.flown += 1
    if isinstance(action, DeclareReady):
        s.ready = True
        s.waits = waits_of(seat_counts(s), h.wildcards)
        events.append(ev.Ready(seat))
    h.after_kong = s.kong_chain > 0
    s.kong_chain = 0
    s.drawn = None
    h.self_win = h.baodiao = False
    rules = rules_of(g.variant, g.options)
    if (rules.pao_value or rules.chaozhuang) and not h.interrupted and len(h.follow) < 8:
        # 九江 跟庄, 南昌 抄庄
        h.follow.append(k)
    events.append(ev.Discarded(seat, k, h.after_kong))
    options = claim_options(g, seat, t)
    if any(o is not None for o in options):
        h.claim = ClaimWindow("discard", t, seat, options, [None] * 4)
        h.phase = PHASE_CLAIM
        _announce_window(h, events)
    else:
        _pass_turn(g, seat, events)


def _pass_turn(g: GameState, discarder: int, events: list[Event]) -> None:
    h = g.hand
    h.claim = None
    if live_count(h, rules_of(g.variant, g.options).reserve) == 0:
        finish_draw(g, events)
        return
    _draw(g, (discarder + 1) % 4, events)


def _draw(g: GameState, seat: int, events: list[Event], *, from_tail: bool = False) -> None:
    """``seat`` draws (from the tail for a kong replacement) and its turn opens."""
    h = g.hand
    rules = rules_of(g.variant, g.options)
    s = h.seats[seat]
    h.phase = PHASE_TURN
    h.turn = seat
    h.claim = None
    while True:
        if live_count(h, rules.reserve) == 0:
            finish_draw(g, events)
            return
        if from_tail:
            if h.tail == h.indicator_pos:
                if rules.take_indicator:
                    h.indicator_pos = None  # the replacement takes the face-up indicator
                    events.append(ev.IndicatorTaken(seat))
                else:
                    h.tail -= 1  # it is skipped and stays face up, among the undrawn
            t = h.wall[h.tail]
            h.tail -= 1
        else:
            t = h.wall[h.head]
            h.head += 1
        events.append(ev.Drawn(seat, t >> 2, from_tail))
        events.append(ev.Drew(seat, from_tail, live_count(h, rules.reserve)))
        if t >> 2 in rules.flowers:
            s.flowers.append(t)
            events.append(ev.Flower(seat, t >> 2))
            from_tail = True
            continue
        break
    s.hand.append(t)
    s.hand.sort()
    s.drawn = t
    s.missed_win = False
    s.missed_kinds = ()
    if t >> 2 in h.wildcards:
        s.bao_drawn += 1
    h.last_tile = live_count(h, rules.reserve) == 0
    _open_turn(g, events)


# --- claim windows -----------------------------------------------------------------------


def _announce_window(h: HandState, events: list[Event]) -> None:
    c = h.claim
    assert c is not None
    for seat, opts in enumerate(c.options):
        if opts is not None:
            events.append(ev.ClaimWindowOpened(seat, c.kind, c.tile >> 2, opts))


def _respond(g: GameState, seat: int, action: Action, events: list[Event]) -> None:
    h = g.hand
    c = h.claim
    assert c is not None
    answer = action_to_json(action)
    c.responses[seat] = answer
    events.append(ev.Responded(seat, answer))
    if settled(c, rules_of(g.variant, g.options)):
        _resolve(g, events)


def _resolve(g: GameState, events: list[Event]) -> None:
    """The window is settled: win > kong = pong > chi; else the play goes on."""
    h = g.hand
    c = h.claim
    assert c is not None
    rules = rules_of(g.variant, g.options)
    outcome = decide(c, rules)
    for s in outcome.missed:
        _lock_missed(h, s, c.tile >> 2, rules)
    winners = outcome.winners
    how: WinKind = "discard" if c.kind == "discard" else "rob_kong"
    if winners:
        won = []
        for s in winners:
            extra: frozenset[str] = frozenset()
            if how == "discard" and c.tile >> 2 in h.wildcards and not rules.wild_melds:
                extra = frozenset({"jiebao"})
            r = evaluate_win(g, s, how, c.tile, extra)
            assert r is not None
            won.append((s, r))
        if c.kind == "discard":
            h.seats[c.from_seat].river.remove(c.tile)
        finish_win(g, won, how, c.from_seat, c.tile, events)
        return
    if c.kind == "rob":
        _complete_added_kong(g, c.from_seat, c.tile, events)
        return
    if outcome.claim is not None:
        _take_claim(g, outcome.claim[0], outcome.claim[1], events)
        return
    _pass_turn(g, c.from_seat, events)


def _lock_missed(h: HandState, seat: int, kind: int, rules: TableRules) -> None:
    """``seat`` let a win on ``kind`` pass: 九江 bars every discard win until its next draw;
    南昌 (弃先胡后) bars that kind, and every discard for a seat in a 精钓 wait."""
    s = h.seats[seat]
    if not rules.missed_win_kind:
        s.missed_win = True
        return
    if kind not in s.missed_kinds:
        s.missed_kinds = (*s.missed_kinds, kind)
    if is_wildcard_wait(seat_counts(s), h.wildcards, rules.honour_sequences):
        s.missed_win = True


def _take_claim(g: GameState, seat: int, a: Action, events: list[Event]) -> None:
    h = g.hand
    c = h.claim
    assert c is not None
    s = h.seats[seat]
    t = c.tile
    k = t >> 2
    h.seats[c.from_seat].river.remove(t)
    h.interrupted = True
    if isinstance(a, Chi):
        need = list(a.tiles)
        need.remove(k)
        ids = [max(x for x in s.hand if x >> 2 == n) for n in need]
        kind = "chi"
    else:
        n = 3 if isinstance(a, Kong) else 2
        ids = [x for x in s.hand if x >> 2 == k][:n]
        kind = "kong" if isinstance(a, Kong) else "pong"
    for x in ids:
        s.hand.remove(x)
    s.melds.append(MeldRec(kind, tuple(sorted([*ids, t])), c.from_seat, claimed=t))
    h.claim = None
    events.append(ev.Claimed(seat, kind, k, c.from_seat))
    if kind == "kong":
        _pay_kong_money(g, seat, False, events)
        s.kong_chain += 1
        _draw(g, seat, events, from_tail=True)
        return
    h.turn = seat
    h.phase = PHASE_TURN
    s.drawn = None
    _open_turn(g, events)


# --- the next hand ------------------------------------------------------------------


def _next_hand(g: GameState, events: list[Event]) -> None:
    h = g.hand
    assert h.result is not None
    new_dealer = h.result["next_dealer"]
    drawn = not h.result["winners"]
    if rules_of(g.variant, g.options).pao_value:  # 九江 黄庄 / 跟庄 carry to the next hand
        g.draws_in_row = g.draws_in_row + 1 if drawn else 0
        g.value_per_pao = h.result["next_value_per_pao"]
    g.dealer = new_dealer
    _start_hand(g, h.number + 1, events)


__all__ = [
    "IllegalAction",
    "Step",
    "advance",
    "apply",
    "apply_json",
    "apply_quiet",
    "new_game",
    "replay",
]
