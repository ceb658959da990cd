"""What one action append costs (statements sent, :mod:`db.statement_trace`) and the
snapshot stored in the action's own transaction (issue 15)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from db.deadlines import DeadlineBook, DeadlineChange
from db.models import Action, Snapshot
from db.statement_trace import trace_statements
from db.store import Store
from db.types import StoreError, VersionConflict

_A = Action.__table__
AT = datetime(2026, 1, 2, tzinfo=UTC)
_S = Snapshot.__table__
SEATS = [{"user_id": 11}, {"user_id": 12}, {"ai": "basic"}, {"ai": "basic"}]


def _writes(sent: list[str]) -> list[str]:
    """The statements of the append itself: not the pool's pre-ping (PostgreSQL: ``;``
    alone or in its own ``BEGIN … ROLLBACK``) nor a statement's first ``PREPARE``."""
    kept = [s for s in sent if not s.startswith("PREPARE") and s != "EXECUTE ;"]
    pings = sent.count("EXECUTE ;")
    for _ in range(pings):  # a ping outside autocommit wraps itself in BEGIN … ROLLBACK
        for word in ("BEGIN;", "ROLLBACK;"):
            if word in kept:
                kept.remove(word)
    return kept


async def _game(store: Store, channel: int = 2) -> int:
    game = await store.games.create(1, channel, "nanchang", seats=SEATS)
    await store.games.append_action(game.id, 0, None, {"k": "start"})
    return game.id


async def test_append_is_one_statement_on_postgresql_or_no_savepoint_on_sqlite(
    store: Store,
) -> None:
    """PostgreSQL: the compare-and-set, the action and its deadline are one statement
    committed alone (the code before ran BEGIN, UPDATE, INSERT, INSERT, COMMIT). SQLite: a
    writer joining another's group commit runs its three statements without a savepoint
    (before: SAVEPOINT and RELEASE around them, five)."""
    mine, other = await _game(store, 2), await _game(store, 3)
    async with trace_statements(store.db):  # warm the pool: every connection traced
        await asyncio.gather(store.games.get(mine), store.games.get(other))
    due = DeadlineChange(mine, "play", 2, 1e10)
    async with trace_statements(store.db) as sent:
        await asyncio.gather(
            store.games.append_action(other, 1, 0, {"k": "act"}),
            store.games.append_action(mine, 1, 0, {"k": "act"}, deadlines=[due], holder="p"),
        )
    writes = _writes(sent)
    if store.dialect == "postgresql":
        assert len(writes) == 2, writes  # one per append, nothing else
        assert all(w.startswith("EXECUTE WITH bumped") for w in writes), writes
    else:
        # one batch: BEGIN IMMEDIATE, 2 + 3 statements, COMMIT; no SAVEPOINT/RELEASE
        assert len(writes) <= 7, writes
        assert not [w for w in writes if w.startswith(("SAVEPOINT", "RELEASE"))], writes
    assert [d.version for d in await DeadlineBook(store).pending(mine)] == [2]
    assert (await store.games.get(mine)).version == 2
    assert (await store.games.get(other)).version == 2


async def test_snapshot_is_stored_with_its_action(store: Store) -> None:
    """The snapshot is part of the append (no write of its own: the code before needed a
    second write of four statements); only the two newest are kept."""
    gid = await _game(store)
    version = 1
    for n in range(3):
        version = await store.games.append_action(
            gid, version, 0, {"k": "act", "n": n}, snapshot={"at": version + 1}
        )
    async with trace_statements(store.db):
        await store.games.get(gid)
    async with trace_statements(store.db) as sent:
        version = await store.games.append_action(
            gid, version, 0, {"k": "act"}, snapshot={"at": version + 1, "河": [1, 2]}
        )
    writes = _writes(sent)
    if store.dialect == "postgresql":
        assert len(writes) == 1, writes
    else:  # BEGIN IMMEDIATE, UPDATE, INSERT action, INSERT snapshot, DELETE older, COMMIT
        assert len(writes) <= 6, writes
    loaded = await store.games.load(gid)
    assert loaded.snapshot is not None
    assert (loaded.snapshot.seq, loaded.snapshot.state) == (5, {"at": 5, "河": [1, 2]})
    assert loaded.actions == []
    assert loaded.game.version == 5
    # only the two newest kept, each written with its action (the same time stamp)
    assert await _snapshots_with_their_action(store, gid) == [(4, True), (5, True)]


