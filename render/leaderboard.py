"""The leaderboard as a picture (排行榜图): one page of the ranking on the felt.

Same look as the game pictures (``render.draw`` colours, the shipped font subset); pure
Pillow. Every string arrives ready to draw (the service writes them in the reader's
language); names may hold any Unicode: a character no shipped font has is first tried in
its compatibility form (``𝓐`` → ``A``, ``𝟙`` → ``1``) and otherwise drawn as ``?``, never
crashing and never showing a missing-glyph box.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render import draw as d
from render import fonts

WIDTH = 640
PAD = 16
TITLE_SIZE = 22
SUBTITLE_SIZE = 15
NAME_SIZE = 18
DETAIL_SIZE = 13
VALUE_SIZE = 20
RANK_SIZE = 16
MIN_RANK_SIZE = 9  # long ranks (123456.) shrink to fit their column
FOOTER_SIZE = 14
ROW_H = 50
ROW_GAP = 4
RANK_W = 52  # the rank column (medal or number)
VALUE_W = 150  # the ordered value, right-aligned
MEDAL_R = 14
#: 🥇 🥈 🥉 as discs (drawn, not the one-colour emoji font): gold, silver, bronze.
MEDALS = {1: d.GOLD, 2: (205, 212, 218), 3: (196, 140, 0)}
MEDAL_TEXT = (40, 40, 40)
ZEBRA = d.PANEL
MINE = (34, 92, 72)


@dataclass(frozen=True, slots=True)
class BoardRow:
    """One ranked player: rank (None = not ranked), name, the ordered value drawn large
    on the right (``value``), the other figures under the name (``detail``).

    ``tone`` colours the value: ``1`` gain (green), ``-1`` loss (red), ``0`` gold.
    ``me`` marks the asker's own line."""

    rank: int | None
    name: str
    value: str
    detail: str = ""
    tone: int = 0
    me: bool = False


@dataclass(frozen=True, slots=True)
class BoardPicture:
    """A leaderboard page: title, scope line, the rows, the asker's own line when off the
    page (``own`` under the ``own_label`` heading), a note when nobody is ranked
    (``empty``) and the page line (``footer``)."""

    title: str
    rows: tuple[BoardRow, ...] = ()
    subtitle: str = ""
    own: BoardRow | None = None
    own_label: str = ""
    empty: str = ""
    footer: str = ""


def readable(text: str) -> str:
    """``text`` with every character the fonts lack replaced by its compatibility form
    (NFKC) when the font has that, so styled letters of display names stay readable."""
    have = fonts.covered()
    if all(ch in have for ch in text):
        return text
    out = []
    for ch in text:
        if ch not in have:
            folded = unicodedata.normalize("NFKC", ch)
            if folded and all(c in have for c in folded):
                ch = folded
        out.append(ch)
    return "".join(out)


def _fit(text: str, size: int, width: float) -> str:
    return d.fit_text(readable(text), size, width)


@dataclass(frozen=True, slots=True)
class Layout:
    """Where things go: the top of the rows (and of the note when there is none), of the
    own line's heading and row, of the footer, and the picture's height."""

    rows_top: int
    own_label_top: int | None
    own_top: int | None
    footer_top: int | None
    height: int

    def row_box(self, i: int) -> tuple[int, int, int, int]:
        """The box of row ``i`` (left, top, right, bottom)."""
        top = self.rows_top + i * (ROW_H + ROW_GAP)
        return (PAD - 6, top, WIDTH - PAD + 6, top + ROW_H)

    def own_box(self) -> tuple[int, int, int, int] | None:
        """The box of the asker's own line, when there is one."""
        if self.own_top is None:
            return None
        return (PAD - 6, self.own_top, WIDTH - PAD + 6, self.own_top + ROW_H)


def layout(view: BoardPicture) -> Layout:
    """The vertical layout of ``view``."""
    y = PAD + TITLE_SIZE + 10
    if view.subtitle:
        y += SUBTITLE_SIZE + 10
    rows_top = y = y + 6
    y += len(view.rows) * (ROW_H + ROW_GAP) if view.rows else ROW_H
    own_label_top = own_top = footer_top = None
    if view.own is not None:
        own_label_top = y + 14
        own_top = own_label_top + SUBTITLE_SIZE + 8
        y = own_top + ROW_H
    if view.footer:
        footer_top = y + 10
        y = footer_top + FOOTER_SIZE
    return Layout(rows_top, own_label_top, own_top, footer_top, y + PAD)


