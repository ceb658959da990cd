"""PostgreSQL pool check-outs: a connection rested past ``PING_AFTER_IDLE`` is checked with
one ``;`` and replaced when the server dropped it; a busy pool is not pinged (issue 15)."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from db import connection
from db.statement_trace import trace_statements
from db.store import Store


async def test_a_dropped_connection_is_replaced_and_a_fresh_one_is_not_pinged(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await Store.open(postgres_url, pool_size=1, max_overflow=0)
    try:
        game = await store.games.create(1, 2, "nanchang")
        async with trace_statements(store.db):  # the pool's one connection, traced
            await store.games.get(game.id)
        async with trace_statements(store.db) as sent:
            await store.games.append_action(game.id, 0, None, {"k": "start"})
        assert sent.count("EXECUTE ;") == 0, sent  # used a moment ago: no ping

        pid = await _kill_the_pooled_connection(store, postgres_url)
        monkeypatch.setattr(connection, "PING_AFTER_IDLE", 0.0)  # it rested: pinged, replaced
        assert await store.games.append_action(game.id, 1, 0, {"k": "act"}) == 2
        assert await _backend_pid(store) != pid

        # used a moment ago, not pinged: the one write on a dropped connection fails,
        # nothing recorded, and the pool is renewed for the next
        await _kill_the_pooled_connection(store, postgres_url)
        monkeypatch.setattr(connection, "PING_AFTER_IDLE", 3600.0)
        with pytest.raises(DBAPIError):
            await store.games.append_action(game.id, 2, 0, {"k": "lost"})
        assert await store.games.append_action(game.id, 2, 0, {"k": "act"}) == 3
        assert [a.action["k"] for a in (await store.games.load(game.id)).actions] == [
            "start",
            "act",
            "act",
        ]
    finally:
        await store.close()


async def _backend_pid(store: Store) -> int:
    async with store.db.read() as conn:
        return int(await conn.scalar(text("SELECT pg_backend_pid()")))


async def _kill_the_pooled_connection(store: Store, url: str) -> int:
    """Terminate the server process of the pool's one connection (as a restart would)."""
    pid = await _backend_pid(store)
    killer = await Store.open(url, migrate=False)
    try:
        async with killer.db.engine.connect() as conn:
            await conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})
            await conn.commit()
    finally:
        await killer.close()
    return pid