async def _snapshots_with_their_action(store: Store, gid: int) -> list[tuple[int, bool]]:
    async with store.db.read() as conn:
        rows = await conn.execute(
            select(_S.c.seq, _S.c.created_at == _A.c.created_at)
            .join(_A, (_A.c.game_id == _S.c.game_id) & (_A.c.seq == _S.c.seq))
            .where(_S.c.game_id == gid)
            .order_by(_S.c.seq)
        )
        return [(r[0], bool(r[1])) for r in rows]


async def test_a_refused_append_writes_neither_action_nor_snapshot(store: Store) -> None:
    gid = await _game(store)
    await store.games.append_action(gid, 1, 0, {"k": "act"}, snapshot={"at": 2})
    with pytest.raises(VersionConflict):
        await store.games.append_action(gid, 1, 1, {"k": "stale"}, snapshot={"at": "stale"})
    loaded = await store.games.load(gid)
    assert loaded.game.version == 2
    assert loaded.snapshot is not None and loaded.snapshot.state == {"at": 2}
    assert await _snapshots_with_their_action(store, gid) == [(2, True)]


async def test_an_append_whose_snapshot_fails_is_not_recorded(store: Store) -> None:
    """The snapshot fails after the version was bumped (SQLite: statement by statement;
    it cannot be stored as JSON): the action, the bump and the snapshot all roll back."""
    gid = await _game(store)
    with pytest.raises(Exception):  # noqa: B017 - the driver's error for unstorable JSON
        await store.games.append_action(gid, 1, 0, {"k": "act"}, snapshot={"bad": {1, 2}})
    loaded = await store.games.load(gid)
    assert loaded.game.version == 1
    assert [a.seq for a in loaded.actions] == [1]
    assert loaded.snapshot is None
    assert await store.games.append_action(gid, 1, 0, {"k": "act"}) == 2


async def test_keep_snapshots_must_keep_one(store: Store) -> None:
    gid = await _game(store)
    with pytest.raises(ValueError):
        await store.games.append_action(gid, 1, 0, {}, snapshot={}, keep_snapshots=0)
    assert (await store.games.get(gid)).version == 1


async def test_group_commit_without_savepoint(sqlite_store: Store) -> None:
    """SQLite: a savepoint-less writer refused before it changed a row leaves the others
    of its batch committed; one failing after it changed a row rolls the batch back and
    every writer of it is told nothing was recorded."""
    store = sqlite_store
    first, stale, third = await _game(store, 2), await _game(store, 3), await _game(store, 4)
    commits = store.db.commits
    done = await asyncio.gather(
        store.games.append_action(first, 1, 0, {"k": "act"}),
        store.games.append_action(stale, 0, 0, {"k": "stale"}),
        store.games.append_action(third, 1, 0, {"k": "act"}),
        return_exceptions=True,
    )
    assert done[0] == 2 and isinstance(done[1], VersionConflict) and done[2] == 2
    assert store.db.commits == commits + 1  # the three shared one batch
    assert [(await store.games.get(g)).version for g in (first, stale, third)] == [2, 1, 2]

    async with store.db.write() as conn:  # third's next action logged behind its version
        await conn.execute(
            _A.insert().values(game_id=third, seq=3, seat=0, action={"k": "x"}, created_at=AT)
        )
    done = await asyncio.gather(
        store.games.append_action(first, 2, 0, {"k": "act"}),
        store.games.append_action(third, 2, 0, {"k": "act"}),  # its version bumped, then
        return_exceptions=True,  # its action's row refused
    )
    assert isinstance(done[0], StoreError), done  # its batch was rolled back
    assert not isinstance(done[1], StoreError | int), done
    assert (await store.games.get(first)).version == 2
    assert (await store.games.get(third)).version == 2
    assert await store.games.append_action(first, 2, 0, {"k": "act"}) == 3

    # a snapshot that cannot be stored fails before its append changes a row (the values
    # go to the driver's thread together): the batch it shared is committed
    done = await asyncio.gather(
        store.games.append_action(first, 3, 0, {"k": "act"}),
        store.games.append_action(third, 2, 0, {"k": "act"}, snapshot={"bad": {1}}),
        return_exceptions=True,
    )
    assert done[0] == 4 and isinstance(done[1], TypeError), done
    assert (await store.games.get(third)).version == 2