def _rank(draw: ImageDraw.ImageDraw, rank: int | None, cx: float, cy: float) -> None:
    if rank in MEDALS:
        draw.ellipse((cx - MEDAL_R, cy - MEDAL_R, cx + MEDAL_R, cy + MEDAL_R), fill=MEDALS[rank])
        d.text(draw, (cx, cy), str(rank), RANK_SIZE, fill=MEDAL_TEXT, anchor="mm")
        return
    label = "—" if rank is None else f"{rank}."
    size = RANK_SIZE
    while size > MIN_RANK_SIZE and d.text_width(label, size) > RANK_W - 6:
        size -= 1
    d.text(draw, (cx + RANK_W / 2 - 4, cy), label, size, fill=d.MUTED, anchor="rm", limit=9)


def _row(
    draw: ImageDraw.ImageDraw, row: BoardRow, box: tuple[int, int, int, int], shade: bool
) -> None:
    y = box[1]
    if row.me:
        draw.rounded_rectangle(box, radius=8, fill=MINE, outline=d.GOLD, width=2)
    elif shade:
        draw.rounded_rectangle(box, radius=8, fill=ZEBRA)
    cy = y + ROW_H / 2
    _rank(draw, row.rank, PAD + RANK_W / 2 - 6, cy)
    name_x = PAD + RANK_W
    value_right = WIDTH - PAD
    name_w = value_right - VALUE_W - name_x - 8
    colour = d.GOLD if row.me else d.TEXT
    if row.detail:
        d.text(draw, (name_x, y + 5), _fit(row.name, NAME_SIZE, name_w), NAME_SIZE, fill=colour)
        detail = _fit(row.detail, DETAIL_SIZE, value_right - name_x)
        d.text(draw, (name_x, y + ROW_H - 6), detail, DETAIL_SIZE, fill=d.MUTED, anchor="ld")
    else:
        name = _fit(row.name, NAME_SIZE, name_w)
        d.text(draw, (name_x, cy), name, NAME_SIZE, fill=colour, anchor="lm")
    tone = d.PLUS if row.tone > 0 else d.MINUS if row.tone < 0 else d.GOLD
    value = _fit(row.value, VALUE_SIZE, VALUE_W)
    d.text(draw, (value_right, y + 4), value, VALUE_SIZE, fill=tone, anchor="ra")


def leaderboard_image(view: BoardPicture) -> Image.Image:
    """Render ``view`` as a PIL image (RGB), 640 px wide, as tall as its rows need."""
    at = layout(view)
    img = d.new_canvas(WIDTH, at.height)
    draw = ImageDraw.Draw(img)
    inner = WIDTH - 2 * PAD
    d.text(draw, (PAD, PAD), _fit(view.title, TITLE_SIZE, inner), TITLE_SIZE, fill=d.GOLD)
    if view.subtitle:
        subtitle = _fit(view.subtitle, SUBTITLE_SIZE, inner)
        d.text(draw, (PAD, PAD + TITLE_SIZE + 10), subtitle, SUBTITLE_SIZE, fill=d.MUTED)
    if not view.rows:
        note = _fit(view.empty or "—", SUBTITLE_SIZE + 2, inner)
        centre = (WIDTH / 2, at.rows_top + ROW_H / 2)
        d.text(draw, centre, note, SUBTITLE_SIZE + 2, fill=d.MUTED, anchor="mm")
    for i, row in enumerate(view.rows):
        _row(draw, row, at.row_box(i), shade=i % 2 == 0)
    own_box = at.own_box()
    if view.own is not None and own_box is not None and at.own_label_top is not None:
        rule = at.own_label_top - 8
        draw.line((PAD, rule, WIDTH - PAD, rule), fill=d.PANEL_EDGE, width=1)
        label = _fit(view.own_label, SUBTITLE_SIZE, inner)
        d.text(draw, (PAD, at.own_label_top), label, SUBTITLE_SIZE, fill=d.MUTED)
        _row(draw, view.own, own_box, shade=False)
    if view.footer and at.footer_top is not None:
        footer = _fit(view.footer, FOOTER_SIZE, inner)
        d.text(draw, (PAD, at.footer_top), footer, FOOTER_SIZE, fill=d.MUTED)
    return img


def render_leaderboard(view: BoardPicture) -> bytes:
    """:func:`leaderboard_image` as PNG bytes (the shared palette, fast zlib level)."""
    return d.to_png(leaderboard_image(view))


__all__ = [
    "BoardPicture",
    "BoardRow",
    "Layout",
    "layout",
    "leaderboard_image",
    "readable",
    "render_leaderboard",
]
