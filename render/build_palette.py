"""Rebuild the shipped PNG palette ``render/assets/palette.rgb`` (调色板).

Usage::

    python -m render.build_palette

The palette is taken from sample pictures (every tile face and mark at every size, the
sample table, hand and result, see :mod:`render.samples`), so it fits every later picture
closely. Rebuild it after changing the project's colours or the samples, then regenerate
the test references (``python tests/render/make_reference.py``). A test checks that the
shipped file is the one these samples give.
"""

from __future__ import annotations

from PIL import Image

from render import tiles
from render.draw import FELT
from render.hand import hand_image
from render.models import SeatView, four_seats
from render.palette import PALETTE_FILE
from render.result import result_image
from render.samples import sample_hand, sample_result, sample_table
from render.table import table_image


def sample_sheet() -> Image.Image:
    """One picture holding every colour the pictures use: the sample table (twice: as
    dealt, and with every seat on 托管 and ready), hand and result, and strips of every tile
    at every size, plain, as 宝 and as the last discard."""
    table = sample_table()
    seats = four_seats(
        SeatView(name=s.name, score=s.score, dealer=s.dealer, auto=True, ready=True)
        for s in table.seats
    )
    pictures = [
        table_image(table),
        table_image(type(table)(seats=seats, turn=0, countdown="5秒")),
        hand_image(sample_hand()),
        result_image(sample_result()),
    ]
    strip_w = max(p.width for p in pictures)
    for size in tiles.SIZES.values():
        row = Image.new("RGB", (strip_w, size.h * 3), FELT)
        for k in range(34):
            x = k * (size.w + 1)
            if x + size.w > strip_w:
                break
            for i, (bao, last) in enumerate(((False, False), (True, False), (False, True))):
                img = tiles.tile(k, size, bao=bao, last=last)
                row.paste(img, (x, i * size.h), img)
        pictures.append(row)
    sheet = Image.new("RGB", (strip_w, sum(p.height for p in pictures)))
    y = 0
    for p in pictures:
        sheet.paste(p, (0, y))
        y += p.height
    return sheet


def palette_bytes() -> bytes:
    """The 256 RGB colours (768 bytes) that the samples quantise to."""
    quantised = sample_sheet().quantize(
        256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    return bytes(quantised.getpalette() or [])


def main() -> None:
    data = palette_bytes()
    PALETTE_FILE.write_bytes(data)
    print(f"wrote {PALETTE_FILE} ({len(data) // 3} colours)")


if __name__ == "__main__":
    main()
