"""Legal actions are worked out once per state and seat (issue 15: one engine step per press).

A press used to ask the engine for the same seat's legal actions up to eleven times (the
validation, the AI's choice, each hand drawn, the prompts): the adapter keeps the answer
per state. Counted here, not timed."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from svc_helpers import USERS, lobby_with, settle, simple_choice

import services.real_engine as real_engine
from engine.tiles import tile_str


@pytest.fixture
def engine_calls(monkeypatch: pytest.MonkeyPatch) -> tuple[Counter[tuple[int, int]], list[Any]]:
    """Every engine ``legal_actions`` call the adapter makes, by (state identity, seat)."""
    calls: Counter[tuple[int, int]] = Counter()
    held: list[Any] = []  # the states stay alive, so an identity is never reused
    real = real_engine.legal_actions

    def counting(state: Any, seat: int) -> Any:
        held.append(state)
        calls[(id(state), seat)] += 1
        return real(state, seat)

    monkeypatch.setattr(real_engine, "legal_actions", counting)
    real_engine._legal_memo.clear()
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
