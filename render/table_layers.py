"""The table picture (牌桌图) from cached layers: the same pixels as :mod:`render.table`,
with only what changed drawn again.

The table is the static background (felt and panels) with nine parts on it that never
overlap: four seats (座位: header, backs, melds, 发), four rivers (牌河) and the centre. A
step of the game changes one or two of them — a river grows by one tile, the seat whose
turn it is gets a tile, the centre's wall count drops — so each seat and river is drawn
once on its own crop of the background, mapped onto the shared palette (调色板), and kept,
keyed by *everything* it is drawn from: a layer can only ever be reused for a picture that
would draw exactly those pixels. The centre changes at every step and is drawn each time.

Mapping onto the palette is a per-pixel lookup (no dithering), so mapping each layer once
and pasting the palette layers gives the same picture as mapping the whole table: the
expensive per-picture quantize becomes a small one per changed layer. A river that grew
since the last picture (by one discard or a few: a table is drawn every few moves) is the
kept palette layer of the shorter river with each new tile's *slot* pasted on — the tile on
its panel's colour, mapped once per kind and mark. Up to four rows a river's tiles never
overlap, so under each of them there is only the panel's colour and the slot is exactly
what the full draw gives there; longer rivers, whose rows overlap, are appended in RGB.

The PNG is put together the same way (:mod:`render.png_bands`): the rows between two edges of
the parts, and between a river's rows of tiles, are compressed once and kept, keyed by what
the parts they cross show there; only the bands through the centre, and those whose parts
changed (for a river, the row of tiles a discard went to), are compressed again.

The caches are per process, bounded by bytes (:data:`LAYER_CACHE_BYTES`,
:data:`render.png_bands.CACHE_BYTES`), least recently used first out. Each game's table
pictures are drawn by the same worker while it is free (:meth:`render.workers.Workers.run`),
so a worker keeps its own share of the games rather than all of them.
"""

from __future__ import annotations

import functools
import itertools
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import replace
from functools import lru_cache

from PIL import Image, ImageDraw

from render import draw as d
from render import png_bands, tiles
from render import table as full
from render.models import TablePicture
from render.palette import palette_image

#: bytes of palette layers kept per process (a seat or river layer is 30–85 kB; a table
#: playing keeps about 0.8 MB of them, and each game's table is drawn by one worker while it
#: is free, so a worker keeps the tables of about 60 games at 100 playing on 2 workers)
LAYER_CACHE_BYTES = 48 * 1024 * 1024
#: RGB rivers kept to append the next discard to (about 170 kB each): rivers past four rows,
#: and a short river whose shorter palette layer is gone (drawn whole, then kept)
RIVER_BASES = 48


class _Layers:
    """Least-recently-used images by key, bounded by their total bytes."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self.hits = 0
        self.misses = 0
        self._images: OrderedDict[Hashable, Image.Image] = OrderedDict()

    def get(self, key: Hashable) -> Image.Image | None:
        img = self._images.get(key)
        if img is None:
            self.misses += 1
            return None
        self.hits += 1
        self._images.move_to_end(key)
        return img

    def put(self, key: Hashable, img: Image.Image) -> Image.Image:
        size = img.width * img.height * len(img.getbands())
        old = self._images.pop(key, None)
        if old is not None:
            self.used -= old.width * old.height * len(old.getbands())
        self._images[key] = img
        self.used += size
        while self.used > self.budget and len(self._images) > 1:
            _, out = self._images.popitem(last=False)
            self.used -= out.width * out.height * len(out.getbands())
        return img

    def peek(self, key: Hashable) -> Image.Image | None:
        """``key``'s image if kept (not counted as a hit or a miss: a search)."""
        img = self._images.get(key)
        if img is not None:
            self._images.move_to_end(key)
        return img

    def drop(self, key: Hashable) -> None:
        """Forget ``key``'s image (one that will not be asked for again)."""
        old = self._images.pop(key, None)
        if old is not None:
            self.used -= old.width * old.height * len(old.getbands())

    def clear(self) -> None:
        self._images.clear()
        self.used = self.hits = self.misses = 0


