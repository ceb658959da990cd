"""The one codec of actions: custom_id ↔ button key ↔ engine action ↔ log JSON, round trips."""

from __future__ import annotations

import pytest

from engine.game import Step, action_to_json, advance, new_game
from engine.game.actions import ActionError, ConcealedKong, Discard, IndicatorKong, Pass
from engine.game.ai import choose_action
from services.action_codec import (
    ActionKey,
    action_of,
    custom_id,
    entry_action,
    entry_key,
    key_of,
    log_step,
    parse_custom_id,
    read_logged,
    read_step,
)


def _indicator(step: Step) -> int | None:
    ind = step.state.hand.indicator
    return None if ind is None else ind >> 2


@pytest.mark.parametrize("variant", ["shangrao", "xinyu", "jiujiang", "nanchang"])
def test_every_legal_action_round_trips_through_button_custom_id_and_log(variant: str) -> None:
    checked = 0
    for seed in ("codec-a", "codec-b"):
        step = new_game(variant, None, seed)
        for _ in range(300):
            if step.state.hand.phase == "over":
                break
            indicator = _indicator(step)
            for seat in step.awaited:
                legal = step.legal_for(seat)
                keys = [key_of(a, indicator) for a in legal]
                assert len(set(keys)) == len(keys)  # one button per action
                for action, key in zip(legal, keys, strict=True):
                    assert action_of(key, legal, indicator) == action
                    gid, back = parse_custom_id(key.custom_id(4242)) or (None, None)
                    assert (gid, back) == (4242, key)
                    assert read_step(log_step(seat, action)) == (seat, action_to_json(action))
                    assert read_logged(action_to_json(action), ()) == action
                    assert read_logged(key, legal, indicator) == action  # an older log's key
                    checked += 1
            seat = step.awaited[0]
            step = advance(step, seat, choose_action(step.state, seat, legal=step.legal_for(seat)))
    assert checked > 200


def test_old_buttons_and_old_log_entries_still_read() -> None:
    # custom_ids on messages sent before the codec moved keep their format
    assert parse_custom_id("mj:17:discard:5m") == (17, ActionKey("discard", "5m"))
    assert parse_custom_id("mj:17:chi:345m") == (17, ActionKey("chi", "345m"))
    assert parse_custom_id("mj:17:pass") == (17, ActionKey("pass"))
    assert parse_custom_id("mj:17:discard:5m:extra") is None
    assert parse_custom_id("other:17:pass") is None
    assert custom_id(17, "kong", "5m") == "mj:17:kong:5m"
    # a log entry in the button form, and one in the engine's JSON
    old = {"k": "act", "kind": "discard", "arg": "5m", "ai": [[1, "pass", None]]}
    new = {"k": "act", "a": {"type": "discard", "tile": 4}, "ai": [[1, {"type": "pass"}]]}
    assert entry_action(old) == ActionKey("discard", "5m")
    assert entry_action(new) == {"type": "discard", "tile": 4}
    assert entry_key(old) == entry_key(new) == ActionKey("discard", "5m")
    assert read_step(old["ai"][0]) == (1, ActionKey("pass"))
    assert read_step(new["ai"][0]) == (1, {"type": "pass"})
    assert read_logged(ActionKey("pass"), [Pass()]) == Pass()
    with pytest.raises(ActionError):
        read_step([1, "pass"])
    with pytest.raises(ActionError):
        read_logged(ActionKey("discard", "0z"), [Discard(4)])


def test_which_kong_a_button_means_depends_on_the_hand() -> None:
    # kong:5m is a concealed kong unless the legal actions hold another kong of 5m
    assert action_of(ActionKey("kong", "5m"), []) == ConcealedKong(4)
    assert action_of(ActionKey("kong", "5m"), [IndicatorKong()], indicator=4) == IndicatorKong()
    assert key_of(IndicatorKong(), 4) == ActionKey("kong", "5m")
