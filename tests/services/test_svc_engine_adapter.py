"""The adapter over engine.game: every legal action has a button key that maps back to it."""

from __future__ import annotations

import pytest

from engine.game import legal_actions
from services.real_engine import RealEngine, key_of


@pytest.mark.parametrize("variant", ["shangrao", "xinyu", "jiujiang", "nanchang"])
def test_keys_round_trip_over_whole_hands(variant):
    engine = RealEngine()
    checked = 0
    for seed in ("a", "b", "c"):
        state, _ = engine.new_game(variant, {}, f"adapter-{seed}")
        for _ in range(400):
            if engine.phase(state) == "hand_over":
                break
            for seat in range(4):
                actions = legal_actions(state, seat)
                keys = engine.legal_actions(state, seat)
                assert len(set(keys)) == len(keys) == len(actions)  # one key per action
                for action in actions:
                    assert engine._action_for(state, seat, key_of(action, state)) == action
                    checked += 1
            seat = engine.pending_seats(state)[0]
            state, _ = engine.apply(state, seat, engine.choose_action(state, seat))
        assert engine.hand_result(state) is not None or engine.phase(state) != "hand_over"
    assert checked > 300


def test_state_codec_and_views_hide_nothing_of_the_own_hand():
    engine = RealEngine()
    state, _ = engine.new_game("shangrao", {}, "codec")
    again = engine.decode_state(engine.encode_state(state))
    assert engine.encode_state(again) == engine.encode_state(state)
    table = engine.table_view(state)
    for seat in range(4):
        view = engine.hand_view(state, seat)
        own = len(view.concealed) + (view.drawn is not None)
        assert own == table.seats[seat].concealed_count
