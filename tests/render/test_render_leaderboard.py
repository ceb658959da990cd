"""The leaderboard picture: size from its rows, PNG output, the asker's line marked, medal
and gain/loss colours, and display names of any Unicode drawn without crashing."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from render import draw as d
from render import fonts
from render.leaderboard import (
    MEDALS,
    PAD,
    RANK_W,
    ROW_H,
    VALUE_W,
    WIDTH,
    BoardPicture,
    BoardRow,
    layout,
    leaderboard_image,
    readable,
    render_leaderboard,
)


def rows(n: int, *, me: int | None = None) -> tuple[BoardRow, ...]:
    return tuple(
        BoardRow(
            rank=i + 1,
            name=f"玩家{i + 1}",
            value=f"{50 - 20 * i:+d} 分",
            detail=f"{10 + i} 局 · 胜 {40 - i}.0%",
            tone=(50 - 20 * i > 0) - (50 - 20 * i < 0),
            me=i == me,
        )
        for i in range(n)
    )


def board(n: int = 10, **kw) -> BoardPicture:  # type: ignore[no-untyped-def]
    kw.setdefault("rows", rows(n))
    return BoardPicture(title="排行 Leaderboard", subtitle="全部玩法", footer="第 1/2", **kw)


def count(img: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> int:
    """Pixels of ``colour`` (within a small tolerance) inside ``box``."""
    raw = img.crop(box).convert("RGB").tobytes()
    r, g, b = colour
    return sum(
        1
        for i in range(0, len(raw), 3)
        if abs(raw[i] - r) <= 12 and abs(raw[i + 1] - g) <= 12 and abs(raw[i + 2] - b) <= 12
    )


def value_box(box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    return (WIDTH - PAD - VALUE_W, box[1], WIDTH - PAD, box[3])


def test_png_of_the_laid_out_size() -> None:
    view = board(10)
    img = Image.open(io.BytesIO(render_leaderboard(view)))
    assert img.format == "PNG" and img.size == (WIDTH, layout(view).height)
    # ten rows are taller than three; the own line and footer add height
    assert layout(board(3)).height < layout(view).height
    with_own = replace(view, own=BoardRow(40, "me", "−5 分", me=True), own_label="你的名次")
    assert layout(with_own).height > layout(view).height + ROW_H


def test_the_askers_row_is_outlined_in_gold_and_no_other() -> None:
    view = board(rows=rows(5, me=3))
    img = leaderboard_image(view)
    at = layout(view)
    for i in range(5):
        x0, y0, x1, _ = at.row_box(i)
        top_edge = (x0 + 20, y0, x1 - 20, y0 + 2)
        gold = count(img, top_edge, d.GOLD)
        assert (gold > 100) == (i == 3), i


def test_own_line_below_the_page_is_drawn_and_marked() -> None:
    own = BoardRow(None, "dave", "—", "3 局 · 还差 7 局上榜", me=True)
    view = board(4, own=own, own_label="你的名次")
    img = leaderboard_image(view)
    box = layout(view).own_box()
    assert box is not None and box[3] < img.height
    x0, y0, x1, _ = box
    assert count(img, (x0 + 20, y0, x1 - 20, y0 + 2), d.GOLD) > 100
    assert count(img, (PAD + RANK_W, y0, WIDTH // 2, box[3]), d.GOLD) > 20  # the name in gold


def test_medals_for_the_first_three_only() -> None:
    view = board(5)
    img = leaderboard_image(view)
    at = layout(view)
    for i in range(5):
        _, y0, _, y1 = at.row_box(i)
        rank_col = (PAD - 4, y0, PAD + RANK_W - 8, y1)
        if i + 1 in MEDALS:
            assert count(img, rank_col, MEDALS[i + 1]) > 200, i
        else:
            assert all(count(img, rank_col, c) < 20 for c in MEDALS.values()), i


def test_gains_green_losses_red_other_orders_gold() -> None:
    view = board(rows=rows(4))  # +50, +30, +10, −10
    img = leaderboard_image(view)
    at = layout(view)
    for i, sign in enumerate((1, 1, 1, -1)):
        box = value_box(at.row_box(i))
        plus, minus = count(img, box, d.PLUS), count(img, box, d.MINUS)
        assert (plus > 20 and minus == 0) if sign > 0 else (minus > 20 and plus == 0)
    rated = board(rows=(BoardRow(1, "a", "等级 25.3"),))
    img = leaderboard_image(rated)
    box = value_box(layout(rated).row_box(0))
    assert count(img, box, d.GOLD) > 20 and count(img, box, d.PLUS) == 0


def test_an_empty_board_shows_its_note() -> None:
    view = board(rows=(), empty="这段时间还没有对局")
    img = leaderboard_image(view)
    top = layout(view).rows_top
    assert count(img, (0, top, WIDTH, top + ROW_H), d.MUTED) > 50


def test_names_the_font_lacks_become_readable_or_question_marks() -> None:
    assert readable("𝓐𝓵𝓲𝓬𝓮") == "Alice"  # mathematical script: no font has it
    assert readable("𝟙𝟚") == "12"
    assert readable("Ａｌｉｃｅ ①") == "Ａｌｉｃｅ ①"  # full-width letters are drawn as typed
    assert readable("阿明 Bob") == "阿明 Bob"  # already drawable: unchanged
    assert fonts.safe_text(readable("김민수")) == "김민수"
    assert fonts.safe_text(readable("\U00020000")) == "?"


STRANGE_NAMES = [
    "",
    " ",
    "\x00\x01\x7f",
    "\ud800\udfff",  # lone surrogates
    "👨‍👩‍👧‍👦🀄🏳️‍🌈",  # ZWJ sequences, a mahjong tile emoji
    "e\u0301\u0301\u0301\u0301" * 30,  # stacked combining marks
    "مرحبا بالعالم",  # right to left
    "\u202etxet desrever",  # a direction override
    "﷽" * 20,
    "W" * 500,
    "\n\t\r",
]


@pytest.mark.parametrize("name", STRANGE_NAMES)
def test_strange_names_draw(name: str) -> None:
    own = BoardRow(123456789, name, name, name, me=True)
    view = BoardPicture(
        title=name, subtitle=name, rows=(BoardRow(1, name, "+1 分", name),), own=own, footer=name
    )
    img = Image.open(io.BytesIO(render_leaderboard(view)))
    assert img.size == (WIDTH, layout(view).height)


@settings(max_examples=40, deadline=None)
@given(names=st.lists(st.text(max_size=60), min_size=0, max_size=10), rank=st.integers(1, 10**7))
def test_any_unicode_names_draw(names: list[str], rank: int) -> None:
    view = BoardPicture(
        title="排行",
        rows=tuple(BoardRow(rank + i, n, n[:10], n) for i, n in enumerate(names)),
        own=BoardRow(rank, names[0] if names else "", "—", me=True),
    )
    img = leaderboard_image(view)
    assert img.size == (WIDTH, layout(view).height)
