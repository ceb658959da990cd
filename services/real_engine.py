"""The adapter over ``engine.game``: the only module of the service that knows its classes.

Button keys (:class:`services.model.ActionKey`) map to engine actions through the one codec,
:mod:`services.action_codec`; the views the bot shows are the engine's privacy-filtered
views (:mod:`engine.game.view`, renamed by :mod:`services.engine_views`); legal actions come
from the engine's steps (:class:`engine.game.Step`), worked out once per change. A replay
(:func:`replay_logged`) makes no step for the states it passes through: only the state it
ends in gets one, when first asked.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from engine.ai.levels import choose_at
from engine.game import (
    Discard,
    GameState,
    IllegalAction,
    NextHand,
    Pass,
    Step,
    Win,
    apply_quiet,
    state_from_json,
    state_to_json,
    step_of,
)
from engine.game import advance as engine_advance
from engine.game import legal_actions as engine_legal_actions
from engine.game import new_game as engine_new_game
from engine.game.actions import ActionError, action_to_json
from engine.game.events import Event, events_json
from engine.game.rules import rules_of
from engine.game.view import meld_view, public_view, seat_view
from engine.game.wall import commitment
from engine.tiles import kind_of
from services.action_codec import Logged, action_of, read_logged
from services.action_codec import key_of as codec_key_of
from services.engine_views import hand_of, meld_of, phase_of, table_of
from services.errors import EngineIllegal, not_possible
from services.model import (
    ActionKey,
    GameEvent,
    HandResult,
    HandView,
    MeldInfo,
    Phase,
    ScoreLine,
    TableView,
)
from services.real_showdown import showdown_fields
from services.state_memo import StateMemo

log = logging.getLogger(__name__)


def key_of(action: Any, state: GameState | None = None) -> ActionKey:
    """The button key of an engine action in ``state`` (see :func:`services.action_codec.key_of`)."""
    return codec_key_of(action, _indicator(state))


def _indicator(state: GameState | None) -> int | None:
    """The kind of the hand's 跌宝牌 (上饶), which names an indicator kong's button."""
    if state is None or state.hand.indicator is None:
        return None
    return state.hand.indicator >> 2


def meld_info(m: Any) -> MeldInfo:
    """The view of an engine meld (``MeldRec``), as the engine's views show it."""
    return meld_of(meld_view(m))


#: each state's engine step (:class:`engine.game.Step`) as ``(events, awaited, legal)``: the
#: step without its state, which the memo must not keep alive (:mod:`services.state_memo`)
_steps: StateMemo[tuple[Any, tuple[int, ...], Any]] = StateMemo()
#: each state's button keys, by seat
_keys_memo: StateMemo[dict[int, tuple[ActionKey, ...]]] = StateMemo()
#: seat → (state, key, engine action) of the key last read for that seat
_resolved: dict[int, tuple[GameState, ActionKey, Any]] = {}


def _remember(step: Step) -> Step:
    """Keep ``step`` as the step of its state (see :func:`_step`), as long as the state."""
    _steps.put(step.state, (step.events, step.awaited, step.legal))
    return step


def _step(state: GameState) -> Step:
    """The engine's step of ``state``: the one its change made (the engine worked out who is
    awaited and their legal actions then), or — for a state read from the store or replayed
    — the step made for it now, once.

    Kept by the state's identity while the state lives (:mod:`services.state_memo`)."""
    hit = _steps.get(state)
    if hit is not None:
        return Step(state, *hit)
    return _remember(step_of(state))


def _legal(state: GameState, seat: int) -> tuple[Any, ...]:
    """``seat``'s legal actions in ``state``, as the engine's step holds them."""
    hit = _steps.get(state)
    legal = hit[2] if hit is not None else _step(state).legal
    return legal.get(seat, ())


#: the table (public view) of each state, while it lives
_tables: StateMemo[TableView] = StateMemo()
#: each state's hands (private views), by seat
_hands: StateMemo[dict[int, HandView]] = StateMemo()
#: the hand's wall commitment, worked out once per hand: id(wall) → (seed, wall, hash)
_commitments: dict[int, tuple[str, tuple[int, ...], str]] = {}
#: hands whose commitment is kept (the oldest goes first): more than the hands played at once
COMMITMENT_MEMO_SIZE = 4096


