"""Shared drawing helpers: colours, text, rows of tiles, melds and PNG output."""

from __future__ import annotations

import io
import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from render import fonts, tiles
from render.models import DUIJIA, SHANGJIA, XIAJIA, MeldView
from render.palette import palette_image
from render.tiles import Colour, TileSize

FELT = (27, 77, 62)
PANEL = (20, 60, 48)
PANEL_EDGE = (44, 104, 84)
TEXT = (245, 245, 240)
MUTED = (178, 205, 192)
GOLD = (255, 201, 40)
PLUS = (120, 230, 140)
MINUS = (255, 120, 110)
DEALER = (214, 48, 40)
BADGE_TEXT = (255, 255, 255)

TILE_GAP = 1  # between tiles of one group
MELD_GAP = 6  # between melds

#: zlib level of PNG output: 1 is much faster than the default 6 and, on palette pictures
#: (flat felt, repeated tiles), barely larger.
PNG_COMPRESS_LEVEL = 1
#: Pictures are mapped onto one shared 256-colour palette (``render.palette``) before
#: encoding: a palette image encodes about 6× faster than RGB and the PNG is about 3× smaller;
#: the difference is invisible (mean error about 1 per channel on the table picture).


def new_canvas(w: int, h: int, colour: tuple[int, int, int] = FELT) -> Image.Image:
    """An opaque RGB picture: opaque felt reads the same on Discord's light and dark themes."""
    return Image.new("RGB", (w, h), colour)


def to_png(img: Image.Image, palette: bool = True) -> bytes:
    """Encode ``img`` as PNG bytes: mapped onto the shared palette unless ``palette`` is
    false, at a fast zlib level."""
    if palette:
        img = img.quantize(palette=palette_image(), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buf.getvalue()


def paste(canvas: Image.Image, img: Image.Image, x: int, y: int) -> None:
    """Paste an RGBA tile onto the canvas using its alpha."""
    canvas.paste(img, (x, y), img)


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    size: int,
    fill: Colour = TEXT,
    anchor: str = "la",
    limit: int | None = None,
) -> float:
    """Draw ``s`` (unknown glyphs become ``?``); return its width in pixels."""
    s = fonts.safe_text(s, limit)
    draw_text(draw, xy, s, fonts.sans(size), fill, anchor)
    return sans_length(s, size)


#: glyph masks kept by :func:`draw_text` (labels repeat: names, scores, counts, badges)
MASK_CACHE_SIZE = 4096
_masks: dict[tuple[Any, ...], tuple[Any, tuple[int, int]]] = {}


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    font: ImageFont.FreeTypeFont,
    fill: Any = TEXT,
    anchor: str = "la",
) -> None:
    """``draw.text(xy, s, font=font, fill=fill, anchor=anchor)`` for one line, with the
    glyph mask rendered once and kept: the same pixels, without FreeType's work each time
    the same label is drawn again (the table redraws the same names and scores). With the
    label font, characters it lacks are drawn by the fallback fonts (``fonts.runs``)."""
    if fonts.is_label_font(font) and fonts.needs_fallback(s):
        _draw_runs(draw, xy, s, int(font.size), fill, anchor)
        return
    if not s or "\n" in s or draw.fontmode != "L" or not isinstance(font, ImageFont.FreeTypeFont):
        draw.text(xy, s, font=font, fill=fill, anchor=anchor)
        return
    ink, fill_ink = draw._getink(fill)
    if ink is None:
        ink = fill_ink
    if ink is None:  # nothing to draw with: Pillow's own path decides
        draw.text(xy, s, font=font, fill=fill, anchor=anchor)
        return
    x, y = xy
    start = (math.modf(x)[0], math.modf(y)[0])
    key = (id(font), s, anchor, start, ink)
    hit = _masks.get(key)
    if hit is None:
        if len(_masks) >= MASK_CACHE_SIZE:
            _masks.clear()
        hit = font.getmask2(s, "L", None, None, None, 0, anchor, ink, start, stroke_filled=True)
        _masks[key] = hit
    mask, offset = hit
    draw.draw.draw_bitmap((int(x) + offset[0], int(y) + offset[1]), mask, ink)


