"""End-to-end: a press whose answer would come after Discord's 3 s deadline — here it waits
4 s for the database's write lock, held by another writer — is acknowledged in time
(deferred) and followed by its outcome: the move played, the hand redrawn."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest

from .fake_discord import FakeDiscord
from .game_driver import (
    choose,
    footer_version,
    game_env,
    open_game,
    stored_version,
    wait_still,
)
from .test_e2e_database_unwritable import asked, entries_by

pytestmark = [pytest.mark.e2e, pytest.mark.sqlite_only]

HOLD = 4.0  # seconds another writer keeps the write lock: past Discord's 3 s


def hold_write_lock(path: Path, taken: asyncio.Event, loop: asyncio.AbstractEventLoop) -> None:
    """Another process's writer: takes SQLite's write lock, keeps it ``HOLD`` s, commits."""
    con = sqlite3.connect(path, isolation_level=None, timeout=10)
    try:
        con.execute("BEGIN IMMEDIATE")
        loop.call_soon_threadsafe(taken.set)
        time.sleep(HOLD)
        con.execute("COMMIT")
    finally:
        con.close()


async def test_a_press_waiting_on_the_lock_is_deferred_then_played(
    fake: FakeDiscord, bot_factory
) -> None:
    proc = bot_factory(env=game_env(DATABASE_LOCK_TIMEOUT_SECONDS="10"))
    await proc.start_ready()
    alice, bob = fake.user("alice"), fake.user("bob")
    gid, _lobby = await open_game(fake, alice, [bob])
    before = await wait_still(fake, proc, [alice, bob], gid)
    path = Path(proc.database_url.partition(":///")[2])
    taken = asyncio.Event()
    holder = asyncio.create_task(
        asyncio.to_thread(hold_write_lock, path, taken, asyncio.get_running_loop())
    )
    await taken.wait()
    user, msg = asked(fake, gid, [alice, bob])

    press = await fake.click(user, msg, choose(msg))
    await press.wait_ack()
    assert not press.rejected_late
    assert press.ack_latency is not None and press.ack_latency < 3.0, press.ack_latency
    await holder
    # the lock is free: the move is played and the pressed hand shows it
    await fake.wait_for(lambda: stored_version(proc, gid) > before, 15, what="the move played")
    await fake.wait_for(
        lambda: (footer_version(fake.messages[msg.id]) or 0) > before, 15, what="hand redrawn"
    )
    assert not fake.late_acks
    # played once: one entry of the presser's seat after the version seen before
    assert len(entries_by(proc, gid, user, before)) == 1
