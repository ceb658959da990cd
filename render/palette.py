"""One shared 256-colour palette for PNG output (调色板).

Quantising each picture with its own octree costs ~6 ms for the table; mapping onto a fixed
palette costs under 1 ms. All pictures use the project's own colours, so a palette taken
once from sample pictures fits every later picture closely. The palette is data, shipped in
``assets/palette.rgb`` (256 RGB triples) and rebuilt from the samples by
:mod:`render.build_palette`, so drawing a picture never needs the other pictures.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PIL import Image

PALETTE_FILE = Path(__file__).resolve().parent / "assets" / "palette.rgb"
#: 256 colours, three bytes each.
PALETTE_BYTES = 256 * 3


@cache
def palette_image() -> Image.Image:
    """A ``P`` image whose palette every PNG is mapped onto (read once, on first use)."""
    data = PALETTE_FILE.read_bytes()
    if len(data) != PALETTE_BYTES:
        raise ValueError(f"{PALETTE_FILE} holds {len(data)} bytes, not {PALETTE_BYTES}")
    image = Image.new("P", (1, 1))
    image.putpalette(data, "RGB")
    return image
