"""The end of a hand with every hand laid open (摊牌图), and the final standings of a session
(战绩图).

摊牌: one row per seat — wind, 庄, name, its concealed tiles (宝 marked), its melds, its 发,
the winning tile set apart under 胡, 点炮 / 叁包 named — and on the right the columns 本局 and
总分; below, the scoring items and every payment line (each seat's 本局 is their sum). Only
ever drawn for a hand that is over: its inputs exist only then.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from render import draw as d
from render import tiles
from render.hand import hand_order
from render.models import MeldView, ScoreItem
from render.words import ZH_WORDS, PictureWords

PAD = 16
SIZE = tiles.M
FLOWER = tiles.S
NAME_W = 190
COL_W = 84  # 本局 and 总分, right-aligned
TITLE_SIZE = 22
NAME_SIZE = 17
SMALL = 14
ROW_GAP = 12
WIN_GAP = 12
GROUP_GAP = 14
LINE = 24
MIN_W = 760


@dataclass(frozen=True)
class ShowdownSeat:
    """One seat at the end of a hand: its tiles laid open and its change."""

    name: str
    wind: str = ""
    dealer: bool = False
    concealed: tuple[int, ...] = ()
    melds: tuple[MeldView, ...] = ()
    flowers: int = 0
    #: the winning tile, set apart (only on the winner's row; not in ``concealed``)
    winning_tile: int | None = None
    winner: bool = False
    dealt_in: bool = False  # 点炮 (or the robbed kong)
    sanbao: bool = False  # 叁包: pays everything
    delta: int = 0
    total: int | None = None


@dataclass(frozen=True)
class ShowdownPicture:
    """A hand's end (摊牌): ``seats`` in seat order; ``headline`` e.g. ``alice 胡 · 自摸``."""

    seats: tuple[ShowdownSeat, ...]
    headline: str
    items: tuple[ScoreItem, ...] = ()
    total: str = ""
    wildcards: frozenset[int] = frozenset()  # the 宝 (wildcard) kinds, marked
    payments: tuple[str, ...] = ()
    title: str | None = None
    #: the two headers (本局, 总分); None: ``words.hand_columns``
    columns: tuple[str, str] | None = None
    notes: tuple[str, ...] = field(default=())
    words: PictureWords = ZH_WORDS  # badges and headers in the reader's language
    #: 南昌: the 正精 kind (the indicator's); the other wildcard kind is 副精, each badged apart
    primary_wildcard: int | None = None


def _row_height(seat: ShowdownSeat) -> int:
    return NAME_SIZE + 8 + d.melds_rise(seat.melds, SIZE) + SIZE.h + ROW_GAP


def _tiles_width(seat: ShowdownSeat) -> int:
    w = d.row_width(len(seat.concealed), SIZE)
    if seat.melds:
        w += GROUP_GAP + d.melds_width(seat.melds, SIZE)
    if seat.winning_tile is not None:
        w += WIN_GAP + SIZE.w
    if seat.flowers:
        w += GROUP_GAP + FLOWER.w + 36
    return w


