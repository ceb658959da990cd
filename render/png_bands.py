"""A palette picture's PNG put together from bands of rows, each compressed once.

A PNG's pixels are one zlib stream of its rows (each row a filter byte, then the pixels).
Deflate blocks need not reach back into earlier data, so a band of rows compressed on its
own (ending byte-aligned, ``Z_SYNC_FLUSH``) can be put beside other bands as they
are: the stream is the bands' blocks in order, a final empty block, and the Adler-32 of all
the rows, combined from each band's own (:func:`adler32_combine`) without reading the rows
again. A band whose rows did not change since an earlier picture — the same key — is not
compressed again: the table redraws only what changed, and now compresses only that too.

The rows are given with their filter byte (0: none, the usual choice for palette pictures):
the caller draws on a canvas one column wider whose first column is index 0.

Deflate, Adler-32 and CRC-32 are zlib-ng's (the ``zlib-ng`` package: zlib's interface and
streams, 2–3 times faster on these rows, as Pillow's own PNG writer already uses).
"""

from __future__ import annotations

import struct
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence

from zlib_ng import zlib_ng as zlib

#: deflate level of the bands. On the 2,896 table pictures of a paced run
#: (``benchmarks.picture_jobs``), zlib-ng's level 2 gives 26.3 KiB in 1.72–1.75 ms, against
#: 30.9 KiB in 1.96–2.03 ms with CPython's zlib at level 1 (used before); zlib-ng's level 1
#: is faster still but about 38 % larger
LEVEL = 2
#: compressed bytes kept per process
CACHE_BYTES = 8 * 1024 * 1024

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: zlib header (deflate, 32 KiB window, the "fast" flag of levels 2–5; a multiple of 31)
_ZLIB_HEADER = b"\x78\x5e"
#: a final, empty block with fixed codes: the end of the deflate stream
_FINAL_BLOCK = b"\x03\x00"
_ADLER_BASE = 65521

#: a band of the picture: a key naming everything its rows show (None: not kept), and a
#: callable giving the rows (filter bytes included) when they must be compressed
Band = tuple[Hashable | None, Callable[[], bytes | memoryview]]


def adler32_combine(first: int, second: int, second_len: int) -> int:
    """The Adler-32 of ``a + b`` from ``adler32(a)``, ``adler32(b)`` and ``len(b)`` (as
    zlib's ``adler32_combine``, which Python's ``zlib`` does not offer)."""
    rem = second_len % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 += (second & 0xFFFF) + _ADLER_BASE - 1
    sum2 += ((first >> 16) & 0xFFFF) + ((second >> 16) & 0xFFFF) + _ADLER_BASE - rem
    sum1 %= _ADLER_BASE
    sum2 %= _ADLER_BASE
    return sum1 | (sum2 << 16)


class _Compressed:
    """Compressed bands by key, least recently used out first, bounded by bytes."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self.hits = 0
        self.misses = 0
        self._bands: OrderedDict[Hashable, tuple[bytes, int, int]] = OrderedDict()

    def get(self, key: Hashable) -> tuple[bytes, int, int] | None:
        hit = self._bands.get(key)
        if hit is None:
            self.misses += 1
            return None
        self.hits += 1
        self._bands.move_to_end(key)
        return hit

    def put(self, key: Hashable, band: tuple[bytes, int, int]) -> None:
        old = self._bands.pop(key, None)
        if old is not None:
            self.used -= len(old[0])
        self._bands[key] = band
        self.used += len(band[0])
        while self.used > self.budget and len(self._bands) > 1:
            _, out = self._bands.popitem(last=False)
            self.used -= len(out[0])

    def clear(self) -> None:
        self._bands.clear()
        self.used = self.hits = self.misses = 0


_cache = _Compressed(CACHE_BYTES)


def clear() -> None:
    """Forget every compressed band (benchmarks; tests)."""
    _cache.clear()


def stats() -> str:
    """Hits and misses of the band cache, for benchmarks."""
    total = _cache.hits + _cache.misses
    rate = _cache.hits / total if total else 0.0
    return f"band hits {rate:.0%} of {total}"


def _compress(rows: bytes | memoryview) -> tuple[bytes, int, int]:
    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
    data = packer.compress(rows) + packer.flush(zlib.Z_SYNC_FLUSH)
    return data, zlib.adler32(rows), len(rows)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data))
        + kind
        + data
        + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))
    )


def palette_png(width: int, height: int, palette: bytes, bands: Sequence[Band]) -> bytes:
    """A PNG of ``width`` × ``height`` palette pixels (8 bits, ``palette``: RGB triples)
    from ``bands`` top to bottom, whose rows together are the whole picture's."""
    parts = [_ZLIB_HEADER]
    adler = 1  # the Adler-32 of nothing
    for key, rows in bands:
        band = _cache.get(key) if key is not None else None
        if band is None:
            band = _compress(rows())
            if key is not None:
                _cache.put(key, band)
        data, band_adler, size = band
        parts.append(data)
        adler = adler32_combine(adler, band_adler, size)
    parts.append(_FINAL_BLOCK)
    parts.append(struct.pack(">I", adler))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            _SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", b"".join(parts)),
            _chunk(b"IEND", b""),
        )
    )
