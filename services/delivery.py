"""Where the service sends what happened: the :class:`Delivery` protocol.

The Discord implementation is :mod:`cogs.delivery.discord_delivery`; tests use a recording fake. The service
calls these after the actions are committed, in order per game — the hand DMs
(:meth:`Delivery.hand_changed`) in a lane of their own that the channel's calls do not wait
for (:mod:`services.outbox`) — and a failure here is only logged: it never rolls back a
committed action.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from services.model import GameEvent, HandResult, HandView, Seat, TableView


@dataclass(frozen=True)
class GameSummary:
    """A game as delivery and the cogs see it (a copy; changing it changes nothing)."""

    id: int
    guild_id: int
    channel_id: int
    variant: str
    options: dict[str, Any]
    seats: tuple[Seat, ...]
    status: str  # lobby | active | finished | abandoned
    version: int
    totals: tuple[int, ...]
    hand_no: int = 0
    phase: str = "lobby"  # lobby | turn | claim | hand_over | game_over
    hints: bool = True
    turn_timeout: int = 60
    claim_timeout: int = 15
    deadline: float | None = None  # epoch seconds when the awaited decision times out
    table_message_id: int | None = None
    #: where the game is played: its thread, or the channel itself; None = not decided yet
    thread_id: int | None = None
    #: play in a thread of its own when the bot may create one (the server's ``thread``)
    use_thread: bool = False
    #: the Discord messages delivery keeps up to date (hand DMs, alerts, the last result)
    messages: dict[str, Any] = field(default_factory=dict)
    #: the session: length, 准备, 解散 vote, standings, 再来一局
    #: (:class:`services.session_state.SessionInfo`; None where no service made it)
    session: Any = None

    @property
    def host_id(self) -> int | None:
        """The host: the first human seat."""
        for seat in self.seats:
            if not seat.ai and seat.user_id is not None:
                return seat.user_id
        return None

    def seat_of(self, user_id: int) -> int | None:
        """The seat index of ``user_id``, or None."""
        for i, seat in enumerate(self.seats):
            if seat.user_id == user_id and not seat.ai:
                return i
        return None


@dataclass(frozen=True)
class PrivateUpdate:
    """A seat's hand after a change, with the wait hints (听牌提示) when on."""

    seat: int
    user_id: int
    hand: HandView
    hints: tuple[tuple[int, int], ...] = ()  # (winning kind, how many unseen by this seat)
    events: tuple[GameEvent, ...] = field(default=())  # events only this seat sees
    #: the game version at which the seat's current decision began: the same for every
    #: update of one decision (one "your turn" prompt), new for the next
    prompt: int = 0
    #: the seat's alert episode while it is asked to decide (0 when it is not): consecutive
    #: decisions in one turn (draw → kong → discard) share one, so they get one alert
    alert: int = 0
    #: ``turn`` or ``claim``: what the seat is asked now (empty when not asked)
    alert_kind: str = ""


class Delivery(Protocol):
    """Async callbacks; each may raise — the service logs it and carries on.

    A delivery may also have ``resend_delay(error) -> float | None``: how many seconds at
    least to wait before a call that raised ``error`` is made again (a rate limit, a server
    or network error), or None when making it again cannot help. Without it nothing is
    made again (:mod:`services.outbox`). Calls are then made at least once: after a restart
    :meth:`hand_ended` is called again for a hand over whose result may not have been shown
    (the delivery remembers what it showed, in ``GameSummary.messages``; once a result's
    call returned, its ``result_posted`` entry says so and no restart calls it again,
    :mod:`services.results_owed`).

    A delivery may also have ``past_result(game, result, table)``: after a restart, the
    result of an earlier hand that never went out (a table of AI and 托管 seats deals the
    next hand at once), ``game`` as it stood when that hand ended — posted once, leaving the
    table (which shows the hand in play) alone. Without it :meth:`hand_ended` is called.
    """

    async def lobby_changed(self, game: GameSummary) -> None:
        """The lobby's seats changed (or it was just created)."""

    async def table_changed(
        self, game: GameSummary, table: TableView, events: list[GameEvent]
    ) -> None:
        """Public events happened; refresh the table message and post short lines."""

    async def hand_changed(self, game: GameSummary, update: PrivateUpdate) -> None:
        """A human seat's hand or legal actions changed: refresh its private view."""

    async def hand_ended(
        self, game: GameSummary, result: HandResult, table: TableView
    ) -> bool | None:
        """The hand is over: the result, every scoring item, payments, the seed reveal.
        True: the delivery stored ``result_posted`` with the game's messages itself (the
        service then writes nothing more for it); else the service notes it."""

    async def game_ended(self, game: GameSummary, reason: str) -> None:
        """The game is over (``finished`` or ``abandoned``): final totals."""

    async def refresh(self, game: GameSummary, table: TableView | None) -> None:
        """After a restart: re-post or edit the table (re-delivering hands follows)."""

    async def session_changed(self, game: GameSummary, result: HandResult | None) -> None:
        """The session changed (``game.session``): who is ready (准备) on the result of
        ``result`` (None once the next hand is dealt), the 解散 vote, the standings'
        再来一局. Also called after a restart to show them again."""


class NullDelivery:
    """A delivery that drops everything (for tools and tests that do not look)."""

    async def lobby_changed(self, game: GameSummary) -> None:
        return None

    async def table_changed(
        self, game: GameSummary, table: TableView, events: list[GameEvent]
    ) -> None:
        return None

    async def hand_changed(self, game: GameSummary, update: PrivateUpdate) -> None:
        return None

    async def hand_ended(
        self, game: GameSummary, result: HandResult, table: TableView
    ) -> bool | None:
        return None

    async def game_ended(self, game: GameSummary, reason: str) -> None:
        return None

    async def refresh(self, game: GameSummary, table: TableView | None) -> None:
        return None

    async def session_changed(self, game: GameSummary, result: HandResult | None) -> None:
        return None