def showdown_image(view: ShowdownPicture) -> Image.Image:
    """Render ``view`` as a PIL image (RGB)."""
    tiles_w = max((_tiles_width(s) for s in view.seats), default=0)
    width = max(MIN_W, PAD + NAME_W + tiles_w + 2 * COL_W + 2 * PAD)
    height = PAD + (24 if view.title else 0) + TITLE_SIZE + 12 + LINE
    height += sum(_row_height(s) for s in view.seats)
    height += (len(view.items) + (1 if view.total else 0)) * LINE + 8
    height += len(view.notes) * LINE + len(view.payments) * (LINE - 2) + PAD
    img = d.new_canvas(width, height)
    draw = ImageDraw.Draw(img)
    y = PAD
    right = width - PAD
    if view.title:
        d.text(draw, (PAD, y), d.fit_text(view.title, 16, width - 2 * PAD), 16, fill=d.MUTED)
        y += 24
    d.text(
        draw,
        (PAD, y),
        d.fit_text(view.headline, TITLE_SIZE, width - 2 * PAD),
        TITLE_SIZE,
        fill=d.GOLD,
    )
    y += TITLE_SIZE + 12
    columns = view.columns or view.words.hand_columns
    d.text(draw, (right - COL_W, y), columns[0], SMALL, fill=d.MUTED, anchor="ra")
    d.text(draw, (right, y), columns[1], SMALL, fill=d.MUTED, anchor="ra")
    y += LINE
    for seat in view.seats:
        y = _seat_row(img, draw, seat, view.wildcards, y, width, view.words, view.primary_wildcard)
    for item in view.items:
        d.text(draw, (PAD, y), d.fit_text(item.name, SMALL + 2, width - 200), SMALL + 2)
        d.text(draw, (right, y), item.value, SMALL + 2, fill=d.GOLD, anchor="ra", limit=16)
        y += LINE
    if view.total:
        d.text(draw, (PAD, y), view.words.total, SMALL + 2)
        d.text(draw, (right, y), view.total, SMALL + 2, fill=d.GOLD, anchor="ra", limit=20)
        y += LINE
    y += 8
    for note in view.notes:
        d.text(draw, (PAD, y), d.fit_text(note, SMALL, width - 2 * PAD), SMALL, fill=d.MUTED)
        y += LINE
    for line in view.payments:
        d.text(draw, (PAD, y), d.fit_text(line, SMALL, width - 2 * PAD), SMALL)
        y += LINE - 2
    return img


def _seat_row(
    img: Image.Image,
    draw: ImageDraw.ImageDraw,
    seat: ShowdownSeat,
    wildcards: frozenset[int],
    y: int,
    width: int,
    words: PictureWords = ZH_WORDS,
    primary: int | None = None,
) -> int:
    right = width - PAD
    rise = d.melds_rise(seat.melds, SIZE)
    row_h = _row_height(seat)
    draw.rounded_rectangle(
        (PAD - 6, y - 4, right + 6, y + row_h - ROW_GAP + 4),
        radius=8,
        fill=d.PANEL if not seat.winner else (52, 84, 40),
    )
    x = PAD
    if seat.wind:
        x += int(d.badge(draw, x, y, seat.wind, SMALL, d.PANEL_EDGE)) + 4
    if seat.dealer:
        x += int(d.badge(draw, x, y, words.dealer, SMALL, d.DEALER)) + 4
    if seat.winner:
        x += int(d.badge(draw, x, y, words.won, SMALL, (196, 140, 0))) + 4
    if seat.dealt_in:
        x += int(d.badge(draw, x, y, words.dealt_in, SMALL, (120, 60, 60))) + 4
    if seat.sanbao:
        x += int(d.badge(draw, x, y, words.sanbao, SMALL, (120, 60, 60))) + 4
    name = d.fit_text(seat.name, NAME_SIZE, PAD + NAME_W * 2 - x)
    d.text(draw, (x + 2, y), name, NAME_SIZE, fill=d.GOLD if seat.winner else d.TEXT)
    colour = d.PLUS if seat.delta > 0 else d.MINUS if seat.delta < 0 else d.MUTED
    delta = f"{seat.delta:+d}" if seat.delta else "0"
    d.text(draw, (right - COL_W, y), delta, NAME_SIZE, fill=colour, anchor="ra", limit=12)
    if seat.total is not None:
        d.text(draw, (right, y), str(seat.total), NAME_SIZE, fill=d.MUTED, anchor="ra", limit=12)
    ty = y + NAME_SIZE + 8 + rise
    x = PAD
    for k in hand_order(seat.concealed, wildcards):
        d.paste(img, tiles.tile(k, SIZE, bao=d.wild_mark(k, wildcards, primary)), x, ty)
        x += SIZE.w + d.TILE_GAP
    if seat.melds:
        x = d.draw_melds(img, seat.melds, x + GROUP_GAP, ty, SIZE, wildcards, primary=primary)
    if seat.winning_tile is not None:
        x += WIN_GAP
        k = seat.winning_tile
        d.paste(img, tiles.tile(k, SIZE, bao=d.wild_mark(k, wildcards, primary), last=True), x, ty)
        x += SIZE.w
    if seat.flowers:
        x += GROUP_GAP
        fy = ty + SIZE.h - FLOWER.h
        d.paste(img, tiles.tile(32, FLOWER), x, fy)
        d.text(draw, (x + FLOWER.w + 3, fy + FLOWER.h / 2), f"×{seat.flowers}", 14, anchor="lm")
    return y + row_h