def _draw_runs(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    size: int,
    fill: Any,
    anchor: str,
) -> None:
    """One line in several label fonts: the runs side by side on the first font's baseline,
    the whole line placed by ``anchor`` as one piece of text would be."""
    parts = _runs_laid_out(s, size)
    total = sum(width for _font, _part, width in parts)
    x = xy[0] - {"m": total / 2, "r": total}.get(anchor[0], 0)
    baseline = xy[1] + fonts.baseline_offset(size, anchor)
    for font, part, width in parts:
        draw_text(draw, (x, baseline), part, font, fill, "ls")
        x += width


@lru_cache(maxsize=2048)
def _runs_laid_out(s: str, size: int) -> tuple[tuple[ImageFont.FreeTypeFont, str, float], ...]:
    """The runs of ``s`` with their font and width, kept (names are drawn again and again)."""
    out = []
    for index, part in fonts.runs(s):
        font = fonts.label_font(index, size)
        out.append((font, part, font.getlength(part)))
    return tuple(out)


@lru_cache(maxsize=8192)
def sans_length(s: str, size: int) -> float:
    """Width of ``s`` in the label fonts at ``size`` px (``fonts.text_length``), kept
    (labels are measured again and again)."""
    return fonts.text_length(s, size)


def text_width(s: str, size: int, limit: int | None = None) -> float:
    """Width of ``s`` as :func:`text` would draw it."""
    return sans_length(fonts.safe_text(s, limit), size)


def fit_text(s: str, size: int, max_width: float) -> str:
    """``s`` made safe and cut with ``…`` so it fits ``max_width`` pixels."""
    s = fonts.safe_text(s)
    if sans_length(s, size) <= max_width:
        return s
    while s and sans_length(s + "…", size) > max_width:
        s = s[:-1]
    return s + "…"


def badge(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    label: str,
    size: int,
    fill: Colour,
    fg: Colour = BADGE_TEXT,
) -> float:
    """A rounded label such as 庄 or 托管 with its top-left at (x, y); returns its width."""
    font = fonts.sans(size)
    label = fonts.safe_text(label)
    w = sans_length(label, size) + size * 0.6
    h = size * 1.35
    draw.rounded_rectangle((x, y, x + w, y + h), radius=size * 0.3, fill=fill)
    draw_text(draw, (x + w / 2, y + h / 2), label, font, fg, "mm")
    return w


def row_width(count: int, size: TileSize) -> int:
    """Width of ``count`` tiles side by side."""
    return 0 if count <= 0 else count * (size.w + TILE_GAP) - TILE_GAP


def wild_mark(kind: int, wildcards: Collection[int], primary: int | None = None) -> bool | str:
    """How a tile of ``kind`` is marked (:func:`render.tiles.tile`'s ``bao``): not at all,
    as 宝 (``True``), or — when the hand names a ``primary`` wildcard kind (南昌) — as ``正``
    (正精) or ``副`` (副精)."""
    if kind not in wildcards:
        return False
    if primary is None:
        return True
    return "正" if kind == primary else "副"


def draw_tiles(
    canvas: Image.Image,
    kinds: Iterable[int],
    x: int,
    y: int,
    size: TileSize,
    wildcards: Collection[int] = frozenset(),
    primary: int | None = None,
) -> int:
    """Draw ``kinds`` left to right from (x, y); wildcard (宝; 正精 / 副精 when ``primary``
    names the 正精) tiles marked. Returns the x after them."""
    for k in kinds:
        paste(canvas, tiles.tile(k, size, bao=wild_mark(k, wildcards, primary)), x, y)
        x += size.w + TILE_GAP
    return x - TILE_GAP


def draw_backs(canvas: Image.Image, count: int, x: int, y: int, size: TileSize) -> int:
    """``count`` face-down tiles; returns the x after them."""
    img = tiles.back(size)
    for _ in range(count):
        paste(canvas, img, x, y)
        x += size.w + TILE_GAP
    return x - TILE_GAP


@dataclass(frozen=True)
class MeldSlot:
    """One tile of a meld as drawn: its kind, whether it lies ``sideways`` (the claimed
    tile), whether it is shown face down (``back``), and the kind ``stacked`` on it (the
    fourth tile of an added kong, 补杠), if any."""

    kind: int
    sideways: bool = False
    back: bool = False
    stacked: int | None = None


