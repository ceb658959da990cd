"""Play: a human's action, dealing the next hand, 托管 on and off, timeouts.

Each command takes the game's lock, checks who asks and whether it is legal, commits the
change (robots' replies included) and queues what happened (see :mod:`services.core`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

from db.types import VersionConflict
from services.autoplay import safe_key
from services.core import GameCore
from services.delivery import GameSummary, PrivateUpdate
from services.errors import (
    IllegalMove,
    NotYourTurn,
    ServiceError,
    StaleButton,
    not_possible,
)
from services.gamelog import LiveGame
from services.model import ActionKey, GameEvent
from services.session_state import note_deal

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ActResult:
    """What an accepted action did: the game after it, public events, the actor's hand."""

    game: GameSummary
    events: tuple[GameEvent, ...]
    hand: PrivateUpdate | None = None


class Play:
    """The play commands of :class:`services.game.GameService`: a plain collaborator that
    works on the games its core holds, through the core's change path."""

    def __init__(self, core: GameCore) -> None:
        self.core = core

    async def act(
        self, game_id: int, user_id: int, key: ActionKey, *, seen_version: int | None = None
    ) -> ActResult:
        """A human's action (a button or command). Committed before this returns.

        ``seen_version`` is the game version the pressed button was drawn for; a button from
        before the seat's current decision began is refused as stale. Sharing the database,
        a refusal drawn from an old copy is tried once more on a fresh one.
        """
        return await self.core._on_fresh_copy(
            game_id, lambda: self._act(game_id, user_id, key, seen_version)
        )

    async def _act(
        self, game_id: int, user_id: int, key: ActionKey, seen_version: int | None
    ) -> ActResult:
        """:meth:`act` on the copy held now."""
        live = await self.core._get(game_id)
        async with live.lock, self.core._moved_on(live):
            seat = self.core._playing_seat(live, user_id)
            events: list[GameEvent] = []
            if live.seats[seat].auto:
                events += await self.core._set_auto(live, seat, False)
            try:
                events += await self._human_action(live, seat, key, seen_version)
            except ServiceError:
                if events:  # coming off 托管 is a change worth showing
                    self.core._after_change(live, events, actor=seat)
                raise
            events += await self.core._advance(live)
            own = live.steps[0] if live.steps and live.steps[0][0] == seat else None
            paced = self.core._after_change(live, events, actor=seat)
            game = self.core._summary(live)
            hand = self.core._private(live, seat, ()) if live.state is not None else None
            if paced and own is not None and live.state is not None:
                # the others' moves are being shown one by one: the answer shows the hand
                # right after this press; what follows reaches the hand message in its turn
                moment = self.core._private(live, seat, (), state=own[2])
                hand = replace(moment, hand=replace(moment.hand, legal=()))
                game = replace(game, phase=self.core.engine.phase(own[2]))
        return ActResult(game, tuple(e for e in events if e.visible_to is None), hand)

    async def _human_action(
        self, live: LiveGame, seat: int, key: ActionKey, seen_version: int | None
    ) -> list[GameEvent]:
        phase = self.core.engine.phase(live.state)
        if phase in ("hand_over", "game_over"):
            raise StaleButton("the hand is over")
        if seen_version is not None and seen_version < live.prompt_version.get(seat, 0):
            raise StaleButton(version=seen_version)
        if seat not in self.core.engine.pending_seats(live.state):
            raise NotYourTurn()
        legal = self.core.engine.legal_actions(live.state, seat)
        if key not in legal:
            raise IllegalMove(not_possible(key.kind, key.arg), legal=[k.kind for k in legal])
        try:
            return await self.core._apply(live, seat, key, then_ai=True)
        except VersionConflict:
            # another process moved the game on: reload and try once more
            await self.core._reload(live)
            if seat not in self.core.engine.pending_seats(live.state) or key not in (
                self.core.engine.legal_actions(live.state, seat)
            ):
                raise StaleButton("someone acted first") from None
            return await self.core._apply(live, seat, key, then_ai=True)

    async def deal_next(self, live: LiveGame) -> None:
        """Deal the next hand (under the lock, the hand over): see
        :meth:`services.session.Session.ready` — it starts once every seat is ready
        (准备); ending a game early takes a 解散 vote."""
        seed = self.core.new_seed()
        state, events = self.core.engine.next_hand(live.state, seed)
        # the hand's fairness hash is written with the deal, in the same versioned write, and
        # so are the deadline it leads to and the results still owed
        # (:meth:`services.results_owed.ResultsOwed.deal_notes`)
        entry = {"k": "next", "seed": seed, **self.core.results.deal_notes(live)}
        await self.core._commit(live, None, entry, after=state, **self.core._commitment(events))
        note_deal(live.session, entry)
        self.core._commitment(events, live)
        live.state = state
        live.hand_no += 1
        self.core._bookkeep(live, None, None, self.core.clock())
        live.steps.append((None, None, state, list(events)))
        live.delivered.clear()
        events = list(events) + await self.core._advance(live)
        self.core._after_change(live, events)

    async def set_autoplay(self, game_id: int, user_id: int, on: bool) -> GameSummary:
        """Turn 托管 (auto-play) on or off for the user's seat."""
        return await self.core._on_fresh_copy(game_id, lambda: self._autoplay(game_id, user_id, on))

    async def _autoplay(self, game_id: int, user_id: int, on: bool) -> GameSummary:
        """:meth:`set_autoplay` on the copy held now."""
        live = await self.core._get(game_id)
        async with live.lock, self.core._moved_on(live):
            seat = self.core._playing_seat(live, user_id)
            events: list[GameEvent] = []
            if live.seats[seat].auto != on:
                events += await self.core._set_auto(live, seat, on)
                events += await self.core._advance(live)
            self.core._after_change(live, events, actor=seat)
        return self.core._summary(live)

    async def timed_out(self, live: LiveGame, version: int) -> None:
        """The awaited humans ran out of time: the safe default. A turn that timed out also
        puts the seat on 托管 until they return; a claim window that timed out only passes,
        quietly: a timeout line or a 托管 mark right after a discard would tell everyone who
        could have claimed it."""
        async with live.lock:
            if live.version != version or live.status != "active" or live.state is None:
                return
            live.timer = None
            events: list[GameEvent] = []
            claim = self.core.engine.phase(live.state) == "claim"
            for seat in self.core.engine.pending_seats(live.state):
                if live.seats[seat].robot:
                    continue
                if seat not in self.core.engine.pending_seats(live.state):
                    continue
                key = safe_key(self.core.engine, live.state, seat, live.id)
                try:
                    events += await self.core._apply(live, seat, key, timeout=True)
                except (IllegalMove, VersionConflict):
                    log.warning("game %s: timeout action %s refused", live.id, key)
                    await self.core._reload(live)
                    break
                if not claim:
                    events += await self.core._set_auto(live, seat, True)
            events += await self.core._advance(live)
            self.core._after_change(live, events)
