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
    assert len(found) == len(set(found)) == 9  # ⏮ ◀ ▶ ⏭ 🎞, the seat switch, 3 jumps
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


@pytest.fixture(scope="module")
def claimed() -> ReplayHand:
    """A Xinyu hand with claims and kongs, won."""
    games: list = []
    simulate("xinyu", 2, "views", None, verify=False, record=games)
    hand = games[0].hands[1]
    assert {"pong", "kong", "win"} <= {a.action.type for a in hand.actions}
    replay = hand_states("xinyu", {}, hand)
    return ReplayHand("#7-2", 7, 2, 1, "xinyu", ["a", "b", "c", "d"], hand, replay, None)  # type: ignore[arg-type]


def _buttons(view) -> dict[str, tuple[int, bool]]:
    """The jump buttons by op: (step they open, disabled)."""
    out = {}
    for item in view.walk_children():
        m = re.fullmatch(STEP_ID, item.custom_id)
        if m and m["op"] in "tcw":
            out[m["op"]] = (int(m["step"]), item.item.disabled)
    return out


def test_the_jumps_lead_to_the_next_own_turn_claim_and_win(claimed):
    rh = claimed
    jumps = _buttons(replay_view(rh, 0, 1, "zh"))
    turn, _ = jumps["t"]
    h = rh.replay.states[turn].hand
    assert h.phase == "turn" and h.turn == 1  # seat 1 to play
    assert all(
        not (rh.replay.states[s].hand.phase == "turn" and rh.replay.states[s].hand.turn == 1)
        for s in range(1, turn)
    )
    claim, _ = jumps["c"]
    assert rh.logged.actions[claim - 1].action.type in {"chi", "pong", "kong", "added_kong"}
    assert all(
        rh.logged.actions[s - 1].action.type in {"discard", "pass", "declare_ready"}
        for s in range(1, claim)
    )
    win, disabled = jumps["w"]
    assert rh.logged.actions[win - 1].action.type == "win" and not disabled
    # at the win nothing is left to jump to; with all four open there is no own turn
    at_end = _buttons(replay_view(rh, rh.steps, 1, "zh"))
    assert at_end["t"][1] and at_end["c"][1] and at_end["w"][1]
    assert _buttons(replay_view(rh, 0, ALL, "en"))["t"][1]
    labels = {getattr(i.item, "label", None) for i in replay_view(rh, 0, 1, "zh").walk_children()}
    assert {"下个自己回合", "下个吃碰杠", "胡牌"} <= labels


def test_pictures_off_the_replay_shows_the_tiles(claimed):
    from services.replay_text import tile_word

    rh = claimed
    h = rh.replay.states[10].hand
    text = replay_embed(rh, 10, 3, "zh", picture=False).description
    for x in h.seats[3].hand:  # seat 3's concealed tiles, by name
        assert tile_word(x >> 2, "zh") in text
    assert "牌河" in text
    with_picture = replay_embed(rh, 10, 3, "zh", picture=True).description
    assert "牌河" not in with_picture  # the picture shows them


def test_review_lines_open_their_step(claimed):
    from cogs.replay.commands import REVIEW_ID, review_view
    from engine.review import review_states

    rh = claimed
    actions = [(a.seat, a.action) for a in rh.logged.actions]
    for seat in range(4):
        lines = review_states(rh.replay.states, actions, seat)
        view = review_view(rh, seat, lines, "zh")
        if not lines:
            assert view is None
            continue
        [select] = list(view.walk_children())
        assert re.fullmatch(REVIEW_ID, select.custom_id)
        assert select.custom_id == f"mj:rv:7:2:{seat}"
        steps = [int(o.value) for o in select.item.options]
        assert steps == list(dict.fromkeys(line.step for line in lines))[:25]
        for option, step in zip(select.item.options, steps, strict=True):
            assert option.label.startswith(f"{step}. ") and len(option.label) <= 100
        return
    raise AssertionError("no seat has a review line")
