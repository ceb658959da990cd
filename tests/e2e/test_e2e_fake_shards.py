"""The fake Discord's gateway takes several sessions with shard ids, as Discord does for a
sharded bot (checked over raw websockets, without a bot): IDENTIFY ``shard: [id, count]``,
a server's events go to shard ``(guild_id >> 22) % count``, DM events to shard 0, and
``GET /gateway/bot`` recommends a shard count."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from .conftest import recognisable_token
from .fake_discord import FakeDiscord
from .fake_discord.gateway import DIRECT_MESSAGES, GUILD_MESSAGES, GatewaySession

pytestmark = pytest.mark.e2e

GUILDS = 1


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord(token=recognisable_token(), shard_count=2, guild_shard=1)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest_asyncio.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def identify(
    fake: FakeDiscord, http: aiohttp.ClientSession, shard: list[int] | None
) -> tuple[aiohttp.ClientWebSocketResponse, list[dict[str, Any]]]:
    """Connect, IDENTIFY (with ``shard`` unless None) and read until READY (and the
    GUILD_CREATE that follows when the shard has the server)."""
    ws = await http.ws_connect(fake.gateway_url)
    hello = json.loads((await ws.receive()).data)
    assert hello["op"] == 10
    data: dict[str, Any] = {
        "token": fake.token,
        "intents": GUILDS | GUILD_MESSAGES | DIRECT_MESSAGES,
        "properties": {},
    }
    if shard is not None:
        data["shard"] = shard
    await ws.send_str(json.dumps({"op": 2, "d": data}))
    frames = [json.loads((await ws.receive(timeout=fake.scaled(5))).data)]
    if frames[0]["d"]["guilds"]:
        frames.append(json.loads((await ws.receive(timeout=fake.scaled(5))).data))
    return ws, frames


def events(session: GatewaySession) -> list[str]:
    return [frame["t"] for frame in session.sent]


async def test_guild_events_go_to_their_shard_and_dms_to_shard_0(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    async with http.get(
        f"{fake.api_base}/gateway/bot", headers={"Authorization": f"Bot {fake.token}"}
    ) as response:
        assert (await response.json())["shards"] == 2
    assert (fake.guild_id >> 22) % 2 == 1

    ws0, frames0 = await identify(fake, http, [0, 2])
    ws1, frames1 = await identify(fake, http, [1, 2])
    ready0, ready1 = frames0[0]["d"], frames1[0]["d"]
    assert (ready0["shard"], ready1["shard"]) == ([0, 2], [1, 2])
    assert ready0["guilds"] == [] and len(frames0) == 1  # the server is not on shard 0
    assert ready1["guilds"] == [{"id": str(fake.guild_id), "unavailable": True}]
    assert frames1[1]["t"] == "GUILD_CREATE"
    shard0, shard1 = fake.gateway.shards[0], fake.gateway.shards[1]
    assert fake.gateway.current is shard0  # the DM shard

    alice = fake.user("alice")
    await fake.post_as_user(alice, "in the server")
    assert events(shard1)[-1] == "MESSAGE_CREATE" and "MESSAGE_CREATE" not in events(shard0)
    ix = await fake.slash(alice, "mahjong ping")
    assert ix.shard == 1 and events(shard1)[-1] == "INTERACTION_CREATE"

    status, dm = await _open_dm(fake, http, alice.id)
    assert status == 200
    await fake.post_as_user(alice, "in a DM", channel=fake.channels[int(dm["id"])])
    assert events(shard0) == ["READY", "MESSAGE_CREATE"]
    assert "guild_id" not in shard0.sent[-1]["d"]

    # a new IDENTIFY for shard 1 replaces its session; shard 0's stays
    ws1b, _ = await identify(fake, http, [1, 2])
    assert shard1.closed and fake.gateway.shards[1] is not shard1
    assert fake.gateway.session_for(fake.guild_id) is fake.gateway.shards[1]
    assert fake.gateway.session_for(None) is shard0 and not shard0.closed
    for ws in (ws0, ws1, ws1b):
        await ws.close()


async def test_a_shard_out_of_range_is_refused(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    ws = await http.ws_connect(fake.gateway_url)
    await ws.receive()  # HELLO
    data = {"token": fake.token, "intents": GUILDS, "properties": {}, "shard": [2, 2]}
    await ws.send_str(json.dumps({"op": 2, "d": data}))
    closing = await ws.receive(timeout=fake.scaled(5))
    assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    assert ws.close_code == 4010 and not fake.gateway.shards


async def test_without_shard_one_session_gets_everything(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    ws, frames = await identify(fake, http, None)
    assert frames[0]["d"]["shard"] == [0, 1] and frames[1]["t"] == "GUILD_CREATE"
    session = fake.gateway.shards[0]
    assert fake.gateway.session_for(fake.guild_id) is session
    assert fake.gateway.session_for(None) is session
    await ws.close()


async def _open_dm(
    fake: FakeDiscord, http: aiohttp.ClientSession, user_id: int
) -> tuple[int, dict[str, Any]]:
    async with http.post(
        f"{fake.api_base}/users/@me/channels",
        json={"recipient_id": str(user_id)},
        headers={"Authorization": f"Bot {fake.token}"},
    ) as response:
        return response.status, await response.json()
