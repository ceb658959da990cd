"""Tile art (牌面) drawn by the project, pre-rendered once at import into a cache.

Each of the 34 kinds is drawn once as transparent *art* at a large master size; every tile
size then combines a body (ivory face, dark outline, a coloured side so tiles read on light
and dark backgrounds) with the art scaled down. Marks for the 宝 (gold border and badge) and
for the last discard (red outline) are added on demand and cached.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw

from render import fonts

#: A colour as Pillow takes it: RGB or RGBA, 0–255 a channel.
Colour = tuple[int, ...]

# Colours
FACE: Colour = (251, 248, 238, 255)
OUTLINE: Colour = (40, 40, 44, 255)
SIDE: Colour = (46, 125, 91, 255)  # the tile's thickness, seen below the face
BACK: Colour = (52, 104, 178, 255)
BACK_INNER: Colour = (82, 136, 206, 255)
INK: Colour = (24, 28, 40, 255)
RED: Colour = (206, 40, 40, 255)
GREEN: Colour = (22, 132, 64, 255)
BLUE: Colour = (30, 76, 160, 255)
GOLD: Colour = (242, 178, 0, 255)
GOLD_DARK: Colour = (150, 95, 0, 255)
LAST: Colour = (255, 72, 0, 255)

NUMERALS = "一二三四五六七八九"
HONOR_CHARS = "东南西北中发白"
SUIT_LETTERS = "mps"

# Master art size (face area, transparent), drawn once per kind.
ART_W, ART_H = 160, 220


@dataclass(frozen=True)
class TileSize:
    """Pixel size of a tile image, side (thickness) included."""

    name: str
    w: int
    h: int

    @property
    def side(self) -> int:
        """Height of the coloured side below the face."""
        return max(2, round(self.h * 0.085))

    @property
    def face_h(self) -> int:
        return self.h - self.side


L = TileSize("L", 48, 66)  # hands, results
M = TileSize("M", 32, 44)  # rivers
S = TileSize("S", 26, 36)  # melds on the table
XS = TileSize("XS", 16, 22)  # concealed counts (backs)
SIZES: dict[str, TileSize] = {s.name: s for s in (L, M, S, XS)}

SS = 4  # supersampling for bodies


def tile_name(kind: int, honors: Sequence[str] = HONOR_CHARS) -> str:
    """Short label of a kind: ``5m``, ``1p``, ``9s``, or the honor's name in ``honors``
    (东…白 by default; the reader's words, e.g. 繁體 東…白)."""
    if not 0 <= kind < 34:
        raise ValueError(f"tile kind out of range: {kind}")
    if kind < 27:
        return f"{kind % 9 + 1}{SUIT_LETTERS[kind // 9]}"
    return honors[kind - 27]


# ----------------------------------------------------------------------------- art


def _text(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    ch: str,
    fill: Colour,
    stroke: int = 0,
) -> None:
    """Draw one character of the tile font as large as fits ``box``, centred; ``stroke``
    thickens it (legible when scaled down)."""
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    size = int(min(bw, bh) * 1.1)
    while size > 4:
        font = fonts.serif(size)
        left, top, right, bottom = font.getbbox(ch, stroke_width=stroke)
        if right - left <= bw and bottom - top <= bh:
            break
        size -= 2
    font = fonts.serif(size)
    left, top, right, bottom = font.getbbox(ch, stroke_width=stroke)
    x = x0 + (bw - (right - left)) / 2 - left
    y = y0 + (bh - (bottom - top)) / 2 - top
    draw.text((x, y), ch, font=font, fill=fill, stroke_width=stroke, stroke_fill=fill)


def _dot(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: Colour) -> None:
    """A dot (筒) of concentric rings."""
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)
    r2 = r * 0.72
    draw.ellipse((cx - r2, cy - r2, cx + r2, cy + r2), fill=FACE)
    r3 = r * 0.5
    draw.ellipse((cx - r3, cy - r3, cx + r3, cy + r3), fill=colour)
    r4 = r * 0.16
    draw.ellipse((cx - r4, cy - r4, cx + r4, cy + r4), fill=FACE)