def render_showdown(view: ShowdownPicture) -> bytes:
    """The 摊牌 picture as PNG bytes."""
    return d.to_png(showdown_image(view))


# ---------------------------------------------------------------------------- standings


@dataclass(frozen=True)
class StandingRow:
    """One player's line of the final standings."""

    rank: int
    name: str
    total: int
    wins: int = 0
    self_draws: int = 0
    dealt_in: int = 0
    biggest: int = 0
    winner: bool = False


@dataclass(frozen=True)
class StandingsPicture:
    """The final standings of a session: rows best first; ``columns`` their headers."""

    title: str
    rows: tuple[StandingRow, ...]
    footer: str = ""
    #: the headers (总分 胡 自摸 点炮 最大); None: ``words.standings_columns``
    columns: tuple[str, ...] | None = None
    stamp: str = ""  # e.g. 解散, drawn across the corner
    words: PictureWords = ZH_WORDS  # badges and headers in the reader's language


STAT_W = 70
ROW_H = 40


def standings_image(view: StandingsPicture) -> Image.Image:
    """Render ``view`` as a PIL image (RGB)."""
    columns = view.columns or view.words.standings_columns
    width = max(600, PAD * 2 + 260 + STAT_W * len(columns))
    height = PAD + TITLE_SIZE + 16 + LINE + ROW_H * len(view.rows) + (LINE if view.footer else 0)
    height += PAD
    img = d.new_canvas(width, height)
    draw = ImageDraw.Draw(img)
    y = PAD
    title = d.fit_text(view.title, TITLE_SIZE, width - 2 * PAD - 80)
    d.text(draw, (PAD, y), title, TITLE_SIZE, fill=d.GOLD)
    if view.stamp:
        d.badge(draw, width - PAD - 70, y, view.stamp, SMALL + 2, d.DEALER)
    y += TITLE_SIZE + 16
    right = width - PAD
    for i, column in enumerate(reversed(columns)):
        d.text(draw, (right - i * STAT_W, y), column, SMALL, fill=d.MUTED, anchor="ra")
    y += LINE
    for row in view.rows:
        fill = (52, 84, 40) if row.winner else d.PANEL
        draw.rounded_rectangle((PAD - 6, y - 4, right + 6, y + ROW_H - 8), radius=8, fill=fill)
        d.text(draw, (PAD, y + 2), f"{row.rank}", NAME_SIZE + 2, fill=d.GOLD)
        x = PAD + 30
        if row.winner:
            x += int(d.badge(draw, x, y + 3, view.words.session_winner, SMALL, (196, 140, 0))) + 6
        name = d.fit_text(row.name, NAME_SIZE + 1, right - STAT_W * len(columns) - x - 8)
        d.text(draw, (x, y + 2), name, NAME_SIZE + 1, fill=d.GOLD if row.winner else d.TEXT)
        values = (
            f"{row.total:+d}" if row.total else "0",
            str(row.wins),
            str(row.self_draws),
            str(row.dealt_in),
            str(row.biggest),
        )[: len(columns)]
        for i, value in enumerate(reversed(values)):
            colour = d.TEXT
            if i == len(values) - 1:
                colour = d.PLUS if row.total > 0 else d.MINUS if row.total < 0 else d.MUTED
            d.text(draw, (right - i * STAT_W, y + 2), value, NAME_SIZE, fill=colour, anchor="ra")
        y += ROW_H
    if view.footer:
        d.text(draw, (PAD, y), d.fit_text(view.footer, SMALL, width - 2 * PAD), SMALL, fill=d.MUTED)
    return img


def render_standings(view: StandingsPicture) -> bytes:
    """The final standings picture as PNG bytes."""
    return d.to_png(standings_image(view))
