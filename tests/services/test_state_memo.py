"""What the engine adapter works out per state lives as long as the state (issue 15): a game
held while hundreds of others make their states keeps its own, and dropped states take
theirs along (:mod:`services.state_memo`)."""

from __future__ import annotations

import gc
from dataclasses import dataclass

import services.real_engine as real_engine
from services.real_engine import RealEngine
from services.state_memo import StateMemo


@dataclass
class _Thing:
    n: int


def test_a_value_is_kept_for_that_very_object_and_goes_with_it() -> None:
    memo: StateMemo[str] = StateMemo()
    kept, twin = _Thing(1), _Thing(1)  # equal, not the same
    assert memo.put(kept, "worked out") == "worked out"
    assert memo.get(kept) == "worked out"
    assert memo.get(twin) is None
    memo.put(twin, "its own")
    assert (memo.get(kept), memo.get(twin), len(memo)) == ("worked out", "its own", 2)
    del kept
    gc.collect()
    assert len(memo) == 1 and memo.get(twin) == "its own"
    memo.clear()
    assert memo.get(twin) is None


def _play(engine: RealEngine, seed: str, moves: int) -> int:
    """States made by AI moves in a game of its own (all dropped afterwards)."""
    state, _ = engine.new_game("shangrao", {}, seed)
    made = 0
    for _ in range(moves):
        if engine.phase(state) != "turn" and engine.phase(state) != "claim":
            state, _ = engine.new_game("shangrao", {}, f"{seed}-{made}")
        seat = engine.pending_seats(state)[0]
        state, _ = engine.apply(state, seat, engine.choose_action(state, seat))
        made += 1
    return made


def test_a_held_state_keeps_its_step_table_and_hands_while_other_games_play() -> None:
    engine = RealEngine()
    held, _ = engine.new_game("xinyu", {}, "held")
    table = engine.table_view(held)
    keys = [engine.legal_actions(held, seat) for seat in range(4)]
    hands = [engine.hand_view(held, seat) for seat in range(4)]
    assert _play(engine, "others", 600) == 600  # far more states than the old 64 slots
    gc.collect()
    assert engine.table_view(held) is table  # not worked out again
    assert [engine.legal_actions(held, seat) for seat in range(4)] == keys
    assert all(engine.legal_actions(held, seat) is keys[seat] for seat in range(4) if keys[seat])
    assert all(engine.hand_view(held, seat) is hands[seat] for seat in range(4))
    # the other games' states are gone, and what was worked out for them with them
    assert len(real_engine._steps) < 50
    assert len(real_engine._tables) < 50
    assert len(real_engine._hands) < 50
