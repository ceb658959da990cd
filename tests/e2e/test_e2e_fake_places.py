"""The fake Discord at a thousand tables: a waiter wakes only for its own channel (or DM),
and idle threads archive on time although the fake no longer looks at every thread on every
message (checked over its REST API, without a bot). These keep the load test's driver's
cost per press flat in the number of tables (issue 15)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import aiohttp
import pytest
import pytest_asyncio

from .fake_discord import FakeDiscord
from .fake_discord.state import FakeChannel, snowflake
from .rest_client import Rest

pytestmark = pytest.mark.e2e


@pytest_asyncio.fixture
async def rest(fake: FakeDiscord) -> AsyncIterator[Rest]:
    async with aiohttp.ClientSession() as session:
        yield Rest(fake, session)


def other_channel(fake: FakeDiscord) -> FakeChannel:
    channel = FakeChannel(id=snowflake(), type=0, name="table-2", guild_id=fake.guild_id)
    fake.channels[channel.id] = channel
    return channel


async def settle() -> None:
    """Let every woken task run."""
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_waiter_wakes_only_for_its_own_place(fake: FakeDiscord, rest: Rest) -> None:
    changes = fake.place_changes
    here, there = fake.channel.id, other_channel(fake).id
    alice = fake.user("alice")
    places = [here, there, alice.id]
    before = changes.marks(places)
    waiting_there = asyncio.create_task(changes.wait([there], changes.marks([there]), 30))
    waiting_dm = asyncio.create_task(changes.wait([alice.id], changes.marks([alice.id]), 30))
    msg = await rest.send(here, {"content": "a move at another table"})
    await settle()
    assert changes.marks(places) == (before[0] + 1, before[1], before[2])
    assert not waiting_there.done() and not waiting_dm.done()
    # an edit in its channel wakes it
    status, _ = await rest.call("PATCH", f"/channels/{there}/messages/{msg['id']}", {})
    assert status == 404  # (the message is not in that channel: nothing changed there)
    await settle()
    assert not waiting_there.done()
    mine = await rest.send(there, {"content": "your table"})
    assert await waiting_there is True
    status, _ = await rest.call(
        "PATCH", f"/channels/{there}/messages/{mine['id']}", {"content": "edited"}
    )
    assert status == 200 and changes.marks([there]) == (before[1] + 2,)
    # opening a user's DM channel wakes whoever waits for their (not yet open) DMs
    status, dm = await rest.call("POST", "/users/@me/channels", {"recipient_id": alice.id})
    assert status == 200 and await waiting_dm is True
    # a place that already changed since the marks: no wait at all; else False on time-out
    assert await changes.wait([here], before[:1], 30) is True
    assert await changes.wait([int(dm["id"])], changes.marks([int(dm["id"])]), 0.01) is False


async def test_a_thread_started_on_a_message_wakes_its_channel(
    fake: FakeDiscord, rest: Rest
) -> None:
    changes = fake.place_changes
    ch = fake.channel.id
    lobby = await rest.send(ch, {"content": "lobby"})
    waiting = asyncio.create_task(changes.wait([ch], changes.marks([ch]), 30))
    await settle()
    assert not waiting.done()
    status, thread = await rest.call(
        "POST", f"/channels/{ch}/messages/{lobby['id']}/threads", {"name": "上饶麻将 #1"}
    )
    assert status == 201 and await waiting is True
    assert changes.marks([int(thread["id"])]) == (1,)


async def test_threads_archive_on_time_whatever_was_looked_at_before(
    fake: FakeDiscord, rest: Rest
) -> None:
    ch = fake.channel.id

    async def thread(minutes: int) -> FakeChannel:
        status, body = await rest.call(
            "POST",
            f"/channels/{ch}/threads",
            {"name": f"{minutes} minutes", "auto_archive_duration": minutes},
        )
        assert status == 201, body
        found = fake.channels[int(body["id"])]
        assert not found.archived
        return found

    three_days = await thread(4320)
    await rest.send(three_days.id, {"content": "a message: the fake looks at its threads"})
    fake.advance(30 * 60)
    one_hour = await thread(60)  # archives before the thread the fake last looked at
    fake.advance(59 * 60)
    await rest.send(three_days.id, {"content": "still playing"})
    assert not one_hour.archived
    fake.advance(2 * 60)
    assert one_hour.archived and not three_days.archived
    await rest.send(one_hour.id, {"content": "reopened"})
    assert not one_hour.archived
    fake.advance(4320 * 60 - 59 * 60)  # three days after "still playing", less an hour
    assert one_hour.archived and not three_days.archived
    fake.advance(60 * 60)
    assert three_days.archived
