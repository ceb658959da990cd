"""One open game per channel (``channel_games``): a lobby claims its channel in the same
transaction that creates it; another lobby there is refused until that game has ended."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import func, select

from db.models import ChannelGame, Game
from db.store import Store
from db.types import ChannelTaken

GUILD, CHANNEL = 7, 70


async def _count_games(store: Store) -> int:
    async with store.db.read() as conn:
        return int(await conn.scalar(select(func.count()).select_from(Game.__table__)) or 0)


async def _holder(store: Store, channel_id: int) -> int | None:
    table = ChannelGame.__table__
    async with store.db.read() as conn:
        return await conn.scalar(select(table.c.game_id).where(table.c.channel_id == channel_id))


async def test_a_second_lobby_in_the_channel_is_refused_and_nothing_is_written(
    store: Store,
) -> None:
    first = await store.games.create(GUILD, CHANNEL, "xinyu", seats=[{}], claim_channel=True)
    assert await _holder(store, CHANNEL) == first.id
    with pytest.raises(ChannelTaken) as refused:
        await store.games.create(GUILD, CHANNEL, "xinyu", seats=[{}], claim_channel=True)
    assert refused.value.game_id == first.id
    assert refused.value.channel_id == CHANNEL
    assert await _count_games(store) == 1  # the refused lobby's game row rolled back
    other = await store.games.create(GUILD, CHANNEL + 1, "xinyu", seats=[{}], claim_channel=True)
    assert await _holder(store, CHANNEL + 1) == other.id


@pytest.mark.parametrize("ended", ["finished", "abandoned"])
async def test_the_channel_is_taken_over_once_its_game_has_ended(store: Store, ended: str) -> None:
    first = await store.games.create(GUILD, CHANNEL, "xinyu", seats=[{}], claim_channel=True)
    await store.games.update(first.id, status="active")
    with pytest.raises(ChannelTaken):
        await store.games.create(GUILD, CHANNEL, "xinyu", seats=[{}], claim_channel=True)
    await store.games.update(first.id, status=ended)
    second = await store.games.create(GUILD, CHANNEL, "xinyu", seats=[{}], claim_channel=True)
    assert await _holder(store, CHANNEL) == second.id


async def test_games_made_without_claiming_leave_the_channel_free(store: Store) -> None:
    await store.games.create(GUILD, CHANNEL, "xinyu", seats=[{}], status="active")
    made = await store.games.create(GUILD, CHANNEL, "xinyu", seats=[{}], claim_channel=True)
    assert await _holder(store, CHANNEL) == made.id


async def test_two_stores_racing_for_one_channel_get_one_lobby(db_url: str) -> None:
    stores = [await Store.open(db_url) for _ in range(2)]
    try:
        for channel in range(100, 110):  # ten races, one channel each
            results = await asyncio.gather(
                *(
                    s.games.create(GUILD, channel, "shangrao", seats=[{}], claim_channel=True)
                    for s in stores
                ),
                return_exceptions=True,
            )
            made = [r for r in results if not isinstance(r, BaseException)]
            refused = [r for r in results if isinstance(r, ChannelTaken)]
            assert len(made) == 1 and len(refused) == 1, results
            assert refused[0].game_id == made[0].id
            assert await _holder(stores[0], channel) == made[0].id
        assert await _count_games(stores[0]) == 10
    finally:
        for s in stores:
            await s.close()


async def test_deleting_a_game_frees_its_channel(store: Store) -> None:
    made = await store.games.create(GUILD, CHANNEL, "xinyu", seats=[{}], claim_channel=True)
    async with store.db.write() as conn:
        await conn.execute(Game.__table__.delete().where(Game.__table__.c.id == made.id))
    assert await _holder(store, CHANNEL) is None


async def test_the_migration_gives_each_channel_its_newest_open_game(db_url: str) -> None:
    from alembic import command
    from sqlalchemy import text

    from db.migrate import alembic_config

    opened = await Store.open(db_url)
    try:
        older = await opened.games.create(GUILD, CHANNEL, "xinyu", seats=[{}], status="active")
        newer = await opened.games.create(GUILD, CHANNEL, "xinyu", seats=[{}])
        await opened.games.create(GUILD, CHANNEL + 1, "xinyu", seats=[{}], status="finished")

        def down_up(sync_conn):  # type: ignore[no-untyped-def]
            config = alembic_config()
            config.attributes["connection"] = sync_conn
            command.downgrade(config, "0005")
            command.upgrade(config, "head")

        async with opened.db.engine.begin() as conn:
            await conn.run_sync(down_up)
            rows = (await conn.execute(text("SELECT channel_id, game_id FROM channel_games"))).all()
        assert [tuple(r) for r in rows] == [(CHANNEL, newer.id)]
        assert older.id < newer.id
    finally:
        await opened.close()
