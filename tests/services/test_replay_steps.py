"""A replay a person can follow (services.replay_steps, services.replay): the animation held
per step — a claim and the win longer than a discard — from the chosen seat unless all four
are asked for (摊牌); the step viewer's jumps; the tiles in words when pictures are off."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image

from engine.game.simulate import simulate
from engine.replay import hand_states
from render.replay import frame_durations, render_animation
from services.replay import ALL, ReplayHand, animation_frames, tiles_lines
from services.replay_steps import (
    CLAIMS,
    KONGS,
    next_claim,
    next_own_turn,
    step_kind,
    win_step,
)
from services.replay_text import tile_word

NAMES = ["阿明", "Bob", "김민준", "Zoë"]


def _hands() -> list:
    games: list = []
    simulate("xinyu", 4, "views", None, verify=False, record=games)
    return [h for g in games for h in g.hands]


@pytest.fixture(scope="module")
def hands() -> list[ReplayHand]:
    out = []
    for i, hand in enumerate(_hands()):
        replay = hand_states("xinyu", {}, hand)
        out.append(ReplayHand(f"#7-{i + 1}", 7, i + 1, 1, "xinyu", NAMES, hand, replay, None))  # type: ignore[arg-type]
    return out


@pytest.fixture(scope="module")
def rh(hands: list[ReplayHand]) -> ReplayHand:
    """A won hand with claims and kongs."""
    for h in hands:
        types = {a.action.type for a in h.logged.actions}
        if "win" in types and types & CLAIMS and types & (KONGS - {"kong"}) and h.steps > 50:
            return h
    raise AssertionError("no hand with claims, a kong from the hand and a win")


@pytest.fixture(scope="module")
def drawn(hands: list[ReplayHand]) -> ReplayHand:
    """A drawn hand (流局)."""
    return next(h for h in hands if all(a.action.type != "win" for a in h.logged.actions))


def _kinds(rh: ReplayHand) -> list[str]:
    return [step_kind(rh, s) for s in range(rh.steps + 1)]


def test_the_animation_holds_each_step_by_what_it_shows(rh: ReplayHand) -> None:
    frames = animation_frames(rh, 0, "zh")
    assert len(frames) == rh.steps + 1
    durations = frame_durations(frames)
    kinds = _kinds(rh)
    by_kind: dict[str, list[int]] = {}
    for kind, ms in zip(kinds, durations, strict=True):
        by_kind.setdefault(kind, []).append(ms)
    assert {"deal", "discard", "claim", "win"} <= set(by_kind)
    # a discard long enough to see (the old GIF gave every step 6 s / steps: ≈ 0.1 s)
    assert min(by_kind["discard"]) >= 700
    assert min(by_kind["claim"]) >= 2 * max(by_kind["discard"])
    assert durations[-1] == max(durations) >= 5000  # the win is held longest
    assert durations[0] >= 1500  # the deal
    # the whole hand plays in about a minute or two, not in six seconds
    assert 30_000 <= sum(durations) <= 180_000


def test_the_gif_keeps_those_holds(rh: ReplayHand) -> None:
    frames = animation_frames(rh, 1, "en")[:12]
    gif = Image.open(io.BytesIO(render_animation(frames, scale=0.3)))
    shown = []
    for i in range(gif.n_frames):
        gif.seek(i)
        shown.append(gif.info["duration"])
    assert shown == frame_durations(frames)


def test_the_animation_is_seen_from_the_chosen_seat(rh: ReplayHand) -> None:
    for seat in range(4):
        frames = animation_frames(rh, seat, "zh")
        for f in frames:
            assert len(f.hands) == 1 and f.table.viewer == seat
            assert f.hands[0][0] == NAMES[seat]  # only that seat's concealed hand
    every = animation_frames(rh, ALL, "zh")  # 摊牌: all four open, only when asked
    assert all(len(f.hands) == 4 for f in every)


def test_next_own_turn_is_the_seats_next_move(rh: ReplayHand) -> None:
    for seat in range(4):
        step = 0
        turns = 0
        while (found := next_own_turn(rh, step, seat)) is not None:
            assert found > step
            h = rh.replay.states[found].hand
            assert h.phase == "turn" and h.turn == seat
            for between in range(step + 1, found):  # none skipped
                b = rh.replay.states[between].hand
                assert not (b.phase == "turn" and b.turn == seat)
            step, turns = found, turns + 1
        assert turns >= 5


def test_next_claim_and_the_win(rh: ReplayHand, drawn: ReplayHand) -> None:
    claims = [s for s in range(1, rh.steps + 1) if step_kind(rh, s) == "claim"]
    assert claims
    assert next_claim(rh, 0) == claims[0]
    for a, b in itertools.pairwise(claims):
        assert next_claim(rh, a) == b
    assert next_claim(rh, claims[-1]) is None
    win = win_step(rh)
    assert win is not None and rh.logged.actions[win - 1].action.type == "win"
    assert win_step(drawn) is None


def test_the_tiles_in_words(rh: ReplayHand) -> None:
    """Pictures off: the shown seat's concealed tiles, every river and meld, in words; the
    other seats' concealed tiles only as a count."""
    step = next_claim(rh, 0) or 1
    h = rh.replay.states[step].hand
    lines = tiles_lines(rh, step, 2, "zh")
    assert len(lines) == 4
    own = lines[2]
    for x in h.seats[2].hand:
        assert tile_word(x >> 2, "zh") in own
    for i, seat in enumerate(h.seats):
        for x in seat.river:
            assert tile_word(x >> 2, "zh") in lines[i]
        if i != 2:
            assert f"{len(seat.hand)} 张" in lines[i]
    every = tiles_lines(rh, step, ALL, "en")
    for i, seat in enumerate(h.seats):
        for x in seat.hand:
            assert tile_word(x >> 2, "en") in every[i]


def test_a_drawn_hand_ends_held_as_long_as_a_win(drawn: ReplayHand) -> None:
    durations = frame_durations(animation_frames(drawn, ALL, "en"))
    assert step_kind(drawn, drawn.steps) != "win"
    assert durations[-1] == max(durations) >= 5000


def test_a_review_line_is_drawn_on_its_seats_hand(rh: ReplayHand) -> None:
    """Opened from a review line: just before that play, the seat's hand rings the tile it
    played and the one the analysis suggests; the caption says the advice."""
    from engine.review import review_states
    from services.replay import frame

    actions = [(a.seat, a.action) for a in rh.logged.actions]
    for seat in range(4):
        lines = [x for x in review_states(rh.replay.states, actions, seat) if "played" in x.data]
        if not lines:
            continue
        line = lines[0]
        shown = frame(rh, line.step - 1, seat, "zh", advice=line)
        [(_label, hand)] = shown.hands
        assert (hand.played, hand.suggested) == (line.data["played"], line.data["suggested"])
        held = set(hand.concealed) | {hand.drawn}
        assert hand.played in held and hand.suggested in held
        assert line.zh in shown.caption
        other = frame(rh, line.step - 1, (seat + 1) % 4, "zh", advice=line)
        assert other.hands[0][1].played is None  # another seat's hand is not ringed
        return
    raise AssertionError("no seat has a discard review line")