def _commitment(seed: str, wall: tuple[int, ...]) -> str:
    """The hand's published commitment (:func:`engine.game.wall.commitment`), hashed once per
    hand: every state of a hand shares its wall tuple (the machine never copies it). Keyed by
    the wall's identity; the memo holds the wall, so the key is not reused while kept."""
    hit = _commitments.get(id(wall))
    if hit is not None and hit[1] is wall and hit[0] == seed:
        return hit[2]
    digest = commitment(seed, wall)
    if len(_commitments) >= COMMITMENT_MEMO_SIZE:
        del _commitments[next(iter(_commitments))]
    _commitments[id(wall)] = (seed, wall, digest)
    return digest


def _find_ai() -> Callable[..., Any] | None:
    """The engine's AI ``choose_action(state, seat)``, wherever it lives."""
    for module_name in ("engine.ai", "engine.game.ai", "engine.ai.player"):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        chooser: object = getattr(module, "choose_action", None)
        if callable(chooser):
            return chooser
    return None


def _fallback_choice(state: GameState, seat: int) -> Any:
    """A plain legal choice when the engine's AI is missing: win, else pass, else discard
    the drawn tile (or the first legal discard)."""
    legal = _legal(state, seat)
    for action in legal:
        if isinstance(action, Win | NextHand):
            return action
    for action in legal:
        if isinstance(action, Pass):
            return action
    drawn = state.hand.seats[seat].drawn
    for action in legal:
        if isinstance(action, Discard) and drawn is not None and action.tile == drawn >> 2:
            return action
    for action in legal:
        if isinstance(action, Discard):
            return action
    return legal[0]


def replay_logged(state: GameState, seat: int, logged: Logged) -> GameState:
    """The state after a logged action, for a replay (:func:`engine.game.apply_quiet`): the
    action is checked against ``seat``'s legal actions, but no step is made (no legal actions
    of the new state, no events); the last state's step is made once, when it is first asked
    for (:func:`_step`). Raises :class:`EngineIllegal`."""
    try:
        if isinstance(logged, ActionKey):  # an older log's button key
            action = read_logged(logged, _legal_now(state, seat), _indicator(state))
            if isinstance(action, NextHand):
                raise EngineIllegal(not_possible(logged.kind, logged.arg))
        else:
            action = read_logged(logged, ())
        return apply_quiet(state, seat, action)
    except ActionError as error:
        if isinstance(logged, ActionKey):
            raise EngineIllegal(not_possible(logged.kind, logged.arg)) from error
        raise EngineIllegal(str(error)) from error
    except IllegalAction as error:
        raise EngineIllegal(error.reason) from error


def _legal_now(state: GameState, seat: int) -> Iterator[Any]:
    """``seat``'s legal actions in ``state``, worked out only if read (a button key names
    its action on its own but for a kong)."""
    hit = _steps.get(state)
    if hit is not None:
        yield from hit[2].get(seat, ())
    else:
        yield from engine_legal_actions(state, seat)


