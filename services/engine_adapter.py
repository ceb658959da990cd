"""The narrow interface the service needs from the game engine (``engine.game``).

:class:`GameEngine` is what :class:`services.game.GameService` calls; :func:`default_engine`
returns the adapter over the real engine. Everything engine-specific (action classes, event
classes, view classes, JSON codecs) stays behind this Protocol; the service and the cogs see
only :mod:`services.model` values and opaque ``state`` objects.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from services.errors import EngineIllegal
from services.model import ActionKey, GameEvent, HandResult, HandView, Phase, TableView

__all__ = ["EngineIllegal", "GameEngine", "default_engine"]


@runtime_checkable
class GameEngine(Protocol):
    """The game, as the service uses it. ``state`` values are opaque and immutable."""

    def new_game(
        self, variant: str, options: dict[str, Any], seed: str, *, events: bool = True
    ) -> tuple[Any, list[GameEvent]]:
        """A new game whose first hand is dealt from ``seed`` (hex from a CSPRNG).
        ``events=False``: a replay, no events wanted."""

    def next_hand(
        self, state: Any, seed: str, *, events: bool = True
    ) -> tuple[Any, list[GameEvent]]:
        """Deal the next hand of the game (after :meth:`phase` is ``hand_over``).
        ``events=False``: a replay, no events wanted."""

    def phase(self, state: Any) -> Phase:
        """``turn``, ``claim``, ``hand_over`` or ``game_over``."""

    def pending_seats(self, state: Any) -> tuple[int, ...]:
        """Seats whose decision the game waits for now (the turn's seat, or claimers)."""

    def action_count(self, state: Any) -> int:
        """How many actions the whole game has applied (drives snapshots)."""

    def window_key(self, state: Any) -> Any:
        """Something equal for the same open claim window (None when none is open)."""

    def kongs_robbable(self, state: Any) -> bool:
        """Whether the game's rules let an added kong be robbed (抢杠)."""

    def legal_actions(self, state: Any, seat: int) -> tuple[ActionKey, ...]:
        """Every action ``seat`` may take now, as button keys."""

    def apply(self, state: Any, seat: int, key: ActionKey) -> tuple[Any, list[GameEvent]]:
        """Apply; raises :class:`EngineIllegal` (state unchanged) when not legal."""

    def log_action(self, state: Any, seat: int, key: ActionKey) -> dict[str, Any]:
        """The engine's JSON of the action ``key`` names in ``state``: what the durable log
        stores (see :mod:`services.action_codec`)."""

    def apply_logged(
        self, state: Any, seat: int, logged: dict[str, Any] | ActionKey, *, events: bool = True
    ) -> tuple[Any, list[GameEvent]]:
        """Apply a logged action (the engine's JSON, or an older log's button key); raises
        :class:`EngineIllegal` when not legal. ``events=False``: a replay, no events wanted."""

    def choose_action(self, state: Any, seat: int, level: str | None = None) -> ActionKey:
        """The AI's choice for ``seat`` (also used for 托管 auto-play), at ``level`` (one of
        :data:`services.model.AI_LEVELS`; ``None``: the engine's default AI)."""

    def timeout_action(self, state: Any, seat: int) -> ActionKey:
        """The safe default on a timeout: discard the drawn tile, or pass a claim."""

    def table_view(self, state: Any) -> TableView:
        """The public view."""

    def hand_view(self, state: Any, seat: int) -> HandView:
        """One seat's private view (its legal actions and 听牌 waits included)."""

    def hand_result(self, state: Any) -> HandResult | None:
        """The finished hand's result, or None while it is being played."""

    def hand_history(self, state: Any) -> tuple[dict[str, Any], ...]:
        """One summary per ended hand of the game (``how``, ``winners``, ``payer``,
        ``points``, ``dealer``, ``next_dealer`` …): a session's length and standings."""

    def encode_state(self, state: Any) -> dict[str, Any]:
        """JSON-ready state (lossless)."""

    def decode_state(self, data: dict[str, Any]) -> Any:
        """The inverse of :meth:`encode_state`."""


def default_engine() -> GameEngine:
    """The adapter over the real engine (``engine.game``)."""
    from services.real_engine import RealEngine

    return RealEngine()
