"""Font benchmark: ``python -m benchmarks.font_bench [-n 200] [--peer-font OLD.otf]``.

Prints the shipped fonts' file sizes and glyph counts, then medians in ms of: opening each
label font, drawing a name cold (glyph masks and widths not yet kept) and warm, for names
in the first font only and names that need the fallback fonts (后备字体), and a leaderboard
page of real-world names against one of ASCII names. ``--peer-font`` times the same cold
draws of the CJK names with another font file (e.g. the previous subset), side by side.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from render import draw as d
from render import fonts
from render.leaderboard import BoardPicture, BoardRow, render_leaderboard

CJK_NAMES = ("周杰伦", "陈奕迅", "蔡依林", "張學友", "김민준", "손흥민", "さくら", "王小明")
FALLBACK_NAMES = ("Łukasz 🔥", "Nguyễn Văn", "🐼熊猫", "Zoë ✨", "Дмитрий 😀", "🀄 King")
ASCII_NAMES = ("alice", "bob", "carol", "dave", "eve", "frank", "grace", "heidi")
SIZE = 18


def _median_ms(fn: Callable[[], object], n: int) -> float:
    fn()
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def _forget() -> None:
    """Drop every kept glyph mask and width, so the next draw is FreeType's full work."""
    d._masks.clear()
    d.sans_length.cache_clear()
    d._runs_laid_out.cache_clear()


def _draw_names(names: tuple[str, ...], cold: bool) -> Callable[[], None]:
    canvas = Image.new("RGB", (400, 40))
    draw = ImageDraw.Draw(canvas)

    def run() -> None:
        for name in names:
            if cold:
                _forget()
            d.text(draw, (4, 4), name, SIZE)

    return run


def _draw_with(font_path: str, names: tuple[str, ...]) -> Callable[[], None]:
    canvas = Image.new("RGB", (400, 40))
    draw = ImageDraw.Draw(canvas)
    font = ImageFont.truetype(font_path, SIZE)

    def run() -> None:
        for name in names:
            draw.text((4, 4), name, font=font, fill=(255, 255, 255))

    return run


def _opener(path: Path) -> Callable[[], ImageFont.FreeTypeFont]:
    return lambda: ImageFont.truetype(str(path), SIZE)


def _board(names: tuple[str, ...]) -> Callable[[], bytes]:
    rows = tuple(BoardRow(i + 1, n, f"+{90 - i}", detail="12 局") for i, n in enumerate(names))
    view = BoardPicture(title="排行榜", rows=rows[:10], footer="1/1")

    def run() -> bytes:
        _forget()
        return render_leaderboard(view)

    return run


def _memory_kib() -> dict[str, int]:
    """Rss and Pss of this process (Linux): the fonts are memory-mapped, so each size opened
    maps the file again (Rss) while its pages exist once (Pss)."""
    try:
        text = Path("/proc/self/smaps_rollup").read_text()
    except OSError:
        return {}
    out = {}
    for line in text.splitlines():
        key, _, rest = line.partition(":")
        if key in ("Rss", "Pss"):
            out[key] = int(rest.split()[0])
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=200)
    parser.add_argument("--peer-font", help="another font file to time the CJK names with")
    args = parser.parse_args(argv)
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    total = 0
    for path, glyphs in ((fonts.SERIF_PATH, None), *fonts.LABEL_FONTS):
        size = path.stat().st_size
        total += size
        chars = "" if glyphs is None else f", {len(glyphs.read_text('utf-8').rstrip()):,} chars"
        print(f"{path.name}: {size / 1024:,.0f} KiB{chars}")
    print(f"all fonts: {total / 1024 / 1024:.2f} MiB")
    for path, _ in fonts.LABEL_FONTS:
        ms = _median_ms(_opener(path), max(args.n // 10, 5))
        print(f"open {path.name}: {ms:.2f} ms")
    before = _memory_kib()
    opened = [fonts.label_font(i, s) for i in range(len(fonts.LABEL_FONTS)) for s in range(9, 41)]
    after = _memory_kib()
    if before and after:
        print(
            f"{len(opened)} label fonts opened (32 sizes): Rss +{(after['Rss'] - before['Rss']) / 1024:.1f} MiB,"
            f" Pss +{(after['Pss'] - before['Pss']) / 1024:.1f} MiB"
        )
    per_name = {
        "CJK names, cold": (_draw_names(CJK_NAMES, True), len(CJK_NAMES)),
        "CJK names, warm": (_draw_names(CJK_NAMES, False), len(CJK_NAMES)),
        "fallback names, cold": (_draw_names(FALLBACK_NAMES, True), len(FALLBACK_NAMES)),
        "fallback names, warm": (_draw_names(FALLBACK_NAMES, False), len(FALLBACK_NAMES)),
        "CJK names, Pillow direct (shipped font)": (
            _draw_with(str(fonts.SANS_PATH), CJK_NAMES),
            len(CJK_NAMES),
        ),
    }
    if args.peer_font:
        per_name["CJK names, Pillow direct (peer font)"] = (
            _draw_with(args.peer_font, CJK_NAMES),
            len(CJK_NAMES),
        )
    for label, (fn, count) in per_name.items():
        print(f"{label}: {_median_ms(fn, args.n) / count:.3f} ms per name")
    real = _median_ms(_board(CJK_NAMES[:5] + FALLBACK_NAMES[:5]), args.n)
    ascii_ = _median_ms(_board((*ASCII_NAMES, "ivan", "judy")), args.n)
    print(f"leaderboard, real-world names (cold glyphs): {real:.2f} ms")
    print(f"leaderboard, ASCII names (cold glyphs): {ascii_:.2f} ms")
    print(f"ratio real/ASCII: {real / ascii_:.2f}")


if __name__ == "__main__":
    main()
