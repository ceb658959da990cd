"""JSON round trips of actions and states, replay determinism, and views that never leak."""

from __future__ import annotations

import json

import pytest
from game_helpers import check_conservation

from engine.game import (
    ACTION_TYPES,
    ActionError,
    AddedKong,
    Chi,
    ConcealedKong,
    DeclareReady,
    Discard,
    IndicatorKong,
    KeepDrawing,
    Kong,
    NextHand,
    Pass,
    Pong,
    Win,
    action_from_json,
    action_to_json,
    apply,
    new_game,
    replay,
    state_from_json,
    state_to_json,
)
from engine.game.ai import choose_action
from engine.game.legal import waiting_for
from engine.game.simulate import play_hand, simulate
from engine.game.view import public_view, seat_view

ALL_ACTIONS = [
    Discard(5),
    Chi((3, 4, 5)),
    Pong(),
    Kong(),
    ConcealedKong(27),
    AddedKong(9),
    IndicatorKong(),
    Win(),
    Pass(),
    KeepDrawing(33),
    DeclareReady(0),
    NextHand(),
]


def test_every_action_type_round_trips():
    assert {a.type for a in ALL_ACTIONS} == set(ACTION_TYPES)
    for a in ALL_ACTIONS:
        assert action_from_json(json.loads(json.dumps(action_to_json(a)))) == a


@pytest.mark.parametrize(
    "bad",
    [
        None,
        {},
        {"type": "fly"},
        {"type": "discard"},
        {"type": "discard", "tile": 34},
        {"type": "discard", "tile": "5m"},
        {"type": "chi", "tiles": [1, 2]},
        {"type": "pong", "extra": 1},
        {"type": "discard", "tile": True},
    ],
)
def test_bad_action_json_is_refused(bad):
    with pytest.raises(ActionError):
        action_from_json(bad)


@pytest.mark.parametrize("variant", ["shangrao", "xinyu", "jiujiang"])
def test_state_json_round_trip_and_replay(variant):
    g, _ = new_game(variant, seed=f"rt-{variant}")
    log = []
    for _ in range(3):
        g = play_hand(g, log)
        blob = json.loads(json.dumps(state_to_json(g)))
        assert state_to_json(state_from_json(blob)) == state_to_json(g)
        a = choose_action(g, 0)
        log.append((0, a))
        g, _ = apply(g, 0, a)
    mid = json.loads(json.dumps(state_to_json(g)))
    assert state_to_json(state_from_json(mid)) == mid
    again = replay(variant, None, g.seed, log)
    assert state_to_json(again) == state_to_json(g)
    # continuing from the JSON snapshot gives the same game as continuing the original
    g1, g2 = g, state_from_json(mid)
    for _ in range(20):
        if g1.hand.phase == "over":
            break
        seat = waiting_for(g1)[0]
        a = choose_action(g1, seat)
        g1, e1 = apply(g1, seat, a)
        g2, e2 = apply(g2, seat, a)
        assert state_to_json(g1) == state_to_json(g2) and e1 == e2


def test_new_games_get_fresh_seeds():
    a, _ = new_game("xinyu")
    b, _ = new_game("xinyu")
    assert a.seed != b.seed and len(a.seed) == 64


def _hide_others(g, seat):
    """The same state with every other seat's concealed tiles and the wall order scrambled."""
    h = state_from_json(state_to_json(g)).hand
    pool = list(h.wall[h.head : h.tail + 1])
    for i, s in enumerate(h.seats):
        if i != seat:
            pool += s.hand
    pool.sort(reverse=True)
    wall = list(h.wall)
    live = pool[: h.tail + 1 - h.head]
    wall[h.head : h.tail + 1] = live
    h.wall = tuple(wall)
    rest = pool[len(live) :]
    for i, s in enumerate(h.seats):
        if i != seat:
            s.hand, rest = sorted(rest[: len(s.hand)]), rest[len(s.hand) :]
            s.drawn = None
    return h


def test_seat_view_shows_nothing_of_other_hands_or_the_wall():
    g, _ = new_game("shangrao", seed="view")
    for _ in range(25):
        for seat in range(4):
            view = seat_view(g, seat)
            assert view["own"]["hand"] == [t >> 2 for t in g.hand.seats[seat].hand]
            assert "wall" not in view
            assert all(set(s) >= {"concealed_count"} and "hand" not in s for s in view["seats"])
            scrambled = state_from_json(state_to_json(g))
            scrambled.hand = _hide_others(g, seat)
            check_conservation(scrambled)
            assert seat_view(scrambled, seat) == view
        assert "own" not in public_view(g)
        seat = next(s for s in range(4) if seat_view(g, s)["legal"])
        g, _ = apply(g, seat, choose_action(g, seat))


@pytest.mark.parametrize("variant", ["shangrao", "xinyu", "jiujiang", "nanchang"])
def test_simulator_checks_hands(variant):
    r = simulate(variant, 12, "sim")
    assert r["hands"] == 12 and r["errors"] == 0
    assert r["zero_sum_violations"] == 0 and r["replay_mismatches"] == 0
    assert r["wins"] >= r["self_draws"] + r["discard_wins"] - 0
    assert r["self_draws"] + r["discard_wins"] + r["draws"] == 12
