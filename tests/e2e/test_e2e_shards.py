"""End-to-end: the bot sharded over two ``bot.py`` processes sharing one PostgreSQL.

Shard 0 and shard 1 of 2 run in two processes against the fake Discord; the server belongs to
shard 1, so its slash commands and channel buttons reach the shard-1 process, while every DM
button (the players' hands) reaches the shard-0 process, which applies the press to a game it
does not own (the database decides, compare-and-set). The shard-1 process is then SIGKILLed
mid-hand and the shard-0 process, seeing it gone, redraws the game's messages and finishes
the hand alone. After a restart each process resumes only its own servers' games.

PostgreSQL only: ``TEST_POSTGRES_URL`` names the server (a database is made for the test and
dropped after); without it the test skips, unless ``REQUIRE_POSTGRES=1``, where it fails.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest
import pytest_asyncio

from .backends import pg_admin
from .conftest import recognisable_token
from .fake_discord import FakeDiscord, FakeMessage, FakeUser
from .game_driver import (
    check_privacy,
    choose,
    click_ok,
    game_env,
    hand_message,
    open_game,
    play_hand,
    stale_answer,
    table_messages,
)
from .harness import SYNC_LEFT_MARKER, BotProcess

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

#: the shard the fake's server is on, of two
GUILD_SHARD = 1
SHARDS = 2


@pytest_asyncio.fixture
async def database_url() -> AsyncIterator[str]:
    """A new, empty PostgreSQL database for the test (the bots migrate it at start-up)."""
    server = pg_admin.postgres_server_url()
    name = pg_admin.unique_name("mahjong_e2e")
    url = await pg_admin.create_database(server, name)
    try:
        yield url
    finally:
        await pg_admin.drop_database(server, name)


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """The fake Discord recommending two shards, its server on shard 1."""
    server = FakeDiscord(token=recognisable_token(), shard_count=SHARDS, guild_shard=GUILD_SHARD)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def stored_version(url: str, gid: int) -> int:
    conn = await asyncpg.connect(pg_admin.asyncpg_dsn(url))
    try:
        version = await conn.fetchval("SELECT version FROM games WHERE id = $1", gid)
    finally:
        await conn.close()
    assert version is not None, f"no game {gid} in the store"
    return int(version)


def shard_env(database_url: str, shard: int) -> dict[str, str | None]:
    # 准备 waits as long as a turn: under load the two restarts at the end can outlast the
    # default minute, and shard 0 would then rightly fire the overdue 准备 deadline and play
    # the game out on 托管 before shard 1 is back to resume it
    return {
        **game_env(READY_TIMEOUT_SECONDS="600"),
        "DATABASE_URL": database_url,
        "SHARD_COUNT": str(SHARDS),
        "SHARD_IDS": str(shard),
    }


def hand_messages(fake: FakeDiscord, user: FakeUser, gid: int) -> list[FakeMessage]:
    """Every hand DM of ``user`` for game ``gid``, deleted ones included."""
    return [
        m
        for m in fake.dms(user, include_deleted=True)
        if any((e.get("footer") or {}).get("text", "").startswith(f"#{gid} ") for e in m.embeds)
    ]


async def press_dms(
    fake: FakeDiscord, players: list[FakeUser], gid: int, url: str, wanted: int
) -> int:
    """Press hand DM buttons until ``wanted`` presses were taken as actions (answered by
    updating the hand); each must reach the shard-0 process and move the stored game on."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + fake.scaled(60)
    taken = 0
    while taken < wanted:
        assert loop.time() < deadline, f"only {taken} of {wanted} DM presses were taken"
        mark = fake.changes
        for user in players:
            before = await stored_version(url, gid)
            msg = hand_message(fake, user, gid)
            cid = choose(fake.messages[msg.id]) if msg is not None else None
            if msg is None or cid is None:
                continue
            ix = await click_ok(fake, user, fake.messages[msg.id], cid)
            assert ix.shard == 0, "a DM interaction arrives on shard 0"
            if ix.response_type != 7:
                continue
            after = await stored_version(url, gid)
            if after > before:  # the hand was redrawn and the game moved: the action was taken
                taken += 1
                continue
            # the hand was redrawn but nothing moved: that is only how a press on a hand drawn
            # for an earlier moment is answered (both processes edit the hand DMs, and an edit
            # under way can land after a newer one), with a note that nothing was played
            await fake.wait_for(lambda ix=ix: stale_answer(ix), 10, what="the stale note")
        await fake.wait_change(mark, 0.5)
    return taken


async def test_dm_presses_on_shard_0_play_a_game_of_shard_1_and_survive_its_death(
    fake: FakeDiscord, database_url: str, bot_factory
) -> None:
    shard0: BotProcess = bot_factory(env=shard_env(database_url, 0))
    shard1: BotProcess = bot_factory(env=shard_env(database_url, 1))
    await asyncio.gather(shard0.start_ready(), shard1.start_ready())
    assert len(fake.command_syncs) == 1  # shard 0's process syncs the commands, the other not
    assert SYNC_LEFT_MARKER in shard1.log and SYNC_LEFT_MARKER not in shard0.log
    sessions = {s.shard for s in fake.gateway.shards.values()}
    assert sessions == {(0, SHARDS), (1, SHARDS)}  # one session per shard, one per process
    assert fake.gateway.session_for(fake.guild_id).shard == (GUILD_SHARD, SHARDS)
    assert fake.gateway.session_for(None).shard == (0, SHARDS)

    alice, bob = fake.user("alice"), fake.user("bob")
    players = [alice, bob]
    gid, _lobby = await open_game(fake, alice, [bob])
    server_events = [ix for ix in fake.interactions.values() if ix.channel.id == fake.channel.id]
    assert server_events and {ix.shard for ix in server_events} == {GUILD_SHARD}

    await fake.wait_for(
        lambda: all(hand_message(fake, u, gid) for u in players), 20, what="both hand DMs"
    )
    taken = await press_dms(fake, players, gid, database_url, 4)
    assert taken >= 4

    # the server's process dies mid-hand; shard 0 (where the DM presses arrive) finishes it
    await shard1.kill()
    # it sees the other process gone at once (its connection to PostgreSQL went with it) and
    # redraws the game's messages: an edit the dead process drew for an earlier moment may
    # have landed last, leaving a player without the buttons of the decision awaited
    await fake.wait_for(
        lambda: "is gone; taking over its games" in shard0.log, 10, what="shard 0's take-over"
    )
    version = await stored_version(database_url, gid)
    result = await play_hand(fake, players, gid)
    assert await stored_version(database_url, gid) > version
    assert f"mj:{gid}:next:1" in result.custom_ids()
    assert len(table_messages(fake, gid)) == 1  # one table for the hand, whoever drew it
    for user in players:  # one hand DM each, edited by both processes, never sent twice
        assert len(hand_messages(fake, user, gid)) == 1, user.name
    check_privacy(fake)

    # restarted, each process resumes only its servers' games: shard 1's holds this one
    await shard0.stop()
    await shard0.start_ready()
    await shard1.start_ready()
    await fake.wait_for(
        lambda: "Resumed" in shard0.log and "Resumed" in shard1.log, 20, what="both resumed"
    )
    assert "Resumed 0 unfinished game(s)" in shard0.log
    assert "Resumed 1 unfinished game(s)" in shard1.log
