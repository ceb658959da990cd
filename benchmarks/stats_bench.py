"""Benchmark of the stats answers on SQLite: ``python -m benchmarks.stats_bench [--hands N]``.

Fills one server with ``--hands`` recorded hands (default 100,000, the same data as
``python -m benchmarks.db_bench``) and times what a command waits for: the store's queries *plus*
the text and the picture (the leaderboard page, the rating chart). Target: leaderboard and
stats ≤ 200 ms each. Figures only: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

from sqlalchemy import text

from benchmarks.db_bench import GUILD, _fill_hands
from db.models import Game
from db.store import Store
from engine import variants
from render.charts import render_rating_chart
from services.stats import BoardQuery, StatsService
from services.stats_picture import board_png

#: The variants the bench's data and queries use: the registry's first two (上饶, 新余).
FIRST, SECOND = variants.names()[:2]

ME = 10_001  # a player of the benchmark data


async def _timed(fn: Callable[[], Awaitable[Any]], runs: int) -> tuple[float, float]:
    """Median and worst of ``runs`` calls after one warm-up, in ms."""
    await fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        await fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


async def _into_games(store: Store, hands: int, per_game: int = 20) -> int:
    """Make the older 80 % of the recorded hands online games of ``per_game`` hands each
    (so ``/mahjong history`` has games to page through); returns how many games."""
    online = hands * 4 // 5 // per_game * per_game
    games = online // per_game
    seats = [{"name": f"P{i}", "user_id": 10_001 + i, "ai": False} for i in range(4)]
    async with store.db.engine.begin() as conn:
        rows = [
            {"id": g + 1, "guild_id": GUILD, "channel_id": 1, "variant": FIRST,
             "seats": seats, "status": "finished", "totals": [0, 0, 0, 0], "version": 0}
            for g in range(games)
        ]  # fmt: skip
        for chunk in range(0, games, 5000):
            await conn.execute(Game.__table__.insert(), rows[chunk : chunk + 5000])
        ids = {"n": online, "k": per_game}
        await conn.execute(
            text(
                "UPDATE hands SET game_id = (id - 1) / :k + 1, hand_no = (id - 1) % :k + 1,"
                " source = 'online' WHERE id <= :n"
            ),
            ids,
        )
        await conn.execute(
            text(
                "UPDATE hand_results SET game_id = (hand_id - 1) / :k + 1, source = 'online'"
                " WHERE hand_id <= :n"
            ),
            ids,
        )
        await conn.execute(
            text(
                "UPDATE games SET updated_at = (SELECT max(h.created_at) FROM hands h"
                " WHERE h.game_id = games.id)"
            )
        )
    return games


async def run(hands: int, players: int, runs: int, folder: Path) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{folder / 'stats-bench.db'}")
    await store.guilds.settings(GUILD)
    await store.guilds.update_settings(GUILD, language="zh")
    start = time.perf_counter()
    await _fill_hands(store, hands, players)
    games = await _into_games(store, hands)
    print(
        f"stats answers with {hands} hands of {players} players in one server, {games} "
        f"online games (filled in {time.perf_counter() - start:.1f} s); target <= 200 ms each"
    )
    service = StatsService(store)

    def row(label: str, med: float, worst: float) -> None:
        print(f"  {label:<52} median {med:7.1f} ms   max {worst:7.1f} ms")

    async def board_with_picture(query: BoardQuery, page: int | None) -> None:
        shown = await service.leaderboard(GUILD, query, page=page, user_id=ME, lang="zh+en")
        await asyncio.to_thread(board_png, shown)

    for by in ("points", "rating", "winrate"):
        for period in ("all", "season", "month", "week"):
            query = BoardQuery(period=period, by=by)
            med, worst = await _timed(partial(board_with_picture, query, 0), runs)
            row(f"leaderboard + picture by={by} period={period} (page 1)", med, worst)
    query = BoardQuery(period="all", by="points")
    med, worst = await _timed(
        lambda: service.leaderboard(GUILD, query, page=0, user_id=ME, lang="zh+en"), runs
    )
    row("leaderboard text only by=points period=all (page 1)", med, worst)
    med, worst = await _timed(lambda: board_with_picture(query, None), runs)
    row("leaderboard + picture by=points period=all (my page)", med, worst)
    query = BoardQuery(variant=SECOND, period="all", by="rating")
    med, worst = await _timed(lambda: board_with_picture(query, 2), runs)
    row(f"leaderboard + picture variant={SECOND} by=rating (page 3)", med, worst)

    async def stats_with_chart(variant: str | None, period: str) -> None:
        answer = await service.stats(
            GUILD, ME, name="bench", variant=variant, period=period, lang="zh+en"
        )
        if len(answer.chart) >= 2:
            await asyncio.to_thread(render_rating_chart, answer.chart)

    for period in ("all", "season", "month"):
        for variant in (None, FIRST):
            med, worst = await _timed(partial(stats_with_chart, variant, period), runs)
            row(f"stats + chart variant={variant or 'all'} period={period}", med, worst)
    med, worst = await _timed(lambda: service.history(GUILD, user_id=ME), runs)
    row("history (a player's recent games, page 1)", med, worst)
    med, worst = await _timed(lambda: service.history(GUILD, page=3), runs)
    row("history (the server's games, page 4)", med, worst)
    await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=None, help="folder (default: a temp dir)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        asyncio.run(run(args.hands, args.players, args.runs, Path(tmp)))


if __name__ == "__main__":
    main()