def meld_slots(meld: MeldView, reveal: bool = True) -> list[MeldSlot]:
    """The tiles of ``meld`` left to right as players lay them out (from the owner's seat).

    A claimed meld (``fed_from`` set) turns the claimed tile sideways: leftmost from the
    上家, in the middle from the 对家, rightmost from the 下家; an added kong (补杠) keeps
    three tiles in the row and stacks the fourth on the sideways one. A concealed kong (暗杠)
    shows backs at both ends (all backs when ``reveal`` is false); Shangrao's indicator kong
    likewise. A meld without ``fed_from`` (old saved games) is drawn all upright."""
    n = len(meld.tiles)
    if meld.kind in ("concealed_kong", "indicator_kong"):
        return [
            MeldSlot(k, back=not reveal or i == 0 or i == n - 1) for i, k in enumerate(meld.tiles)
        ]
    if meld.fed_from not in (SHANGJIA, DUIJIA, XIAJIA) or n == 0:
        return [MeldSlot(k) for k in meld.tiles]
    claimed = meld.claimed if meld.claimed in meld.tiles else meld.tiles[0]
    rest = list(meld.tiles)
    rest.remove(claimed)
    stacked = None
    if meld.added and meld.kind == "kong" and rest:
        stacked = rest.pop()
    row = len(rest) + 1
    at = {SHANGJIA: 0, DUIJIA: 1 if row > 1 else 0, XIAJIA: row - 1}[meld.fed_from]
    slots = [MeldSlot(k) for k in rest]
    slots.insert(at, MeldSlot(claimed, sideways=True, stacked=stacked))
    return slots


def _slot_width(slot: MeldSlot, size: TileSize) -> int:
    return tiles.sideways_size(size)[0] if slot.sideways else size.w


def meld_width(meld: MeldView, size: TileSize) -> int:
    """Width of one meld as :func:`draw_meld` draws it."""
    slots = meld_slots(meld)
    if not slots:
        return 0
    return sum(_slot_width(s, size) for s in slots) + TILE_GAP * (len(slots) - 1)


def meld_rise(meld: MeldView, size: TileSize) -> int:
    """How far an added kong's stacked tile reaches above the top of the row (0 if none)."""
    if not any(s.stacked is not None for s in meld_slots(meld)):
        return 0
    _, side_h = tiles.sideways_size(size)
    low_top = size.h - side_h  # the sideways tile sits on the row's bottom line
    return max(0, size.w - low_top)


def melds_rise(melds: Sequence[MeldView], size: TileSize) -> int:
    """The largest :func:`meld_rise` of ``melds``."""
    return max((meld_rise(m, size) for m in melds), default=0)


def melds_width(melds: Sequence[MeldView], size: TileSize) -> int:
    """Width of several melds separated by ``MELD_GAP``."""
    if not melds:
        return 0
    return sum(meld_width(m, size) for m in melds) + MELD_GAP * (len(melds) - 1)


def draw_meld(
    canvas: Image.Image,
    meld: MeldView,
    x: int,
    y: int,
    size: TileSize,
    wildcards: Collection[int] = frozenset(),
    reveal: bool = True,
    primary: int | None = None,
) -> int:
    """One meld with its top-left at (x, y), laid out by :func:`meld_slots`: a sideways tile
    sits on the row's bottom line, a stacked tile (补杠) on top of it, reaching
    :func:`meld_rise` above ``y``. Returns the x after it."""
    _, side_h = tiles.sideways_size(size)
    for slot in meld_slots(meld, reveal):
        k = slot.kind
        if slot.back:
            paste(canvas, tiles.back(size), x, y)
        elif slot.sideways:
            low = y + size.h - side_h
            img = tiles.sideways(k, size, bao=wild_mark(k, wildcards, primary))
            paste(canvas, img, x, low)
            if slot.stacked is not None:
                s = slot.stacked
                mark = wild_mark(s, wildcards, primary)
                paste(canvas, tiles.sideways(s, size, bao=mark), x, low - size.w)
        else:
            paste(canvas, tiles.tile(k, size, bao=wild_mark(k, wildcards, primary)), x, y)
        x += _slot_width(slot, size) + TILE_GAP
    return x - TILE_GAP


def draw_melds(
    canvas: Image.Image,
    melds: Sequence[MeldView],
    x: int,
    y: int,
    size: TileSize,
    wildcards: Collection[int] = frozenset(),
    reveal: bool = True,
    primary: int | None = None,
) -> int:
    """Several melds in a row; returns the x after them."""
    for i, meld in enumerate(melds):
        if i:
            x += MELD_GAP
        x = draw_meld(canvas, meld, x, y, size, wildcards, reveal, primary)
    return x


def sort_key(kind: int) -> int:
    """Hand order: suits 万 筒 条, then honors (the kind index order of RULES §1)."""
    return kind
