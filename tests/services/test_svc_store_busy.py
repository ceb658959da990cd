"""A press whose commit stalls (another process holds SQLite's write lock past the busy
timeout) is refused with `TableBusy` — the move was NOT recorded, press again — and nothing
changed: the same press goes through once the lock is gone (issue 15)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

from svc_helpers import USERS, lobby_with, simple_choice

from db.store import Store
from i18n import t
from services.errors import TableBusy
from services.game import GameService
from services.real_engine import RealEngine

HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.read()
conn.execute("ROLLBACK")
"""


def one_human_service(store: Store, seed: str) -> GameService:
    """A service whose timeouts never fire during the test, dealing from ``seed``."""
    return GameService(
        store, RealEngine(), turn_timeout=600, claim_timeout=600,
        new_seed=lambda: seed, snapshot_every=0,
    )  # fmt: skip


async def started(svc: GameService) -> tuple[int, Any, Any]:
    """A one-human game started: (its id, the human's view, a press they may make)."""
    gid = await lobby_with(svc, 1)
    await svc.start(gid, USERS[0])
    view = await svc.private_view(gid, USERS[0])
    return gid, view, simple_choice(view.hand.legal, None)


async def test_a_stalled_commit_answers_table_busy_and_records_nothing(tmp_path: Path) -> None:
    path = tmp_path / "busy.db"
    store = await Store.open(f"sqlite+aiosqlite:///{path}", busy_timeout=0.2)
    svc = one_human_service(store, "busy-seed")
    try:
        gid, view, choice = await started(svc)
        before = await store.games.load(gid)
        holder = await asyncio.create_subprocess_exec(
            sys.executable, "-c", HOLDER, str(path),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert holder.stdin is not None and holder.stdout is not None
        try:
            assert (await asyncio.wait_for(holder.stdout.readline(), 30)).strip() == b"locked"
            try:
                await svc.act(gid, USERS[0], choice)
            except TableBusy as error:
                refused = error
            else:
                raise AssertionError("a press whose commit stalled must be refused")
        finally:
            holder.stdin.close()
            await asyncio.wait_for(holder.wait(), 30)
        for lang in ("zh", "zh-TW", "en"):  # the user is told plainly, in their language
            assert t(refused.key, lang)
        assert "NOT recorded" in t(refused.key, "en")
        after = await store.games.load(gid)
        assert after.game.version == before.game.version
        assert len(after.actions) == len(before.actions)
        again = await svc.private_view(gid, USERS[0])
        assert again.hand.legal == view.hand.legal  # the game did not move
        result = await svc.act(gid, USERS[0], choice)  # pressing again works
        assert result.game.version > before.game.version
        assert (await store.games.get(gid)).version == result.game.version
    finally:
        await svc.close()
        await store.close()


async def test_a_press_rolled_back_with_its_batch_answers_table_busy(tmp_path: Path) -> None:
    """A press whose write was rolled back with the SQLite batch it shared (another write of
    the batch failed midway: ``db.errors.WriteRolledBack``) is told it was NOT recorded, as a
    stalled one is, and the game does not move; pressing again works."""
    from db.errors import WriteRolledBack

    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'rolled.db'}")
    svc = one_human_service(store, "rolled-seed")
    try:
        gid, view, choice = await started(svc)
        before = await store.games.load(gid)
        append = store.games.append_action

        async def rolled_back(*args: object, **kw: object) -> int:
            raise WriteRolledBack("another write of the batch failed")

        store.games.append_action = rolled_back  # type: ignore[method-assign]
        try:
            await svc.act(gid, USERS[0], choice)
        except TableBusy:
            pass
        else:
            raise AssertionError("a press rolled back with its batch must be refused")
        finally:
            store.games.append_action = append  # type: ignore[method-assign]
        assert (await store.games.load(gid)).game.version == before.game.version
        assert (await svc.private_view(gid, USERS[0])).hand.legal == view.hand.legal
        result = await svc.act(gid, USERS[0], choice)
        assert result.game.version > before.game.version
    finally:
        await svc.close()
        await store.close()
