"""A bot process that owns one game, for the kill test of ``test_svc_cluster.py``.

``python tests/services/cluster_owner.py DATABASE_URL [TURN_TIMEOUT [claim]]``: joins the
cluster, opens and starts a game of one human and three AI seats with a turn timeout of
``TURN_TIMEOUT`` seconds (1 by default), prints the game id once its deadline is stored,
then waits to be killed. With ``claim`` it first claims that deadline itself for ten
minutes, as its own timer does right before firing it (it dies holding the claim).
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from db.deadlines import DeadlineBook
from db.store import Store
from services.game import GameService
from services.real_engine import RealEngine


async def main(url: str, turn_timeout: float = 1, claim: bool = False) -> None:
    store = await Store.open(url, migrate=False)
    svc = GameService(
        store, RealEngine(), turn_timeout=turn_timeout, new_seed=lambda: "services-test-seed"
    )
    await svc.join_cluster("doomed", sweep_every=0.1, grace=0.5, presence_every=0.1)
    game = await svc.create_game(1000, 2000, 101, "host", "shangrao")
    await svc.start(game.id, 101)
    book = DeadlineBook(store)
    while not (pending := await book.pending(game.id)):
        await asyncio.sleep(0.05)
    if claim:
        due = pending[0]
        assert await book.claim(
            game.id, due.kind, due.version, svc.holder, now=time.time(), lease=600
        )
    print(game.id, flush=True)
    await asyncio.Event().wait()  # until SIGKILL


if __name__ == "__main__":
    timeout = float(sys.argv[2]) if len(sys.argv) > 2 else 1
    asyncio.run(main(sys.argv[1], timeout, claim="claim" in sys.argv[3:]))
