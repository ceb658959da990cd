"""Every wait of a SQLite write has a bound: a commit that never returns (a hanging disk)
or a writer stuck holding the turn gives every other writer `StoreBusy` after the bound —
nothing recorded, an answer all the same — and the writes after it go on as before."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from db.errors import StoreBusy
from db.store import Store

BOUND = 0.5


def _seqs(path: Path, game_id: int) -> list[int]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT seq FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
        return [seq for (seq,) in rows.fetchall()]


@pytest.fixture
async def bounded(tmp_path: Path) -> AsyncIterator[tuple[Store, Path]]:
    path = tmp_path / "bounded.db"
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    group = store.db._group
    assert group is not None
    group.wait_bound = BOUND
    yield store, path
    await store.close()


async def test_a_commit_that_never_returns_is_given_up(bounded: tuple[Store, Path]) -> None:
    store, path = bounded
    game = await store.games.create(1, 400, "shangrao")
    await store.games.append_action(game.id, 0, 0, {"n": 0})
    group = store.db._group
    assert group is not None
    begin = group._begin
    hang = asyncio.Event()

    class HangingCommit:
        """The batch's connection, whose COMMIT waits until the disk answers."""

        def __init__(self, conn: Any) -> None:
            self._conn = conn

        def __getattr__(self, name: str) -> Any:
            return getattr(self._conn, name)

        async def commit(self) -> None:
            await hang.wait()
            await self._conn.commit()

    async def begin_then_hang_at_commit() -> Any:
        return HangingCommit(await begin())

    group._begin = begin_then_hang_at_commit  # type: ignore[method-assign]
    began = time.monotonic()
    with pytest.raises(StoreBusy):
        await asyncio.wait_for(store.games.append_action(game.id, 1, 0, {"n": 1}), 10)
    assert time.monotonic() - began < BOUND * 4
    hang.set()  # the disk comes back; the abandoned transaction is over
    group._begin = begin  # type: ignore[method-assign]
    await asyncio.sleep(0.05)
    version = (await store.games.get(game.id)).version
    await asyncio.wait_for(store.games.append_action(game.id, version, 0, {"n": 2}), 10)
    assert _seqs(path, game.id)[-1] == version + 1


async def test_writers_behind_a_stuck_one_are_answered(bounded: tuple[Store, Path]) -> None:
    store, path = bounded
    game = await store.games.create(1, 400, "shangrao")
    stuck = asyncio.Event()
    release = asyncio.Event()

    async def stuck_writer() -> None:
        async with store.db.write():
            stuck.set()
            await release.wait()  # a statement that never returns, holding the turn

    holder = asyncio.create_task(stuck_writer())
    await stuck.wait()
    began = time.monotonic()
    results = await asyncio.gather(
        *(store.games.append_action(game.id, 0, 0, {"n": n}) for n in range(3)),
        return_exceptions=True,
    )
    assert all(isinstance(r, StoreBusy) for r in results), results
    assert time.monotonic() - began < BOUND * 4
    release.set()
    await holder
    await asyncio.wait_for(store.games.append_action(game.id, 0, 0, {"n": 9}), 10)
    assert _seqs(path, game.id) == [1]
