"""The fake Discord models what real Discord does and a simple fake would not (checked over
its REST API, without a bot): notifications for new messages only, the edit budget of
messages older than an hour (30046) on a fake clock, and threads that archive when idle."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest
import pytest_asyncio

from .fake_discord import CREATE_PUBLIC_THREADS, FakeDiscord
from .rest_client import Rest

pytestmark = pytest.mark.e2e


@pytest_asyncio.fixture
async def rest(fake: FakeDiscord) -> AsyncIterator[Rest]:
    async with aiohttp.ClientSession() as session:
        yield Rest(fake, session)


async def test_only_new_messages_notify(fake: FakeDiscord, rest: Rest) -> None:
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    ch = fake.channel.id
    # a DM notifies its recipient; editing it notifies nobody
    dm = await rest.send(await rest.dm_channel(alice.id), {"content": "your turn"})
    assert [n.kind for n in fake.notifications.of(alice)] == ["dm"]
    status, _ = await rest.call(
        "PATCH", f"/channels/{dm['channel_id']}/messages/{dm['id']}", {"content": "edited"}
    )
    assert status == 200 and fake.notifications.count(alice) == 1
    # a channel message notifies whom it mentions, as allowed_mentions permits
    await rest.send(ch, {"content": f"{bob.mention} and {carol.mention}"})  # no allowed: all
    assert fake.notifications.count(bob) == fake.notifications.count(carol) == 1
    await rest.send(
        ch,
        {"content": f"{bob.mention} {carol.mention}", "allowed_mentions": {"users": [bob.id]}},
    )
    assert fake.notifications.count(bob) == 2 and fake.notifications.count(carol) == 1
    await rest.send(ch, {"content": bob.mention, "allowed_mentions": {"parse": []}})
    await rest.send(ch, {"content": "plain", "embeds": [{"description": bob.mention}]})
    assert fake.notifications.count(bob) == 2  # suppressed, and embeds never ping
    msg = await rest.send(ch, {"content": "no one", "allowed_mentions": {"parse": ["users"]}})
    status, _ = await rest.call(
        "PATCH", f"/channels/{ch}/messages/{msg['id']}", {"content": f"now {carol.mention}"}
    )
    assert status == 200 and fake.notifications.count(carol) == 1  # an edit adding a mention


async def test_old_messages_have_a_small_edit_budget(fake: FakeDiscord, rest: Rest) -> None:
    ch = fake.channel.id
    old = [await rest.send(ch, {"content": f"table {i}"}) for i in range(5)]
    for _ in range(10):  # young messages: no budget
        status, _ = await rest.call(
            "PATCH", f"/channels/{ch}/messages/{old[0]['id']}", {"content": "young"}
        )
        assert status == 200
    fake.advance(3601)  # an hour passes: every message of the channel is old now
    for i in range(3):
        status, _ = await rest.call(
            "PATCH", f"/channels/{ch}/messages/{old[i]['id']}", {"content": "old edit"}
        )
        assert status == 200
    status, body = await rest.call(
        "PATCH", f"/channels/{ch}/messages/{old[3]['id']}", {"content": "one too many"}
    )
    assert status == 429 and body["code"] == 30046 and 0 < body["retry_after"] <= 6
    assert (
        len(fake.old_edits.refused) == 1 and fake.ratelimit_hits[-1].reason == "old message edits"
    )
    # a new message in the same channel is not old; another channel has its own budget
    young = await rest.send(ch, {"content": "fresh table"})
    status, _ = await rest.call(
        "PATCH", f"/channels/{ch}/messages/{young['id']}", {"content": "edit"}
    )
    assert status == 200
    fake.advance(6)  # the window passed
    status, _ = await rest.call(
        "PATCH", f"/channels/{ch}/messages/{old[4]['id']}", {"content": "later"}
    )
    assert status == 200
    # snowflakes and timestamps follow the fake clock
    assert young["timestamp"] > old[0]["timestamp"]


async def test_threads_archive_when_idle_and_reopen_on_a_message(
    fake: FakeDiscord, rest: Rest
) -> None:
    ch = fake.channel.id
    lobby = await rest.send(ch, {"content": "lobby"})
    status, thread = await rest.call(
        "POST",
        f"/channels/{ch}/messages/{lobby['id']}/threads",
        {"name": "上饶麻将 #1", "auto_archive_duration": 60},
    )
    assert status == 201 and thread["id"] == lobby["id"] and thread["type"] == 11
    assert thread["parent_id"] == str(ch) and thread["thread_metadata"]["archived"] is False
    status, again = await rest.call(
        "POST", f"/channels/{ch}/messages/{lobby['id']}/threads", {"name": "again"}
    )
    assert status == 400 and again["code"] == 160004
    tid = int(thread["id"])
    [channel] = fake.threads()
    assert channel.id == tid and fake.thread_on(fake.messages[int(lobby["id"])]) is channel
    table = await rest.send(tid, {"content": "table"})
    assert fake.guild_messages()[-1].id == int(table["id"])
    fake.advance(59 * 60)
    assert not channel.archived
    fake.advance(2 * 60)  # an hour without a message
    assert channel.archived
    status, body = await rest.call(
        "PATCH", f"/channels/{tid}/messages/{table['id']}", {"content": "edit"}
    )
    assert status == 400 and body["code"] == 50083
    await rest.send(tid, {"content": "next hand"})  # a bot message reopens it
    assert not channel.archived
    status, _ = await rest.call(
        "PATCH", f"/channels/{tid}/messages/{table['id']}", {"content": "edit"}
    )
    assert status == 200
    # a thread without a starter message
    status, other = await rest.call(
        "POST", f"/channels/{ch}/threads", {"name": "九江麻将 #2", "type": 11}
    )
    assert status == 201 and other["thread_metadata"]["auto_archive_duration"] == 4320
    assert len(fake.threads()) == 2


async def test_creating_a_thread_needs_the_permission(fake: FakeDiscord, rest: Rest) -> None:
    ch = fake.channel.id
    fake.overwrite(fake.channel, fake.bot_role, deny=CREATE_PUBLIC_THREADS)
    status, body = await rest.call("POST", f"/channels/{ch}/threads", {"name": "x", "type": 11})
    assert status == 403 and body["code"] == 50013
    assert fake.threads() == []
