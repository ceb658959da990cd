"""Load test of one bot process: many tables at once through the game service (prints
figures, asserts nothing).

``python -m benchmarks.loadtest [--processes N] --games 300 [--db URL] [--seconds 60]
[--think 3] [--no-pictures]``

With ``--processes N`` (N > 1) the tables are shared out between N worker processes on the
one database (PostgreSQL: ``--db postgresql+asyncpg://…``), each a service that joined the
cluster (:mod:`services.cluster`: versioned writes, stored deadlines, ``LISTEN/NOTIFY``);
they start together and the figures are summed over them (latencies merged).

``--games`` tables of one human and three AI seats play at once through
:class:`services.game.GameService` with the real store (a SQLite file in a temp folder
unless ``--db``) and the real engine and AI. Each human presses every ``--think`` seconds on
average (uniformly 0.5–1.5×), now and then (``--afk``) lets a turn time out (``--turn-timeout``
seconds; 托管 follows, and the human comes back a moment later), presses 准备 / next hand
after each hand, and opens a new game when one ends. Presses stop after ``--seconds``.

With pictures (the default) the delivery does what the bot's does with them: a hand
picture for every hand change, the table picture at most every 2 s per table (only the
newest), and a press's answer waits for the pressed hand's picture — rendered the way the
tree under test renders them: in the worker pool (:mod:`render.pool`) where it exists, on the
event loop otherwise (the release before it). Discord itself is not simulated.

Figures: a table, then one JSON line: ``processes``, ``games``, ``actions_per_s``
(acknowledged human presses per second), ``p50_ms`` / ``p99_ms`` (press → committed and
answered, the answer's picture included), ``commit_p99_ms`` (press → committed),
``late_answers`` (past Discord's 3 s), ``late_deadlines`` (timeouts that fired more than 1 s
after their deadline), ``table_lag_max_s`` (a table change → its picture), ``double_applied``
and ``lost_actions`` (acknowledged presses against the stored log), ``mem_per_game_kb`` (this
process's resident memory per table, the picture workers not included) and ``held_games``
(games still in memory at the end), ``cores`` and ``load_avg`` of the machine.

Runs against an older tree too (``cd /old/tree && python /path/to/benchmarks/loadtest.py``
with ``PYTHONPATH=.``): it only uses the service's public calls.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import importlib.util
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the service is built inside each worker (see run_tables)
    from services.game import GameService

ACK_DEADLINE = 3.0
TABLE_INTERVAL = 2.0
LATE_DEADLINE = 1.0


def rss_kb() -> int:
    """Resident memory of this process (kB)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    except OSError:
        import resource

        return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1)))]


class Pictures:
    """Renders the pictures the bot would, as the tree under test does: on this tree the
    models of :mod:`services.pictures` in the :mod:`render.pool` workers, by the bot's
    priorities and budgets; on an older release (run with its tree first on ``PYTHONPATH``
    to compare, e.g. ``9c936b7``) that tree's own picture module, found by name — this tool
    never imports the Discord layer of the current tree."""

    #: seconds a press's answer / a hand DM waits for its hand picture (as ``cogs.delivery.pictures``)
    ANSWER_BUDGET, PRIVATE_BUDGET, TABLE_BUDGET = 0.25, 3.0, 8.0

    def __init__(self, on: bool) -> None:
        self.on = on
        self.rendered = 0
        self.old: Any = None
        if importlib.util.find_spec("services.pictures") is None:  # an older release
            self.old = importlib.import_module("cogs.delivery.pictures")
        self.pooled = on and (self.old is None or hasattr(self.old, "table_png"))
        if self.pooled:
            from render import pool

            pool.shared().start()

    async def _pooled(self, fn: Any, model: Any, priority: int, budget: float) -> None:
        from render import pool

        with contextlib.suppress(TimeoutError):  # late: the bot sends the text alone
            await asyncio.wait_for(pool.shared().render(fn, model, priority=priority), budget)

    async def table(self, game: Any, table: Any) -> None:
        if not self.on:
            return
        if self.old is not None:
            if self.pooled:
                await self.old.table_png(game, table)
            else:
                self.old.table_files(game, table)
        else:
            from render import pool, render_table
            from services.pictures import table_picture

            model = table_picture(game, table)
            await self._pooled(render_table, model, pool.TABLE, self.TABLE_BUDGET)
        self.rendered += 1

    async def hand(self, hand: Any, *, urgent: bool = False) -> None:
        if not self.on:
            return
        budget = self.ANSWER_BUDGET if urgent else self.PRIVATE_BUDGET
        if self.old is not None:
            if self.pooled:
                await self.old.hand_png(hand, urgent=urgent, budget=budget)
            else:
                self.old.hand_files(hand)
        else:
            from render import pool, render_hand
            from services.pictures import hand_picture

            priority = pool.URGENT if urgent else pool.PRIVATE
            await self._pooled(render_hand, hand_picture(hand), priority, budget)
        self.rendered += 1

    async def close(self) -> None:
        if self.pooled:
            from render import pool

            await pool.close_shared()


