"""The table picture from cached layers is the full drawing, pixel for pixel, at every step.

Each picture drawn from layers is compared with the whole table drawn from nothing and
mapped onto the palette (what ``render_table`` encodes): over whole hands of every variant
played by the AI, over hands drawn interleaved through a cache too small to keep them (the
layers of one table pushed out and taken back, never another table's), and on the fixed
pictures (every meld kind, an added kong, other viewers, other words, rivers long enough to
stack their rows closer).
"""

from __future__ import annotations

from dataclasses import replace
from io import BytesIO

import pytest
from PIL import Image

from benchmarks.picture_states import hand_steps
from render import draw as d
from render import four_seats, png_bands, table_layers
from render import table as full
from render.models import TablePicture
from render.table import render_table, table_image
from services.picture_words import picture_words
from tests.render.render_fixtures import fed_table, jiujiang_table, table_state


def _full(view: TablePicture) -> bytes:
    return table_image(view).quantize(palette=d.palette_image(), dither=Image.Dither.NONE).tobytes()


def _assert_same(view: TablePicture, where: str) -> None:
    layered = table_layers.table_palette_image(view)
    assert layered.mode == "P"
    assert layered.getpalette() == d.palette_image().getpalette(), where
    assert layered.tobytes() == _full(view), f"layered table differs from the full draw: {where}"


@pytest.fixture(autouse=True)
def _fresh_layers():
    table_layers.clear()
    yield
    table_layers.clear()


@pytest.mark.parametrize("variant", ["shangrao", "xinyu", "jiujiang", "nanchang"])
def test_every_step_of_a_hand_equals_the_full_draw(variant: str) -> None:
    steps = list(hand_steps(variant, "layers-1"))
    assert len(steps) > 20
    for i, step in enumerate(steps):
        _assert_same(step.table, f"{variant} step {i}")
    assert table_layers._layers.hits > 0  # the layers were reused, not all drawn again


def test_interleaved_tables_through_a_small_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three tables' hands step by step, with room for a few layers only: evicted layers
    are drawn again, and a layer is never taken for another table's."""
    monkeypatch.setattr(table_layers._layers, "budget", 400_000)
    monkeypatch.setattr(table_layers, "RIVER_BASES", 3)
    hands = [list(hand_steps(v, f"mix-{v}")) for v in ("shangrao", "xinyu", "jiujiang")]
    for i in range(max(len(h) for h in hands)):
        for n, hand in enumerate(hands):
            if i < len(hand):
                _assert_same(hand[i].table, f"table {n} step {i}")
    assert table_layers._layers.used <= 400_000 + 70_000  # at most one layer over


def test_fixed_tables_other_viewers_and_words() -> None:
    english = picture_words("en")
    for name, view in (("table", table_state()), ("fed", fed_table()), ("jj", jiujiang_table())):
        for viewer in range(4):
            for words in (view.words, english):
                for turn in (None, 0, 3):
                    variant = replace(view, viewer=viewer, words=words, turn=turn)
                    _assert_same(variant, f"{name} viewer {viewer} turn {turn} {words.dealer}")
        _assert_same(replace(view, turn=None, claim_wait=True, countdown="9秒"), f"{name} claim")
        _assert_same(replace(view, reveal_concealed_kongs=False), f"{name} kongs hidden")


def test_a_river_growing_past_its_rows_one_discard_at_a_time() -> None:
    """Rows stack closer past four: the appended river is drawn whole where the spacing
    changes, appended elsewhere; the mark moves to each newest tile."""
    view = table_state()
    kinds = [(5 * i + 3) % 34 for i in range(34)]
    for n in range(len(kinds) + 1):
        river = tuple(kinds[:n])
        seats = four_seats(
            replace(s, river=river) if i == 1 else s for i, s in enumerate(view.seats)
        )
        for last in (1, None):
            grown = replace(view, seats=seats, last_discard=last)
            _assert_same(grown, f"river of {n}, {last}")
            _assert_png(grown, f"river of {n}, {last}")


