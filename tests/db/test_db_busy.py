"""A commit that stalls ends in one clear answer (issue 15): `StoreBusy`, nothing written.

SQLite: another process holds the write lock (``BEGIN IMMEDIATE``) past the store's busy
timeout. PostgreSQL: another connection holds the game's row lock past ``lock_timeout``.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy.engine import make_url

from db.errors import StoreBusy
from db.store import Store

HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.read()  # until the test closes our stdin
conn.execute("ROLLBACK")
"""


@asynccontextmanager
async def sqlite_lock_held_by_another_process(path: Path) -> AsyncIterator[None]:
    """Another process holds the database's write lock for the duration of the block."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOLDER, str(path),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    try:
        assert (await asyncio.wait_for(proc.stdout.readline(), timeout=30)).strip() == b"locked"
        yield
    finally:
        proc.stdin.close()
        await asyncio.wait_for(proc.wait(), timeout=30)


async def test_sqlite_locked_by_another_process_is_store_busy_and_writes_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "busy.db"
    store = await Store.open(f"sqlite+aiosqlite:///{path}", busy_timeout=0.2)
    try:
        game = await store.games.create(1, 2, "shangrao", seats=[{}, {}, {}, {}])
        async with sqlite_lock_held_by_another_process(path):
            with pytest.raises(StoreBusy, match="nothing was written"):
                await store.games.append_action(game.id, 0, 0, {"k": "act"})
            # presses arriving together: each gets the answer, none hangs
            results = await asyncio.gather(
                *(store.games.append_action(game.id, 0, s, {"s": s}) for s in range(3)),
                store.guilds.update_settings(1, language="en"),
                return_exceptions=True,
            )
            assert all(isinstance(r, StoreBusy) for r in results), results
            # reads still work while another process writes (WAL)
            assert (await store.games.get(game.id)).version == 0
        loaded = await store.games.load(game.id)
        assert loaded.actions == [] and loaded.game.version == 0
        assert (await store.guilds.settings(1)).language == "zh"
        # the lock is gone: the same press goes through
        assert await store.games.append_action(game.id, 0, 0, {"k": "act"}) == 1
    finally:
        await store.close()


def _dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@pytest.mark.postgres
async def test_postgres_row_lock_past_lock_timeout_is_store_busy(postgres_url: str) -> None:
    store = await Store.open(postgres_url, lock_timeout=0.2)
    holder = await asyncpg.connect(_dsn(postgres_url))
    try:
        game = await store.games.create(1, 2, "xinyu", seats=[{}, {}, {}, {}])
        other = await store.games.create(1, 3, "xinyu", seats=[{}, {}, {}, {}])
        tx = holder.transaction()
        await tx.start()
        await holder.execute("SELECT id FROM games WHERE id = $1 FOR UPDATE", game.id)
        with pytest.raises(StoreBusy):
            await store.games.append_action(game.id, 0, 0, {"k": "act"})
        # another game's press commits meanwhile (no process-wide lock)
        assert await store.games.append_action(other.id, 0, 0, {"k": "act"}) == 1
        await tx.rollback()
        assert (await store.games.load(game.id)).actions == []
        assert await store.games.append_action(game.id, 0, 0, {"k": "act"}) == 1
    finally:
        await holder.close()
        await store.close()
