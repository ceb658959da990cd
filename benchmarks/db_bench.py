"""Store benchmarks: ``python -m benchmarks.db_bench [--hands N] [--games N] [--appends N]
[--only appends|concurrent|resume|boards] [--postgres URL]``.

Prints append-action latency (target p99 <= 5 ms) and CPU, appends from many games at once
(``concurrent``: SQLite group commit — how many writes share each commit — and, with
``--postgres URL``, the same on a fresh PostgreSQL database there), start-up loading of
1,000 unfinished games (target <= 3 s) and leaderboard / stats queries with 100,000 hands in
one server (target <= 200 ms each), and voiding a confirmed record there (its ratings
replayed at once). Figures only: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from db.models import Action, Game, Guild, Hand, HandResult, Rating, RatingHistory, Snapshot
from db.store import Store
from db.types import ALL_VARIANTS, HandInput, HandPlayer
from engine import variants

#: Every registered variant (the stored ``variant`` is its name); FIRST / SECOND: the ones
#: the single-variant timings use (上饶, 新余).
VARIANTS = variants.names()
FIRST, SECOND = VARIANTS[:2]
GUILD = 1_000_000_000_000_001
NOW = datetime.now(UTC)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:8.2f} ms"


def _pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def _timed(fn: Callable[[], Awaitable[Any]], runs: int = 5) -> tuple[float, float]:
    """Median and worst of ``runs`` calls, after one warm-up."""
    await fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        await fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), max(times)


async def bench_appends(folder: Path, count: int, synchronous: str) -> None:
    url = f"sqlite+aiosqlite:///{folder / f'appends-{synchronous}.db'}"
    store = await Store.open(url, synchronous=synchronous)
    game = await store.games.create(GUILD, 1, FIRST, seats=[{}, {}, {}, {}], status="active")
    version, times = 0, []
    cpu = time.process_time()
    for i in range(count):
        action = {"type": "discard", "seat": i % 4, "tile": i % 34, "tsumogiri": False}
        start = time.perf_counter()
        version = await store.games.append_action(game.id, version, i % 4, action)
        times.append(time.perf_counter() - start)
    cpu = time.process_time() - cpu
    await store.close()
    note = "the default" if synchronous == "FULL" else "for comparison"
    print(f"append_action, {count} appends, SQLite WAL synchronous={synchronous} ({note})")
    print(
        f"  p50 {_ms(_pct(times, 0.5))}   p99 {_ms(_pct(times, 0.99))}   max {_ms(max(times))}"
        f"   CPU {cpu / count * 1e6:.0f} us per append (the process, aiosqlite's thread too)"
    )


async def bench_concurrent(url: str, label: str, games: int, total: int) -> None:
    """``games`` games pressing as fast as their commits return, ``total`` appends in all."""
    store = await Store.open(url)
    ids = [
        (await store.games.create(GUILD, 1, FIRST, seats=[{}] * 4, status="active")).id
        for _ in range(games)
    ]
    times: list[float] = []
    commits, writes = store.db.commits, store.db.writes

    async def press(game_id: int) -> None:
        version = 0
        for i in range(max(1, total // games)):
            action = {"type": "discard", "seat": i % 4, "tile": i % 34}
            start = time.perf_counter()
            version = await store.games.append_action(game_id, version, i % 4, action)
            times.append(time.perf_counter() - start)

    start = time.perf_counter()
    await asyncio.gather(*(press(g) for g in ids))
    elapsed = time.perf_counter() - start
    shared = ""
    if store.db.commits > commits:
        per = (store.db.writes - writes) / (store.db.commits - commits)
        shared = f"   {per:5.1f} writes per commit"
    await store.close()
    print(f"  {label:<10} {games:>4} games at once: {len(times) / elapsed:7.0f} appends/s   "
          f"p50 {_ms(_pct(times, 0.5))}   p99 {_ms(_pct(times, 0.99))}{shared}")  # fmt: skip


@asynccontextmanager
async def _fresh_postgres(server: str) -> AsyncIterator[str]:
    """A new database on the PostgreSQL server ``server`` (dropped afterwards)."""
    import uuid

    import asyncpg
    from sqlalchemy.engine import make_url

    admin = make_url(server).set(drivername="postgresql").render_as_string(hide_password=False)
    name = f"mahjong_bench_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(admin)
    await conn.execute(f'CREATE DATABASE "{name}"')
    await conn.close()
    try:
        yield make_url(server).set(database=name).render_as_string(hide_password=False)
    finally:
        conn = await asyncpg.connect(admin)
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.close()


async def bench_concurrent_all(folder: Path, total: int, postgres: str | None) -> None:
    print(f"appends from many games at once ({total} appends in all per line; SQLite: group "
          "commit, FULL sync; PostgreSQL: games commit in parallel)")  # fmt: skip
    for games in (1, 10, 100):
        url = f"sqlite+aiosqlite:///{folder / f'concurrent-{games}.db'}"
        await bench_concurrent(url, "SQLite", games, total)
    if postgres:
        for games in (1, 10, 100):
            async with _fresh_postgres(postgres) as url:
                await bench_concurrent(url, "PostgreSQL", games, total)


def _state(rng: random.Random) -> dict[str, Any]:
    """A game state about the size the engine's snapshots will have (~6 KB of JSON)."""
    return {
        "wall": [rng.randrange(136) for _ in range(136)],
        "hands": [[rng.randrange(34) for _ in range(14)] for _ in range(4)],
        "rivers": [[rng.randrange(34) for _ in range(20)] for _ in range(4)],
        "melds": [[{"kind": "pong", "tiles": [5, 5, 5], "from": 2}] for _ in range(4)],
        "scores": [0, 0, 0, 0],
        "dealer": 0,
        "hand_no": 3,
        "宝": 17,
        "log_note": "x" * 2000,
    }


