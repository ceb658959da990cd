"""Small charts (图表): a player's rating history (等级分走势) as a line on the felt.

Same look as the game pictures (``render.draw`` colours, the shipped font); pure Pillow.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime

from PIL import Image, ImageDraw

from render import draw as d

WIDTH = 640
HEIGHT = 280
PAD = 14
TITLE_SIZE = 18
LABEL_SIZE = 13
LEFT = 58  # room for the value labels
BOTTOM = 24  # room for the date labels
LINE = d.GOLD
GRID = d.PANEL_EDGE
LINE_WIDTH = 3
DOT = 3


def _ticks(low: float, high: float) -> list[float]:
    """Round values (a step of 1, 2 or 5 × 10ⁿ) inside [low, high], three to six of them."""
    raw = (high - low) / 5
    magnitude = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step) * step
    count = int((high - first) // step) + 1
    return [round(first + i * step, 10) for i in range(count)]


def _bounds(values: Sequence[float]) -> tuple[float, float]:
    low, high = min(values), max(values)
    if high - low < 2:
        mid = (high + low) / 2
        low, high = mid - 1, mid + 1
    margin = (high - low) * 0.08
    return low - margin, high + margin


def _label(value: float) -> str:
    return f"{value:g}"


def rating_chart_image(
    points: Sequence[tuple[datetime, float]],
    *,
    title: str = "等级分 Rating",
    width: int = WIDTH,
    height: int = HEIGHT,
) -> Image.Image:
    """The rating after each hand (oldest first) as a line; RGB image.

    Points are spaced evenly by hand (not by time), so a busy evening does not squash
    into one pixel; the first and last dates label the axis. One point or none draws
    a note instead of a line.
    """
    img = d.new_canvas(width, height)
    draw = ImageDraw.Draw(img)
    d.text(draw, (PAD, PAD), d.fit_text(title, TITLE_SIZE, width - 2 * PAD), TITLE_SIZE)
    top = PAD + TITLE_SIZE + 14
    box = (LEFT, top, width - PAD, height - BOTTOM - PAD // 2)
    draw.rectangle(box, fill=d.PANEL, outline=GRID)
    x0, y0, x1, y1 = box
    if len(points) < 2:
        note = "—" if not points else f"{points[0][1]:.1f}"
        d.text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), note, TITLE_SIZE, fill=d.MUTED, anchor="mm")
        return img
    values = [v for _, v in points]
    low, high = _bounds(values)

    def y_of(value: float) -> float:
        return y1 - 6 - (value - low) / (high - low) * (y1 - y0 - 12)

    for tick in _ticks(low, high):
        y = y_of(tick)
        draw.line((x0 + 1, y, x1 - 1, y), fill=GRID, width=1)
        d.text(draw, (x0 - 6, y), _label(tick), LABEL_SIZE, fill=d.MUTED, anchor="rm")
    step = (x1 - x0 - 16) / (len(points) - 1)
    xy = [(x0 + 8 + i * step, y_of(v)) for i, v in enumerate(values)]
    draw.line(xy, fill=LINE, width=LINE_WIDTH, joint="curve")
    if len(xy) <= 40:
        for x, y in xy:
            draw.ellipse((x - DOT, y - DOT, x + DOT, y + DOT), fill=LINE)
    last_x, last_y = xy[-1]
    colour = d.PLUS if values[-1] >= values[0] else d.MINUS
    draw.ellipse((last_x - 5, last_y - 5, last_x + 5, last_y + 5), fill=colour)
    label_y = height - BOTTOM / 2 - PAD // 4
    first_day = points[0][0].strftime("%Y-%m-%d")
    last_day = points[-1][0].strftime("%Y-%m-%d")
    d.text(draw, (x0, label_y), first_day, LABEL_SIZE, fill=d.MUTED, anchor="lm")
    d.text(draw, (x1, label_y), last_day, LABEL_SIZE, fill=d.MUTED, anchor="rm")
    d.text(
        draw,
        ((x0 + x1) / 2, label_y),
        f"{values[-1]:.1f} ({len(values)})",
        LABEL_SIZE,
        fill=colour,
        anchor="mm",
    )
    return img


def render_rating_chart(
    points: Sequence[tuple[datetime, float]], *, title: str = "等级分 Rating"
) -> bytes:
    """:func:`rating_chart_image` as PNG bytes."""
    return d.to_png(rating_chart_image(points, title=title))


__all__ = ["rating_chart_image", "render_rating_chart"]
