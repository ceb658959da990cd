"""What a game picture costs: ``python -m benchmarks.pictures [-n 30] [--variants ...]``.

For each variant, on a mid-hand and a late-hand state of a real hand played by the AI
(:mod:`benchmarks.picture_states`), the table picture and the acting seat's hand picture:
the median ms to draw (RGB), to map onto the shared palette (quantize), and to encode, with
the bytes, for each encoding Discord's clients show inline (PNG, WebP, JPEG, GIF).

Then the table picture as PNG bytes as the bot makes it over a whole hand (every step, in
order, from empty caches): ``whole`` draws and encodes every picture from nothing (the
release before), ``layers`` from the cached layers and bands of :mod:`render.table_layers`
— each step drawn both ways one right after the other, so a busy machine slows both alike;
``N tables interleaved``: N hands step by step in turn (one worker serving N tables, whose
layers push out each other's). ``--every K`` draws a table only every K steps, as the bot
does in play (one picture per edit, about 2 s apart: a player with three AI makes about 8
steps a press — a discard, three AI turns of a draw and a discard, a draw); The acting
seat's hand picture at every step of the same hand, drawn whole (:mod:`render.hand`) and
from tile slots (:mod:`render.hand_layers`), one right after the other. ``--workers W``
splits the tables among W workers by game, as the bot's picture pool does (a game's table
goes to the same worker while it is free), and measures one worker's share.

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


def _pair(
    sequence: list[PictureStep],
    whole: Callable[[PictureStep], Any],
    new: Callable[[PictureStep], Any],
) -> tuple[list[float], list[float]]:
    """Each step drawn both ways, one right after the other (a busy machine slows both
    alike): ms per picture drawn ``whole``, and drawn the ``new`` way."""
    old_ms, new_ms = [], []
    for step in sequence:
        t0 = time.perf_counter()
        whole(step)
        t1 = time.perf_counter()
        new(step)
        t2 = time.perf_counter()
        old_ms.append((t1 - t0) * 1000)
        new_ms.append((t2 - t1) * 1000)
    return old_ms, new_ms


def _paired(sequence: list[PictureStep]) -> tuple[list[float], list[float]]:
    """Each step's table as PNG bytes drawn whole and from the layers; the layers' caches
    start empty."""
    from render import table_layers

    table_layers.clear()
    return _pair(
        sequence,
        lambda step: d.to_png(table_image(step.table)),
        lambda step: table_layers.render_table(step.table),
    )


def _paired_hands(sequence: list[PictureStep]) -> tuple[list[float], list[float]]:
    """Each step's hand picture as PNG bytes drawn whole and from tile slots
    (:mod:`render.hand_layers`)."""
    from render import hand, hand_layers

    return _pair(
        sequence,
        lambda step: hand.render_hand(step.hand),
        lambda step: hand_layers.render_hand(step.hand),
    )


def _interleaved(hands: list[list[PictureStep]]) -> list[PictureStep]:
    longest = max(len(h) for h in hands)
    return [h[i] for i in range(longest) for h in hands if i < len(h)]


def whole_hand(variant: str, tables: tuple[int, ...], every: int = 1, workers: int = 1) -> None:
    from render import table_layers

    steps = long_hand(variant)[::every]
    print(
        f"{variant}: the table as PNG bytes at every {every} step(s) of a hand "
        f"({len(steps)} pictures), one worker of {workers}"
    )
    rows: list[tuple[str, list[PictureStep]]] = [("1 table", steps)]
    for n in tables:
        hands = [long_hand(variant, f"bench{i}")[::every] for i in range(n)]
        rows.append((f"{n} tables interleaved", _interleaved(hands[::workers])))
    for label, sequence in rows:
        whole, layered = _paired(sequence)
        print(
            f"  {label:22s} whole: median {statistics.median(whole):6.2f} ms, "
            f"mean {statistics.fmean(whole):6.2f}  layers: median "
            f"{statistics.median(layered):6.2f} ms, mean {statistics.fmean(layered):6.2f}  "
            f"ratio of means {statistics.fmean(layered) / statistics.fmean(whole):4.2f}\n"
            f"  {'':22s} {table_layers.stats()}"
        )
    whole, slotted = _paired_hands(long_hand(variant))
    print(
        f"  the acting seat's hand at every step: whole: median "
        f"{statistics.median(whole):6.2f} ms  slots: median {statistics.median(slotted):6.2f} ms"
        f"  ratio of means {statistics.fmean(slotted) / statistics.fmean(whole):4.2f}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=30, help="repetitions per figure")
    parser.add_argument("--variants", nargs="*", default=list(VARIANTS))
    parser.add_argument("--tables", type=int, nargs="*", default=[10, 50])
    parser.add_argument("--skip-costs", action="store_true", help="whole hands only")
    parser.add_argument("--skip-layers", action="store_true", help="per-picture costs only")
    parser.add_argument("--every", type=int, default=1, help="a table picture every K steps")
    parser.add_argument("--workers", type=int, default=1, help="the tables split among W")
    args = parser.parse_args(argv)
    print(f"cores {os.cpu_count()}, load average {os.getloadavg()[0]:.2f} at start")
    for variant in args.variants:
        if not args.skip_costs:
            costs(variant, args.n)
        if not args.skip_layers:
            whole_hand(variant, tuple(args.tables), args.every, args.workers)
    print(f"load average {os.getloadavg()[0]:.2f} at end")


if __name__ == "__main__":
    main()
