"""The game: a pure, deterministic state machine for all three variants (RULES §2–§5).

- ``new_game(variant, options=None, seed=None) -> Step`` deals the first hand
  (``seed`` defaults to a CSPRNG seed; each hand's seed is HMAC(game seed, hand number)).
- ``legal_actions(state, seat)`` lists what a seat may do; ``waiting_for(state)`` the seats
  the game waits on; ``apply(state, seat, action) -> Step`` (the new state, its events, the
  awaited seats and their legal actions, worked out once; it unpacks as ``state, events``)
  or :class:`IllegalAction` (with ``reason``; the state is unchanged); ``advance(step, seat,
  action)`` applies to a step, checking against its legal actions; ``apply_quiet(state, seat,
  action)`` returns only the new state (a replay: no step, no legal actions of the next
  state). ``NextHand()`` starts the next hand once one is over. ``replay(variant, options,
  seed, log)`` rebuilds a game.
- ``engine.game.view.seat_view`` / ``public_view``; ``engine.game.ai.choose_action``;
  ``state_to_json`` / ``state_from_json``; ``action_to_json`` / ``action_from_json``.

>>> from engine.game import new_game, apply, legal_actions
>>> g, events = new_game("xinyu", seed="doc")
>>> seat = g.hand.turn
>>> g2, ev = apply(g, seat, legal_actions(g, seat)[-1])
>>> g2.actions, g.actions
(1, 0)
"""

from engine.game.actions import (
    ACTION_TYPES,
    Action,
    ActionError,
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
    action_to_json,
)
from engine.game.events import Event, visible
from engine.game.legal import legal_actions, waiting_for
from engine.game.machine import (
    IllegalAction,
    advance,
    apply,
    apply_json,
    apply_quiet,
    new_game,
    replay,
)
from engine.game.state import GameState, HandState, SeatState, state_from_json, state_to_json
from engine.game.step import Step, step_of

__all__ = [
    "ACTION_TYPES",
    "Action",
    "ActionError",
    "AddedKong",
    "Chi",
    "ConcealedKong",
    "DeclareReady",
    "Discard",
    "Event",
    "GameState",
    "HandState",
    "IllegalAction",
    "IndicatorKong",
    "KeepDrawing",
    "Kong",
    "NextHand",
    "Pass",
    "Pong",
    "SeatState",
    "Step",
    "Win",
    "action_from_json",
    "action_to_json",
    "advance",
    "apply",
    "apply_json",
    "apply_quiet",
    "legal_actions",
    "new_game",
    "replay",
    "state_from_json",
    "state_to_json",
    "step_of",
    "visible",
    "waiting_for",
]
