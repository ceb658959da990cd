"""SQLite group commit (:mod:`db.group_commit`): a write cancelled midway, after changing
rows in a batch it joined without a savepoint, rolls the whole batch back — its batch-mates
are told plainly that their write was NOT recorded and may be tried again."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import update

from db.errors import WriteRolledBack
from db.models import Guild
from db.store import Store
from db.types import StoreError

GUILDS = Guild.__table__


async def test_a_write_cancelled_midway_fails_its_batch_mates_with_a_clear_error(
    sqlite_store: Store,
) -> None:
    store = sqlite_store
    game = await store.games.create(1, 100, "shangrao")
    before = await store.guilds.settings(1)
    midway = asyncio.Event()

    async def cancelled_midway() -> None:
        async with store.db.write(savepoint=False) as conn:
            await conn.execute(update(GUILDS).where(GUILDS.c.id == 1).values(language="en"))
            midway.set()
            await asyncio.Event().wait()  # cancelled here, its row changed

    press = asyncio.create_task(store.games.append_action(game.id, 0, 0, {"k": "act"}))
    joining = asyncio.create_task(cancelled_midway())  # waits for its turn: the batch stays open
    await asyncio.wait_for(midway.wait(), 10)
    assert not press.done()  # (its batch is not committed yet)
    joining.cancel()
    with pytest.raises(WriteRolledBack) as failed:
        await press
    assert isinstance(failed.value, StoreError)
    text = str(failed.value)
    assert "NOT recorded" in text and "may be tried again" in text
    assert "another write of the same batch was cancelled or failed midway" in text
    with pytest.raises(asyncio.CancelledError):
        await joining
    assert (await store.games.get(game.id)).version == 0  # nothing of either was recorded
    assert (await store.guilds.settings(1)).language == before.language
    # tried again as it was, the press is recorded
    assert await store.games.append_action(game.id, 0, 0, {"k": "act"}) == 1
