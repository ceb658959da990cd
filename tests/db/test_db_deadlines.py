"""Stored deadlines (db/deadlines.py): written forward only, claimed once, swept with SKIP
LOCKED; and the PostgreSQL notice of every game change (db/notify.py)."""

from __future__ import annotations

import asyncio

import pytest

from db.deadlines import DeadlineBook, DeadlineChange
from db.notify import listen_games, parse_notice
from db.store import Store


async def _game(store: Store) -> int:
    return (await store.games.create(1, 2, "shangrao")).id


async def test_a_deadline_moves_forward_only(store: Store) -> None:
    book = DeadlineBook(store)
    gid = await _game(store)
    await book.write([DeadlineChange(gid, "play", 5, 100.0)], "p1")
    await book.write([DeadlineChange(gid, "play", 4, 50.0)], "p2")  # older: ignored
    assert [(d.version, d.due_at) for d in await book.pending(gid)] == [(5, 100.0)]
    await book.write([DeadlineChange(gid, "play", 6, 120.0)], "p2")
    assert [(d.version, d.due_at) for d in await book.pending(gid)] == [(6, 120.0)]
    await book.write([DeadlineChange(gid, "play", 5, None)], "p1")  # clears up to 5 only
    assert [d.version for d in await book.pending(gid)] == [6]
    await book.write([DeadlineChange(gid, "play", 6, None)], "p1")
    assert await book.pending(gid) == []


async def test_a_deadline_is_claimed_by_one_process(store: Store) -> None:
    book = DeadlineBook(store)
    gid = await _game(store)
    await book.write([DeadlineChange(gid, "play", 3, 10.0)], "p1")
    assert await book.claim(gid, "play", 3, "p1", now=11.0, lease=30.0)
    assert not await book.claim(gid, "play", 3, "p2", now=12.0, lease=30.0)
    assert await book.claim(gid, "play", 3, "p2", now=45.0, lease=30.0)  # the lease ran out
    # a deadline not stored (yet) or stored at another version does not stop the caller
    assert await book.claim(gid, "session", 3, "p2", now=12.0, lease=30.0)
    assert await book.claim(gid, "play", 9, "p2", now=12.0, lease=30.0)


async def test_overdue_deadlines_are_swept_once(store: Store) -> None:
    book = DeadlineBook(store)
    games = [await _game(store) for _ in range(6)]
    await book.write([DeadlineChange(g, "play", 1, 100.0 + i) for i, g in enumerate(games)], "x")
    await book.write([DeadlineChange(games[0], "session", 1, 200.0)], "x")

    # not overdue by the grace period yet: nothing
    assert await book.claim_overdue("a", now=101.0, grace=3.0, lease=30.0) == []
    first, second = await asyncio.gather(
        book.claim_overdue("a", now=110.0, grace=3.0, lease=30.0, limit=4),
        book.claim_overdue("b", now=110.0, grace=3.0, lease=30.0, limit=4),
    )
    claimed = [(d.game_id, d.kind) for d in first + second]
    assert sorted(claimed) == sorted((g, "play") for g in games)  # each once, none twice
    assert first[0].due_at <= first[-1].due_at
    # leased: a third sweep finds nothing until the lease runs out
    assert await book.claim_overdue("c", now=120.0, grace=3.0, lease=30.0) == []
    again = await book.claim_overdue("c", now=210.0, grace=3.0, lease=30.0, limit=10)
    assert len(again) == 7
    await book.drop(games[0], "session", 1)
    assert [d.kind for d in await book.pending(games[0])] == ["play"]


def test_notices_are_parsed() -> None:
    assert parse_notice("12:40:active") == (12, 40, "active")
    assert parse_notice("12:x:active") is None
    assert parse_notice("12") is None


async def test_every_game_change_is_heard_on_postgres(store: Store) -> None:
    heard: list[tuple[int | None, int, str]] = []
    notices = await listen_games(store, lambda g, v, s: heard.append((g, v, s)))
    if store.dialect != "postgresql":
        assert notices is None  # one process: nothing to hear
        return
    assert notices is not None
    try:
        gid = await _game(store)
        await store.games.append_action(gid, 0, None, {"k": "setup"})
        await store.games.update(gid, status="abandoned")
        for _ in range(100):
            if len(heard) >= 2:
                break
            await asyncio.sleep(0.02)
        assert heard == [(gid, 1, "lobby"), (gid, 1, "abandoned")]
    finally:
        await notices.close()


