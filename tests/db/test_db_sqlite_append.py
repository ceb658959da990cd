"""SQLite's append sent straight to the driver (:mod:`db.sqlite_append`) stores exactly the
rows SQLAlchemy Core's statements stored, and reports a driver error as Core did."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import text, update
from sqlalchemy.exc import IntegrityError

from db.append_sql import Append, prune_snapshots, replacing_snapshot
from db.models import Action, Game, Snapshot
from db.sqlite_append import SqliteAppend
from db.store import Store

_G = Game.__table__
_A = Action.__table__
_S = Snapshot.__table__
SEATS = [{"user_id": 11}, {"ai": "basic"}, {"ai": "basic"}, {"ai": "basic"}]
AT = datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)


def _entry(game_id: int, **changes: Any) -> Append:
    return Append(
        game_id=game_id,
        seq=1,
        seat=0,
        action={"k": "act", "a": {"type": "discard", "tile": 4}, "说": "碰"},
        at=AT,
        changes=changes,
        arms=[],
        holder="",
        snapshot={"engine": {"wall": [1, 2, 3]}, "auto": [False, True]},
        keep_old=1,
    )


async def _through_core(store: Store, entry: Append) -> None:
    """The append as the Core statements ran it before (the reference)."""
    async with store.db.write() as conn:
        await conn.execute(
            update(_G)
            .where(_G.c.id == entry.game_id, _G.c.version == entry.seq - 1)
            .values(version=entry.seq, updated_at=entry.at, **entry.changes)
        )
        await conn.execute(
            _A.insert().values(
                game_id=entry.game_id,
                seq=entry.seq,
                seat=entry.seat,
                action=entry.action,
                created_at=entry.at,
            )
        )
        stmt = store.db.insert(_S).values(
            game_id=entry.game_id, seq=entry.seq, state=entry.snapshot, created_at=entry.at
        )
        await conn.execute(replacing_snapshot(stmt))
        await conn.execute(prune_snapshots(entry.game_id, entry.seq, entry.keep_old))


async def _raw(store: Store, game_id: int) -> tuple[Any, ...]:
    """The rows as SQLite holds them (no type processing on the way back)."""
    async with store.db.read() as conn:
        game = (
            await conn.execute(
                text("SELECT version, updated_at, seats, status FROM games WHERE id = :g"),
                {"g": game_id},
            )
        ).one()
        actions = (
            await conn.execute(
                text("SELECT seq, seat, action, created_at FROM actions WHERE game_id = :g"),
                {"g": game_id},
            )
        ).all()
        snaps = (
            await conn.execute(
                text("SELECT seq, state, created_at FROM snapshots WHERE game_id = :g"),
                {"g": game_id},
            )
        ).all()
    return tuple(game), [tuple(r) for r in actions], [tuple(r) for r in snaps]


async def test_rows_are_the_ones_core_stored(sqlite_store: Store) -> None:
    store = sqlite_store
    mine = await store.games.create(1, 2, "nanchang", seats=SEATS)
    core = await store.games.create(1, 3, "nanchang", seats=SEATS)
    changes = {"seats": [{"user_id": 11}, {"user_id": 12, "名": "小明"}], "status": "active"}
    append = SqliteAppend(store.db.engine.dialect)
    async with store.db.write() as conn:
        assert await append.append(conn, _entry(mine.id, **changes), 0)
    await _through_core(store, _entry(core.id, **changes))
    assert await _raw(store, mine.id) == await _raw(store, core.id)
    # and they read back as written
    loaded = await store.games.load(mine.id)
    assert loaded.game.version == 1 and loaded.game.status == "active"
    assert loaded.game.seats == changes["seats"]
    assert loaded.snapshot is not None and loaded.snapshot.state == _entry(0).snapshot
    assert loaded.snapshot.created_at == AT


async def test_refused_compare_and_set_writes_nothing(sqlite_store: Store) -> None:
    store = sqlite_store
    game = await store.games.create(1, 2, "nanchang", seats=SEATS)
    before = await _raw(store, game.id)
    append = SqliteAppend(store.db.engine.dialect)
    async with store.db.write() as conn:
        assert not await append.append(conn, _entry(game.id), 5)  # the game is at 0
    assert await _raw(store, game.id) == before


async def test_driver_error_is_sqlalchemys(sqlite_store: Store) -> None:
    """An action already logged at the seq (a log written behind the version's back): the
    driver's IntegrityError reaches the caller as SQLAlchemy's, the batch rolled back."""
    store = sqlite_store
    game = await store.games.create(1, 2, "nanchang", seats=SEATS)
    async with store.db.write() as conn:
        await conn.execute(
            _A.insert().values(game_id=game.id, seq=1, seat=0, action={"k": "x"}, created_at=AT)
        )
    with pytest.raises(IntegrityError):
        await store.games.append_action(game.id, 0, 0, {"k": "act"})
    assert (await store.games.get(game.id)).version == 0
