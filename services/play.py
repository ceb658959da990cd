"""Play: a human's action, the next hand, ending the game, 托管 on and off, timeouts.

Each command takes the game's lock, checks who asks and whether it is legal, commits the
change (robots' replies included) and queues what happened (see :mod:`services.core`).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass

from db.types import VersionConflict
from services.autoplay import safe_key
from services.core import GameCore
from services.delivery import GameSummary, PrivateUpdate
from services.errors import (
    IllegalMove,
    NotInGame,
    NotYourTurn,
    ServiceError,
    StaleButton,
    WrongPhase,
)
from services.gamelog import LiveGame
from services.model import ActionKey, GameEvent

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ActResult:
    """What an accepted action did: the game after it, public events, the actor's hand."""

    game: GameSummary
    events: tuple[GameEvent, ...]
    hand: PrivateUpdate | None = None


class PlayMixin(GameCore):
    """The play commands of :class:`services.game.GameService`."""

    @contextlib.asynccontextmanager
    async def _moved_on(self, live: LiveGame) -> AsyncIterator[None]:
        """Another process (shard) wrote first: reload the game and refuse as stale."""
        try:
            yield
        except VersionConflict:
            await self._reload(live)
            raise StaleButton("someone acted first") from None

    async def act(
        self, game_id: int, user_id: int, key: ActionKey, *, seen_version: int | None = None
    ) -> ActResult:
        """A human's action (a button or command). Committed before this returns.

        ``seen_version`` is the game version the pressed button was drawn for; a button from
        before the seat's current decision began is refused as stale.
        """
        live = await self._get(game_id)
        async with live.lock, self._moved_on(live):
            seat = live.seat_of(user_id)
            if seat is None:
                raise NotInGame()
            self._need(live, "active")
            events: list[GameEvent] = []
            if live.seats[seat].auto:
                events += await self._set_auto(live, seat, False)
            try:
                events += await self._human_action(live, seat, key, seen_version)
            except ServiceError:
                if events:  # coming off 托管 is a change worth showing
                    self._after_change(live, events)
                raise
            events += await self._advance(live)
            self._after_change(live, events)
            hand = self._private(live, seat, ()) if live.state is not None else None
        return ActResult(
            self._summary(live), tuple(e for e in events if e.visible_to is None), hand
        )

    async def _human_action(
        self, live: LiveGame, seat: int, key: ActionKey, seen_version: int | None
    ) -> list[GameEvent]:
        phase = self.engine.phase(live.state)
        if phase in ("hand_over", "game_over"):
            raise StaleButton("the hand is over")
        if seen_version is not None and seen_version < live.prompt_version.get(seat, 0):
            raise StaleButton(version=seen_version)
        if seat not in self.engine.pending_seats(live.state):
            raise NotYourTurn()
        legal = self.engine.legal_actions(live.state, seat)
        if key not in legal:
            raise IllegalMove(f"{key.kind} {key.arg or ''}".strip(), legal=[k.kind for k in legal])
        try:
            return await self._apply(live, seat, key, then_ai=True)
        except VersionConflict:
            # another process moved the game on: reload and try once more
            await self._reload(live)
            if seat not in self.engine.pending_seats(live.state) or key not in (
                self.engine.legal_actions(live.state, seat)
            ):
                raise StaleButton("someone acted first") from None
            return await self._apply(live, seat, key, then_ai=True)

    async def next_hand(self, game_id: int, user_id: int) -> GameSummary:
        """Deal the next hand (any seated human, after a hand is over)."""
        live = await self._get(game_id)
        async with live.lock, self._moved_on(live):
            if live.seat_of(user_id) is None:
                raise NotInGame()
            self._need(live, "active")
            if self.engine.phase(live.state) != "hand_over":
                raise StaleButton("the hand is still being played")
            seed = self.new_seed()
            state, events = self.engine.next_hand(live.state, seed)
            await self._commit(live, None, {"k": "next", "seed": seed})
            live.state = state
            live.hand_no += 1
            self._bookkeep(live, None, None, self.clock())
            live.delivered.clear()
            commitment = self._commitment(events)
            if commitment:
                await self.store.update_game(live.id, **commitment)
            events = list(events) + await self._advance(live)
            self._after_change(live, events)
        return self._summary(live)

    async def end_game(self, game_id: int, user_id: int) -> GameSummary:
        """End the game between hands (any seated human): totals are final."""
        live = await self._get(game_id)
        async with live.lock, self._moved_on(live):
            if live.seat_of(user_id) is None:
                raise NotInGame()
            self._need(live, "active")
            if self.engine.phase(live.state) not in ("hand_over", "game_over"):
                raise WrongPhase("finish the hand first, or abandon the game")
            await self._commit(live, None, {"k": "end"})
            await self._close(live, "finished")
        return self._summary(live)

    async def set_autoplay(self, game_id: int, user_id: int, on: bool) -> GameSummary:
        """Turn 托管 (auto-play) on or off for the user's seat."""
        live = await self._get(game_id)
        async with live.lock, self._moved_on(live):
            seat = live.seat_of(user_id)
            if seat is None:
                raise NotInGame()
            self._need(live, "active")
            events: list[GameEvent] = []
            if live.seats[seat].auto != on:
                events += await self._set_auto(live, seat, on)
                events += await self._advance(live)
            self._after_change(live, events)
        return self._summary(live)

    async def _on_timeout(self, live: LiveGame, version: int) -> None:
        """The awaited humans ran out of time: safe default, then 托管 until they return."""
        async with live.lock:
            if live.version != version or live.status != "active" or live.state is None:
                return
            live.timer = None
            events: list[GameEvent] = []
            for seat in self.engine.pending_seats(live.state):
                if live.seats[seat].robot:
                    continue
                if seat not in self.engine.pending_seats(live.state):
                    continue
                key = safe_key(self.engine, live.state, seat, live.id)
                try:
                    events += await self._apply(live, seat, key, timeout=True)
                except (IllegalMove, VersionConflict):
                    log.warning("game %s: timeout action %s refused", live.id, key)
                    await self._reload(live)
                    break
                events += await self._set_auto(live, seat, True)
            events += await self._advance(live)
            self._after_change(live, events)
