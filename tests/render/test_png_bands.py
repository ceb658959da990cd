"""A PNG put together from bands of rows compressed once is a valid PNG of those rows."""

from __future__ import annotations

import os
import zlib
from io import BytesIO

import pytest
from PIL import Image

from render import png_bands


@pytest.fixture(autouse=True)
def _fresh_bands():
    png_bands.clear()
    yield
    png_bands.clear()


def test_adler32_combine_is_zlibs() -> None:
    for a, b in ((b"", b""), (b"abc", b""), (b"", b"xyz"), (os.urandom(70000), os.urandom(9))):
        combined = png_bands.adler32_combine(zlib.adler32(a), zlib.adler32(b), len(b))
        assert combined == zlib.adler32(a + b)
    big = os.urandom(200_000)
    assert png_bands.adler32_combine(zlib.adler32(big), zlib.adler32(big), len(big)) == (
        zlib.adler32(big + big)
    )


def _picture(seed: int, width: int = 37, height: int = 29) -> bytes:
    """Rows of palette indexes, each after its filter byte (0)."""
    rng = bytes((seed * 7 + i * 13 + (i // 5) * 3) % 251 for i in range(width * height))
    return b"".join(b"\0" + rng[y * width : (y + 1) * width] for y in range(height))


def _png(rows: bytes, cuts: list[int], keys: list[object], width: int = 37) -> bytes:
    palette = bytes(range(256)) * 3
    stride = width + 1
    edges = [0, *cuts, len(rows) // stride]
    bands = [
        (key, lambda a=a, b=b: rows[a * stride : b * stride])
        for key, a, b in zip(keys, edges[:-1], edges[1:], strict=True)
    ]
    return png_bands.palette_png(width, len(rows) // stride, palette, bands)


def _decoded(data: bytes) -> bytes:
    img = Image.open(BytesIO(data))
    img.load()
    assert img.mode == "P"
    return img.tobytes()


def test_bands_decode_to_their_rows() -> None:
    rows = _picture(1)
    plain = b"".join(rows[y * 38 + 1 : (y + 1) * 38] for y in range(29))
    for cuts in ([], [1], [10, 11, 28], list(range(1, 29))):
        keys: list[object] = [None] * (len(cuts) + 1)
        assert _decoded(_png(rows, cuts, keys)) == plain


def test_a_kept_band_is_reused_and_the_picture_stays_right() -> None:
    first, second = _picture(1), _picture(2)
    top = 12 * 38
    mixed = first[:top] + second[top:]  # same top band, another bottom band
    _png(first, [12], ["top", "bottom-1"])
    assert png_bands._cache.misses == 2
    data = _png(mixed, [12], ["top", "bottom-2"])
    assert png_bands._cache.hits == 1  # the top band was not compressed again
    assert _decoded(data) == b"".join(mixed[y * 38 + 1 : (y + 1) * 38] for y in range(29))


def test_the_cache_keeps_to_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(png_bands._cache, "budget", 300)
    for n in range(20):
        _png(_picture(n), [], [f"picture-{n}"])
    assert png_bands._cache.used <= 300 + max(len(v[0]) for v in png_bands._cache._bands.values())
    assert len(png_bands._cache._bands) < 20


def _chunks(data: bytes) -> dict[bytes, bytes]:
    """Each chunk's data by kind, after checking its CRC with CPython's own zlib."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = {}, 8
    while at < len(data):
        size = int.from_bytes(data[at : at + 4], "big")
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + size]
        crc = int.from_bytes(data[at + 8 + size : at + 12 + size], "big")
        assert crc == zlib.crc32(kind + body), kind
        chunks[kind] = body
        at += 12 + size
    return chunks


def test_the_stream_passes_cpythons_zlib_checks() -> None:
    """zlib-ng writes the bands: the PNG's chunks and its one zlib stream (header check,
    Adler-32 of all the rows) are what CPython's own zlib reads and checks, for a stream
    of one band and of bands past deflate's 32 KiB window."""
    small = _picture(3)
    wide = b"".join(_picture(n, width=300, height=60) for n in range(4))  # 72 kB of rows
    for rows, width, cuts in ((small, 37, []), (small, 37, [3, 4, 20]), (wide, 300, [60, 150])):
        data = _png(rows, cuts, [None] * (len(cuts) + 1), width=width)
        idat = _chunks(data)[b"IDAT"]
        assert int.from_bytes(idat[:2], "big") % 31 == 0
        assert zlib.decompress(idat) == rows  # (raises on a wrong header or Adler-32)
