"""Replay pictures (回放): one moment of a finished hand, and the whole hand animated.

A :class:`ReplayFrame` is the public table (:class:`render.models.TablePicture`) with a
caption (the move just played) and the concealed hands the replay shows — one seat's, or
all four: a replay is only ever made of a finished hand, whose tiles are revealed anyway.
:func:`render_frame` gives a PNG; :func:`render_animation` a looping GIF (one frame per
action, a few seconds per hand, under Discord's upload limit).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render import draw as d
from render import fonts
from render.hand import hand_image
from render.models import HandPicture, TablePicture
from render.table import table_image

CAPTION_H = 34
CAPTION_SIZE = 17
STRIP_GAP = 4
#: Discord's upload limit is 10 MiB; stay well under it.
MAX_BYTES = 8 * 1024 * 1024
#: The whole animation lasts about this long (ms), whatever the number of actions ...
TOTAL_MS = 6000
#: ... within these bounds per frame; the last frame stays longer.
FRAME_MS = (60, 400)
LAST_MS = 2500


@dataclass(frozen=True)
class ReplayFrame:
    """One moment of a replay: the table, a caption, the hands shown open (label, hand)."""

    table: TablePicture
    caption: str = ""
    hands: tuple[tuple[str, HandPicture], ...] = ()


def frame_image(frame: ReplayFrame) -> Image.Image:
    """The frame as a PIL image (RGB): caption, table, then each open hand below."""
    table = table_image(frame.table)
    strips = []
    for label, hand in frame.hands:
        pic = HandPicture(
            concealed=hand.concealed,
            drawn=hand.drawn,
            melds=(),  # the melds are on the table already
            wildcards=hand.wildcards,
            primary_wildcard=hand.primary_wildcard,
            flowers=0,
            title=label,
        )
        strips.append(hand_image(pic))
    width = max([table.width, *(s.width for s in strips)])
    height = CAPTION_H + table.height + sum(s.height + STRIP_GAP for s in strips)
    img = d.new_canvas(width, height)
    draw = ImageDraw.Draw(img)
    if frame.caption:
        caption = d.fit_text(fonts.safe_text(frame.caption), CAPTION_SIZE, width - 24)
        d.text(draw, (12, 8), caption, CAPTION_SIZE, fill=d.GOLD)
    img.paste(table, (0, CAPTION_H))
    y = CAPTION_H + table.height + STRIP_GAP
    for s in strips:
        img.paste(s, (0, y))
        y += s.height + STRIP_GAP
    return img


def render_frame(frame: ReplayFrame) -> bytes:
    """The frame as PNG bytes."""
    return d.to_png(frame_image(frame))


def frame_ms(frames: int) -> int:
    """Milliseconds per frame so that a hand lasts about :data:`TOTAL_MS`."""
    lo, hi = FRAME_MS
    return max(lo, min(hi, TOTAL_MS // max(frames, 1)))


def render_animation(frames: Sequence[ReplayFrame], *, scale: float = 0.6) -> bytes:
    """The frames as a looping GIF (shared palette, scaled by ``scale``); the scale drops
    until the file is under :data:`MAX_BYTES`."""
    if not frames:
        raise ValueError("an animation needs at least one frame")
    from render.palette import palette_image

    palette = palette_image()
    images = [frame_image(f) for f in frames]
    width = max(i.width for i in images)
    height = max(i.height for i in images)
    per = frame_ms(len(images))
    durations = [per] * (len(images) - 1) + [LAST_MS]
    while True:
        size = (max(1, int(width * scale)), max(1, int(height * scale)))
        quantized = []
        for im in images:
            if im.size != (width, height):
                canvas = d.new_canvas(width, height)
                canvas.paste(im, (0, 0))
                im = canvas
            small = im.resize(size, Image.Resampling.BILINEAR) if scale != 1 else im
            quantized.append(small.quantize(palette=palette, dither=Image.Dither.NONE))
        buf = io.BytesIO()
        quantized[0].save(
            buf,
            format="GIF",
            save_all=True,
            append_images=quantized[1:],
            duration=durations,
            loop=0,
            optimize=False,
            disposal=1,
        )
        data = buf.getvalue()
        if len(data) <= MAX_BYTES or scale <= 0.25:
            return data
        scale *= 0.75


__all__ = ["ReplayFrame", "frame_image", "frame_ms", "render_animation", "render_frame"]
