"""Statements (round trips) one action append costs, on SQLite and PostgreSQL (prints
figures, asserts nothing).

``python -m benchmarks.db_statements [--url URL]`` (default: a temporary SQLite file) appends to
a game and prints, for each kind of append, what the driver ran (:mod:`db.statement_trace`):

- *alone*: a lone writer (SQLite: it opens and commits its own batch);
- *joining*: a writer joining an open SQLite group commit (another writer's batch);
- *with a deadline*: the turn's timeout stored with the action (every press);
- *with a snapshot*: the periodic snapshot stored with the action (every 24 actions);

and what recording a finished hand costs (its row, its lines, the game's totals, the ratings
of its variant and of ``*``: once a hand).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path
from typing import Any

from db.deadlines import DeadlineChange
from db.statement_trace import sqlite_trips, trace_statements
from db.store import Store
from db.types import HandInput, HandPlayer


async def _case(store: Store, title: str, calls: Any) -> list[str]:
    with sqlite_trips() as trips:
        async with trace_statements(store.db) as sent:
            await calls()
    hops = f", {len(trips)} trips to aiosqlite's thread" if store.dialect == "sqlite" else ""
    print(f"{title}: {len(sent)} statements{hops}")
    for sql in sent:
        print(f"    {sql[:110]}")
    return sent


async def main(url: str) -> None:
    store = await Store.open(url)
    try:
        game = await store.games.create(1, 2, "nanchang", seats=[{"user_id": 1}] * 4)
        other = await store.games.create(1, 3, "nanchang", seats=[{"user_id": 2}] * 4)
        async with trace_statements(store.db):  # warm the pool, traced from now on
            version = await store.games.append_action(game.id, 0, None, {"k": "start"})
            await asyncio.gather(
                store.games.append_action(other.id, 0, None, {"k": "start"}),
                store.games.get(game.id),
            )

        async def alone() -> None:
            nonlocal version
            version = await store.games.append_action(game.id, version, 0, {"k": "act"})

        async def joining() -> None:
            nonlocal version
            # two writers together: the second joins the first one's batch on SQLite
            ahead = store.games.append_action(other.id, 1, 0, {"k": "act"})
            mine = store.games.append_action(game.id, version, 0, {"k": "act"})
            _, version = await asyncio.gather(ahead, mine)

        async def with_deadline() -> None:
            nonlocal version
            due = DeadlineChange(game.id, "play", version + 1, 1e10)
            version = await store.games.append_action(
                game.id, version, 0, {"k": "act"}, deadlines=[due], holder="bench"
            )

        async def with_snapshot() -> None:
            nonlocal version
            state = {"engine": list(range(400))}
            version = await store.games.append_action(
                game.id, version, 0, {"k": "act"}, snapshot=state
            )

        print(f"append_action on {store.dialect}")
        await _case(store, "alone", alone)
        joined = await _case(store, "joining (two writers, both counted)", joining)
        if store.dialect == "sqlite":
            print(f"    → the joining writer: {len(joined) // 2} statements or fewer")
        await _case(store, "with a deadline", with_deadline)
        await with_snapshot()  # a first snapshot, so the next one prunes
        await with_snapshot()
        await _case(store, "with a snapshot (and pruning)", with_snapshot)

        hand_no = 0

        async def record_hand() -> None:
            nonlocal hand_no
            hand_no += 1
            players = [
                HandPlayer(0, 1, 24),
                *(HandPlayer(s, 9000 + s, -8, True) for s in (1, 2, 3)),
            ]
            hand = HandInput(1, "nanchang", hand_no, players, "self", [0], game_id=game.id)
            await store.hands.record(hand)

        await record_hand()  # the ratings' rows exist from now on, as in a game going on
        print(f"recording a hand on {store.dialect}")
        await _case(store, "a hand after the first", record_hand)
    finally:
        await store.close()


def _cli() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="database URL (default: a temporary SQLite file)")
    args = parser.parse_args()
    if args.url:
        asyncio.run(main(args.url))
        return
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(main(f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"))


if __name__ == "__main__":
    _cli()