class RealEngine:
    """:class:`services.engine_adapter.GameEngine` over ``engine.game``."""

    def __init__(self) -> None:
        self._ai = _find_ai()

    # -- game flow

    def new_game(
        self, variant: str, options: dict[str, Any], seed: str, *, events: bool = True
    ) -> tuple[GameState, list[GameEvent]]:
        step = _remember(engine_new_game(variant, options, seed))
        return step.state, self._events(step.events) if events else []

    def next_hand(
        self, state: GameState, seed: str, *, events: bool = True
    ) -> tuple[GameState, list[GameEvent]]:
        # each hand's seed derives from the game seed, so ``seed`` is not needed here
        if not events:  # a replay: the new hand's step is made when it is asked for
            return apply_quiet(state, 0, NextHand()), []
        step = _remember(engine_advance(_step(state), 0, NextHand()))
        return step.state, self._events(step.events)

    def phase(self, state: GameState) -> Phase:
        return phase_of(state.hand.phase)

    def pending_seats(self, state: GameState) -> tuple[int, ...]:
        h = state.hand
        if h.phase == "turn":
            return (h.turn,)
        if h.phase in ("claim", "rob") and h.claim is not None:
            c = h.claim
            order = [(c.from_seat + i) % 4 for i in range(1, 4)]
            return tuple(s for s in order if c.options[s] is not None and c.responses[s] is None)
        return ()

    def action_count(self, state: GameState) -> int:
        """Actions applied in the whole game so far."""
        return state.actions

    def window_key(self, state: GameState) -> tuple[int, int] | None:
        """The open claim window (discarder, physical tile), or None."""
        c = state.hand.claim
        return None if c is None else (c.from_seat, c.tile)

    def kongs_robbable(self, state: GameState) -> bool:
        """Whether the game's rules let an added kong be robbed (抢杠)."""
        return rules_of(state.variant, state.options).rob_kong

    def legal_actions(self, state: GameState, seat: int) -> tuple[ActionKey, ...]:
        if state.hand.phase == "over":
            return ()
        seats = _keys_memo.get(state)
        if seats is None:
            seats = _keys_memo.put(state, {})
        keys = seats.get(seat)
        if keys is None:
            keys = seats[seat] = tuple(key_of(a, state) for a in _legal(state, seat))
        return keys

    def _action_for(self, state: GameState, seat: int, key: ActionKey) -> Any:
        """The engine action a key names (the engine checks that it is legal). The last one
        named per seat is kept: the AI's choice, applied, then logged, is read once."""
        hit = _resolved.get(seat)
        if hit is not None and hit[0] is state and hit[1] == key:
            return hit[2]
        action = action_of(key, _legal(state, seat), _indicator(state))
        _resolved[seat] = (state, key, action)
        return action

    def apply(
        self, state: GameState, seat: int, key: ActionKey
    ) -> tuple[GameState, list[GameEvent]]:
        action = self._action_for(state, seat, key)
        if action is None or isinstance(action, NextHand):
            raise EngineIllegal(not_possible(key.kind, key.arg))
        try:
            step = _remember(engine_advance(_step(state), seat, action))
        except IllegalAction as error:
            raise EngineIllegal(error.reason) from error
        return step.state, self._events(step.events)

    def log_action(self, state: GameState, seat: int, key: ActionKey) -> dict[str, Any]:
        """The engine's JSON of the action ``key`` names in ``state`` (what the log stores)."""
        action = self._action_for(state, seat, key)
        if action is None:
            raise EngineIllegal(f"{key.kind} {key.arg or ''}".strip() + " is not an action")
        return action_to_json(action)

    def apply_logged(
        self,
        state: GameState,
        seat: int,
        logged: dict[str, Any] | ActionKey,
        *,
        events: bool = True,
    ) -> tuple[GameState, list[GameEvent]]:
        """Apply an action as the log holds it: the engine's JSON, or the button key of
        older logs. ``events=False`` (a replay, which delivers nothing) skips turning the
        engine's events into the service's."""
        if not events:
            return replay_logged(state, seat, logged), []
        if isinstance(logged, ActionKey):
            return self.apply(state, seat, logged)
        try:
            action = read_logged(logged, ())
            step = _remember(engine_advance(_step(state), seat, action))
        except (ActionError, IllegalAction) as error:
            raise EngineIllegal(str(error)) from error
        return step.state, self._events(step.events)

    def choose_action(self, state: GameState, seat: int, level: str | None = None) -> ActionKey:
        action = None
        if level is not None:
            try:
                action = choose_at(state, seat, level, _legal(state, seat))
            except Exception:
                log.exception("engine AI (level %s) failed; using the plain choice", level)
        elif self._ai is not None:
            try:
                action = self._ai(state, seat, legal=_legal(state, seat))
            except Exception:
                log.exception("engine AI failed; using the plain choice")
        if action is None or action not in _legal(state, seat):
            action = _fallback_choice(state, seat)
        key = key_of(action, state)
        _resolved[seat] = (state, key, action)
        return key

    def timeout_action(self, state: GameState, seat: int) -> ActionKey:
        legal = _legal(state, seat)
        if state.hand.phase in ("claim", "rob"):
            for action in legal:
                if isinstance(action, Pass):
                    return key_of(action, state)
        drawn = state.hand.seats[seat].drawn
        if drawn is not None:
            for action in legal:
                if isinstance(action, Discard) and action.tile == drawn >> 2:
                    return key_of(action, state)
        return self.choose_action(state, seat)

    # -- views

    def table_view(self, state: GameState) -> TableView:
        """The engine's public view (:func:`engine.game.view.public_view`), as the table
        (made once per state: a change and its delivery both ask for it; it is immutable)."""
        table = _tables.get(state)
        if table is not None:
            return table
        h = state.hand
        table = table_of(public_view(state), _commitment(h.seed, h.wall) if h.wall else None)
        return _tables.put(state, table)

    def hand_view(self, state: GameState, seat: int) -> HandView:
        """The engine's view of one seat (:func:`engine.game.view.seat_view`), made once per
        state and seat (a press's delivery and its answer both show it; it is immutable)."""
        seats = _hands.get(state)
        if seats is None:
            seats = _hands.put(state, {})
        hand = seats.get(seat)
        if hand is None:
            view = seat_view(state, seat, _legal(state, seat))
            hand = seats[seat] = hand_of(view, self.legal_actions(state, seat))
        return hand

    def hand_result(self, state: GameState) -> HandResult | None:
        """The ended hand from the engine's public view (result, 摊牌, seed and wall)."""
        if state.hand.phase != "over" or state.hand.result is None:
            return None
        public = public_view(state)
        r = public["result"]
        winners = r.get("winners", [])
        items: list[ScoreLine] = []
        for w in winners:
            items += [ScoreLine(i["name"], i.get("en", ""), str(i["value"])) for i in w["items"]]
        points = sum(int(w.get("points", 0)) for w in winners)
        winning_tile = None
        concealed: tuple[int, ...] = ()
        melds: tuple[MeldInfo, ...] = ()
        hand_text = ""
        if winners:
            hand_text = str(winners[0].get("hand", ""))
            first = winners[0]["seat"]
            melds = tuple(meld_of(m) for m in public["seats"][first]["melds"])
            kinds = list(public["revealed"][first])
            if "+" in hand_text:
                try:
                    winning_tile = kind_of(hand_text.rsplit("+", 1)[1].strip())
                except ValueError:
                    winning_tile = None
            if winning_tile is not None and winning_tile in kinds:
                kinds.remove(winning_tile)
            concealed = tuple(kinds)
        return HandResult(
            hand_no=public["hand"] + 1,
            how=r["how"],
            winners=tuple(w["seat"] for w in winners),
            discarder=r.get("payer"),
            points=points,
            items=tuple(items),
            deltas=tuple(r["deltas"]),
            winning_tile=winning_tile,
            winner_concealed=concealed,
            winner_melds=melds,
            seed_reveal={
                "seed": public["seed"],
                "wall": [t >> 2 for t in public["wall"]],
                "wall_ids": list(public["wall"]),
            },
            notes=tuple(f"{p[0]}→{p[1]} {p[2]} {p[3]}" for p in r.get("payments", [])),
            winner_hand=hand_text,
            payments=tuple(tuple(p) for p in r.get("payments", [])),
            scores=tuple(public["scores"]),
            winner_points=tuple(int(w.get("points", 0)) for w in winners),
            settlement=tuple(dict(line) for line in r.get("settlement", ())),
            **showdown_fields(public, self.hand_history(state)),
        )

    def hand_history(self, state: GameState) -> tuple[dict[str, Any], ...]:
        """One summary per ended hand of the game (see :func:`services.session_state.tally`)."""
        return tuple(dict(h) for h in state.history)

    # -- codecs

    def encode_state(self, state: GameState) -> dict[str, Any]:
        return state_to_json(state)

    def decode_state(self, data: dict[str, Any]) -> GameState:
        return state_from_json(data)

    @staticmethod
    def _events(events: Iterable[Event]) -> list[GameEvent]:
        """The engine's typed events as the service's (each keeps who may see it)."""
        out = []
        for e in events_json(events):
            data = e["data"]
            seat = data.get("seat") if isinstance(data.get("seat"), int) else None
            out.append(GameEvent(e["kind"], seat=seat, visible_to=e["visible_to"], data=data))
        return out
