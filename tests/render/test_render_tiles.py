"""Tile art: every kind distinct, marks visible, sizes right, colours where the rules say."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image

from render import tiles


def _pixels(img: Image.Image) -> bytes:
    return img.convert("RGBA").tobytes()


@pytest.mark.parametrize("size", list(tiles.SIZES.values()), ids=lambda s: s.name)
def test_all_34_faces_are_distinct(size: tiles.TileSize) -> None:
    faces = [_pixels(tiles.face(k, size)) for k in range(34)]
    for a, b in itertools.combinations(range(34), 2):
        assert faces[a] != faces[b], f"kinds {a} and {b} look identical at size {size.name}"


@pytest.mark.parametrize("size", list(tiles.SIZES.values()), ids=lambda s: s.name)
def test_images_have_the_size_of_their_tile_size(size: tiles.TileSize) -> None:
    for k in range(34):
        assert tiles.face(k, size).size == (size.w, size.h)
        assert tiles.tile(k, size, bao=True, last=True).size == (size.w, size.h)
    assert tiles.back(size).size == (size.w, size.h)


@pytest.mark.parametrize("size", list(tiles.SIZES.values()), ids=lambda s: s.name)
def test_bao_and_last_discard_marks_change_every_tile(size: tiles.TileSize) -> None:
    back = _pixels(tiles.back(size))
    for k in range(34):
        plain = _pixels(tiles.tile(k, size))
        bao = _pixels(tiles.tile(k, size, bao=True))
        last = _pixels(tiles.tile(k, size, last=True))
        assert len({plain, bao, last, back}) == 4, k


def test_marked_tiles_do_not_alter_the_cached_face() -> None:
    before = _pixels(tiles.face(5))
    tiles.tile(5, bao=True, last=True)
    assert _pixels(tiles.face(5)) == before


def _rgba(img: Image.Image) -> list[tuple[int, int, int, int]]:
    """Pixels as tuples (without ``getdata``, deprecated in Pillow 12)."""
    data = img.convert("RGBA").tobytes()
    return [tuple(data[i : i + 4]) for i in range(0, len(data), 4)]


def _count(img: Image.Image, pred, box=None) -> int:
    region = img.crop(box) if box else img
    return sum(1 for p in _rgba(region) if p[3] > 200 and pred(p))


def _red(p) -> bool:
    return p[0] > 150 and p[1] < 90 and p[2] < 90


def _green(p) -> bool:
    return p[1] > 100 and p[0] < 80 and p[2] < 110


def _blue(p) -> bool:
    return p[2] > 130 and p[0] < 80 and p[1] < 120


def test_colours_follow_real_tiles() -> None:
    art = tiles.ARTS
    h = tiles.ART_H
    for n in range(9):  # 万 is red in the lower half, the numeral dark above it
        assert _count(art[n], _red, (0, h // 2, tiles.ART_W, h)) > 500
        assert _count(art[n], _red, (0, 0, tiles.ART_W, int(h * 0.4))) == 0
    assert _count(art[31], _red) > 500  # 中 red
    assert _count(art[32], _green) > 500  # 发 green
    assert _count(art[33], _blue) > 500  # 白: a blue frame
    assert _count(art[33], _red) == 0
    for k in range(27, 31):  # winds in dark ink, no colour
        assert _count(art[k], lambda p: _red(p) or _green(p)) == 0
    for k in range(9, 27):  # dots and bamboo are coloured patterns
        assert _count(art[k], lambda p: _red(p) or _green(p) or _blue(p)) > 300


def test_white_dragon_frame_is_empty_inside() -> None:
    art = tiles.ARTS[33]
    w, h = art.size
    centre = art.crop((int(w * 0.35), int(h * 0.35), int(w * 0.65), int(h * 0.65)))
    assert all(p[3] == 0 for p in _rgba(centre))


@pytest.mark.parametrize(
    ("kind", "name"),
    [
        (0, "1m"),
        (8, "9m"),
        (9, "1p"),
        (17, "9p"),
        (18, "1s"),
        (26, "9s"),
        (27, "东"),
        (30, "北"),
        (31, "中"),
        (32, "发"),
        (33, "白"),
    ],
)
def test_tile_name(kind: int, name: str) -> None:
    assert tiles.tile_name(kind) == name


@pytest.mark.parametrize("kind", [-1, 34, 99])
def test_out_of_range_kinds_are_rejected(kind: int) -> None:
    with pytest.raises(ValueError, match="out of range"):
        tiles.tile_name(kind)
    with pytest.raises(ValueError, match="out of range"):
        tiles.tile(kind)
