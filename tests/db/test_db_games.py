"""Games, the append-only action log with compare-and-set, snapshots and loading."""

from __future__ import annotations

import pytest

from db.store import Store
from db.types import GameNotFound, VersionConflict

SEATS = [{"user_id": 11}, {"user_id": 12}, {"ai": "basic"}, {"ai": "basic"}]


async def test_create_and_get_game(store: Store) -> None:
    game = await store.games.create(
        100, 200, "shangrao", options={"preset": "classic", "宝": True}, seats=SEATS
    )
    assert game.version == 0
    assert game.status == "lobby"
    assert game.totals == [0, 0, 0, 0]
    assert game.options == {"preset": "classic", "宝": True}
    assert game.created_at.tzinfo is not None
    assert await store.games.get(game.id) == game
    assert await store.games.get(game.id + 1000) is None
    settings = await store.guilds.settings(100)  # the server row now exists
    assert settings.current_season == 1


async def test_update_game_fields(store: Store) -> None:
    game = await store.games.create(1, 2, "xinyu", seats=SEATS)
    updated = await store.games.update(
        game.id, status="active", seed_commitment="ab" * 32, table_message_id=987654321
    )
    assert (updated.status, updated.seed_commitment, updated.table_message_id) == (
        "active",
        "ab" * 32,
        987654321,
    )
    assert updated.version == 0
    assert updated.seats == SEATS
    assert await store.games.get(game.id) == updated
    with pytest.raises(ValueError):
        await store.games.update(game.id, status="paused")
    with pytest.raises(GameNotFound):
        await store.games.update(game.id + 99, status="active")


async def test_update_game_with_expected_version(store: Store) -> None:
    game = await store.games.create(1, 2, "xinyu", seats=SEATS)
    await store.games.append_action(game.id, 0, 0, {"t": "start"})
    with pytest.raises(VersionConflict):
        await store.games.update(game.id, status="finished", expected_version=0)
    assert (await store.games.get(game.id)).status == "lobby"
    done = await store.games.update(game.id, status="finished", expected_version=1)
    assert done.status == "finished"


async def test_append_returns_new_version_and_log_is_ordered(store: Store) -> None:
    game = await store.games.create(1, 2, "jiujiang", seats=SEATS)
    version = 0
    for i in range(5):
        version = await store.games.append_action(
            game.id, version, i % 4, {"type": "discard", "i": i}
        )
    assert version == 5
    loaded = await store.games.load(game.id)
    assert loaded.game.version == 5
    assert loaded.snapshot is None
    assert [a.seq for a in loaded.actions] == [1, 2, 3, 4, 5]
    assert [a.action["i"] for a in loaded.actions] == [0, 1, 2, 3, 4]
    assert [a.seat for a in loaded.actions] == [0, 1, 2, 3, 0]


async def test_stale_writer_gets_conflict_and_nothing_is_written(store: Store) -> None:
    game = await store.games.create(1, 2, "shangrao", seats=SEATS)
    await store.games.append_action(game.id, 0, 0, {"n": 1})
    await store.games.append_action(game.id, 1, 1, {"n": 2})
    with pytest.raises(VersionConflict) as caught:
        await store.games.append_action(game.id, 1, 2, {"n": "stale"})
    assert (caught.value.expected, caught.value.actual) == (1, 2)
    with pytest.raises(VersionConflict):
        await store.games.append_action(game.id, 5, 2, {"n": "future"})
    loaded = await store.games.load(game.id)
    assert loaded.game.version == 2
    assert [a.action["n"] for a in loaded.actions] == [1, 2]


async def test_missing_game(store: Store) -> None:
    with pytest.raises(GameNotFound):
        await store.games.append_action(12345, 0, 0, {})
    with pytest.raises(GameNotFound):
        await store.games.load(12345)
    with pytest.raises(GameNotFound):
        await store.games.save_snapshot(12345, 0, {})


async def test_system_action_without_seat_and_unicode(store: Store) -> None:
    game = await store.games.create(1, 2, "shangrao", seats=SEATS)
    await store.games.append_action(game.id, 0, None, {"type": "deal", "宝": "五万", "big": 2**60})
    (action,) = (await store.games.load(game.id)).actions
    assert action.seat is None
    assert action.action == {"type": "deal", "宝": "五万", "big": 2**60}


async def test_snapshot_then_actions_after_it(store: Store) -> None:
    game = await store.games.create(1, 2, "shangrao", seats=SEATS)
    version = 0
    for i in range(6):
        version = await store.games.append_action(game.id, version, 0, {"i": i})
    await store.games.save_snapshot(game.id, 2, {"at": 2})
    await store.games.save_snapshot(game.id, 4, {"at": 4, "河": [1, 2, 3]})
    loaded = await store.games.load(game.id)
    assert loaded.snapshot is not None
    assert (loaded.snapshot.seq, loaded.snapshot.state) == (4, {"at": 4, "河": [1, 2, 3]})
    assert [a.seq for a in loaded.actions] == [5, 6]
    await store.games.save_snapshot(game.id, 6, {"at": 6})
    loaded = await store.games.load(game.id)
    assert loaded.snapshot.seq == 6
    assert loaded.actions == []


async def test_snapshot_replaced_at_same_seq_and_pruned(store: Store) -> None:
    game = await store.games.create(1, 2, "shangrao", seats=SEATS)
    version = 0
    for i in range(5):
        version = await store.games.append_action(game.id, version, 0, {"i": i})
        await store.games.save_snapshot(game.id, version, {"v": version}, keep=2)
    await store.games.save_snapshot(game.id, 5, {"v": "five again"}, keep=2)
    from sqlalchemy import select

    from db.models import Snapshot

    async with store.db.engine.connect() as conn:
        seqs = (await conn.execute(select(Snapshot.seq).order_by(Snapshot.seq))).scalars().all()
    assert seqs == [4, 5]
    assert (await store.games.load(game.id)).snapshot.state == {"v": "five again"}


async def test_snapshot_outside_the_log_is_refused(store: Store) -> None:
    game = await store.games.create(1, 2, "shangrao", seats=SEATS)
    await store.games.append_action(game.id, 0, 0, {})
    with pytest.raises(ValueError):
        await store.games.save_snapshot(game.id, 2, {})
    await store.games.save_snapshot(game.id, 0, {"initial": True})
    loaded = await store.games.load(game.id)
    assert loaded.snapshot.seq == 0
    assert [a.seq for a in loaded.actions] == [1]


async def test_unfinished_games_list_and_bulk_load(store: Store) -> None:
    games = [await store.games.create(1, 2, "shangrao", seats=SEATS) for _ in range(4)]
    await store.games.update(games[1].id, status="active")
    await store.games.update(games[2].id, status="finished")
    await store.games.update(games[3].id, status="abandoned")
    other = await store.games.create(2, 3, "xinyu", seats=SEATS, status="active")
    version = 0
    for i in range(4):
        version = await store.games.append_action(games[1].id, version, 0, {"i": i})
    await store.games.save_snapshot(games[1].id, 2, {"s": 2})
    await store.games.append_action(other.id, 0, 1, {"x": 1})

    unfinished = await store.games.list_unfinished()
    assert {g.id for g in unfinished} == {games[0].id, games[1].id, other.id}
    bulk = await store.games.load_unfinished()
    assert {b.game.id for b in bulk} == {g.id for g in unfinished}
    for loaded in bulk:
        assert loaded == await store.games.load(loaded.game.id)
    by_id = {b.game.id: b for b in bulk}
    assert [a.seq for a in by_id[games[1].id].actions] == [3, 4]
    assert by_id[games[0].id].actions == []