def _stick(
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    length: float,
    width: float,
    colour: Colour,
    angle: float = 0.0,
) -> None:
    """A bamboo stick (条) centred at (cx, cy), ``angle`` degrees from vertical."""
    a = math.radians(angle)
    ux, uy = math.sin(a), -math.cos(a)  # along the stick
    px, py = -uy, ux  # across
    hw = width / 2
    hl = max(length / 2 - hw, 0.0)  # the rounded ends are part of the length

    def quad(t0: float, t1: float, w: float) -> list[tuple[float, float]]:
        return [
            (cx + ux * t0 + px * w, cy + uy * t0 + py * w),
            (cx + ux * t1 + px * w, cy + uy * t1 + py * w),
            (cx + ux * t1 - px * w, cy + uy * t1 - py * w),
            (cx + ux * t0 - px * w, cy + uy * t0 - py * w),
        ]

    draw.polygon(quad(-hl, hl, hw), fill=colour)
    # rounded ends
    for t in (-hl, hl):
        ex, ey = cx + ux * t, cy + uy * t
        draw.ellipse((ex - hw, ey - hw, ex + hw, ey + hw), fill=colour)
    # the joints: a light band in the middle and near both ends
    for t in (-hl * 0.55, hl * 0.55):
        draw.polygon(quad(t - width * 0.1, t + width * 0.1, hw * 1.0), fill=FACE)
    # centre highlight line
    draw.line(
        [(cx - ux * hl * 0.9, cy - uy * hl * 0.9), (cx + ux * hl * 0.9, cy + uy * hl * 0.9)],
        fill=(255, 255, 255, 110),
        width=max(1, int(width * 0.16)),
    )


def _bird(draw: ImageDraw.ImageDraw, w: float, h: float) -> None:
    """1 bamboo (一条): a small peacock."""
    # tail feathers fanning down to the left
    for ang, col in ((200, BLUE), (225, GREEN), (250, BLUE)):
        a = math.radians(ang)
        x0, y0 = w * 0.5, h * 0.6
        x1, y1 = x0 + math.cos(a) * w * 0.48, y0 - math.sin(a) * h * 0.36
        draw.line([(x0, y0), (x1, y1)], fill=col, width=int(w * 0.07))
        r = w * 0.085
        draw.ellipse((x1 - r, y1 - r, x1 + r, y1 + r), fill=col)
        r2 = r * 0.45
        draw.ellipse((x1 - r2, y1 - r2, x1 + r2, y1 + r2), fill=RED)
    # body
    draw.ellipse((w * 0.32, h * 0.38, w * 0.78, h * 0.7), fill=GREEN)
    draw.ellipse((w * 0.42, h * 0.45, w * 0.7, h * 0.62), fill=(60, 170, 95, 255))
    # neck and head
    draw.polygon(
        [(w * 0.58, h * 0.45), (w * 0.74, h * 0.22), (w * 0.8, h * 0.26), (w * 0.72, h * 0.5)],
        fill=GREEN,
    )
    draw.ellipse((w * 0.64, h * 0.1, w * 0.88, h * 0.28), fill=RED)
    draw.ellipse((w * 0.75, h * 0.15, w * 0.81, h * 0.2), fill=FACE)
    # beak
    draw.polygon([(w * 0.87, h * 0.17), (w * 0.98, h * 0.21), (w * 0.86, h * 0.23)], fill=GOLD)
    # crest
    for dx in (0.0, 0.05, 0.1):
        draw.line(
            [(w * (0.7 + dx), h * 0.11), (w * (0.66 + dx), h * 0.03)],
            fill=BLUE,
            width=int(w * 0.03),
        )
    # legs
    for lx in (0.5, 0.6):
        draw.line([(w * lx, h * 0.68), (w * (lx - 0.02), h * 0.86)], fill=RED, width=int(w * 0.04))
        draw.line(
            [(w * (lx - 0.02), h * 0.86), (w * (lx + 0.06), h * 0.88)],
            fill=RED,
            width=int(w * 0.04),
        )