_layers = _Layers(LAYER_CACHE_BYTES)
_river_bases: OrderedDict[Hashable, Image.Image] = OrderedDict()


def clear() -> None:
    """Forget every cached layer and compressed band (benchmarks; tests)."""
    _layers.clear()
    _river_bases.clear()
    png_bands.clear()


def stats() -> str:
    """Hits and misses of the layer cache, and its size, for benchmarks."""
    total = _layers.hits + _layers.misses
    rate = _layers.hits / total if total else 0.0
    used = _layers.used / 2**20
    return f"layer hits {rate:.0%} of {total}, {used:.1f} MiB; {png_bands.stats()}"


def _to_palette(img: Image.Image) -> Image.Image:
    return img.quantize(palette=palette_image(), dither=Image.Dither.NONE)


@lru_cache(maxsize=8)
def _background_palette(turn_pos: int | None) -> Image.Image:
    """:func:`render.table._background` on the palette, one column wider: its first column
    is index 0, each row's PNG filter byte (none), so that the canvas's bytes are the PNG's
    rows as they are (:mod:`render.png_bands`). Do not modify."""
    canvas = Image.new("P", (full.WIDTH + 1, full.HEIGHT), 0)
    canvas.putpalette(palette_image().getpalette() or [])
    canvas.paste(_to_palette(full._background(turn_pos)), (1, 0))
    return canvas


@lru_cache(maxsize=1)
def _palette_bytes() -> bytes:
    return bytes(palette_image().getpalette() or [])


def _seat_box(pos: int) -> tuple[int, int, int, int]:
    """The crop of a seat's layer: its panel, outline included."""
    x0, y0, x1, y1 = full.INFO_BOX[pos]
    return x0, y0, x1 + 1, y1 + 1


def _river_box(pos: int) -> tuple[int, int, int, int]:
    """The crop of a river's layer: its panel (4 pixels around the tiles)."""
    x0, y0 = full.RIVER_XY[pos]
    return x0 - 4, y0 - 4, x0 + full.RIVER_W + 4, y0 + full.RIVER_H + 4


def _centre_box() -> tuple[int, int, int, int]:
    """The crop of the centre: its panel and the turn triangle's reach around it."""
    m = full.CENTRE_MARGIN
    x0, y0 = full.CENTRE_X, full.MID_Y
    return x0 - m, y0 - m, x0 + full.CENTRE_W + m + 1, y0 + full.RIVER_H + m + 1


def _seat_layer(
    view: TablePicture, seat_index: int, pos: int, dealer: int | None
) -> tuple[Hashable, Image.Image]:
    seat = view.seats[seat_index]
    turn = view.turn == seat_index
    # everything _wide_seat / _tall_seat read: the seat (its river aside), whether it is the
    # turn's (name colour, panel outline), the dealer (its wind), the wildcards, the words
    key = (
        "seat",
        pos,
        seat_index,
        replace(seat, river=()),
        turn,
        dealer,
        view.wildcards,
        view.primary_wildcard,
        view.reveal_concealed_kongs,
        view.words,
    )
    layer = _layers.get(key)
    if layer is not None:
        return key, layer
    box = _seat_box(pos)
    canvas = full._background(pos if turn else None).crop(box)
    draw = ImageDraw.Draw(canvas)
    local = (0, 0, box[2] - box[0] - 1, box[3] - box[1] - 1)
    if pos in (0, 2):
        full._wide_seat(canvas, draw, view, seat_index, local, dealer)
    else:
        full._tall_seat(canvas, draw, view, seat_index, local, dealer)
    return key, _layers.put(key, _to_palette(canvas))


