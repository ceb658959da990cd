"""A player's own hand as a picture (手牌图): concealed tiles, the drawn tile, melds.

Melds are laid out as on the table (:func:`render.draw.meld_slots`): a claimed tile lies
sideways towards its feeder, an added kong (补杠) stacks its fourth tile on it (the picture
grows by that much), and a concealed kong (暗杠) shows backs at both ends with its two faces
between, exactly as the others see it, so the own picture never suggests the kong is open."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render import draw as d
from render import tiles
from render.models import HandPicture

PAD = 12
DRAWN_GAP = 16  # the drawn tile stands apart
GROUP_GAP = 22  # between concealed tiles and melds
TITLE_SIZE = 18
LABEL_SIZE = 13
SIZE = tiles.L
FLOWER_SIZE = tiles.M


def hand_order(concealed: tuple[int, ...], wildcards: Collection[int]) -> list[int]:
    """Concealed tiles in display order: the wildcards (宝) first (they stand for anything),
    then by kind."""
    return sorted(concealed, key=lambda k: (k not in wildcards, k))


@dataclass(frozen=True)
class Layout:
    """Where :func:`hand_image` puts things: the picture's size, the tiles' top ``y``,
    ``placed`` — (kind, x) of every concealed tile, the drawn one last — and ``extras_x``,
    the x right after them, where the felt before the melds and 发 begins."""

    width: int
    height: int
    y: int
    placed: tuple[tuple[int, int], ...]
    extras_x: int


def layout(view: HandPicture) -> Layout:
    """Where :func:`hand_image` puts ``view``'s parts."""
    concealed = hand_order(view.concealed, view.wildcards) if view.sort else list(view.concealed)
    width = d.row_width(len(concealed), SIZE)
    if view.drawn is not None:
        width += DRAWN_GAP + SIZE.w
    if view.melds:
        width += GROUP_GAP + d.melds_width(view.melds, SIZE)
    if view.flowers:
        width += GROUP_GAP + FLOWER_SIZE.w + 4 + int(d.text_width(f"×{view.flowers}", 16))
    width = max(width, SIZE.w) + 2 * PAD

    title_h = TITLE_SIZE + 10 if view.title else 0
    label_h = LABEL_SIZE + 6 if view.labels else 0
    rise = d.melds_rise(view.melds, SIZE)  # an added kong's stacked tile (补杠)
    height = PAD + title_h + rise + SIZE.h + label_h + PAD
    if view.title:
        width = max(width, int(d.text_width(view.title, TITLE_SIZE, 60)) + 2 * PAD)
    x = PAD
    placed: list[tuple[int, int]] = []
    for k in concealed:
        placed.append((k, x))
        x += SIZE.w + d.TILE_GAP
    x -= d.TILE_GAP
    if view.drawn is not None:
        x += DRAWN_GAP
        placed.append((view.drawn, x))
        x += SIZE.w
    return Layout(width, height, PAD + title_h + rise, tuple(placed), x)


def hand_image(view: HandPicture) -> Image.Image:
    """Render ``view`` as a PIL image (RGB)."""
    at = layout(view)
    img = d.new_canvas(at.width, at.height)
    draw = ImageDraw.Draw(img)
    if view.title:
        d.text(draw, (PAD, PAD), view.title, TITLE_SIZE, limit=60)
    y = at.y
    drawn_at = len(at.placed) - 1 if view.drawn is not None else None
    for i, (k, x) in enumerate(at.placed):
        d.paste(
            img,
            tiles.tile(k, SIZE, bao=d.wild_mark(k, view.wildcards, view.primary_wildcard)),
            x,
            y,
        )
        if view.labels:
            d.text(
                draw,
                (x + SIZE.w / 2, y + SIZE.h + 3),
                tiles.tile_name(k, view.words.honors),
                LABEL_SIZE,
                fill=d.GOLD if i == drawn_at else d.MUTED,
                anchor="ma",
            )
    _ring_advice(draw, view, list(at.placed), y)
    draw_extras(img, view, at.extras_x, y)
    return img


def draw_extras(img: Image.Image, view: HandPicture, x: int, y: int) -> None:
    """The melds and the 发 laid open, right of the tiles that end at ``x`` (tiles' top
    ``y``)."""
    if view.melds:
        x += GROUP_GAP
        x = d.draw_melds(img, view.melds, x, y, SIZE, view.wildcards, primary=view.primary_wildcard)
    if view.flowers:
        x += GROUP_GAP
        fy = y + SIZE.h - FLOWER_SIZE.h
        d.paste(img, tiles.tile(32, FLOWER_SIZE), x, fy)
        d.text(
            ImageDraw.Draw(img),
            (x + FLOWER_SIZE.w + 4, fy + FLOWER_SIZE.h / 2),
            f"×{view.flowers}",
            16,
            anchor="lm",
        )


#: A review's rings (复盘): the tile played (red) and the analysis' choice (green).
RING_WIDTH = 3


def _ring_advice(
    draw: ImageDraw.ImageDraw, view: HandPicture, placed: list[tuple[int, int]], y: int
) -> None:
    """Ring one tile of the played kind and one of the suggested kind (the drawn tile first:
    it is the one most often let go)."""
    for kind, colour in ((view.played, d.MINUS), (view.suggested, d.PLUS)):
        if kind is None:
            continue
        at = next((x for k, x in reversed(placed) if k == kind), None)
        if at is None:
            continue
        box = (at - 2, y - 2, at + SIZE.w + 1, y + SIZE.h + 1)
        draw.rounded_rectangle(box, radius=5, outline=colour, width=RING_WIDTH)


def render_hand(view: HandPicture) -> bytes:
    """The hand picture as PNG bytes."""
    return d.to_png(hand_image(view))
