"""The hand picture (手牌图) from tile slots: the same pixels as :mod:`render.hand`, without
drawing and mapping the whole picture for every step.

A player's hand picture changes at every step of theirs, so nothing of it is kept whole;
but its concealed tiles and the drawn one are the same few dozen faces on the same felt.
Each face is composited onto the felt and mapped onto the shared palette once (its *slot*),
and the picture is those slots pasted onto a palette canvas. Mapping onto the palette is a
per-pixel lookup (no dithering), and under a concealed tile there is only felt (the tiles
stand :data:`render.draw.TILE_GAP` apart), so a slot is exactly what the whole draw gives
there. The melds and 发 to the right (their tiles lie sideways, a 补杠 stacks) are drawn
in RGB as the whole draw does and only their part is mapped.

Pictures with words or rings on the tiles (a title, tile names, a review's advice) are drawn
whole (:func:`render.hand.render_hand`): they are rare, and their text crosses the tiles'
rows. The PNG is written as the table's (:func:`render.png_bands.palette_png`, one band).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from render import draw as d
from render import hand as whole
from render import png_bands, tiles
from render.models import HandPicture
from render.palette import palette_image


def _to_palette(img: Image.Image) -> Image.Image:
    return img.quantize(palette=palette_image(), dither=Image.Dither.NONE)


@lru_cache(maxsize=1)
def _palette_bytes() -> bytes:
    return bytes(palette_image().getpalette() or [])


@lru_cache(maxsize=1)
def _felt() -> int:
    """The felt's palette index."""
    return int(_to_palette(d.new_canvas(1, 1)).getpixel((0, 0)))  # type: ignore[arg-type]


@lru_cache(maxsize=256)
def _slot(kind: int, bao: bool | str) -> Image.Image:
    """A hand tile on the felt, mapped onto the palette. Do not modify."""
    img = tiles.tile(kind, whole.SIZE, bao=bao)
    canvas = d.new_canvas(*img.size)
    d.paste(canvas, img, 0, 0)
    return _to_palette(canvas)


def drawn_whole(view: HandPicture) -> bool:
    """Whether ``view`` is drawn whole: words or rings cross its tiles' rows."""
    return bool(view.title or view.labels or view.played is not None or view.suggested is not None)


def hand_palette_image(view: HandPicture) -> Image.Image:
    """``view`` on the palette, one column wider: its first column is index 0, each row's
    PNG filter byte (none), as :mod:`render.png_bands` takes rows. The other pixels are
    ``render.hand.hand_image(view)`` mapped onto the palette."""
    if drawn_whole(view):
        raise ValueError("a hand picture with words or rings is drawn whole")
    layout = whole.layout(view)
    img = Image.new("P", (layout.width + 1, layout.height), _felt())
    img.paste(0, (0, 0, 1, layout.height))
    for kind, x in layout.placed:
        mark = d.wild_mark(kind, view.wildcards, view.primary_wildcard)
        img.paste(_slot(kind, mark), (x + 1, layout.y))
    if view.melds or view.flowers:
        # drawn as the whole draw does, on their own felt from where the tiles end (only
        # felt lies between), and only their part mapped
        extras = d.new_canvas(layout.width - layout.extras_x, layout.height)
        whole.draw_extras(extras, view, 0, layout.y)
        img.paste(_to_palette(extras), (layout.extras_x + 1, 0))
    return img


def render_hand(view: HandPicture) -> bytes:
    """The hand picture as PNG bytes (the same picture as :func:`render.hand.render_hand`)."""
    if drawn_whole(view):
        return whole.render_hand(view)
    img = hand_palette_image(view)
    width, height = img.width - 1, img.height
    return png_bands.palette_png(width, height, _palette_bytes(), [(None, img.tobytes)])