@pytest.mark.parametrize("changes", [{"seats": [{"name": "a"}]}, {"status": "active"}])
async def test_game_columns_change_with_the_version(store: Store, changes: dict) -> None:
    from db.types import VersionConflict

    gid = await _game(store)
    assert await store.games.append_action(gid, 0, None, {"k": "seats"}, changes=changes) == 1
    stored = await store.games.get(gid)
    assert stored is not None
    for name, value in changes.items():
        assert getattr(stored, name) == value
    with pytest.raises(VersionConflict):  # a stale writer changes nothing
        await store.games.append_action(gid, 0, None, {"k": "seats"}, changes={"seats": []})
    assert (await store.games.get(gid)).seats == stored.seats  # type: ignore[union-attr]
    with pytest.raises(ValueError):
        await store.games.append_action(gid, 1, None, {"k": "x"}, changes={"version": 9})


async def test_a_claim_by_a_process_that_is_gone_is_void(store: Store) -> None:
    book = DeadlineBook(store)
    gid = await _game(store)
    await book.write([DeadlineChange(gid, "play", 3, 10.0)], "p1")
    assert await book.claim(gid, "play", 3, "p1", now=11.0, lease=600.0)
    # p1 alive: its claim holds, for the timer and the sweep alike
    assert not await book.claim(gid, "play", 3, "p2", now=12.0, lease=30.0, alive={"p1", "p2"})
    assert await book.claim_overdue("p2", now=20.0, grace=3.0, lease=30.0, alive={"p1"}) == []
    # p1 gone: its claim is void at once, though its lease runs for ten minutes
    [swept] = await book.claim_overdue("p2", now=20.0, grace=3.0, lease=30.0, alive={"p2"})
    assert (swept.game_id, swept.version) == (gid, 3)
    assert not await book.claim(gid, "play", 3, "p3", now=21.0, lease=30.0, alive={"p2", "p3"})
    assert await book.claim(gid, "play", 3, "p3", now=21.0, lease=30.0, alive={"p3"})


async def test_processes_alive_are_the_listening_connections(store: Store) -> None:
    from db.presence import live_holders, presence_name

    if store.dialect != "postgresql":
        assert await live_holders(store) is None  # one process: nobody to ask about
        return
    before = await live_holders(store)
    assert before is not None and "proc-1" not in before
    heard: list[int | None] = []
    notices = await listen_games(store, lambda g, v, s: heard.append(g), presence_name("proc-1"))
    assert notices is not None
    try:
        assert "proc-1" in (await live_holders(store) or set())
        notices.reconnect()  # lost unnoticed: listen again, and say anything may have changed
        for _ in range(250):
            if heard:
                break
            await asyncio.sleep(0.02)
        assert heard == [None]
        assert "proc-1" in (await live_holders(store) or set())
    finally:
        await notices.close()
    for _ in range(250):  # the server lets the closed connection go
        if "proc-1" not in (await live_holders(store) or set()):
            break
        await asyncio.sleep(0.02)
    assert "proc-1" not in (await live_holders(store) or set())


async def test_deadline_rows_are_locked_in_one_order(postgres_url: str) -> None:
    """A batch of armings takes the rows by game (``db.deadlines.row_order``), whatever order
    it was handed: another transaction holding the first row and then taking the second
    waits at worst — it is never a deadlock (it was, with the batch taking them as given)."""
    from sqlalchemy import text

    store = await Store.open(postgres_url)
    try:
        book = DeadlineBook(store)
        first, second = await _game(store), await _game(store)
        await book.write([DeadlineChange(g, "play", 1, 10.0) for g in (first, second)], "x")
        async with store.db.engine.connect() as other:
            transaction = await other.begin()
            await other.execute(text("SET LOCAL lock_timeout = '5s'"))
            await other.execute(
                text("UPDATE deadlines SET due_at = 11 WHERE game_id = :g"), {"g": first}
            )
            batch = asyncio.create_task(
                book.write([DeadlineChange(g, "play", 2, 20.0) for g in (second, first)], "y")
            )
            await asyncio.sleep(0.5)  # the batch is waiting on the first row now
            assert not batch.done()
            await other.execute(
                text("UPDATE deadlines SET due_at = 12 WHERE game_id = :g"), {"g": second}
            )
            await transaction.commit()
        await asyncio.wait_for(batch, 10)
        stored = {(d.game_id, d.version, d.due_at) for d in await book.pending()}
        assert stored == {(first, 2, 20.0), (second, 2, 20.0)}
    finally:
        await store.close()
