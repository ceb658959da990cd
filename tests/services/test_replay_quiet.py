"""A replay applies logged actions without making the engine's step for every state
(:func:`services.real_engine.replay_logged`) and reads each distinct logged action once
(:func:`services.action_codec.decode_logged`): the same states as a live game, the same
refusals, in both log forms (engine JSON, older button keys)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.game import ActionError, Chi, Discard, action_from_json, state_to_json
from services.action_codec import ActionKey, decode_logged
from services.errors import EngineIllegal
from services.real_engine import RealEngine, key_of


def test_decode_logged_reads_each_action_once() -> None:
    first = decode_logged({"type": "discard", "tile": 4})
    assert first == Discard(4) == action_from_json({"type": "discard", "tile": 4})
    assert decode_logged({"type": "discard", "tile": 4}) is first  # kept, not read again
    assert decode_logged({"type": "discard", "tile": 5}) == Discard(5)
    assert decode_logged({"type": "chi", "tiles": [3, 1, 2]}) == Chi((1, 2, 3))
    for bad in ({"type": "discard", "tile": 40}, {"type": "discard", "tile": True}, [1], {}):
        with pytest.raises(ActionError):
            decode_logged(bad)  # type: ignore[arg-type]


def _played(engine: RealEngine, seed: str, moves: int) -> list[tuple[int, dict[str, Any]]]:
    """``moves`` AI actions of a 上饶 game, as the log stores them."""
    state, _ = engine.new_game("shangrao", {}, seed)
    out = []
    for _ in range(moves):
        if engine.phase(state) != "turn" and engine.phase(state) != "claim":
            break
        seat = engine.pending_seats(state)[0]
        key = engine.choose_action(state, seat)
        logged = engine.log_action(state, seat, key)
        out.append((seat, logged))
        state, _ = engine.apply(state, seat, key)
    return out


@pytest.mark.parametrize("form", ["json", "button"])
def test_replay_makes_the_states_a_live_game_makes(form: str) -> None:
    engine = RealEngine()
    log = _played(engine, "quiet-replay", 40)
    assert len(log) > 20
    live, _ = engine.new_game("shangrao", {}, "quiet-replay")
    quiet, events = engine.new_game("shangrao", {}, "quiet-replay", events=False)
    assert events == []
    for seat, logged in log:
        named: dict[str, Any] | ActionKey = logged
        if form == "button":  # an older log: the button key, resolved against the state
            named = key_of(action_from_json(logged), live)
        live, live_events = engine.apply_logged(live, seat, named)
        quiet, events = engine.apply_logged(quiet, seat, named, events=False)
        assert live_events and events == []
        assert state_to_json(quiet) == state_to_json(live)
    for seat in range(4):  # the last state's legal actions, asked for once the replay ends
        assert engine.legal_actions(quiet, seat) == engine.legal_actions(live, seat)


def test_replay_refuses_an_illegal_logged_action() -> None:
    engine = RealEngine()
    state, _ = engine.new_game("xinyu", {}, "quiet-refused", events=False)
    other = (engine.pending_seats(state)[0] + 1) % 4
    for logged in (
        {"type": "discard", "tile": 0},
        {"type": "nonsense"},
        ActionKey("discard", "5m"),
        ActionKey("kong", "zz"),
        ActionKey("next"),
    ):
        with pytest.raises(EngineIllegal):
            engine.apply_logged(state, other, logged, events=False)