_DOTS: dict[int, list[tuple[float, float, Colour]]] = {
    2: [(0.5, 0.27, GREEN), (0.5, 0.73, BLUE)],
    3: [(0.24, 0.19, BLUE), (0.5, 0.5, RED), (0.76, 0.81, GREEN)],
    4: [(0.28, 0.28, BLUE), (0.72, 0.28, GREEN), (0.28, 0.72, GREEN), (0.72, 0.72, BLUE)],
    5: [
        (0.25, 0.2, BLUE),
        (0.75, 0.2, GREEN),
        (0.5, 0.5, RED),
        (0.25, 0.8, GREEN),
        (0.75, 0.8, BLUE),
    ],
    6: [
        (0.3, 0.16, GREEN),
        (0.7, 0.16, GREEN),
        (0.3, 0.55, RED),
        (0.7, 0.55, RED),
        (0.3, 0.84, RED),
        (0.7, 0.84, RED),
    ],
    7: [
        (0.22, 0.12, GREEN),
        (0.5, 0.24, GREEN),
        (0.78, 0.36, GREEN),
        (0.3, 0.6, RED),
        (0.7, 0.6, RED),
        (0.3, 0.86, RED),
        (0.7, 0.86, RED),
    ],
    8: [(x, y, BLUE) for y in (0.13, 0.38, 0.63, 0.88) for x in (0.29, 0.71)],
    9: [(x, y, c) for y, c in ((0.17, BLUE), (0.5, RED), (0.83, GREEN)) for x in (0.2, 0.5, 0.8)],
}
_DOT_R = {2: 0.25, 3: 0.19, 4: 0.2, 5: 0.18, 6: 0.16, 7: 0.14, 8: 0.14, 9: 0.15}


def _dots(draw: ImageDraw.ImageDraw, n: int, w: float, h: float) -> None:
    if n == 1:
        cx, cy, r = w / 2, h / 2, w * 0.46
        for frac, col in (
            (1.0, BLUE),
            (0.86, FACE),
            (0.78, RED),
            (0.6, FACE),
            (0.5, GREEN),
            (0.3, FACE),
            (0.2, RED),
        ):
            rr = r * frac
            draw.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=col)
        # petals between the rings
        for i in range(8):
            a = math.radians(i * 45 + 22.5)
            px, py = cx + math.cos(a) * r * 0.69, cy + math.sin(a) * r * 0.69
            pr = r * 0.07
            draw.ellipse((px - pr, py - pr, px + pr, py + pr), fill=GREEN)
        return
    r = w * _DOT_R[n]
    for fx, fy, col in _DOTS[n]:
        _dot(draw, fx * w, fy * h, r, col)


def _bamboo(draw: ImageDraw.ImageDraw, n: int, w: float, h: float) -> None:
    sw = w * 0.15
    if n == 1:
        _bird(draw, w, h)
        return
    sticks: list[tuple[float, float, float, Colour, float]] = []  # x, y, length, colour, angle
    if n == 2:
        sticks = [(0.5, 0.27, 0.44, GREEN, 0), (0.5, 0.73, 0.44, BLUE, 0)]
    elif n == 3:
        sticks = [
            (0.5, 0.27, 0.44, GREEN, 0),
            (0.28, 0.73, 0.44, BLUE, 0),
            (0.72, 0.73, 0.44, BLUE, 0),
        ]
    elif n == 4:
        sticks = [
            (x, y, 0.44, c, 0)
            for y, row in ((0.27, (GREEN, BLUE)), (0.73, (BLUE, GREEN)))
            for x, c in zip((0.28, 0.72), row, strict=True)
        ]
    elif n == 5:
        sticks = [
            (x, y, 0.44, GREEN if x < 0.5 else BLUE, 0) for y in (0.27, 0.73) for x in (0.2, 0.8)
        ]
        sticks.append((0.5, 0.5, 0.44, RED, 0))
    elif n == 6:
        sticks = [
            (x, y, 0.44, GREEN if y < 0.5 else BLUE, 0)
            for y in (0.27, 0.73)
            for x in (0.2, 0.5, 0.8)
        ]
    elif n == 7:
        sticks = [(0.5, 0.15, 0.28, RED, 0)]
        sticks += [
            (x, y, 0.3, GREEN if y < 0.7 else BLUE, 0) for y in (0.5, 0.84) for x in (0.2, 0.5, 0.8)
        ]
    elif n == 8:
        for y, sign, col in ((0.25, 1, GREEN), (0.75, -1, BLUE)):
            for i, x in enumerate((0.15, 0.38, 0.62, 0.85)):
                ang = 14.0 * sign * (1 if i % 2 == 0 else -1)
                sticks.append((x, y, 0.42, col, ang))
    elif n == 9:
        sticks = [
            (x, y, 0.3, RED if x == 0.5 else (GREEN if y != 0.5 else BLUE), 0)
            for y in (0.16, 0.5, 0.84)
            for x in (0.2, 0.5, 0.8)
        ]
    for fx, fy, length, col, ang in sticks:
        _stick(draw, fx * w, fy * h, length * h, sw, col, ang)


