"""Trips to aiosqlite's thread around a SQLite transaction: ``BEGIN`` is one (sent straight
to the driver, not through SQLAlchemy's cursor: a cursor, the statement, its close), and a
connection back in the pool is rolled back only when a transaction is still open on it
(SQLAlchemy's own reset rolled back after every commit: a trip for nothing)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import text

from db.statement_trace import sqlite_trips
from db.store import Store


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


async def test_a_begin_cancelled_while_queued_on_the_thread_is_rolled_back_behind_it(
    sqlite_store: Store,
) -> None:
    """A caller cancelled while its BEGIN waits behind another trip gives the connection
    back before the BEGIN runs (no transaction yet to see): the reset's rollback, queued
    behind it, still ends it, so the next user neither inherits a transaction nor a lock."""
    engine = sqlite_store.db.engine
    async with engine.connect() as conn:  # the pool's one connection, kept for the test
        driver = (await conn.get_raw_connection()).driver_connection
    assert driver is not None
    thread_busy = asyncio.ensure_future(driver._execute(time.sleep, 0.3))
    began = asyncio.Event()

    async def write() -> None:
        async with sqlite_store.db.write() as conn:
            began.set()
            await conn.execute(text("UPDATE guilds SET hints = 1 WHERE id = 1"))

    writer = asyncio.create_task(write())
    await asyncio.sleep(0.1)  # its BEGIN IMMEDIATE is queued behind the sleep
    writer.cancel()
    with pytest.raises(asyncio.CancelledError):
        await writer
    await thread_busy
    assert not began.is_set()
    await asyncio.sleep(0.05)
    assert not driver.in_transaction
    await sqlite_store.guilds.update_settings(3, hints=False)  # begins, and may write


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
