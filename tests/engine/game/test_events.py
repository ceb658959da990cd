"""Typed events (one dataclass per kind) and the step result of ``apply``."""

from __future__ import annotations

import json

import pytest

from engine.game import Step, advance, apply, legal_actions, new_game, step_of, waiting_for
from engine.game import events as ev
from engine.game.ai import choose_action
from engine.game.events import EVENT_TYPES, Event
from engine.game.machine import IllegalAction

#: kinds only one seat may see (a tile, a hand, or who may claim)
PRIVATE = {"dealt", "drawn", "touji", "claim_window", "responded"}


@pytest.mark.parametrize("variant", ["shangrao", "xinyu", "jiujiang"])
def test_every_event_is_typed_says_who_sees_it_and_round_trips(variant: str) -> None:
    seen: set[str] = set()
    step = new_game(variant, None, f"events-{variant}")
    for _ in range(3):  # three hands
        events = list(step.events)
        for _ in range(400):
            if step.state.hand.phase == "over":
                break
            seat = step.awaited[0]
            step = advance(step, seat, choose_action(step.state, seat, legal=step.legal_for(seat)))
            events += step.events
        for e in events:
            assert type(e) is EVENT_TYPES[e.kind] and isinstance(e, Event)
            assert (e.visible_to is not None) == (e.kind in PRIVATE), e
            again = Event.from_json(json.loads(json.dumps(e.to_json())))
            assert again == e and again.to_json() == e.to_json()
            seen.add(e.kind)
        step = advance(step, 0, step.legal_for(0)[0])  # 下一盘
    assert {"hand_started", "dice", "dealt", "drawn", "drew", "discarded", "hand_ended"} <= seen


def test_events_keep_the_data_the_log_has_always_held() -> None:
    claimed = ev.Claimed(2, "pong", 4, 1)
    assert claimed.to_json() == {
        "kind": "claimed",
        "visible_to": None,
        "data": {"seat": 2, "kind": "pong", "tile": 4, "from": 1},
    }
    window = ev.ClaimWindowOpened(3, "discard", 4, [{"type": "pong"}])
    assert window.to_json() == {
        "kind": "claim_window",
        "visible_to": 3,
        "data": {"kind": "discard", "tile": 4, "options": [{"type": "pong"}]},
    }
    assert ev.KeptDrawing(1).to_json() == {"kind": "touji", "visible_to": 1, "data": {"seat": 1}}
    assert ev.Dice("deal", values=[3, 4]).data == {"purpose": "deal", "values": [3, 4]}
    ended = ev.HandEnded({"how": "draw", "deltas": [0, 0, 0, 0]}, [0, 0, 0, 0], "s", [1], "c")
    assert ended.data == {
        "how": "draw",
        "deltas": [0, 0, 0, 0],
        "scores": [0, 0, 0, 0],
        "seed": "s",
        "wall": [1],
        "commitment": "c",
    }
    assert Event.from_json(ended.to_json()) == ended
    with pytest.raises(ValueError):
        Event.from_json({"kind": "nothing", "visible_to": None, "data": {}})


@pytest.mark.parametrize("variant", ["shangrao", "xinyu", "jiujiang"])
def test_a_step_holds_who_is_awaited_and_exactly_their_legal_actions(variant: str) -> None:
    step = new_game(variant, None, f"step-{variant}")
    for _ in range(150):
        state = step.state
        assert step.awaited == tuple(s for s in waiting_for(state) if legal_actions(state, s))
        for seat in range(4):
            assert list(step.legal_for(seat)) == legal_actions(state, seat)
        assert step_of(state) == Step(state, (), step.awaited, step.legal)
        if state.hand.phase == "over":
            break
        seat = step.awaited[0]
        action = choose_action(state, seat)
        by_state = apply(state, seat, action)
        step = advance(step, seat, action)
        assert by_state.pair()[1] == list(step.events)
        g, events = by_state  # a step unpacks as the (state, events) pair of old
        assert g.actions == step.state.actions and events == list(step.events)


def test_advance_checks_the_steps_own_legal_actions() -> None:
    step = new_game("xinyu", None, "advance-illegal")
    other = (step.awaited[0] + 1) % 4
    with pytest.raises(IllegalAction):
        advance(step, other, step.legal_for(step.awaited[0])[0])
    with pytest.raises(IllegalAction):
        advance(step, 9, step.legal_for(step.awaited[0])[0])