async def bench_resume(folder: Path, games: int, actions_after: int) -> None:
    url = f"sqlite+aiosqlite:///{folder / 'resume.db'}"
    store = await Store.open(url)
    rng = random.Random(1)
    await store.guilds.settings(GUILD)
    await store.guilds.update_settings(GUILD, language="zh")
    async with store.db.engine.begin() as conn:
        game_rows = [
            {
                "id": i + 1, "guild_id": GUILD, "channel_id": 5, "variant": VARIANTS[i % len(VARIANTS)],
                "options": {"preset": "classic"}, "seats": [{"user_id": 10 + s} for s in range(4)],
                "status": "active", "totals": [0, 0, 0, 0], "version": 30 + actions_after,
                "created_at": NOW, "updated_at": NOW,
            }
            for i in range(games)
        ]  # fmt: skip
        await conn.execute(Game.__table__.insert(), game_rows)
        await conn.execute(
            Snapshot.__table__.insert(),
            [{"game_id": g["id"], "seq": 30, "state": _state(rng)} for g in game_rows],
        )
        await conn.execute(
            Action.__table__.insert(),
            [
                {"game_id": g["id"], "seq": seq, "seat": seq % 4,
                 "action": {"type": "discard", "tile": seq % 34}}
                for g in game_rows for seq in range(1, 31 + actions_after)
            ],
        )  # fmt: skip
    await store.close()

    start = time.perf_counter()
    store = await Store.open(url)
    opened = time.perf_counter()
    unfinished = await store.games.list_unfinished()
    per_game = []
    for game in unfinished:
        t = time.perf_counter()
        await store.games.load(game.id)
        per_game.append(time.perf_counter() - t)
    one_by_one = time.perf_counter()
    bulk = await store.games.load_unfinished()
    done = time.perf_counter()
    await store.close()
    assert len(unfinished) == len(bulk) == games
    print(
        f"resume {games} unfinished games (snapshot ~6 KB + {actions_after} actions each; "
        "target <= 3 s)"
    )
    print(f"  open + migrate check            {_ms(opened - start)}")
    print(f"  list + load_game one by one     {_ms(one_by_one - opened)}   "
          f"(load_game p50 {_ms(_pct(per_game, 0.5))}, p99 {_ms(_pct(per_game, 0.99))})")  # fmt: skip
    print(f"  load_unfinished_games (bulk)    {_ms(done - one_by_one)}")
    print(f"  total open + list + load each   {_ms(one_by_one - start)}")


