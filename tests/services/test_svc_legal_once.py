"""Legal actions are worked out once per state and seat (issue 15: one engine step per press).

A press used to ask the engine for the same seat's legal actions up to eleven times (the
validation, the AI's choice, each hand drawn, the prompts): now the engine works them out
when it makes a step (:class:`engine.game.Step`), and the validation, the AI and the views
read the step's. Counted here, not timed."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from svc_helpers import USERS, lobby_with, settle, simple_choice

import engine.game.ai as engine_ai
import engine.game.machine as engine_machine
import engine.game.step as engine_step
import engine.game.view as engine_view
import services.real_engine as real_engine
from engine.tiles import tile_str


@pytest.fixture
def engine_calls(monkeypatch: pytest.MonkeyPatch) -> tuple[Counter[tuple[int, int]], list[Any]]:
    """Every ``legal_actions`` computation of the engine (its steps, its ``apply``, its AI
    and its views), by (state identity, seat)."""
    calls: Counter[tuple[int, int]] = Counter()
    held: list[Any] = []  # the states stay alive, so an identity is never reused
    real = engine_step.legal_actions

    def counting(state: Any, seat: int) -> Any:
        held.append(state)
        calls[(id(state), seat)] += 1
        return real(state, seat)

    for module in (engine_step, engine_machine, engine_ai, engine_view):
        monkeypatch.setattr(module, "legal_actions", counting)
    real_engine._steps.clear()
    real_engine._keys_memo.clear()
    return calls, held


async def test_a_press_asks_the_engine_once_per_state_and_seat(make_service, engine_calls) -> None:
    calls, _held = engine_calls
    svc = make_service()
    gid = await lobby_with(svc, 1)
    await svc.start(gid, USERS[0])
    await settle(svc)
    presses = 0
    for _ in range(12):
        view = await svc.private_view(gid, USERS[0])
        if not view.hand.legal:
            break
        drawn = tile_str(view.hand.drawn) if view.hand.drawn is not None else None
        calls.clear()
        await svc.act(gid, USERS[0], simple_choice(view.hand.legal, drawn))
        await settle(svc)
        presses += 1
        repeated = {key: n for key, n in calls.items() if n > 1}
        assert not repeated, f"press {presses}: legal actions worked out again: {repeated}"
    assert presses >= 3
