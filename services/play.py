"""Play: a human's action, dealing the next hand, 托管 on and off, timeouts.

Each command takes the game's lock, checks who asks and whether it is legal, commits the
change (robots' replies included) and queues what happened (see :mod:`services.table`).
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
from services.model import ActionKey, GameEvent
from services.session_state import note_deal
from services.table import Table

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ActResult:
    """What an accepted action did: the game after it, public events, the actor's hand."""

    game: GameSummary
    events: tuple[GameEvent, ...]
    hand: PrivateUpdate | None = None


class Play:
    """The play commands of :class:`services.game.GameService`: a plain collaborator that
    finds the game's table through the core and changes it along the table's change path."""

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
        table = await self.core._get(game_id)
        live = table.live
        async with table.lock, table.moved_on():
            seat = table.playing_seat(user_id)
            events: list[GameEvent] = []
            if live.seats[seat].auto:
                events += await table.set_auto(seat, False)
            try:
                events += await self._human_action(table, seat, key, seen_version)
            except ServiceError:
                if events:  # coming off 托管 is a change worth showing
                    table.after_change(events, actor=seat)
                raise
            events += await table.advance()
            own = live.steps[0] if live.steps and live.steps[0][0] == seat else None
            paced = table.after_change(events, actor=seat)
            game = table.summary()
            hand = table.private(seat, ()) if live.state is not None else None
            if paced and own is not None and live.state is not None:
                # the others' moves are being shown one by one: the answer shows the hand
                # right after this press; what follows reaches the hand message in its turn
                moment = table.private(seat, (), state=own[2])
                hand = replace(moment, hand=replace(moment.hand, legal=()))
                game = replace(game, phase=table.engine.phase(own[2]))
        return ActResult(game, tuple(e for e in events if e.visible_to is None), hand)

    async def _human_action(
        self, table: Table, seat: int, key: ActionKey, seen_version: int | None
    ) -> list[GameEvent]:
        live, engine = table.live, table.engine
        phase = engine.phase(live.state)
        if phase in ("hand_over", "game_over"):
            raise StaleButton("the hand is over")
        if seen_version is not None and seen_version < live.prompt_version.get(seat, 0):
            raise StaleButton(version=seen_version)
        if seat not in engine.pending_seats(live.state):
            raise NotYourTurn()
        legal = engine.legal_actions(live.state, seat)
        if key not in legal:
            raise IllegalMove(not_possible(key.kind, key.arg), legal=[k.kind for k in legal])
        try:
            return await table.apply(seat, key, then_ai=True)
        except VersionConflict:
            # another process moved the game on: reload and try once more
            await table.reload()
            if seat not in engine.pending_seats(live.state) or key not in (
                engine.legal_actions(live.state, seat)
            ):
                raise StaleButton("someone acted first") from None
            return await table.apply(seat, key, then_ai=True)

    async def deal_next(self, table: Table) -> None:
        """Deal the next hand (under the lock, the hand over): see
        :meth:`services.session.Session.ready` — it starts once every seat is ready
        (准备); ending a game early takes a 解散 vote."""
        live = table.live
        seed = self.core.new_seed()
        state, events = table.engine.next_hand(live.state, seed)
        # the hand's fairness hash is written with the deal, in the same versioned write, and
        # so are the deadline it leads to and the results still owed
        # (:meth:`services.results_owed.ResultsOwed.deal_notes`)
        entry = {"k": "next", "seed": seed, **self.core.results.deal_notes(live)}
        await table.commit(None, entry, after=state, **table.commitment(events))
        note_deal(live.session, entry)
        table.commitment(events, keep=True)
        live.state = state
        live.hand_no += 1
        table.bookkeep(None, None, self.core.clock())
        live.steps.append((None, None, state, list(events)))
        live.delivered.clear()
        events = list(events) + await table.advance()
        table.after_change(events)

    async def set_autoplay(self, game_id: int, user_id: int, on: bool) -> GameSummary:
        """Turn 托管 (auto-play) on or off for the user's seat."""
        return await self.core._on_fresh_copy(game_id, lambda: self._autoplay(game_id, user_id, on))

    async def _autoplay(self, game_id: int, user_id: int, on: bool) -> GameSummary:
        """:meth:`set_autoplay` on the copy held now."""
        table = await self.core._get(game_id)
        async with table.lock, table.moved_on():
            seat = table.playing_seat(user_id)
            events: list[GameEvent] = []
            if table.live.seats[seat].auto != on:
                events += await table.set_auto(seat, on)
                events += await table.advance()
            table.after_change(events, actor=seat)
        return table.summary()

    async def timed_out(self, table: Table, version: int) -> None:
        """The awaited humans ran out of time: the safe default. A turn that timed out also
        puts the seat on 托管 until they return; a claim window that timed out only passes,
        quietly: a timeout line or a 托管 mark right after a discard would tell everyone who
        could have claimed it."""
        live, engine = table.live, table.engine
        async with table.lock:
            if live.version != version or live.status != "active" or live.state is None:
                return
            live.timer = None
            events: list[GameEvent] = []
            claim = engine.phase(live.state) == "claim"
            for seat in engine.pending_seats(live.state):
                if live.seats[seat].robot:
                    continue
                if seat not in engine.pending_seats(live.state):
                    continue
                key = safe_key(engine, live.state, seat, live.id)
                try:
                    events += await table.apply(seat, key, timeout=True)
                except (IllegalMove, VersionConflict):
                    log.warning("game %s: timeout action %s refused", live.id, key)
                    await table.reload()
                    break
                if not claim:
                    events += await table.set_auto(seat, True)
            events += await table.advance()
            table.after_change(events)