def test_a_river_grown_by_several_discards_or_taken_back_is_appended(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A table is drawn every few discards: a river grown by up to a row of tiles since the
    last picture is the kept layer with the new tiles pasted on, never drawn whole again; a
    discard claimed away (the river one tile shorter) takes the kept shorter layer."""
    view = table_state()
    drawn_whole: list[int] = []
    whole = table_layers._river_base
    monkeypatch.setattr(
        table_layers,
        "_river_base",
        lambda pos, river, *rest: drawn_whole.append(len(river)) or whole(pos, river, *rest),
    )
    kinds = [(7 * i + 2) % 34 for i in range(24)]
    for n in (0, 1, 3, 6, 5, 11, 12, 18, 24):  # (5: the sixth discard claimed)
        seats = four_seats(
            replace(s, river=tuple(kinds[:n])) if i == 3 else s for i, s in enumerate(view.seats)
        )
        grown = replace(view, seats=seats, last_discard=3)
        _assert_same(grown, f"river of {n}")
        _assert_png(grown, f"river of {n}")
        if n == 0:
            drawn_whole.clear()  # (the first picture draws every river)
    assert drawn_whole == []


def _assert_png(view: TablePicture, where: str) -> None:
    shown = Image.open(BytesIO(table_layers.render_table(view)))
    shown.load()  # a broken stream or checksum fails here
    assert shown.tobytes() == _full(view), f"the PNG differs from the full draw: {where}"


def test_a_discard_compresses_only_its_row_of_tiles_again() -> None:
    """A river of up to four rows: a new discard changes the band of its own row of tiles;
    the rows above it come from the cache, and the same tiles in another seat's river or
    another row are not taken for them."""
    view = replace(table_state(), last_discard=None)

    def with_river(seat: int, river: tuple[int, ...]) -> TablePicture:
        return replace(
            view,
            seats=four_seats(
                replace(s, river=river if i == seat else ()) for i, s in enumerate(view.seats)
            ),
        )

    first_row = (0, 1, 2, 3, 4, 5)
    _assert_png(with_river(2, (*first_row, 9)), "top river, 7 tiles")
    before = png_bands._cache.misses
    _assert_png(with_river(2, (*first_row, 9, 10)), "top river, 8 tiles")
    assert png_bands._cache.misses - before == 1  # the second row's band only
    _assert_png(with_river(0, (*first_row, 9, 10)), "the same tiles in the bottom river")
    _assert_png(with_river(2, (9, 10, *first_row)), "the same tiles in other rows")


def test_the_png_shows_the_same_picture() -> None:
    view = fed_table()
    layered = Image.open(BytesIO(table_layers.render_table(view)))
    drawn = Image.open(BytesIO(render_table(view)))
    assert layered.convert("RGB").tobytes() == drawn.convert("RGB").tobytes()


@pytest.mark.parametrize("variant", ["shangrao", "jiujiang", "nanchang"])
def test_every_png_of_a_hand_decodes_to_the_full_draw(variant: str) -> None:
    """The PNG put together from bands compressed once (most taken from the cache) decodes,
    at every step, to the picture drawn whole."""
    png_bands.clear()
    for i, step in enumerate(hand_steps(variant, "bands-1")):
        data = table_layers.render_table(step.table)
        shown = Image.open(BytesIO(data))
        shown.load()  # a broken stream or checksum fails here
        assert shown.mode == "P" and shown.size == (full.WIDTH, full.HEIGHT)
        assert shown.tobytes() == _full(step.table), f"{variant} step {i}"
        assert shown.getpalette() == d.palette_image().getpalette()
    assert png_bands._cache.hits > png_bands._cache.misses  # bands were reused


def test_a_table_without_four_seats_is_refused() -> None:
    view = table_state()
    bad = replace(view, seats=view.seats[:3])
    with pytest.raises(ValueError, match="four seats"):
        table_layers.table_palette_image(bad)
