"""Render benchmark: ``python -m benchmarks.render_bench [-n 100]``.

Prints ms per render (mean and p95) and PNG sizes for the table, hand and result pictures
(the table and hand also with claimed melds turned towards their feeders) and a full
leaderboard page (ten rows and the asker's own line). Targets (DESIGN.md): table
≤ 30 ms, hand ≤ 10 ms. :func:`bench_render` returns the figures so ``engine.bench`` (or any
other runner) can include them.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from render.hand import render_hand
from render.leaderboard import BoardPicture, BoardRow, render_leaderboard
from render.result import render_result
from render.samples import (
    sample_fed_hand,
    sample_fed_table,
    sample_hand,
    sample_result,
    sample_table,
)
from render.table import render_table

TARGET_MS = {"table": 30.0, "table_fed": 30.0, "hand": 10.0, "hand_fed": 10.0}


def _time(fn: Callable[[], bytes], n: int) -> tuple[float, float, int]:
    fn()  # warm caches
    times = []
    size = 0
    for _ in range(n):
        t0 = time.perf_counter()
        size = len(fn())
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    return statistics.fmean(times), p95, size


def sample_board() -> BoardPicture:
    """A full leaderboard page: ten players (long, mixed-script names), the asker below."""
    names = (
        "阿明",
        "Ｂｏｂ",
        "王小二 Wang",
        "carol",
        "Дмитрий",
        "麻将大师",
        "x" * 60,
        "李",
        "Eve",
        "周",
    )
    rows = tuple(
        BoardRow(
            rank=i + 11,
            name=name,
            value=f"{60 - 13 * i:+d} 分",
            detail=f"{20 + i} 局 · 胜 {30 - i:.1f}%",
            tone=(60 - 13 * i > 0) - (60 - 13 * i < 0),
        )
        for i, name in enumerate(names)
    )
    return BoardPicture(
        title="排行 Leaderboard",
        subtitle="全部玩法 · 总计 · 按分数",
        rows=rows,
        own=BoardRow(1234, "dave", "−80 分", "40 局 · 胜 2.5%", -1, me=True),
        own_label="你的名次",
        footer="第 2/13 · 共 123 人",
    )


def bench_render(n: int = 100) -> dict[str, dict[str, float]]:
    """Time ``n`` renders of each picture; returns ``{name: {mean_ms, p95_ms, png_bytes}}``."""
    table, hand, result = sample_table(), sample_hand(), sample_result()
    fed_table, fed_hand = sample_fed_table(), sample_fed_hand()
    board = sample_board()
    out: dict[str, dict[str, float]] = {}
    for name, fn in (
        ("table", lambda: render_table(table)),
        ("table_fed", lambda: render_table(fed_table)),
        ("hand", lambda: render_hand(hand)),
        ("hand_fed", lambda: render_hand(fed_hand)),
        ("result", lambda: render_result(result)),
        ("board", lambda: render_leaderboard(board)),
    ):
        mean, p95, size = _time(fn, n)
        out[name] = {"mean_ms": mean, "p95_ms": p95, "png_bytes": size}
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="render benchmark")
    parser.add_argument("-n", type=int, default=100, help="renders per picture")
    args = parser.parse_args(argv)
    for name, fig in bench_render(args.n).items():
        target = TARGET_MS.get(name)
        verdict = (
            ""
            if target is None
            else (f"  target ≤ {target:.0f} ms: {'ok' if fig['p95_ms'] <= target else 'MISSED'}")
        )
        print(
            f"{name:9s} mean {fig['mean_ms']:6.2f} ms  p95 {fig['p95_ms']:6.2f} ms  "
            f"png {fig['png_bytes'] / 1024:6.1f} KiB{verdict}"
        )


if __name__ == "__main__":
    main()