def _honor(draw: ImageDraw.ImageDraw, kind: int, w: float, h: float) -> None:
    if kind == 33:  # 白: an empty blue frame
        m = w * 0.12
        draw.rounded_rectangle(
            (m, m * 1.2, w - m, h - m * 1.2), radius=w * 0.06, outline=BLUE, width=int(w * 0.07)
        )
        m2 = w * 0.25
        draw.rounded_rectangle(
            (m2, m2 * 1.05, w - m2, h - m2 * 1.05),
            radius=w * 0.03,
            outline=BLUE,
            width=int(w * 0.035),
        )
        return
    ch = HONOR_CHARS[kind - 27]
    colour = RED if kind == 31 else GREEN if kind == 32 else INK
    _text(draw, (w * 0.02, h * 0.1, w * 0.98, h * 0.9), ch, colour, stroke=3)


def _characters(draw: ImageDraw.ImageDraw, n: int, w: float, h: float) -> None:
    _text(draw, (w * 0.06, h * 0.0, w * 0.94, h * 0.43), NUMERALS[n - 1], INK, stroke=3)
    _text(draw, (w * 0.02, h * 0.47, w * 0.98, h * 1.0), "万", RED, stroke=2)


def draw_art(kind: int) -> Image.Image:
    """The art of ``kind`` alone, on a transparent ``ART_W`` × ``ART_H`` image."""
    img = Image.new("RGBA", (ART_W, ART_H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    suit, n = divmod(kind, 9)
    if kind >= 27:
        _honor(draw, kind, ART_W, ART_H)
    elif suit == 0:
        _characters(draw, n + 1, ART_W, ART_H)
    elif suit == 1:
        _dots(draw, n + 1, ART_W, ART_H)
    else:
        _bamboo(draw, n + 1, ART_W, ART_H)
    return img


# ----------------------------------------------------------------------------- bodies


def _body(size: TileSize, face: Colour, inner: Colour | None = None) -> Image.Image:
    """A blank tile of ``size``: face colour ``face`` on a coloured side, dark outline."""
    return _flat_body(size.w, size.h, size.side, size.w, face, inner)


def _flat_body(
    w: int, h: int, side: int, short: int, face: Colour, inner: Colour | None = None
) -> Image.Image:
    """A blank ``w`` × ``h`` tile whose bottom ``side`` pixels are its thickness; ``short``
    is the tile's short edge (corner radius and inner margin follow it, so an upright and a
    sideways tile of one size look alike)."""
    face_h = h - side
    w, h = w * SS, h * SS
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    r = max(SS * 2, int(short * SS * 0.14))
    ow = SS  # 1px outline
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=r, fill=OUTLINE)
    d.rounded_rectangle((ow, side * SS // 2, w - 1 - ow, h - 1 - ow), radius=r, fill=SIDE)
    d.rounded_rectangle((ow, ow, w - 1 - ow, face_h * SS - 1), radius=r, fill=face)
    if inner is not None:
        m = int(short * SS * 0.16)
        d.rounded_rectangle((m, m, w - 1 - m, face_h * SS - 1 - m), radius=r // 2, fill=inner)
    return img.resize((w // SS, h // SS), Image.Resampling.LANCZOS)


def _art_box(size: TileSize) -> tuple[int, int, int, int]:
    mx = max(2, round(size.w * 0.1))
    my = max(2, round(size.face_h * 0.08))
    return mx, my, size.w - mx, size.face_h - my


def _build_faces(arts: list[Image.Image], size: TileSize) -> list[Image.Image]:
    blank = _body(size, FACE)
    x0, y0, x1, y1 = _art_box(size)
    out = []
    for art in arts:
        tile = blank.copy()
        small = art.resize((x1 - x0, y1 - y0), Image.Resampling.LANCZOS)
        tile.alpha_composite(small, (x0, y0))
        out.append(tile)
    return out


ARTS: list[Image.Image] = [draw_art(k) for k in range(34)]
FACES: dict[str, list[Image.Image]] = {name: _build_faces(ARTS, s) for name, s in SIZES.items()}
BACKS: dict[str, Image.Image] = {name: _body(s, BACK, BACK_INNER) for name, s in SIZES.items()}


def face(kind: int, size: TileSize = L) -> Image.Image:
    """The cached face of ``kind`` (RGBA; do not modify)."""
    if not 0 <= kind < 34:
        raise ValueError(f"tile kind out of range: {kind}")
    return FACES[size.name][kind]


def back(size: TileSize = L) -> Image.Image:
    """The cached face-down tile (RGBA; do not modify)."""
    return BACKS[size.name]


#: The badge of a wildcard tile: ``宝`` (one wildcard kind), or 南昌's ``正`` (正精, the
#: indicator's kind) and ``副`` (副精, the next) — told apart by the word and its ink.
BADGE_INK = {"宝": (150, 20, 20, 255), "正": (150, 20, 20, 255), "副": (20, 70, 150, 255)}


def badge_of(bao: bool | str) -> str | None:
    """The badge a tile's ``bao`` mark draws: None (no mark), ``宝`` for ``True``, else the
    word given (``正`` / ``副``)."""
    if bao is True:
        return "宝"
    return bao or None


@cache
def _bao_badge(px: int, word: str = "宝") -> Image.Image:
    big = px * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse((0, 0, big - 1, big - 1), fill=GOLD_DARK)
    d.ellipse((SS, SS, big - 1 - SS, big - 1 - SS), fill=GOLD)
    m = big * 0.2
    _text(d, (m, m, big - m, big - m), word, BADGE_INK.get(word, BADGE_INK["宝"]))
    return img.resize((px, px), Image.Resampling.LANCZOS)


@cache
def tile(
    kind: int, size: TileSize = L, *, bao: bool | str = False, last: bool = False
) -> Image.Image:
    """The face of ``kind`` with optional marks: ``bao`` (gold border and a badge: 宝 for
    ``True``, else the word given, 南昌's 正 / 副) and ``last`` (red outline: the last
    discard). Cached; do not modify the result."""
    base = face(kind, size)
    if not bao and not last:
        return base
    img = base.copy()
    d = ImageDraw.Draw(img)
    width = 2 if size.w >= 24 else 1
    if bao:
        d.rounded_rectangle(
            (0, 0, size.w - 1, size.face_h),
            radius=max(2, size.w // 7),
            outline=GOLD,
            width=width + (1 if size.w >= 40 else 0),
        )
        badge = _bao_badge(max(9, round(size.w * 0.42)), badge_of(bao) or "宝")
        img.alpha_composite(badge, (size.w - badge.width, 0))
    if last:
        d.rounded_rectangle(
            (0, 0, size.w - 1, size.h - 1),
            radius=max(2, size.w // 7),
            outline=LAST,
            width=width + 1,
        )
    return img


def sideways_size(size: TileSize) -> tuple[int, int]:
    """Pixel size (w, h) of a tile of ``size`` turned sideways: the face's long edge
    lies across, the thickness stays at the bottom, so it is lower than an upright tile."""
    return size.face_h, size.w + size.side


@cache
def sideways(kind: int, size: TileSize = L, *, bao: bool | str = False) -> Image.Image:
    """The face of ``kind`` turned a quarter to the left, as a claimed tile lies in a meld
    (吃碰杠: it shows who fed the meld). ``bao`` marks it like :func:`tile`. Cached."""
    if not 0 <= kind < 34:
        raise ValueError(f"tile kind out of range: {kind}")
    w, _ = sideways_size(size)
    img = _sideways_blank(size).copy()
    x0, y0, x1, y1 = _art_box(size)  # of the upright tile: rotate its art box too
    art = ARTS[kind].resize((x1 - x0, y1 - y0), Image.Resampling.LANCZOS)
    img.alpha_composite(art.transpose(Image.Transpose.ROTATE_90), (y0, size.w - x1))
    if bao:
        d = ImageDraw.Draw(img)
        width = 2 if size.w >= 24 else 1
        d.rounded_rectangle(
            (0, 0, w - 1, size.w),
            radius=max(2, size.w // 7),
            outline=GOLD,
            width=width + (1 if size.w >= 40 else 0),
        )
        badge = _bao_badge(max(9, round(size.w * 0.42)), badge_of(bao) or "宝")
        img.alpha_composite(badge, (w - badge.width, 0))
    return img


@cache
def _sideways_blank(size: TileSize) -> Image.Image:
    w, h = sideways_size(size)
    return _flat_body(w, h, size.side, size.w, FACE)
