"""The public cadence of discards, with and without the claim hold (prints figures, asserts
nothing).

``python -m benchmarks.claim_cadence [--tables 4] [--seconds 90] [--hold 1.5] [--pace 0.8]``

Two groups of tables play side by side in one process on SQLite, each table two humans and
two AI (上饶): one group with ``claim_hold`` 0 (windows show only while someone may claim),
one with ``--hold``; both with ``--pace`` between AI moves (``AI_PACE_SECONDS``). A human
answers a hand update that asks something after a think time drawn from ``--think`` (a
quick pass, the case a hold must hide). For every discard the table is shown, the figure is
what the channel would see: whether the table showed the wait (等待吃碰杠胡…) and how long
until the next public change, split by whether a human could claim that discard (known
only to the bot: a claim prompt went to a human before the next public change).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import tempfile
from pathlib import Path
from typing import Any

from db.store import Store
from engine.tiles import tile_str
from services.delivery import GameSummary, NullDelivery, PrivateUpdate
from services.errors import ServiceError
from services.game import GameService
from services.model import GameEvent, TableView
from services.real_engine import RealEngine

HUMANS = (501, 502)


class Watcher(NullDelivery):
    """What the channel sees (table changes, timed) and what the humans are asked."""

    def __init__(self) -> None:
        self.shown: list[tuple[float, int, TableView, list[GameEvent]]] = []
        self.asked: list[tuple[float, int, PrivateUpdate]] = []
        self.wake: dict[tuple[int, int], asyncio.Event] = {}
        #: the run's end: the service's close cuts the last pauses short, not counted
        self.until = float("inf")

    async def table_changed(
        self, game: GameSummary, table: TableView, events: list[GameEvent]
    ) -> None:
        self.shown.append((asyncio.get_running_loop().time(), game.id, table, list(events)))

    async def hand_changed(self, game: GameSummary, update: PrivateUpdate) -> None:
        self.asked.append((asyncio.get_running_loop().time(), game.id, update))
        if update.hand.legal:
            self.wake.setdefault((game.id, update.user_id), asyncio.Event()).set()


async def human(
    svc: GameService, watch: Watcher, gid: int, uid: int, think: tuple[float, float], end: float
) -> None:
    """Answers each question after a think time; passes claims, discards the drawn tile."""
    rng = random.Random(gid * 1000 + uid)
    loop = asyncio.get_running_loop()
    wake = watch.wake.setdefault((gid, uid), asyncio.Event())
    while loop.time() < end:
        try:
            await asyncio.wait_for(wake.wait(), max(0.01, end - loop.time()))
        except TimeoutError:
            return
        wake.clear()
        await asyncio.sleep(rng.uniform(*think))
        game = await svc.summary(gid)
        if game.phase == "hand_over":
            with contextlib.suppress(ServiceError):
                await svc.next_hand(gid, uid)
            continue
        view = await svc.private_view(gid, uid)
        legal = view.hand.legal
        if not legal:
            continue
        drawn = tile_str(view.hand.drawn) if view.hand.drawn is not None else None
        key = next((k for k in legal if k.kind in ("win", "pass")), None)
        key = key or next((k for k in legal if k.kind == "discard" and k.arg == drawn), None)
        key = key or next(k for k in legal if k.kind == "discard")
        try:
            await svc.act(gid, uid, key)
        except ServiceError:
            continue


async def dealer(svc: GameService, gid: int, end: float) -> None:
    """Presses 准备 for both humans when a hand is over (so the run keeps playing)."""
    loop = asyncio.get_running_loop()
    while loop.time() < end:
        await asyncio.sleep(0.5)
        game = await svc.summary(gid)
        if game.status != "active":
            return
        if game.phase == "hand_over":
            for uid in HUMANS:
                with contextlib.suppress(ServiceError):
                    await svc.next_hand(gid, uid)


def measure(watch: Watcher) -> dict[str, dict[str, Any]]:
    """Per class of discard (a human could claim it or not): how many, the share shown as
    the wait, and the seconds until the next public change (p10/p50/p90)."""
    by_game: dict[int, list[tuple[float, TableView, list[GameEvent]]]] = {}
    for at, gid, table, events in watch.shown:
        by_game.setdefault(gid, []).append((at, table, events))
    classes: dict[str, list[tuple[bool, float]]] = {"human_may_claim": [], "nobody_human": []}
    for gid, shown in by_game.items():
        for i, (at, table, events) in enumerate(shown[:-1]):
            discard = next((e for e in events if e.kind == "discarded"), None)
            if discard is None:
                continue
            after = shown[i + 1][0]
            if after > watch.until:
                break
            prompted = any(
                gid == g
                and at <= t <= after
                and u.hand.claim_from == discard.data["seat"]
                and u.hand.claim_tile == discard.data["tile"]
                and any(k.kind == "pass" for k in u.hand.legal)
                for t, g, u in watch.asked
            )
            cls = "human_may_claim" if prompted else "nobody_human"
            classes[cls].append((table.phase == "claim", after - at))
    out: dict[str, dict[str, Any]] = {}
    for cls, rows in classes.items():
        times = sorted(d for _w, d in rows)
        if not times:
            out[cls] = {"n": 0}
            continue
        q = statistics.quantiles(times, n=10) if len(times) > 1 else [times[0]] * 9
        out[cls] = {
            "n": len(rows),
            "shown_as_wait": round(sum(w for w, _d in rows) / len(rows), 3),
            "p10_s": round(q[0], 3),
            "p50_s": round(statistics.median(times), 3),
            "p90_s": round(q[8], 3),
        }
    return out


async def group(
    store: Store, tables: int, seconds: float, hold: float, pace: float, think: tuple[float, float]
) -> dict[str, dict[str, Any]]:
    watch = Watcher()
    svc = GameService(
        store,
        RealEngine(),
        watch,
        turn_timeout=3600,
        claim_timeout=3600,
        ai_pace=pace,
        claim_hold=hold,
    )
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    watch.until = end
    jobs = []
    base = 7000 if hold else 8000
    for i in range(tables):
        game = await svc.create_game(base + i, base + i, HUMANS[0], "h1", "shangrao", None)
        await svc.join(game.id, HUMANS[1], "h2")
        for uid in HUMANS:
            watch.wake.setdefault((game.id, uid), asyncio.Event())
        await svc.start(game.id, HUMANS[0])
        jobs += [human(svc, watch, game.id, uid, think, end) for uid in HUMANS]
        jobs.append(dealer(svc, game.id, end))
    await asyncio.gather(*jobs)
    await svc.close()
    await store.close()
    return measure(watch)


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        think = (args.think_min, args.think_max)
        # opened one after the other: each runs its migrations
        first = await Store.open(f"sqlite+aiosqlite:///{Path(tmp) / 'off.db'}")
        second = await Store.open(f"sqlite+aiosqlite:///{Path(tmp) / 'on.db'}")
        off, on = await asyncio.gather(
            group(
                first,
                args.tables,
                args.seconds,
                0.0,
                args.pace,
                think,
            ),
            group(
                second,
                args.tables,
                args.seconds,
                args.hold,
                args.pace,
                think,
            ),
        )
    print(
        json.dumps(
            {
                "setup": {
                    "tables_per_group": args.tables,
                    "seconds": args.seconds,
                    "ai_pace_s": args.pace,
                    "human_think_s": list(think),
                },
                "hold_off": off,
                f"hold_{args.hold}s": on,
            },
            indent=1,
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=90)
    parser.add_argument("--hold", type=float, default=1.5, help="CLAIM_HOLD_SECONDS")
    parser.add_argument("--pace", type=float, default=0.8, help="AI_PACE_SECONDS")
    parser.add_argument("--think-min", type=float, default=0.2)
    parser.add_argument("--think-max", type=float, default=1.0)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
