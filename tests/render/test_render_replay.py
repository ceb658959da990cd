"""Replay pictures (render.replay): a frame with open hands, and the animated hand."""

from __future__ import annotations

import io

from PIL import Image
from render_fixtures import table_state

from render.models import HandPicture
from render.replay import (
    FRAME_MS,
    LAST_MS,
    ReplayFrame,
    frame_image,
    frame_ms,
    render_animation,
    render_frame,
)
from render.table import HEIGHT, WIDTH


def frame(n_hands: int, caption: str = "#1-1 · 第 3/40 步 · 上家 bob 打 八条") -> ReplayFrame:
    hands = tuple(
        (f"seat {i}", HandPicture(concealed=tuple(range(i, i + 13)), drawn=20 if i == 0 else None))
        for i in range(n_hands)
    )
    return ReplayFrame(table=table_state(), caption=caption, hands=hands)


def test_a_frame_is_the_table_with_the_open_hands_below():
    one = frame_image(frame(1))
    four = frame_image(frame(4))
    bare = frame_image(frame(0, caption=""))
    assert bare.width == WIDTH and bare.height > HEIGHT
    assert one.height > bare.height and four.height > one.height
    assert render_frame(frame(2)).startswith(b"\x89PNG")


def test_frame_timing():
    lo, hi = FRAME_MS
    assert frame_ms(1) == hi and frame_ms(10_000) == lo
    assert lo <= frame_ms(100) <= hi


def test_the_animation_is_a_looping_gif_under_the_upload_limit():
    frames = [frame(4, caption=f"step {i}") for i in range(12)]
    data = render_animation(frames)
    assert len(data) < 10 * 1024 * 1024
    img = Image.open(io.BytesIO(data))
    assert img.format == "GIF" and img.n_frames == 12
    assert img.info.get("loop") == 0
    img.seek(11)
    assert img.info["duration"] == LAST_MS


def _colour_count(img: Image.Image, colour: tuple[int, int, int]) -> int:
    raw, want = img.convert("RGB").tobytes(), bytes(colour)
    return sum(1 for i in range(0, len(raw), 3) if raw[i : i + 3] == want)


def test_a_review_rings_the_tile_played_and_the_one_suggested():
    from dataclasses import replace

    from render import draw as d

    plain = frame(1)
    label, hand = plain.hands[0]
    advised = replace(plain, hands=((label, replace(hand, played=20, suggested=3)),))
    before, after = frame_image(plain), frame_image(advised)
    assert before.size == after.size
    strip = (0, before.height - 120, before.width, before.height)  # the hand below the table
    assert _colour_count(before.crop(strip), d.MINUS) == 0
    assert _colour_count(after.crop(strip), d.MINUS) > 100  # red: the tile played (drawn 20)
    assert _colour_count(after.crop(strip), d.PLUS) > 100  # green: the suggestion (3)
