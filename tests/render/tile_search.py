"""Finding a tile image inside a rendered picture (for the tests of where tiles are drawn)."""

from __future__ import annotations

from PIL import Image, ImageChops


def matches(img: Image.Image, tile: Image.Image, x: int, y: int) -> bool:
    """True when ``tile`` (RGBA) is drawn at (x, y): every fully opaque pixel of the tile
    equals the picture's (its anti-aliased rim depends on the background)."""
    if x < 0 or y < 0 or x + tile.width > img.width or y + tile.height > img.height:
        return False
    region = img.crop((x, y, x + tile.width, y + tile.height))
    diff = ImageChops.difference(region, tile.convert("RGB")).convert("L")
    opaque = tile.getchannel("A").point(lambda a: 255 if a == 255 else 0)
    return ImageChops.multiply(diff.point(lambda v: 255 if v else 0), opaque).getbbox() is None


def find(
    img: Image.Image, tile: Image.Image, box: tuple[int, int, int, int] | None = None
) -> list[tuple[int, int]]:
    """Every top-left (x, y) inside ``box`` (default: the whole picture) where ``tile`` is
    drawn, with a cheap one-pixel pre-check before the full comparison."""
    x0, y0, x1, y1 = box if box is not None else (0, 0, img.width, img.height)
    cx = tile.width // 2
    cy = next(y for y in range(tile.height // 2, tile.height) if tile.getpixel((cx, y))[3] == 255)
    want = tile.getpixel((cx, cy))[:3]
    found = []
    for y in range(y0, y1 - tile.height + 1):
        for x in range(x0, x1 - tile.width + 1):
            if img.getpixel((x + cx, y + cy)) == want and matches(img, tile, x, y):
                found.append((x, y))
    return found