async def _fill_hands(store: Store, hands: int, players: int) -> None:
    rng = random.Random(2)
    people = list(range(10_001, 10_001 + players))
    start = NOW - timedelta(days=365)
    step = timedelta(days=365) / hands
    async with store.db.engine.begin() as conn:
        await conn.execute(Guild.__table__.update().values(current_season=4))
        for chunk in range(0, hands, 5000):
            hand_rows, result_rows, history_rows = [], [], []
            for i in range(chunk, min(hands, chunk + 5000)):
                when = start + step * i
                variant = VARIANTS[rng.randrange(len(VARIANTS))]
                seated = rng.sample(people, 4)
                ai = rng.random() < 0.1
                ids = [*seated[:3], -1] if ai else seated
                winner = rng.randrange(4)
                how = rng.choice(("self", "discard", "discard", "rob_kong", "draw"))
                discarder = None
                if how in ("discard", "rob_kong"):
                    discarder = rng.choice([s for s in range(4) if s != winner])
                points = rng.randrange(1, 65)
                deltas = [0, 0, 0, 0]
                if how != "draw":
                    if discarder is None:
                        deltas = [-points] * 4
                        deltas[winner] = 3 * points
                    else:
                        deltas[discarder] = -points
                        deltas[winner] = points
                season = 1 + min(3, i * 4 // hands)
                hand_rows.append({
                    "id": i + 1, "game_id": None, "source": "record", "guild_id": GUILD,
                    "variant": variant, "season": season, "hand_no": 1,
                    "winner_seats": [] if how == "draw" else [winner],
                    "winner_user_ids": [] if how == "draw" else [ids[winner]],
                    "how": how, "discarder_seat": discarder,
                    "discarder_user_id": None if discarder is None else ids[discarder],
                    "points": points, "items": [{"name": "清一色", "value": 4}],
                    "deltas": [{"seat": s, "user_id": ids[s], "delta": deltas[s]}
                               for s in range(4)],
                    "created_at": when,
                })  # fmt: skip
                for s in range(4):
                    won = how != "draw" and s == winner
                    result_rows.append({
                        "hand_id": i + 1, "seat": s, "user_id": ids[s], "guild_id": GUILD,
                        "game_id": None, "source": "record", "variant": variant,
                        "season": season, "delta": deltas[s], "points": points if won else 0,
                        "won": won, "self_draw": won and how == "self",
                        "dealt_in": s == discarder, "is_ai": ids[s] == -1, "created_at": when,
                    })  # fmt: skip
                    if how != "draw":
                        for v in (variant, ALL_VARIANTS):
                            history_rows.append({
                                "guild_id": GUILD, "variant": v, "user_id": ids[s],
                                "is_ai": ids[s] == -1, "hand_id": i + 1,
                                "mu": 25 + rng.gauss(0, 3), "sigma": 3 + rng.random(),
                                "created_at": when,
                            })  # fmt: skip
            await conn.execute(Hand.__table__.insert(), hand_rows)
            await conn.execute(HandResult.__table__.insert(), result_rows)
            await conn.execute(RatingHistory.__table__.insert(), history_rows)
        await conn.execute(
            Rating.__table__.insert(),
            [
                {"guild_id": GUILD, "variant": v, "user_id": uid, "is_ai": uid == -1,
                 "mu": 25 + rng.gauss(0, 3), "sigma": 3 + rng.random(), "hands": 100}
                for v in (*VARIANTS, ALL_VARIANTS) for uid in [*people, -1]
            ],
        )  # fmt: skip


async def bench_boards(folder: Path, hands: int, players: int) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{folder / 'boards.db'}")
    await store.guilds.settings(GUILD)
    await store.guilds.update_settings(GUILD, language="zh")
    t = time.perf_counter()
    await _fill_hands(store, hands, players)
    print(f"leaderboard / stats with {hands} hands of {players} players in one server, spread "
          f"over a year (filled in {time.perf_counter() - t:.1f} s; target <= 200 ms each)")  # fmt: skip
    me = 10_001
    for by in ("points", "rating", "winrate"):
        for period in ("all", "season", "month", "week"):
            for variant in (None, SECOND):
                med, worst = await _timed(
                    partial(
                        store.leaderboards.page,
                        GUILD, variant=variant, period=period, by=by, user_id=me, min_hands=20,
                    )
                )  # fmt: skip
                print(f"  leaderboard by={by:<7} period={period:<6} variant={variant or 'all':<8}"
                      f" median {_ms(med)}  max {_ms(worst)}")  # fmt: skip
    for period in ("all", "season", "month"):
        for variant in (None, FIRST):
            med, worst = await _timed(
                partial(store.stats.player_stats, GUILD, me, variant=variant, period=period)
            )
            print(f"  player_stats period={period:<6} variant={variant or 'all':<8}        "
                  f" median {_ms(med)}  max {_ms(worst)}")  # fmt: skip
    med, worst = await _timed(lambda: store.stats.recent_games(GUILD, user_id=me))
    print(f"  recent_games user                             median {_ms(med)}  max {_ms(worst)}")
    times = []
    for i in range(20):
        hand = HandInput(
            guild_id=GUILD, variant=SECOND, hand_no=i, source="record", how="self",
            players=[HandPlayer(s, 10_001 + s, 9 if s == 0 else -3) for s in range(4)],
            winners=[0], points=3,
        )  # fmt: skip
        start = time.perf_counter()
        await store.hands.record(hand)
        times.append(time.perf_counter() - start)
    print(f"  hands.record (hand + 4 lines + 8 ratings)     median {_ms(statistics.median(times))}"
          f"  max {_ms(max(times))}")  # fmt: skip
    start = time.perf_counter()
    replayed = await store.ratings.rebuild(GUILD)
    print(f"  ratings.rebuild (admin repair, whole server)  {replayed} hands in "
          f"{time.perf_counter() - start:.1f} s")  # fmt: skip
    await bench_void(store)
    await store.close()


async def bench_void(store: Store) -> None:
    """Voiding a confirmed record (its ratings replayed from its hand onward, in the call):
    the record's hand sits at the end, the middle or the start of the server's hands."""
    hands = await store.db.engine.connect()
    try:
        total = (await hands.execute(select(func.count()).select_from(Hand))).scalar_one()
        first, last = (
            await hands.execute(select(func.min(Hand.created_at), func.max(Hand.created_at)))
        ).one()
    finally:
        await hands.close()
    print(f"void_record of a confirmed record, {total} hands in the server: a plan on a read "
          "snapshot (openskill replay in a worker thread), then one write transaction")  # fmt: skip
    for label, at in (
        ("latest hand (nothing after it)", last + timedelta(seconds=1)),
        ("a hand 1 day old", last - timedelta(days=1)),
        ("a hand in the middle", first + (last - first) / 2),
        ("the first hand (worst case)", first - timedelta(seconds=1)),
    ):
        hand = HandInput(
            guild_id=GUILD, variant=SECOND, hand_no=1, source="record", how="self",
            players=[HandPlayer(s, 10_001 + s, 9 if s == 0 else -3) for s in range(4)],
            winners=[0], points=3,
        )  # fmt: skip
        record = await store.records.create(10_001, hand, now=at)
        for s in (1, 2, 3):
            record = await store.records.confirm(record.id, 10_001 + s, now=at)
        start = time.perf_counter()
        plan = await store.records.plan_void(record.id)
        planned = time.perf_counter() - start
        assert plan is not None
        held: list[float] = []
        start = time.perf_counter()
        with _timing_writes(store, held):
            await store.records.void(record.id)
        took = time.perf_counter() - start
        print(f"  {label:<30} {plan.later_hands:>6} hands after, "
              f"{plan.replay.rerated_hands:>6} re-rated, {len(plan.replay.history):>6} history "
              f"rows: void_record {took:6.2f} s, of which write lock held {sum(held):5.2f} s "
              f"(a plan alone: {planned:5.2f} s)")  # fmt: skip


@contextmanager
def _timing_writes(store: Store, held: list[float]) -> Iterator[None]:
    """Add the time each write transaction of ``store`` is open (BEGIN to COMMIT) to
    ``held``."""
    original = store.db.write

    @asynccontextmanager
    async def timed(**options: Any) -> AsyncIterator[Any]:
        start = time.perf_counter()
        try:
            async with original(**options) as conn:
                yield conn
        finally:
            held.append(time.perf_counter() - start)

    store.db.write = timed  # type: ignore[method-assign]
    try:
        yield
    finally:
        del store.db.write


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--appends", type=int, default=2000)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=15, help="actions after each snapshot")
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--dir", type=Path, default=None, help="folder (default: a temp dir)")
    parser.add_argument(
        "--postgres", default=None, help="a PostgreSQL server URL for the concurrent part"
    )
    parser.add_argument(
        "--only",
        choices=("appends", "concurrent", "resume", "boards"),
        default=None,
        help="run one part (boards = leaderboards, stats, rebuild and void)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        folder = Path(tmp)
        print(f"SQLite files in {folder}")
        if args.only in (None, "appends"):
            print("target: append_action p99 <= 5 ms")
            for synchronous in ("FULL", "NORMAL"):
                await bench_appends(folder, args.appends, synchronous)
        if args.only in (None, "concurrent"):
            await bench_concurrent_all(folder, args.appends, args.postgres)
        if args.only in (None, "resume"):
            await bench_resume(folder, args.games, args.actions)
        if args.only in (None, "boards"):
            await bench_boards(folder, args.hands, args.players)


if __name__ == "__main__":
    asyncio.run(main())
