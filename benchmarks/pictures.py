"""What a game picture costs: ``python -m benchmarks.pictures [-n 30] [--variants ...]``.

For each variant, on a mid-hand and a late-hand state of a real hand played by the AI
(:mod:`benchmarks.picture_states`), the table picture and the acting seat's hand picture:
the median ms to draw (RGB), to map onto the shared palette (quantize), and to encode, with
the bytes, for each encoding Discord's clients show inline (PNG, WebP, JPEG, GIF).

Then the table picture as the bot draws it over a whole hand (every step, in order):
``full`` draws every picture from nothing, ``layers`` from the cached layers of
:mod:`render.table_layers` (each round from empty caches: each step finds what its earlier
steps left), ``layers, N
tables`` with N hands interleaved step by step (one worker serving N tables, so the layers
of one table are pushed out by the others').

Figures are medians (ms); ``ratio`` compares with the first row of its block, same run.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from PIL import Image

from benchmarks.picture_states import PictureStep, long_hand, mid_and_late
from render import draw as d
from render.hand import hand_image
from render.palette import palette_image
from render.table import table_image

VARIANTS = ("shangrao", "xinyu", "jiujiang")


def _median_ms(fn: Callable[[], Any], n: int) -> tuple[float, Any]:
    out = fn()  # warm (caches, first-use costs)
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), out


def _quantize(img: Image.Image) -> Image.Image:
    return img.quantize(palette=palette_image(), dither=Image.Dither.NONE)


def _save(img: Image.Image, fmt: str, **params: Any) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format=fmt, **params)
    return buf.getvalue()


#: encoding name → (takes the palette image?, format, save parameters)
ENCODINGS: dict[str, tuple[bool, str, dict[str, Any]]] = {
    "png pal z1": (True, "PNG", {"compress_level": 1}),
    "png pal z1 rle": (True, "PNG", {"compress_level": 1, "compress_type": 3}),
    "png pal z6": (True, "PNG", {"compress_level": 6}),
    "png pal z6 rle": (True, "PNG", {"compress_level": 6, "compress_type": 3}),
    "png pal z9": (True, "PNG", {"compress_level": 9}),
    "png rgb z1": (False, "PNG", {"compress_level": 1}),
    "webp lossless m0": (False, "WEBP", {"lossless": True, "method": 0, "quality": 0}),
    "webp lossless m4": (False, "WEBP", {"lossless": True, "method": 4, "quality": 50}),
    "webp pal lossless m0": (True, "WEBP", {"lossless": True, "method": 0, "quality": 0}),
    "jpeg q90": (False, "JPEG", {"quality": 90}),
    "gif pal": (True, "GIF", {}),
}


def encodings(name: str, img: Image.Image, n: int) -> None:
    """Draw-independent costs of one picture: quantize, then each encoding."""
    q_ms, pal = _median_ms(lambda: _quantize(img), n)
    print(f"  {name:22s} quantize {q_ms:6.2f} ms  ({img.width}×{img.height})")
    for label, (palette, fmt, params) in ENCODINGS.items():
        source = pal if palette else img
        ms, data = _median_ms(lambda s=source, f=fmt, p=params: _save(s, f, **p), n)
        total = ms + (q_ms if palette else 0.0)
        print(
            f"    {label:22s} encode {ms:6.2f} ms  (+quantize: {total:6.2f})  "
            f"{len(data) / 1024:6.1f} KiB"
        )


def costs(variant: str, n: int) -> None:
    mid, late = mid_and_late(variant)
    print(f"{variant}: mid-hand {mid.discards} discards, late-hand {late.discards} discards")
    for when, step in (("mid", mid), ("late", late)):
        for what, make in (
            ("table", lambda s=step: table_image(s.table)),
            ("hand", lambda s=step: hand_image(s.hand)),
        ):
            ms, img = _median_ms(make, n)
            print(f"  {what} {when}: draw {ms:6.2f} ms")
            encodings(f"{what} {when}", img, n)


def _whole_hand_ms(
    steps: list[PictureStep],
    draw: Callable[[Any], Any],
    rounds: int,
    reset: Callable[[], None] = lambda: None,
) -> float:
    """Median over ``rounds`` of the mean ms per picture of drawing every step in order
    (``reset`` before each round: every round starts with empty caches)."""
    per_picture = []
    for _ in range(rounds):
        reset()
        t0 = time.perf_counter()
        for step in steps:
            draw(step.table)
        per_picture.append((time.perf_counter() - t0) * 1000 / len(steps))
    return statistics.median(per_picture)


def _interleaved(hands: list[list[PictureStep]]) -> list[PictureStep]:
    longest = max(len(h) for h in hands)
    return [h[i] for i in range(longest) for h in hands if i < len(h)]


def whole_hand(variant: str, rounds: int, tables: tuple[int, ...]) -> None:
    from render import table_layers

    steps = long_hand(variant)
    print(f"{variant}: whole hand, {len(steps)} table pictures, ms per picture (palette image)")
    full = _whole_hand_ms(steps, lambda v: _quantize(table_image(v)), rounds)
    print(f"  {'full draw + quantize':28s} {full:6.2f} ms  ratio 1.00")
    rows: list[tuple[str, list[PictureStep]]] = [("layers, 1 table", steps)]
    for n in tables:
        hands = [long_hand(variant, f"bench{i}") for i in range(n)]
        rows.append((f"layers, {n} tables", _interleaved(hands)))
    for label, sequence in rows:
        ms = _whole_hand_ms(sequence, table_layers.table_palette_image, rounds, table_layers.clear)
        print(f"  {label:28s} {ms:6.2f} ms  ratio {ms / full:4.2f}  {table_layers.stats()}")
    with_png = _whole_hand_ms(steps, lambda v: d.to_png(table_image(v)), rounds)
    layered_png = _whole_hand_ms(steps, table_layers.render_table, rounds, table_layers.clear)
    print(
        f"  {'full, as PNG bytes':28s} {with_png:6.2f} ms  ratio 1.00\n"
        f"  {'layers, as PNG bytes':28s} {layered_png:6.2f} ms  ratio {layered_png / with_png:4.2f}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=30, help="repetitions per figure")
    parser.add_argument("--variants", nargs="*", default=list(VARIANTS))
    parser.add_argument("--rounds", type=int, default=3, help="whole-hand repetitions")
    parser.add_argument("--tables", type=int, nargs="*", default=[10, 50])
    parser.add_argument("--skip-costs", action="store_true", help="whole hands only")
    parser.add_argument("--skip-layers", action="store_true", help="per-picture costs only")
    args = parser.parse_args(argv)
    print(f"cores {os.cpu_count()}, load average {os.getloadavg()[0]:.2f} at start")
    for variant in args.variants:
        if not args.skip_costs:
            costs(variant, args.n)
        if not args.skip_layers:
            whole_hand(variant, args.rounds, tuple(args.tables))
    print(f"load average {os.getloadavg()[0]:.2f} at end")


if __name__ == "__main__":
    main()
