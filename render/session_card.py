"""A finished session's result card (战绩卡): a picture to share — the variant, the hands
played, the date, and every player's rank, name and total, the 大赢家 marked.

Same look as the other pictures (``render.draw`` colours, the shipped font subset, medals of
:mod:`render.leaderboard`); pure Pillow. Every string arrives ready to draw in the reader's
language (the service writes them); names may hold any Unicode (drawn as
:func:`render.leaderboard.readable` makes them, ``?`` only for what no font has).
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from render import draw as d
from render.leaderboard import MEDAL_TEXT, MEDALS, readable

WIDTH = 560
PAD = 20
TITLE_SIZE = 24
SUBTITLE_SIZE = 15
NAME_SIZE = 19
TOTAL_SIZE = 22
BADGE_SIZE = 13
RANK_SIZE = 16
FOOTER_SIZE = 13
ROW_H = 52
ROW_GAP = 6
RANK_W = 44
TOTAL_W = 120
MEDAL_R = 15
#: a 大赢家's row: a warm panel under a gold outline
TOP_FILL = (70, 84, 36)
TOP_BADGE = (196, 140, 0)
ZEBRA = d.PANEL


@dataclass(frozen=True, slots=True)
class CardRow:
    """One player: rank (ties share one), name, session total; ``top`` a 大赢家."""

    rank: int
    name: str
    total: int
    top: bool = False


@dataclass(frozen=True, slots=True)
class SessionCardPicture:
    """The card: ``title`` (战绩卡 · the variant), ``subtitle`` (hands played · date), the
    rows best first, the word on a 大赢家's badge (``top_word``), a ``stamp`` across the
    corner (解散 …; empty: none) and a ``footer`` (the session's number)."""

    title: str
    rows: tuple[CardRow, ...] = ()
    subtitle: str = ""
    top_word: str = "大赢家"
    stamp: str = ""
    footer: str = ""


@dataclass(frozen=True, slots=True)
class Layout:
    """The top of the rows, of the footer (None: no footer) and the picture's height."""

    rows_top: int
    footer_top: int | None
    height: int

    def row_box(self, i: int) -> tuple[int, int, int, int]:
        """The box of row ``i`` (left, top, right, bottom)."""
        top = self.rows_top + i * (ROW_H + ROW_GAP)
        return (PAD - 6, top, WIDTH - PAD + 6, top + ROW_H)

    def total_box(self, i: int) -> tuple[int, int, int, int]:
        """Where row ``i``'s total is drawn (right-aligned)."""
        _, top, _, bottom = self.row_box(i)
        return (WIDTH - PAD - TOTAL_W, top, WIDTH - PAD, bottom)

    def rank_box(self, i: int) -> tuple[int, int, int, int]:
        """Where row ``i``'s rank (medal or number) is drawn."""
        _, top, _, bottom = self.row_box(i)
        return (PAD - 4, top, PAD + RANK_W - 4, bottom)


def layout(view: SessionCardPicture) -> Layout:
    """The vertical layout of ``view``."""
    y = PAD + TITLE_SIZE + 10
    if view.subtitle:
        y += SUBTITLE_SIZE + 10
    rows_top = y = y + 8
    y += max(len(view.rows), 1) * (ROW_H + ROW_GAP) - ROW_GAP
    footer_top = None
    if view.footer:
        footer_top = y + 12
        y = footer_top + FOOTER_SIZE
    return Layout(rows_top, footer_top, y + PAD)


def _fit(text: str, size: int, width: float) -> str:
    return d.fit_text(readable(text), size, width)


def _rank(draw: ImageDraw.ImageDraw, rank: int, cx: float, cy: float) -> None:
    if rank in MEDALS:
        draw.ellipse((cx - MEDAL_R, cy - MEDAL_R, cx + MEDAL_R, cy + MEDAL_R), fill=MEDALS[rank])
        d.text(draw, (cx, cy), str(rank), RANK_SIZE, fill=MEDAL_TEXT, anchor="mm")
        return
    d.text(draw, (cx, cy), f"{rank}", RANK_SIZE, fill=d.MUTED, anchor="mm", limit=6)


def _total(total: int) -> str:
    """``+30`` / ``−10`` (a real minus sign) / ``0``."""
    if total > 0:
        return f"+{total}"
    return f"−{-total}" if total < 0 else "0"


def _row(
    draw: ImageDraw.ImageDraw, row: CardRow, box: tuple[int, int, int, int], shade: bool, top: str
) -> None:
    if row.top:
        draw.rounded_rectangle(box, radius=9, fill=TOP_FILL, outline=d.GOLD, width=2)
    elif shade:
        draw.rounded_rectangle(box, radius=9, fill=ZEBRA)
    cy = box[1] + ROW_H / 2
    _rank(draw, row.rank, PAD + RANK_W / 2 - 4, cy)
    x = PAD + RANK_W + 6
    right = WIDTH - PAD - TOTAL_W - 8
    if row.top and top:
        x += int(d.badge(draw, x, cy - BADGE_SIZE * 0.68, top, BADGE_SIZE, TOP_BADGE)) + 8
    name = _fit(row.name, NAME_SIZE, max(right - x, 20))
    d.text(draw, (x, cy), name, NAME_SIZE, fill=d.GOLD if row.top else d.TEXT, anchor="lm")
    colour = d.PLUS if row.total > 0 else d.MINUS if row.total < 0 else d.MUTED
    d.text(draw, (WIDTH - PAD, cy), _total(row.total), TOTAL_SIZE, fill=colour, anchor="rm")


def session_card_image(view: SessionCardPicture) -> Image.Image:
    """Render ``view`` as a PIL image (RGB), :data:`WIDTH` px wide."""
    at = layout(view)
    img = d.new_canvas(WIDTH, at.height)
    draw = ImageDraw.Draw(img)
    inner = WIDTH - 2 * PAD
    stamp_w = 0.0
    if view.stamp:
        stamp = d.fit_text(view.stamp, SUBTITLE_SIZE, 160)
        stamp_w = d.text_width(stamp, SUBTITLE_SIZE) + SUBTITLE_SIZE * 0.6
        d.badge(draw, WIDTH - PAD - stamp_w, PAD + 2, stamp, SUBTITLE_SIZE, d.DEALER)
    title = _fit(view.title, TITLE_SIZE, inner - stamp_w - 8)
    d.text(draw, (PAD, PAD), title, TITLE_SIZE, fill=d.GOLD)
    if view.subtitle:
        subtitle = _fit(view.subtitle, SUBTITLE_SIZE, inner)
        d.text(draw, (PAD, PAD + TITLE_SIZE + 10), subtitle, SUBTITLE_SIZE, fill=d.MUTED)
    for i, row in enumerate(view.rows):
        _row(draw, row, at.row_box(i), i % 2 == 0, view.top_word)
    if view.footer and at.footer_top is not None:
        footer = _fit(view.footer, FOOTER_SIZE, inner)
        d.text(draw, (PAD, at.footer_top), footer, FOOTER_SIZE, fill=d.MUTED)
    return img


def render_session_card(view: SessionCardPicture) -> bytes:
    """:func:`session_card_image` as PNG bytes (the shared palette, fast zlib level)."""
    return d.to_png(session_card_image(view))


__all__ = [
    "CardRow",
    "Layout",
    "SessionCardPicture",
    "layout",
    "render_session_card",
    "session_card_image",
]
