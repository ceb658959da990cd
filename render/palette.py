"""One shared 256-colour palette for PNG output (调色板).

Quantising each picture with its own octree costs ~6 ms for the table; mapping onto a fixed
palette costs under 1 ms. All pictures use the project's own colours, so a palette taken
once from sample pictures (every tile face and mark at every size, badges, text on each
background) fits every later picture closely.
"""

from __future__ import annotations

from functools import cache

from PIL import Image


def _sample() -> Image.Image:
    from render import tiles
    from render.hand import hand_image
    from render.models import SeatView
    from render.result import result_image
    from render.samples import sample_hand, sample_result, sample_table
    from render.table import table_image

    table = sample_table()
    seats = tuple(
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
    rows: list[Image.Image] = []
    for size in tiles.SIZES.values():
        row = Image.new("RGB", (strip_w, size.h * 3), (27, 77, 62))
        for k in range(34):
            x = k * (size.w + 1)
            if x + size.w > strip_w:
                break
            for i, (bao, last) in enumerate(((False, False), (True, False), (False, True))):
                img = tiles.tile(k, size, bao=bao, last=last)
                row.paste(img, (x, i * size.h), img)
        rows.append(row)
    pictures += rows
    sheet = Image.new("RGB", (strip_w, sum(p.height for p in pictures)))
    y = 0
    for p in pictures:
        sheet.paste(p, (0, y))
        y += p.height
    return sheet


@cache
def palette_image() -> Image.Image:
    """A ``P`` image whose palette every PNG is mapped onto (built once, on first use)."""
    return _sample().quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
