"""A bot process that owns one game, for the kill test of ``test_svc_cluster.py``.

``python tests/services/cluster_owner.py DATABASE_URL``: joins the cluster, opens and starts
a game of one human and three AI seats with a 1-second turn timeout, prints the game id
once its deadline is stored, then waits to be killed.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from db.deadlines import DeadlineBook
from db.store import Store
from services.game import GameService
from services.real_engine import RealEngine


async def main(url: str) -> None:
    store = await Store.open(url, migrate=False)
    svc = GameService(store, RealEngine(), turn_timeout=1, new_seed=lambda: "services-test-seed")
    await svc.join_cluster("doomed", sweep_every=0.1, grace=0.5)
    game = await svc.create_game(1000, 2000, 101, "host", "shangrao")
    await svc.start(game.id, 101)
    book = DeadlineBook(store)
    while not await book.pending(game.id):
        await asyncio.sleep(0.05)
    print(game.id, flush=True)
    await asyncio.Event().wait()  # until SIGKILL


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
