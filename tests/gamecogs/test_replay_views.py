"""The replay message's components (cogs.replay.commands): persistent ids, bounds, the seat switch."""

from __future__ import annotations

import re

import pytest

from cogs.replay.commands import SEAT_ID, STEP_ID, replay_embed, replay_view
from engine.game.simulate import simulate
from engine.replay import hand_states
from services.replay import ALL, ReplayHand


@pytest.fixture(scope="module")
def rh() -> ReplayHand:
    games: list = []
    simulate("jiujiang", 1, "views", None, verify=False, record=games)
    hand = games[0].hands[0]
    replay = hand_states("jiujiang", {}, hand)
    return ReplayHand("#7-1", 7, 1, 1, "jiujiang", ["a", "b", "c", "d"], hand, replay, None)  # type: ignore[arg-type]


def ids(view) -> list[str]:
    return [item.custom_id for item in view.walk_children()]


def test_every_component_has_a_persistent_id(rh):
    view = replay_view(rh, 3, 0, "zh")
    found = ids(view)
    assert len(found) == len(set(found)) == 6
    for cid in found:
        assert len(cid) <= 100
        assert re.fullmatch(STEP_ID, cid) or re.fullmatch(SEAT_ID, cid), cid
    assert "mj:rp:7:1:p:2:0" in found and "mj:rp:7:1:n:4:0" in found
    assert f"mj:rp:7:1:l:{rh.steps}:0" in found and "mj:rs:7:1:3" in found


def test_buttons_stop_at_the_ends(rh):
    first = {i.custom_id: i for i in replay_view(rh, 0, ALL, "en").walk_children()}
    assert first["mj:rp:7:1:f:0:4"].item.disabled and first["mj:rp:7:1:p:0:4"].item.disabled
    assert not first["mj:rp:7:1:n:1:4"].item.disabled
    last = {i.custom_id: i for i in replay_view(rh, rh.steps, ALL, "en").walk_children()}
    assert last[f"mj:rp:7:1:n:{rh.steps}:4"].item.disabled


def test_the_seat_switch_marks_the_view(rh):
    view = replay_view(rh, 5, 2, "en")
    select = next(i for i in view.walk_children() if i.custom_id.startswith("mj:rs:"))
    options = select.item.options
    assert [o.value for o in options] == ["0", "1", "2", "3", "4"]
    assert [o.default for o in options] == [False, False, True, False, False]


def test_the_embed_marks_the_current_move_and_the_result(rh):
    embed = replay_embed(rh, 4, 0, "zh", picture=True)
    assert "**▶ 4. " in embed.description and embed.image.url == "attachment://replay.png"
    end = replay_embed(rh, rh.steps, ALL, "en", picture=False)
    assert "Result:" in end.description and end.image.url is None
    assert f"step {rh.steps}/{rh.steps}" in end.footer.text
