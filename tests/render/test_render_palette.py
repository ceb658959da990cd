"""The shipped PNG palette (调色板): data read from render/assets, the one the samples give."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import palette
from render.build_palette import palette_bytes
from render.draw import to_png
from render.samples import sample_table
from render.table import table_image


def test_shipped_palette_is_the_one_the_samples_give() -> None:
    assert palette.PALETTE_FILE.read_bytes() == palette_bytes()


def test_palette_image_holds_256_shipped_colours() -> None:
    image = palette.palette_image()
    assert image.mode == "P"
    assert bytes(image.getpalette() or []) == palette.PALETTE_FILE.read_bytes()
    assert len(image.getpalette() or []) == 256 * 3


def test_pictures_map_onto_the_shipped_palette() -> None:
    png = to_png(table_image(sample_table()))
    with Image.open(io.BytesIO(png)) as decoded:
        assert decoded.mode == "P"
        assert bytes(decoded.getpalette() or []) == palette.PALETTE_FILE.read_bytes()


def test_a_short_palette_file_is_refused(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    short = tmp_path / "palette.rgb"
    short.write_bytes(b"\x00" * 30)
    monkeypatch.setattr(palette, "PALETTE_FILE", short)
    palette.palette_image.cache_clear()
    try:
        with pytest.raises(ValueError, match="30 bytes"):
            palette.palette_image()
    finally:
        monkeypatch.undo()
        palette.palette_image.cache_clear()
