"""Benchmarks of the game service on SQLite (DESIGN targets; prints figures, asserts nothing).

``python -m benchmarks.service_bench [--games 100] [--resume 1000] [--db PATH]``

- *act*: ``--games`` games at once, one human and three AI seats each, the human moving every
  ``--think`` seconds on average; every human action is timed from the call to its return
  (state committed, AI replies applied) — what a button press waits for before the bot
  answers. Target p99 ≤ 50 ms. ``act_flat_out`` repeats it with no thinking time (a stress
  figure: every game presses as fast as the database commits).
- *resume*: ``--resume`` unfinished games in the database, each ``--resume-moves`` human
  moves into its hand, then a new service's ``resume_all()`` (load, replay from snapshots,
  re-arm timers). Target ≤ 3 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from db.store import Store
from services.errors import ServiceError
from services.game import GameService
from services.model import ActionKey
from services.real_engine import RealEngine


def _pick(legal: tuple[ActionKey, ...], drawn: str | None) -> ActionKey:
    for kind in ("win", "pass"):
        for key in legal:
            if key.kind == kind:
                return key
    for key in legal:
        if key.kind == "discard" and key.arg == drawn:
            return key
    return next((k for k in legal if k.kind == "discard"), legal[0])


async def _play(
    svc: GameService, gid: int, uid: int, moves: int, times: list[float], think: float
) -> None:
    import random

    from engine.tiles import tile_str

    rng = random.Random(gid)
    for _ in range(moves):
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think))
        game = await svc.summary(gid)
        if game.status != "active":  # its length is played (issue 13)
            break
        if game.phase == "hand_over":
            try:
                await svc.next_hand(gid, uid)
            except ServiceError:  # the session's last hand: the game is ending
                await asyncio.sleep(0.01)
            continue
        view = await svc.private_view(gid, uid)
        if not view.hand.legal:
            await asyncio.sleep(0)
            continue
        drawn = tile_str(view.hand.drawn) if view.hand.drawn is not None else None
        start = time.perf_counter()
        await svc.act(gid, uid, _pick(view.hand.legal, drawn))
        times.append(time.perf_counter() - start)


async def bench_act(url: str, games: int, moves: int, think: float) -> dict[str, float]:
    store = await Store.open(url)
    svc = GameService(store, RealEngine(), turn_timeout=3600, claim_timeout=3600)
    ids = []
    for i in range(games):
        game = await svc.create_game(1, 10_000 + i, 100_000 + i, f"p{i}")
        await svc.start(game.id, 100_000 + i)
        ids.append(game.id)
    times: list[float] = []
    wall = time.perf_counter()
    await asyncio.gather(
        *(_play(svc, gid, 100_000 + i, moves, times, think) for i, gid in enumerate(ids))
    )
    wall = time.perf_counter() - wall
    await svc.close()
    await store.close()
    times.sort()
    return {
        "games": games,
        "think_s": think,
        "actions": len(times),
        "p50_ms": round(1000 * statistics.median(times), 2),
        "p99_ms": round(1000 * times[int(0.99 * (len(times) - 1))], 2),
        "actions_per_s": round(len(times) / wall, 1),
    }


async def bench_resume(url: str, games: int, moves: int) -> dict[str, float]:
    store = await Store.open(url)
    svc = GameService(store, RealEngine(), turn_timeout=3600, claim_timeout=3600)
    ids = []
    for i in range(games):
        game = await svc.create_game(2, 50_000 + i, 200_000 + i, f"r{i}")
        await svc.start(game.id, 200_000 + i)
        ids.append(game.id)
    times: list[float] = []
    await asyncio.gather(
        *(_play(svc, gid, 200_000 + i, moves, times, 0.0) for i, gid in enumerate(ids))
    )
    await svc.close()
    fresh = GameService(store, RealEngine(), turn_timeout=3600, claim_timeout=3600)
    start = time.perf_counter()
    resumed = await fresh.resume_all()
    seconds = time.perf_counter() - start
    await fresh.close()
    await store.close()
    return {"games": len(resumed), "moves_each": moves, "seconds": round(seconds, 3)}


async def main_async(args: argparse.Namespace) -> dict[str, object]:
    folder = Path(args.db or tempfile.mkdtemp(prefix="mj-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    out: dict[str, object] = {}
    url = f"sqlite+aiosqlite:///{folder / 'act.db'}"
    out["act"] = await bench_act(url, args.games, args.moves, args.think)
    url = f"sqlite+aiosqlite:///{folder / 'act-flat-out.db'}"
    out["act_flat_out"] = await bench_act(url, args.games, args.moves, 0.0)
    url = f"sqlite+aiosqlite:///{folder / 'resume.db'}"
    out["resume"] = await bench_resume(url, args.resume, args.resume_moves)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean seconds between a player's moves"
    )
    parser.add_argument("--resume", type=int, default=1000)
    parser.add_argument("--resume-moves", type=int, default=10, help="human moves per resumed game")
    parser.add_argument("--db", help="folder for the benchmark databases (default: a temp dir)")
    print(json.dumps(asyncio.run(main_async(parser.parse_args(argv)))))


if __name__ == "__main__":
    main()
