"""Trips to aiosqlite's thread around a SQLite transaction: ``BEGIN`` is one (sent straight
to the driver, not through SQLAlchemy's cursor: a cursor, the statement, its close), and a
connection back in the pool is rolled back only when a transaction is still open on it
(SQLAlchemy's own reset rolled back after every commit: a trip for nothing)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from db.statement_trace import sqlite_trips
from db.store import Store


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'trips.db'}")
    try:
        yield store
    finally:
        await store.close()


@pytest.fixture
def trips() -> Iterator[list[tuple[str, Any]]]:
    with sqlite_trips() as seen:
        yield seen


async def test_a_write_is_one_trip_to_begin_one_to_commit_and_none_to_give_back(
    sqlite_store: Store, trips: list[tuple[str, Any]]
) -> None:
    await sqlite_store.guilds.update_settings(1, hints=False)  # the pool's connection opened
    trips.clear()
    async with sqlite_store.db.write() as conn:
        await conn.execute(text("UPDATE guilds SET hints = 1 WHERE id = 1"))
    assert trips[0] == ("execute", "BEGIN IMMEDIATE"), trips
    assert trips[-1][0] == "commit", trips
    assert "rollback" not in [name for name, _ in trips], trips
    # the statement between: SQLAlchemy's cursor, the statement, the cursor's close
    assert len(trips) == 5, trips


async def test_a_read_begins_in_one_trip_and_gives_back_without_a_rollback(
    sqlite_store: Store, trips: list[tuple[str, Any]]
) -> None:
    async with sqlite_store.db.read() as conn:
        assert (await conn.execute(text("SELECT 1"))).scalar() == 1
    begins = [arg for name, arg in trips if name == "execute" and str(arg).startswith("BEGIN")]
    assert begins == ["BEGIN"], trips
    assert [name for name, _ in trips].count("rollback") == 0, trips


async def test_a_connection_given_back_in_a_transaction_is_rolled_back(
    sqlite_store: Store, trips: list[tuple[str, Any]]
) -> None:
    """Its transaction opened behind SQLAlchemy's back (SQLAlchemy sees none to end): the
    pool's reset still ends it, so the next user does not inherit the write lock."""
    conn = await sqlite_store.db.engine.connect()
    raw = await conn.get_raw_connection()
    driver = raw.driver_connection
    assert driver is not None
    await driver.execute("BEGIN IMMEDIATE")
    assert driver.in_transaction
    await conn.close()
    assert not driver.in_transaction
    assert "rollback" in [name for name, _ in trips]
    await sqlite_store.guilds.update_settings(2, hints=False)  # the write lock is free


async def test_an_action_append_is_one_trip_between_begin_and_commit(
    sqlite_store: Store, trips: list[tuple[str, Any]]
) -> None:
    """The compare-and-set and the action's row go to the thread together (and with the
    snapshot and the pruning of older ones, when the append stores one)."""
    seats = [{"user_id": 11}, {"ai": "basic"}, {"ai": "basic"}, {"ai": "basic"}]
    game = await sqlite_store.games.create(1, 2, "nanchang", seats=seats)
    trips.clear()
    await sqlite_store.games.append_action(game.id, 0, 0, {"k": "act"})
    assert [name for name, _ in trips] == ["execute", "run", "commit"], trips
    assert trips[0][1] == "BEGIN IMMEDIATE"
    trips.clear()
    await sqlite_store.games.append_action(game.id, 1, 0, {"k": "act"}, snapshot={"s": 1})
    assert [name for name, _ in trips] == ["execute", "run", "commit"], trips
    loaded = await sqlite_store.games.load(game.id)
    assert loaded.game.version == 2 and loaded.snapshot is not None
    assert loaded.snapshot.state == {"s": 1}