def _rows(n: int) -> int:
    return -(-n // full.RIVER_COLS)


def _same_pitch(a: int, b: int) -> bool:
    """Whether rivers of ``a`` and ``b`` tiles space their rows alike (rows stack closer
    past ``RIVER_ROWS``)."""
    return _rows(a) == _rows(b) or max(_rows(a), _rows(b)) <= full.RIVER_ROWS


def _paste_river_tile(
    canvas: Image.Image,
    river: tuple[int, ...],
    i: int,
    wildcards: frozenset[int],
    last: bool,
    primary: int | None = None,
) -> None:
    """Tile ``i`` of ``river`` where :func:`render.table._river` puts it (at (4, 4))."""
    k = river[i]
    img = tiles.tile(k, full.RIVER_SIZE, bao=d.wild_mark(k, wildcards, primary), last=last)
    d.paste(canvas, img, *_tile_at(len(river), i))


def _tile_at(count: int, i: int) -> tuple[int, int]:
    """Where tile ``i`` of a river of ``count`` tiles lies on its layer (the panel's 4
    pixels in): :func:`render.table._river`'s rows, stacked closer past four."""
    rows = _rows(count)
    pitch = (
        full.PITCH_Y
        if rows <= full.RIVER_ROWS
        else (full.RIVER_H - full.RIVER_SIZE.h) // (rows - 1)
    )
    r, c = divmod(i, full.RIVER_COLS)
    return 4 + c * full.PITCH_X, 4 + r * pitch


def _river_base(
    pos: int, river: tuple[int, ...], wildcards: frozenset[int], primary: int | None = None
) -> Image.Image:
    """The river's RGB layer without the last-discard mark: the river one tile shorter with
    the new tile pasted on when that one is kept (and its rows are spaced alike), else
    drawn whole. Do not modify."""
    key = (pos, river, wildcards, primary)
    base = _river_bases.get(key)
    if base is not None:
        _river_bases.move_to_end(key)
        return base
    shorter = _river_bases.get((pos, river[:-1], wildcards, primary)) if river else None
    if shorter is not None and _same_pitch(len(river) - 1, len(river)):
        base = shorter.copy()
        _paste_river_tile(base, river, len(river) - 1, wildcards, last=False, primary=primary)
    else:
        base = full._background(None).crop(_river_box(pos))
        draw = ImageDraw.Draw(base)
        full._river(base, draw, river, 4, 4, wildcards, last=False, panel=False, primary=primary)
    _river_bases[key] = base
    while len(_river_bases) > RIVER_BASES:
        _river_bases.popitem(last=False)
    return base


#: rivers up to this many tiles never overlap (rows keep their pitch): a tile's slot there
#: is the panel's colour under the tile, whatever the tiles beside it
_FLAT_RIVER = full.RIVER_COLS * full.RIVER_ROWS


@lru_cache(maxsize=512)
def _slot(kind: int, bao: bool | str, last: bool) -> Image.Image:
    """A river tile on its panel, mapped onto the palette: pasted as it is onto a river
    layer, the same pixels as the tile pasted onto the RGB river and the river mapped (the
    mapping is per pixel, and under a tile of a river of at most :data:`_FLAT_RIVER` tiles
    there is only the panel's colour). Do not modify."""
    img = tiles.tile(kind, full.RIVER_SIZE, bao=bao, last=last)
    canvas = Image.new("RGB", img.size, d.PANEL)
    d.paste(canvas, img, 0, 0)
    return _to_palette(canvas)


def _paste_slot(
    layer: Image.Image,
    river: tuple[int, ...],
    i: int,
    wildcards: frozenset[int],
    last: bool,
    primary: int | None,
) -> None:
    """Tile ``i`` of ``river`` (at most :data:`_FLAT_RIVER` tiles) onto its palette layer,
    where :func:`render.table._river` puts it."""
    k = river[i]
    layer.paste(_slot(k, d.wild_mark(k, wildcards, primary), last), _tile_at(len(river), i))


#: what a river's layer is drawn from: ("river", position, tiles, wildcards, primary
#: wildcard, whether the newest tile is marked as the last discard)
_RiverKey = tuple[str, int, tuple[int, ...], frozenset[int], int | None, bool]


def _river_layer(
    pos: int,
    river: tuple[int, ...],
    wildcards: frozenset[int],
    last: bool,
    primary: int | None = None,
) -> tuple[_RiverKey, Image.Image]:
    """A river's palette layer. A river of at most :data:`_FLAT_RIVER` tiles is the kept
    layer of the same river a few tiles shorter (a picture may come only every few
    discards) with the new tiles' slots pasted on, and its marked version (the last
    discard) the unmarked one with the marked slot pasted over; longer rivers, whose rows
    overlap, go through their RGB layers (:func:`_river_base`)."""
    marked = last and bool(river)
    key: _RiverKey = ("river", pos, river, wildcards, primary, marked)
    layer = _layers.get(key)
    if layer is not None:
        return key, layer
    if river and len(river) <= _FLAT_RIVER:
        if marked:
            _, plain = _river_layer(pos, river, wildcards, False, primary)
            layer = plain.copy()
            _paste_slot(layer, river, len(river) - 1, wildcards, True, primary)
            return key, _layers.put(key, layer)
        for n in range(len(river) - 1, max(-1, len(river) - 1 - full.RIVER_COLS), -1):
            shorter_key: _RiverKey = ("river", pos, river[:n], wildcards, primary, False)
            shorter = _layers.peek(shorter_key)
            if shorter is None:
                continue
            layer = shorter.copy()
            for i in range(n, len(river)):
                _paste_slot(layer, river, i, wildcards, False, primary)
            # a marked layer shows only the newest discard: the shorter one will not be
            # asked for again (the unmarked one may, when a claim takes a discard back)
            _layers.drop((*shorter_key[:-1], True))
            return key, _layers.put(key, layer)
    if not marked:
        return key, _layers.put(key, _to_palette(_river_base(pos, river, wildcards, primary)))
    # the marked last discard is the newest tile, pasted last, as a full draw does
    before = river[:-1]
    if _same_pitch(len(before), len(river)):
        canvas = _river_base(pos, before, wildcards, primary).copy()
        _paste_river_tile(canvas, river, len(river) - 1, wildcards, last=True, primary=primary)
    else:
        canvas = full._background(None).crop(_river_box(pos))
        draw = ImageDraw.Draw(canvas)
        full._river(canvas, draw, river, 4, 4, wildcards, last=True, panel=False, primary=primary)
    return key, _layers.put(key, _to_palette(canvas))


#: a part of the table on the canvas: its box, and the key naming what its pixel rows from
#: ``top`` to ``bottom`` show (None: drawn anew for each picture)
_Part = tuple[tuple[int, int, int, int], Callable[[int, int], Hashable | None]]


def _whole(key: Hashable | None) -> Callable[[int, int], Hashable | None]:
    """A part whose rows are named by its layer's key, whichever rows."""
    return lambda _top, _bottom: key


def _river_rows(layer_key: _RiverKey) -> Callable[[int, int], Hashable | None]:
    """What rows of a river's layer (:func:`_river_layer`'s key) show: in a river of at
    most :data:`_FLAT_RIVER` tiles, only the tiles of the rows of tiles they cross (and the
    mark, if the newest tile is among them), so that a discard changes one row of tiles'
    band rather than the whole river's; a longer river's rows overlap, and its layer's key
    names them all."""
    _kind, pos, river, wildcards, primary, marked = layer_key
    if len(river) > _FLAT_RIVER:
        return lambda top, bottom: (layer_key, top, bottom)
    y0 = _river_box(pos)[1] + 4
    newest = len(river) - 1 if marked else None

    def rows(top: int, bottom: int) -> Hashable:
        crossed = [
            r
            for r in range(full.RIVER_ROWS)
            if y0 + r * full.PITCH_Y < bottom and y0 + r * full.PITCH_Y + full.RIVER_SIZE.h > top
        ]
        if not crossed:
            return ("river rows", pos, top, bottom)  # the panel only
        first, last = crossed[0] * full.RIVER_COLS, (crossed[-1] + 1) * full.RIVER_COLS
        mark = newest if newest is not None and first <= newest < last else None
        return ("river rows", pos, top, bottom, river[first:last], wildcards, primary, mark)

    return rows


def _river_edges(pos: int) -> list[int]:
    """Band edges between a river's rows of tiles (at each row's first pixel row)."""
    y0 = _river_box(pos)[1] + 4
    return [y0 + r * full.PITCH_Y for r in range(1, full.RIVER_ROWS)]


def _compose(view: TablePicture) -> tuple[Image.Image, list[png_bands.Band]]:
    """The table on a palette canvas one column wider (see :func:`_background_palette`),
    and its bands of rows for :func:`render.png_bands.palette_png`: between any two edges
    of the parts (and of a river's rows of tiles), keyed by what the parts they cross show
    there (not kept where the centre, drawn each time, is)."""
    if len(view.seats) != 4:
        raise ValueError("a table has four seats")
    dealer = next((i for i, s in enumerate(view.seats) if s.dealer), None)

    def pos_of(seat: int) -> int:
        return (seat - view.viewer) % 4

    turn_pos = None if view.turn is None else pos_of(view.turn)
    img = _background_palette(turn_pos).copy()
    parts: list[_Part] = []
    for seat_index in range(4):
        pos = pos_of(seat_index)
        key, layer = _seat_layer(view, seat_index, pos, dealer)
        box = _seat_box(pos)
        img.paste(layer, (box[0] + 1, box[1]))
        parts.append((box, _whole(key)))
        river = view.seats[seat_index].river
        last = view.last_discard == seat_index
        key, layer = _river_layer(pos, river, view.wildcards, last, view.primary_wildcard)
        box = _river_box(pos)
        img.paste(layer, (box[0] + 1, box[1]))
        parts.append((box, _river_rows(key)))
    box = _centre_box()
    centre = full._background(turn_pos).crop(box)
    m = full.CENTRE_MARGIN
    full._centre(centre, ImageDraw.Draw(centre), view, pos_of, panel=False, at=(m, m))
    img.paste(_to_palette(centre), (box[0] + 1, box[1]))
    parts.append((box, _whole(None)))
    return img, _bands(img, parts)


def _bands(img: Image.Image, parts: list[_Part]) -> list[png_bands.Band]:
    edges = sorted(
        {0, full.HEIGHT}
        | {y for box, _ in parts for y in (box[1], box[3])}
        | {y for pos in range(4) for y in _river_edges(pos)}
    )
    bands: list[png_bands.Band] = []
    rows_of = _Rows(img)
    for top, bottom in itertools.pairwise(edges):
        crossed = [rows(top, bottom) for box, rows in parts if box[1] < bottom and box[3] > top]
        key = None if None in crossed else ("band", top, bottom, *crossed)
        bands.append((key, functools.partial(rows_of, top, bottom)))
    return bands


class _Rows:
    """The canvas's rows (each after its filter byte), read once for all the bands that are
    compressed again: slicing one read is cheaper than a crop and a read per band."""

    def __init__(self, img: Image.Image) -> None:
        self.img = img
        self.data: memoryview | None = None

    def __call__(self, top: int, bottom: int) -> memoryview:
        if self.data is None:
            self.data = memoryview(self.img.tobytes())
        width = self.img.width
        return self.data[top * width : bottom * width]


def table_palette_image(view: TablePicture) -> Image.Image:
    """``view`` as a palette (``P``) image: the pixels of
    ``render.table.table_image(view)`` mapped onto the shared palette."""
    img, _ = _compose(view)
    return img.crop((1, 0, img.width, img.height))


def render_table(view: TablePicture) -> bytes:
    """The table picture as PNG bytes, from cached layers and bands (the same picture as
    :func:`render.table.render_table`)."""
    _img, bands = _compose(view)
    return png_bands.palette_png(full.WIDTH, full.HEIGHT, _palette_bytes(), bands)
