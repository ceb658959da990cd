"""The public cadence (services.reveal): every discard in a hand with humans shows the same
claim window for the hold, whoever may claim, so a window no longer tells the table that a
human could claim."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from svc_helpers import USERS, RecordingDelivery, lobby_with, settle, simple_choice

from engine.tiles import tile_str
from services import reveal
from services.delivery import GameSummary
from services.model import GameEvent, TableView
from services.real_engine import RealEngine

HOLD = 0.06


class TimedDelivery(RecordingDelivery):
    """Notes when each public table change reached the delivery."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[tuple[float, TableView, list[GameEvent]]] = []

    async def table_changed(
        self, game: GameSummary, table: TableView, events: list[GameEvent]
    ) -> None:
        self.tables.append((asyncio.get_running_loop().time(), table, list(events)))
        await super().table_changed(game, table, events)


@pytest.mark.parametrize("variant", ["shangrao", "xinyu", "jiujiang", "nanchang"])
def test_the_window_built_for_a_discard_is_the_engines_own(variant: str) -> None:
    """Where someone may claim, the engine shows a window: the view built from the table
    before the discard is that view exactly (so a built one cannot be told apart)."""
    engine = RealEngine()
    compared = 0
    for seed in range(6):
        state, _ = engine.new_game(variant, {}, f"cadence-{seed}")
        for _ in range(400):
            if engine.phase(state) not in ("turn", "claim"):
                break
            seat = engine.pending_seats(state)[0]
            before = state
            state, events = engine.apply(state, seat, engine.choose_action(state, seat, None))
            public = [e for e in events if e.visible_to is None]
            discard = next((e for e in public if e.kind == "discarded"), None)
            if discard is None or engine.phase(state) != "claim":
                continue
            ready = any(e.kind == "ready" for e in public)
            built = reveal.window_view(engine.table_view(before), discard, ready=ready)
            assert built == engine.table_view(state)
            compared += 1
    assert compared >= 10


def test_plan_holds_every_discard_and_folds_draws() -> None:
    """With a hold, each discard of an AI run is a window moment held at least the hold's
    lower bound; a draw is never a moment of its own (it shows with what follows)."""
    engine = RealEngine()
    state, _ = engine.new_game("shangrao", {}, "cadence-plan")
    steps: list[tuple[int | None, Any, Any, list[GameEvent]]] = []
    public: list[GameEvent] = []
    for _ in range(60):
        seat = engine.pending_seats(state)[0]
        before = state
        state, events = engine.apply(state, seat, engine.choose_action(state, seat, None))
        steps.append((seat, before, state, list(events)))
        public += [e for e in events if e.visible_to is None]
    plan = reveal.plan(
        engine,
        steps,
        public,
        pace=0.0,
        hold=1.5,
        holds=random.Random(1),
        final_phase=engine.phase(state),
    )
    assert plan is not None
    shown, final = plan
    discards = [e for e in public if e.kind == "discarded"]
    windows = [m for m in shown if m.window]
    assert len(windows) >= len(discards) - 1
    for moment in windows:
        assert moment.phase == "claim" and moment.view.turn is None
        assert 1.0 <= moment.pause <= 2.0
        [discard] = [e for e in moment.events if e.kind == "discarded"]
        assert moment.view.last_discard == (discard.data["seat"], discard.data["tile"])
    assert not [m for m in shown if m.events and all(e.kind == "drew" for e in m.events)]
    # every public event is shown once, in order
    ordered = [e for m in shown for e in m.events] + final
    assert [id(e) for e in ordered] == [id(e) for e in public]
    # without a hold (and no pace) nothing is planned: the change shows at once
    no_hold = reveal.plan(
        engine,
        steps,
        public,
        pace=0.0,
        hold=0.0,
        holds=random.Random(1),
        final_phase=engine.phase(state),
    )
    assert no_hold is None


async def test_every_discard_shows_the_same_window(make_service, store) -> None:
    """Two humans, two AI: every public discard reaches the table as a claim window, and the
    next public change comes no sooner than the hold's lower bound — for the discards a
    human could claim and for those nobody could alike."""
    delivery = TimedDelivery()
    svc = make_service(claim_hold=HOLD)
    svc.delivery = delivery
    gid = await lobby_with(svc, 2, variant="shangrao")
    await svc.start(gid, USERS[0])
    await settle(svc)
    human_windows = 0
    for _ in range(300):
        live = svc._games[gid].live
        if svc.engine.phase(live.state) not in ("turn", "claim"):
            break
        if svc.engine.phase(live.state) == "claim":
            human_windows += 1
        pressed = False
        for uid in USERS[:2]:
            view = await svc.private_view(gid, uid)
            if view.hand.legal:
                drawn = tile_str(view.hand.drawn) if view.hand.drawn is not None else None
                await svc.act(gid, uid, simple_choice(view.hand.legal, drawn))
                pressed = True
                break
        assert pressed
        await settle(svc)
    await settle(svc)
    tables = delivery.tables
    discards = 0
    for i, (at, table, events) in enumerate(tables):
        found = [e for e in events if e.kind == "discarded"]
        if not found:
            continue
        discards += 1
        assert len(found) == 1, "each discard is shown as a moment of its own"
        [discard] = found
        assert table.phase == "claim" and table.turn is None
        assert table.last_discard == (discard.data["seat"], discard.data["tile"])
        if i + 1 < len(tables):
            assert tables[i + 1][0] - at >= HOLD * (1 - reveal.HOLD_JITTER) - 0.005
    assert discards >= 20
    # the run had windows a human decided in, and (many more) discards nobody human could
    # claim: both showed the same way
    assert 0 < human_windows < discards
