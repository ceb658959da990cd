"""The rating chart: size, a line that goes where the values go, grid ticks, PNG output."""

from __future__ import annotations

import io
import itertools
import math
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from render import draw as d
from render.charts import HEIGHT, WIDTH, _ticks, rating_chart_image, render_rating_chart

T0 = datetime(2026, 11, 1, tzinfo=UTC)


def series(values: list[float]) -> list[tuple[datetime, float]]:
    return [(T0 + timedelta(hours=i), v) for i, v in enumerate(values)]


def close(a: tuple[int, ...], b: tuple[int, ...], tol: int = 30) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=False))


def line_rows(img: Image.Image, x: int) -> list[int]:
    """Rows of column ``x`` drawn in the line's colour."""
    return [y for y in range(img.height) if close(img.getpixel((x, y)), d.GOLD)]


def test_size_and_png() -> None:
    data = render_rating_chart(series([1.0, 2.5, 2.0, 4.0]))
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG" and img.size == (WIDTH, HEIGHT)


def test_the_line_rises_where_the_rating_rises() -> None:
    img = rating_chart_image(series([0.0, 10.0]))
    left = line_rows(img, 80)
    right = line_rows(img, WIDTH - 40)
    assert left and right
    assert min(right) < min(left)  # higher rating = higher on the picture
    falling = rating_chart_image(series([10.0, 0.0]))
    assert min(line_rows(falling, 80)) < min(line_rows(falling, WIDTH - 40))


def test_end_marker_colour_tells_up_or_down() -> None:
    def has(img: Image.Image, colour: tuple[int, int, int]) -> bool:
        return any(close(px, colour, 10) for _, px in img.getcolors(maxcolors=1 << 20) or [])

    up = rating_chart_image(series([1.0, 2.0, 5.0]))
    down = rating_chart_image(series([5.0, 2.0, 1.0]))
    assert has(up, d.PLUS) and not has(up, d.MINUS)
    assert has(down, d.MINUS) and not has(down, d.PLUS)


def test_too_few_points_draw_no_line() -> None:
    for points in ([], series([3.0])):
        img = rating_chart_image(points)
        assert not any(line_rows(img, x) for x in range(60, WIDTH - 20, 25))


def test_many_points_fit() -> None:
    values = [math.sin(i / 7) * 8 for i in range(500)]
    img = rating_chart_image(series(values))
    assert img.size == (WIDTH, HEIGHT)
    assert line_rows(img, WIDTH // 2)


@given(
    st.floats(-1000, 1000, allow_nan=False),
    st.floats(0.01, 2000, allow_nan=False),
)
def test_ticks_are_round_even_and_inside(low: float, span: float) -> None:
    high = low + span
    ticks = _ticks(low, high)
    assert 2 <= len(ticks) <= 11
    assert all(low - 1e-6 <= v <= high + 1e-6 for v in ticks)
    steps = {round(b - a, 6) for a, b in itertools.pairwise(ticks)}
    assert len(steps) == 1
    step = steps.pop()
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert round(mantissa, 6) in (1.0, 2.0, 5.0)
