"""Wildcards are a set of kinds in the game state; snapshots from before (one ``bao``) load."""

from __future__ import annotations

import json

from engine.game import new_game
from engine.game.danger import sight_from_view, sight_of
from engine.game.events import Event, Indicator
from engine.game.state import state_from_json, state_to_json
from engine.game.view import seat_view


def _old_form(snapshot: dict) -> dict:
    """The snapshot as versions before wildcard sets wrote it: ``bao`` (one kind or null)."""
    old = json.loads(json.dumps(snapshot))
    hand = old["hand"]
    kinds = hand.pop("wildcards")
    hand["bao"] = kinds[0] if kinds else None
    return old


def test_an_old_snapshot_with_one_bao_loads_as_a_set() -> None:
    g = new_game("shangrao", seed="old-bao").state
    assert len(g.hand.wildcards) == 1
    (kind,) = g.hand.wildcards
    loaded = state_from_json(_old_form(state_to_json(g)))
    assert loaded.hand.wildcards == frozenset({kind})
    assert state_to_json(loaded) == state_to_json(g)


def test_an_old_snapshot_without_a_bao_loads_with_no_wildcards() -> None:
    g = new_game("xinyu", seed="old-none").state
    assert g.hand.wildcards == frozenset()
    loaded = state_from_json(_old_form(state_to_json(g)))
    assert loaded.hand.wildcards == frozenset()
    assert state_to_json(loaded) == state_to_json(g)


def test_views_show_the_wildcard_set_and_old_views_still_read() -> None:
    g = new_game("shangrao", seed="view").state
    view = seat_view(g, 0)
    assert view["wildcards"] == sorted(g.hand.wildcards)
    assert "bao" not in view  # the set is the only form a view shows
    assert sight_from_view(view) == sight_of(g, 0)
    old = dict(view)
    (old["bao"],) = old.pop("wildcards")  # a view stored before wildcard sets: one bao
    assert sight_from_view(old) == sight_of(g, 0)


def test_the_indicator_event_names_the_wildcard_set_and_old_events_still_read() -> None:
    step = new_game("shangrao", seed="indicator-event")
    (event,) = [e for e in step.events if isinstance(e, Indicator)]
    assert event.wildcards == sorted(step.state.hand.wildcards)
    assert "bao" not in event.data
    assert Event.from_json(event.to_json()) == event
    old = {"kind": "indicator", "visible_to": None, "data": {"indicator": 3, "bao": 4}}
    assert Event.from_json(old) == Indicator(3, [4])
    none = {"kind": "indicator", "visible_to": None, "data": {"indicator": 3, "bao": None}}
    assert Event.from_json(none) == Indicator(3, [])
