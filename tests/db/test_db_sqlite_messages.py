"""SQLite's save of a game's remembered messages sent straight to the driver
(:mod:`db.sqlite_messages`) stores exactly what SQLAlchemy Core's statements stored, reads
back what Core reads, and merges as before (:mod:`db.message_refs`)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import select, text, update

from db.models import Game
from db.sqlite_messages import SqliteMessages
from db.store import Store
from db.types import GameNotFound

_G = Game.__table__
AT = datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)
MESSAGES = {
    "dm": {"11": [900, 901, 3], "12": [902, 903, 3]},
    "alerts": {"11": {"id": 55, "说": "轮到你了"}},
    "table_at": 3,
    "flag": True,
    "none": None,
}


async def _raw(store: Store, game_id: int) -> tuple[Any, ...]:
    """The row's messages and time as SQLite holds them (no type processing)."""
    async with store.db.read() as conn:
        row = (
            await conn.execute(
                text("SELECT messages, updated_at FROM games WHERE id = :g"), {"g": game_id}
            )
        ).one()
    return tuple(row)


async def test_the_row_is_the_one_core_stored(sqlite_store: Store) -> None:
    store = sqlite_store
    mine = await store.games.create(1, 2, "xinyu", seats=[{}])
    core = await store.games.create(1, 3, "xinyu", seats=[{}])
    prepared = SqliteMessages(store.db.engine.dialect)
    async with store.db.write() as conn:
        await prepared.write(conn, mine.id, MESSAGES, AT)
    async with store.db.write() as conn:
        await conn.execute(
            update(_G).where(_G.c.id == core.id).values(messages=MESSAGES, updated_at=AT)
        )
    assert await _raw(store, mine.id) == await _raw(store, core.id)
    async with store.db.read() as conn:
        through_core = await conn.scalar(select(_G.c.messages).where(_G.c.id == mine.id))
    async with store.db.write() as conn:
        assert await prepared.read(conn, mine.id) == (True, through_core)
        assert through_core == MESSAGES
        assert await prepared.read(conn, mine.id + 99) == (False, None)


async def test_a_game_never_saved_reads_none(sqlite_store: Store) -> None:
    store = sqlite_store
    game = await store.games.create(1, 2, "xinyu", seats=[{}])
    async with store.db.read() as conn:
        through_core = await conn.scalar(select(_G.c.messages).where(_G.c.id == game.id))
    async with store.db.write() as conn:
        assert await SqliteMessages(store.db.engine.dialect).read(conn, game.id) == (
            True,
            through_core,
        )


async def test_merge_keeps_what_another_process_saved(sqlite_store: Store) -> None:
    store = sqlite_store
    game = await store.games.create(1, 2, "xinyu", seats=[{}])
    first = {"dm": {"11": [1, 2, 1]}}
    assert await store.games.merge_messages(game.id, None, first) == first
    # another process stored an entry meanwhile (through Core)
    theirs = {"dm": {"11": [1, 2, 1], "12": [3, 4, 1]}}
    async with store.db.write() as conn:
        await conn.execute(update(_G).where(_G.c.id == game.id).values(messages=theirs))
    ours = {"dm": {"11": [1, 7, 2]}, "table_at": 2}
    merged = await store.games.merge_messages(game.id, first, ours)
    assert merged == {"dm": {"11": [1, 7, 2], "12": [3, 4, 1]}, "table_at": 2}
    assert (await store.games.get(game.id)).messages == merged  # type: ignore[union-attr]
    # nothing changed: nothing written (the row's time stays)
    before = await _raw(store, game.id)
    assert await store.games.merge_messages(game.id, ours, ours) == merged
    assert await _raw(store, game.id) == before
    with pytest.raises(GameNotFound):
        await store.games.merge_messages(game.id + 99, None, first)