class LoadDelivery:
    """A delivery without Discord: pictures as the bot makes them, tables coalesced."""

    def __init__(self, pictures: Pictures) -> None:
        self.pictures = pictures
        self.latest: dict[int, tuple[Any, Any, float]] = {}
        self.tasks: dict[int, asyncio.Task[None]] = {}
        self.last: dict[int, float] = {}
        self.lags: list[float] = []
        self.closing = False

    async def lobby_changed(self, game: Any) -> None:
        return None

    async def table_changed(self, game: Any, table: Any, events: Any) -> None:
        if not self.pictures.on:
            return
        since = self.latest[game.id][2] if game.id in self.latest else time.monotonic()
        self.latest[game.id] = (game, table, since)
        task = self.tasks.get(game.id)
        if task is None or task.done():
            self.tasks[game.id] = asyncio.create_task(self._table_later(game.id))

    async def _table_later(self, game_id: int) -> None:
        while not self.closing and game_id in self.latest:
            wait = self.last.get(game_id, 0.0) + TABLE_INTERVAL - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            game, table, since = self.latest.pop(game_id)
            self.last[game_id] = time.monotonic()
            await self.pictures.table(game, table)
            self.lags.append(time.monotonic() - since)

    async def hand_changed(self, game: Any, update: Any) -> None:
        await self.pictures.hand(update.hand)

    async def hand_ended(self, game: Any, result: Any, table: Any) -> None:
        return None

    async def game_ended(self, game: Any, reason: str) -> None:
        return None

    async def refresh(self, game: Any, table: Any) -> None:
        return None

    async def session_changed(self, game: Any, result: Any) -> None:
        return None

    async def close(self) -> None:
        self.closing = True
        for task in self.tasks.values():
            task.cancel()
        await asyncio.gather(*self.tasks.values(), return_exceptions=True)


def _pick(legal: tuple[Any, ...], drawn: str | None) -> Any:
    for kind in ("win", "pass"):
        for key in legal:
            if key.kind == kind:
                return key
    for key in legal:
        if key.kind == "discard" and key.arg == drawn:
            return key
    return next((k for k in legal if k.kind == "discard"), legal[0])


class Run:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.answers: list[float] = []
        self.commits: list[float] = []
        self.acked: dict[int, int] = {}
        self.human_seat: dict[int, int] = {}
        self.late_deadlines = 0
        self.timeouts = 0
        self.errors = 0
        self.games_opened = 0
        self.slowest: tuple[float, str] = (0.0, "")

    async def timed(self, name: str, call: Any) -> Any:
        """Await a service call, keeping the slowest one (name, seconds) for the report."""
        start = time.perf_counter()
        try:
            return await call
        finally:
            took = time.perf_counter() - start
            if took > self.slowest[0]:
                self.slowest = (took, name)

    async def table(self, svc: Any, pictures: Pictures, n: int, stop: float) -> None:
        from engine.tiles import tile_str
        from services.errors import ServiceError

        rng = random.Random(n)
        uid = 100_000 + n
        channel = 10_000 + n
        think = self.args.think
        gid = await self._open(svc, channel, uid, n)
        while time.monotonic() < stop:
            if think:
                await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
            else:
                await asyncio.sleep(0)
            try:
                game = await svc.summary(gid)
                if game.status != "active":
                    gid = await self.timed("open", self._open(svc, channel, uid, n))
                    continue
                if game.seats[0].auto:  # back from 托管
                    await self.timed("autoplay", svc.set_autoplay(gid, uid, False))
                    continue
                if game.phase in ("hand_over", "game_over"):
                    await self.timed("next_hand", svc.next_hand(gid, uid))
                    continue
                view = await svc.private_view(gid, uid)
                if not view.hand.legal:
                    continue
                if self.args.afk and rng.random() < self.args.afk:
                    away = min(self.args.turn_timeout + 0.5, stop - time.monotonic())
                    await asyncio.sleep(max(0.0, away))  # away: the turn times out
                    continue
                drawn = tile_str(view.hand.drawn) if view.hand.drawn is not None else None
                key = _pick(view.hand.legal, drawn)
                start = time.perf_counter()
                result = await svc.act(gid, uid, key)
                committed = time.perf_counter()
                self.acked[gid] = self.acked.get(gid, 0) + 1
                if result.hand is not None:  # the answer shows the pressed hand's picture
                    await pictures.hand(result.hand.hand, urgent=True)
                done = time.perf_counter()
                self.commits.append(committed - start)
                self.answers.append(done - start)
            except ServiceError:
                continue
            except Exception:
                self.errors += 1
                if self.errors <= 3:
                    import traceback

                    traceback.print_exc()

    async def _open(self, svc: GameService, channel: int, uid: int, n: int) -> int:
        game = await svc.create_game(1, channel, uid, f"p{n}")
        await svc.start(game.id, uid)
        self.human_seat[game.id] = 0
        self.games_opened += 1
        return game.id


