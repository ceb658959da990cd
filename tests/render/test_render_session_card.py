"""The 战绩卡 picture: it writes every player's rank, name and total, the variant, hands and
date, and the 大赢家 badge (read back from what it draws); the 大赢家 rows are outlined in
gold, gains green and losses red (read from its pixels); names of any script, a stamp."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from render import draw as d
from render.leaderboard import MEDALS
from render.session_card import (
    PAD,
    WIDTH,
    CardRow,
    SessionCardPicture,
    layout,
    render_session_card,
    session_card_image,
)

ROWS = (
    CardRow(1, "阿明", 24, top=True),
    CardRow(1, "Zoë Ångström", 24, top=True),
    CardRow(3, "電腦三", -8),
    CardRow(4, "김민준", -40),
)
CARD = SessionCardPicture(
    title="战绩卡 · 上饶麻将",
    subtitle="共 8 局 · 2026-11-20",
    rows=ROWS,
    top_word="大赢家",
    footer="#12",
)


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every string the picture draws (after ``?`` replaced what the fonts lack)."""
    seen: list[str] = []
    real = d.draw_text

    def recording(draw, xy, s, font, fill=d.TEXT, anchor="la"):  # type: ignore[no-untyped-def]
        seen.append(s)
        return real(draw, xy, s, font, fill, anchor)

    monkeypatch.setattr(d, "draw_text", recording)
    return seen


def count(img: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> int:
    """Pixels of ``colour`` (within a small tolerance) inside ``box``."""
    raw = img.crop(box).convert("RGB").tobytes()
    r, g, b = colour
    return sum(
        1
        for i in range(0, len(raw), 3)
        if abs(raw[i] - r) <= 12 and abs(raw[i + 1] - g) <= 12 and abs(raw[i + 2] - b) <= 12
    )


def test_a_png_of_the_laid_out_size() -> None:
    img = Image.open(io.BytesIO(render_session_card(CARD)))
    assert img.format == "PNG" and img.size == (WIDTH, layout(CARD).height)
    two = replace(CARD, rows=ROWS[:2])
    assert layout(two).height < layout(CARD).height
    assert layout(replace(CARD, footer="")).height < layout(CARD).height


def test_it_writes_every_name_total_rank_and_the_top_scorers(drawn: list[str]) -> None:
    session_card_image(CARD)
    assert {"战绩卡 · 上饶麻将", "共 8 局 · 2026-11-20", "#12"} <= set(drawn)
    for name in ("阿明", "Zoë Ångström", "電腦三", "김민준"):
        assert name in drawn, name
    assert {"+24", "−8", "−40"} <= set(drawn)
    assert drawn.count("+24") == 2
    assert drawn.count("大赢家") == 2  # one badge per 大赢家, none for the others
    assert {"1", "3", "4"} <= set(drawn)  # ranks: a tie shares one
    # in English, the badge is the caller's word
    drawn.clear()
    session_card_image(replace(CARD, top_word="top scorer", title="Result card · Shangrao"))
    assert drawn.count("top scorer") == 2 and "大赢家" not in drawn
    assert "Result card · Shangrao" in drawn


def test_top_rows_in_gold_gains_green_losses_red() -> None:
    img = session_card_image(CARD)
    at = layout(CARD)
    for i, row in enumerate(ROWS):
        x0, y0, x1, _ = at.row_box(i)
        edge = count(img, (x0 + 20, y0, x1 - 20, y0 + 2), d.GOLD)
        assert (edge > 100) == row.top, i
        total = at.total_box(i)
        plus, minus = count(img, total, d.PLUS), count(img, total, d.MINUS)
        if row.total > 0:
            assert plus > 20 and minus == 0, i
        else:
            assert minus > 20 and plus == 0, i
    # medals for the first three places (two share first), a plain number for fourth
    for i, row in enumerate(ROWS):
        box = at.rank_box(i)
        if row.rank in MEDALS:
            assert count(img, box, MEDALS[row.rank]) > 200, i
        else:
            assert all(count(img, box, c) < 20 for c in MEDALS.values()), i


def test_nobody_scored_no_gold_and_a_stamp_in_the_corner() -> None:
    rows = tuple(CardRow(1, f"p{i}", 0) for i in range(4))
    plain = SessionCardPicture("战绩卡 · 九江麻将", rows=rows, subtitle="共 2 局 · 2026-11-20")
    img = session_card_image(plain)
    at = layout(plain)
    for i in range(4):
        x0, y0, x1, _ = at.row_box(i)
        assert count(img, (x0 + 20, y0, x1 - 20, y0 + 2), d.GOLD) < 20
        total = at.total_box(i)
        assert count(img, total, d.PLUS) == 0 and count(img, total, d.MINUS) == 0
    stamped = session_card_image(replace(plain, stamp="解散"))
    corner = (WIDTH - PAD - 90, PAD, WIDTH - PAD, PAD + 26)
    assert count(stamped, corner, d.DEALER) > 100 and count(img, corner, d.DEALER) == 0


def test_long_names_are_cut_and_never_reach_the_total() -> None:
    long = replace(CARD, rows=(CardRow(1, "很长的名字" * 20, 5, top=True), CardRow(2, "x", -5)))
    img = session_card_image(long)
    at = layout(long)
    box = at.total_box(0)
    # the total alone is drawn there: green, and the name's white stops before it
    assert count(img, box, d.PLUS) > 20
    assert count(img, (box[0], box[1] + 8, box[0] + 12, box[3] - 8), d.GOLD) == 0
