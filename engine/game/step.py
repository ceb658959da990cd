"""One step of the game (一步): what :func:`engine.game.machine.apply` returns.

A :class:`Step` is the new state, the events of the change, the seats the game now waits on
and each awaited seat's legal actions — worked out once, when the step is made, so callers
(the AI, the service, the bot's buttons) read them instead of asking the engine again.
:func:`engine.game.machine.advance` applies an action to a step and checks it against the
step's own legal actions (no second computation); :func:`step_of` makes the step of a state read from JSON or
built by hand.

For code written before steps, a step unpacks like the old ``(state, events)`` pair:

>>> from engine.game import new_game
>>> g, events = new_game("xinyu", seed="doc")
>>> g.hand.turn in new_game("xinyu", seed="doc").awaited
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.game.actions import Action
from engine.game.events import Event
from engine.game.legal import legal_actions, waiting_for
from engine.game.state import GameState


@dataclass(frozen=True)
class Step:
    """The game after one change: ``state``, its ``events`` (each says who may see it), the
    ``awaited`` seats (待决: the turn's seat, the seats yet to answer a claim window, or every
    seat once the hand is over) and ``legal``: each awaited seat's legal actions.

    A seat not awaited has no legal action (:meth:`legal_for` gives ``()``)."""

    state: GameState
    events: tuple[Event, ...] = ()
    awaited: tuple[int, ...] = ()
    legal: Mapping[int, tuple[Action, ...]] = field(default_factory=dict)

    def legal_for(self, seat: int) -> tuple[Action, ...]:
        """``seat``'s legal actions now (``()`` when the game does not wait on it)."""
        return self.legal.get(seat, ())

    def pair(self) -> tuple[GameState, list[Event]]:
        """``(state, events)``: what :func:`apply` returned before steps."""
        return self.state, list(self.events)

    def __iter__(self) -> Iterator[Any]:
        """``state, events = step``: the pair :func:`apply` returned before steps."""
        return iter((self.state, list(self.events)))


def step_of(state: GameState, events: tuple[Event, ...] | list[Event] = ()) -> Step:
    """The step of ``state``: who is awaited and their legal actions, computed once."""
    awaited = tuple(waiting_for(state))
    legal = {seat: tuple(legal_actions(state, seat)) for seat in awaited}
    awaited = tuple(seat for seat in awaited if legal[seat])
    return Step(state, tuple(events), awaited, {seat: legal[seat] for seat in awaited})


__all__ = ["Step", "step_of"]