async def statuses(store: Any) -> dict[str, int]:
    """Games by status in the store."""
    from sqlalchemy import text

    async with store.db.engine.connect() as conn:
        rows = await conn.execute(text("SELECT status, count(*) FROM games GROUP BY status"))
        return {str(status): int(n) for status, n in rows}


async def count_log(store: Any, human_seat: dict[int, int]) -> dict[int, int]:
    """Human presses per game in the stored log (timeouts left out)."""
    from sqlalchemy import text

    out: dict[int, int] = {}
    async with store.db.engine.connect() as conn:
        rows = await conn.execute(text("SELECT game_id, seat, action FROM actions"))
        for game_id, seat, action in rows:
            if isinstance(action, str):
                action = json.loads(action)
            if (
                game_id in human_seat
                and seat == human_seat[game_id]
                and action.get("k") == "act"
                and not action.get("timeout")
            ):
                out[game_id] = out.get(game_id, 0) + 1
    return out


async def run_tables(
    args: argparse.Namespace, url: str, index: int = 0, count: int = 1, start_at: float = 0.0
) -> dict[str, Any]:
    """Play this process's share of the tables (table ``n`` for ``n % count == index``) and
    return its raw figures; ``start_at`` (epoch seconds): when every process starts."""
    from db.store import Store
    from services.game import GameService
    from services.real_engine import RealEngine

    store = await Store.open(url)
    pictures = Pictures(not args.no_pictures)
    delivery = LoadDelivery(pictures)
    svc = GameService(
        store,
        RealEngine(),
        delivery,
        turn_timeout=args.turn_timeout,
        claim_timeout=min(args.turn_timeout, 15),
    )
    if count > 1 and not args.no_cluster:
        await svc.join_cluster(f"loadtest-{index}")
    run = Run(args)
    expiry = svc._deadlines.on_expiry

    async def timed_expiry(live: Any, version: int) -> None:
        if live.deadline is not None and time.time() - live.deadline > LATE_DEADLINE:
            run.late_deadlines += 1
        run.timeouts += 1
        await expiry(live, version)

    svc._deadlines.on_expiry = timed_expiry
    await asyncio.sleep(1.0 if pictures.pooled else 0)  # let the picture workers start
    if start_at:
        await asyncio.sleep(max(0.0, start_at - time.time()))
    base_rss = rss_kb()
    wall = time.monotonic()
    stop = wall + args.seconds
    mine = range(index, args.games, count)
    await asyncio.gather(*(run.table(svc, pictures, n, stop) for n in mine))
    wall = time.monotonic() - wall
    peak_rss = rss_kb()
    held_ids = set(svc._games)
    drain = time.monotonic()
    await svc.idle()  # the deliveries (pictures) the presses set off
    drain = time.monotonic() - drain
    await svc.close()
    await delivery.close()
    await pictures.close()
    await store.close()
    return {
        "wall": wall,
        "answers": run.answers,
        "commits": run.commits,
        "acked": {str(g): n for g, n in run.acked.items()},
        "human_seat": {str(g): s for g, s in run.human_seat.items()},
        "late_deadlines": run.late_deadlines,
        "timeouts": run.timeouts,
        "lags": delivery.lags,
        "pictures": pictures.rendered,
        "pictures_in": "pool" if pictures.pooled else ("loop" if pictures.on else "off"),
        "errors": run.errors,
        "games_opened": run.games_opened,
        "slowest_call": [run.slowest[1], round(run.slowest[0], 2)],
        "drain_s": drain,
        "held_games": len(held_ids),
        "released_games": getattr(svc._games, "released", 0),
        "opened_not_held": len(set(run.human_seat) - held_ids),
        "mem_kb": peak_rss - base_rss,
        "tables": len(mine),
    }


