"""SQLite: the trips to aiosqlite's thread a write costs besides its statements (issue 15).

A write's transaction opens with one trip (``BEGIN IMMEDIATE`` straight to the driver, not
SQLAlchemy's cursor, execute and close), and a connection given back to the pool after
its commit is not rolled back again (a trip for nothing); one given back with a
transaction still open is."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
from sqlalchemy import text

from db.connection import make_engine
from db.errors import StoreBusy
from db.store import Store


@pytest.fixture
def trips(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of every function sent to an aiosqlite thread (``execute`` with its SQL)."""
    sent: list[str] = []
    original = aiosqlite.Connection._execute

    async def counted(
        self: aiosqlite.Connection, fn: Callable[..., Any], *args: Any, **kwargs: Any
    ) -> Any:
        name = getattr(fn, "__name__", repr(fn))
        sent.append(f"{name} {args[0]}" if args and isinstance(args[0], str) else name)
        return await original(self, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
    return sent


@pytest.fixture
def store(sqlite_store: Store) -> Store:
    """The store on a SQLite file (tests/db/conftest.py)."""
    return sqlite_store


SEATS = [{"user_id": 11}, {"ai": "basic"}, {"ai": "basic"}, {"ai": "basic"}]


async def test_a_write_opens_in_one_trip_and_is_not_rolled_back_after_its_commit(
    store: Store, trips: list[str]
) -> None:
    game = await store.games.create(1, 2, "nanchang", seats=SEATS)
    await store.games.append_action(game.id, 0, None, {"k": "start"})
    trips.clear()
    await store.games.append_action(game.id, 1, 0, {"k": "act"})
    assert trips[0] == "execute BEGIN IMMEDIATE", trips
    assert "cursor" not in trips and "close" not in trips, trips  # (SQLAlchemy's cursor)
    assert trips.count("commit") == 1, trips
    assert "rollback" not in trips, trips
    assert len((await store.games.load(game.id)).actions) == 2


async def test_a_connection_given_back_inside_a_transaction_is_rolled_back(
    tmp_path: Path, trips: list[str]
) -> None:
    """A transaction the pool's connection still has open (begun on the driver, unknown to
    SQLAlchemy) does not outlive its check-out: the next user finds none, and the row it
    wrote is gone."""
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'r.db'}")
    try:
        async with engine.begin() as conn:
            await conn.execute(text("CREATE TABLE t (x INTEGER)"))
        async with engine.connect() as conn:
            driver = (await conn.get_raw_connection()).driver_connection
            await driver.execute("BEGIN")
            await driver.execute("INSERT INTO t VALUES (1)")
            assert driver.in_transaction
        assert "rollback" in trips
        async with engine.connect() as conn:
            driver = (await conn.get_raw_connection()).driver_connection
            assert not driver.in_transaction
            assert (await conn.execute(text("SELECT count(*) FROM t"))).scalar_one() == 0
    finally:
        await engine.dispose()


async def test_a_busy_database_is_still_store_busy(tmp_path: Path) -> None:
    """``BEGIN IMMEDIATE`` sent to the driver: another connection holding the write lock
    past the busy timeout still makes the write `StoreBusy` (nothing written)."""
    path = tmp_path / "busy.db"
    store = await Store.open(f"sqlite+aiosqlite:///{path}", busy_timeout=0.05)
    holder = await aiosqlite.connect(path, isolation_level=None)
    try:
        await holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(StoreBusy):
            await store.games.create(1, 2, "nanchang", seats=SEATS)
        await holder.execute("ROLLBACK")
        game = await store.games.create(1, 2, "nanchang", seats=SEATS)  # the lock is free
        assert game.id
    finally:
        await holder.close()
        await store.close()