async def run_processes(args: argparse.Namespace, url: str) -> list[dict[str, Any]]:
    """Run ``--processes`` worker processes on the one database; their raw figures."""
    folder = Path(tempfile.mkdtemp(prefix="mj-load-parts-"))
    start_at = time.time() + 3.0 + 0.5 * args.processes  # every worker set up by then
    procs = []
    for index in range(args.processes):
        out = folder / f"part-{index}.json"
        argv = [*sys.argv[1:]] if args.argv is None else list(args.argv)
        cmd = [
            sys.executable,
            "-m",
            "benchmarks.loadtest",
            *argv,
            "--db",
            url,
            "--worker",
            f"{index}:{start_at}:{out}",
        ]
        procs.append((await asyncio.create_subprocess_exec(*cmd), out))
    parts = []
    for proc, out in procs:
        if await proc.wait() != 0:
            raise SystemExit(f"a load-test worker failed (exit {proc.returncode})")
        parts.append(json.loads(out.read_text()))
    return parts


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    from db.store import Store

    folder = Path(tempfile.mkdtemp(prefix="mj-load-"))
    url = args.db or f"sqlite+aiosqlite:///{folder / 'load.db'}"
    store = await Store.open(url)  # migrated once, before any worker starts
    await store.close()
    if args.processes == 1:
        parts = [await run_tables(args, url)]
    else:
        parts = await run_processes(args, url)
    store = await Store.open(url, migrate=False)
    human_seat = {int(g): s for part in parts for g, s in part["human_seat"].items()}
    acked = {int(g): n for part in parts for g, n in part["acked"].items()}
    logged = await count_log(store, human_seat)
    by_status = await statuses(store)
    await store.close()
    lost = sum(max(0, n - logged.get(g, 0)) for g, n in acked.items())
    double = sum(max(0, logged.get(g, 0) - acked.get(g, 0)) for g in logged)
    answers = [a for part in parts for a in part["answers"]]
    commits = [c for part in parts for c in part["commits"]]
    lags = [lag for part in parts for lag in part["lags"]]
    wall = max(part["wall"] for part in parts)
    presses = len(answers)
    slowest = max((part["slowest_call"] for part in parts), key=lambda s: s[1])
    return {
        "processes": args.processes,
        "games": args.games,
        "seconds": round(wall, 1),
        "presses": presses,
        "actions_per_s": round(presses / wall, 1) if wall else 0.0,
        "p50_ms": round(1000 * (statistics.median(answers) if answers else 0), 1),
        "p99_ms": round(1000 * pct(answers, 0.99), 1),
        "commit_p99_ms": round(1000 * pct(commits, 0.99), 1),
        "late_answers": sum(1 for a in answers if a > ACK_DEADLINE),
        "late_deadlines": sum(part["late_deadlines"] for part in parts),
        "timeouts": sum(part["timeouts"] for part in parts),
        "table_lag_max_s": round(max(lags, default=0.0), 2),
        "table_lag_p99_s": round(pct(lags, 0.99), 2),
        "pictures": sum(part["pictures"] for part in parts),
        "pictures_in": parts[0]["pictures_in"],
        "double_applied": double,
        "lost_actions": lost,
        "errors": sum(part["errors"] for part in parts),
        "games_opened": sum(part["games_opened"] for part in parts),
        "slowest_call": slowest,
        "drain_s": round(max(part["drain_s"] for part in parts), 1),
        "held_games": sum(part["held_games"] for part in parts),
        "released_games": sum(part["released_games"] for part in parts),
        "opened_not_held": sum(part["opened_not_held"] for part in parts),
        "stored_games": by_status,
        "mem_per_game_kb": round(sum(part["mem_kb"] for part in parts) / max(1, args.games), 1),
        "database": "postgresql" if url.startswith("postgresql") else "sqlite",
        "cores": os.cpu_count(),
        "load_avg": [round(x, 2) for x in os.getloadavg()],
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (``argv``: without the program name; None: ``sys.argv``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--processes", type=int, default=1, help="bot processes sharing the database"
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--db", help="database URL (default: a SQLite file in a temp dir)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long presses go on")
    parser.add_argument("--think", type=float, default=3.0, help="mean seconds between presses")
    parser.add_argument("--afk", type=float, default=0.01, help="share of turns left to time out")
    parser.add_argument("--turn-timeout", type=float, default=30.0, help="claims: at most 15")
    parser.add_argument("--no-pictures", action="store_true")
    parser.add_argument(
        "--no-cluster",
        action="store_true",
        help="several processes without services.cluster (stored deadlines, NOTIFY): "
        "measures what sharing costs; the tables never cross processes here",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)  # index:start_at:out (internal)
    args = parser.parse_args(argv)
    args.argv = argv
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.worker:
        index, start_at, out = args.worker.split(":", 2)
        part = asyncio.run(run_tables(args, args.db, int(index), args.processes, float(start_at)))
        Path(out).write_text(json.dumps(part))
        return
    out = asyncio.run(main_async(args))
    width = max(len(k) for k in out)
    for key, value in out.items():
        print(f"{key:<{width}}  {value}")
    print(json.dumps(out))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
