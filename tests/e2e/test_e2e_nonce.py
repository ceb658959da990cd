"""Messages that cannot be posted twice: Discord's ``nonce`` with ``enforce_nonce``.

First the fake itself, over its REST API without a bot (``fake_discord/nonces.py``): a second
create with the same enforced nonce returns the first message and creates nothing; a nonce
longer than 25 characters is refused; without ``enforce_nonce`` it is only echoed; a fault
can lose the answer of a request that was carried out.

Then the real ``bot.py``: a hand's result whose answer is lost (503 after Discord created it)
is sent again by the delivery queue with the same nonce — one result in the channel.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from .fake_discord import FakeDiscord, RestCall
from .game_driver import game_env, open_game, play_hand
from .rest_client import Rest
from .test_e2e_crash_results import is_result_of, posted
from .test_e2e_sends import MESSAGES

pytestmark = pytest.mark.e2e


@pytest_asyncio.fixture
async def rest(fake: FakeDiscord) -> AsyncIterator[Rest]:
    async with aiohttp.ClientSession() as session:
        yield Rest(fake, session)


def record_dispatches(fake: FakeDiscord) -> list[tuple[str, Any]]:
    """The gateway events the fake dispatches from now on (no bot is connected)."""
    seen: list[tuple[str, Any]] = []
    dispatch = fake.gateway.dispatch

    async def recording(event: str, data: Any, *, intent: int | None = None) -> bool:
        seen.append((event, data))
        return await dispatch(event, data, intent=intent)

    fake.gateway.dispatch = recording  # type: ignore[method-assign]
    return seen


async def test_an_enforced_nonce_returns_the_first_message(fake: FakeDiscord, rest: Rest) -> None:
    ch, alice = fake.channel.id, fake.user("alice")
    events = record_dispatches(fake)
    body = {"content": f"hi {alice.mention}", "nonce": "r.1.2", "enforce_nonce": True}
    first = await rest.send(ch, body)
    again = await rest.send(ch, {**body, "content": "something else"})
    assert again["id"] == first["id"] and again["content"] == f"hi {alice.mention}"
    assert first["nonce"] == "r.1.2"
    assert [m.id for m in fake.channel_messages()] == [int(first["id"])]
    assert [e for e, _ in events] == ["MESSAGE_CREATE"]  # dispatched once
    assert fake.notifications.count(alice) == 1  # notified once
    assert fake.nonces.repeats == [("r.1.2", int(first["id"]))]
    # another channel, or another nonce: a new message
    dm = await rest.send(await rest.dm_channel(alice.id), body)
    other = await rest.send(ch, {**body, "nonce": "r.1.3"})
    assert len({first["id"], dm["id"], other["id"]}) == 3
    # past the window, the nonce makes a new message
    fake.advance(fake.nonces.window + 1)
    later = await rest.send(ch, body)
    assert later["id"] != first["id"]
    # a deleted message is not returned
    status, _ = await rest.call("DELETE", f"/channels/{ch}/messages/{later['id']}")
    assert status == 204
    assert (await rest.send(ch, body))["id"] != later["id"]


async def test_a_nonce_not_enforced_is_only_echoed(fake: FakeDiscord, rest: Rest) -> None:
    ch = fake.channel.id
    one = await rest.send(ch, {"content": "a", "nonce": 12345})
    two = await rest.send(ch, {"content": "b", "nonce": 12345})
    assert one["id"] != two["id"] and one["nonce"] == two["nonce"] == 12345
    assert len(fake.channel_messages()) == 2 and fake.nonces.repeats == []


async def test_a_nonce_longer_than_25_characters_is_refused(fake: FakeDiscord, rest: Rest) -> None:
    ch = fake.channel.id
    status, data = await rest.call(
        "POST", f"/channels/{ch}/messages", {"content": "a", "nonce": "x" * 26}
    )
    assert status == 400 and data["code"] == 50035 and "nonce" in data["errors"]
    assert fake.channel_messages() == []
    assert (await rest.send(ch, {"content": "a", "nonce": "x" * 25}))["nonce"] == "x" * 25


async def test_a_lost_answer_still_creates_the_message(fake: FakeDiscord, rest: Rest) -> None:
    ch = fake.channel.id
    fault = fake.break_next("POST", MESSAGES, 1, status=503, after=True)
    body = {"content": "once", "nonce": "n1", "enforce_nonce": True}
    status, data = await rest.call("POST", f"/channels/{ch}/messages", body)
    assert status == 503 and data["code"] == 0 and len(fault.refused) == 1
    [made] = fake.channel_messages()
    assert (await rest.send(ch, body))["id"] == str(made.id)  # the retry finds it
    assert len(fake.channel_messages()) == 1


# ---------------------------------------------------------------------- the bot

SEED = "e2e-nonce"


def carries_result(gid: int, hand: int):
    """Whether a request posts the result of hand ``hand`` of game ``gid``."""

    def match(call: RestCall) -> bool:
        embeds = list((call.json or {}).get("embeds") or []) if isinstance(call.json, dict) else []
        return is_result_of(hand)(gid, embeds)

    return match


async def test_a_result_whose_answer_was_lost_is_posted_once(
    fake: FakeDiscord, bot_factory
) -> None:
    """Discord creates hand 1's result but the answer is lost (503, which discord.py does not
    try again itself): the delivery queue sends it again, with the same nonce, and gets the
    message back — the channel shows the result once."""
    proc = bot_factory(env=game_env(EXTRA_EXTENSIONS="e2e_seed", E2E_SEEDS=SEED))
    await proc.start_ready()
    alice = fake.user("alice")
    gid, _lobby = await open_game(fake, alice, [], length="4")
    fault = fake.break_next(
        "POST", MESSAGES, 1, status=503, match=carries_result(gid, 1), after=True
    )
    await play_hand(fake, [alice], gid, hand_no=1)

    def result_sends() -> list[RestCall] | None:
        sends = [c for c in fake.calls_to("POST", MESSAGES) if carries_result(gid, 1)(c)]
        return sends if len(sends) >= 2 and sends[-1].status else None

    results = await fake.wait_for(result_sends, 60, what="the result sent again")
    assert fault.refused and fault.refused[0].status == 503
    for _ in range(5):  # until what follows has gone out (quiet for 2 s)
        if not await fake.wait_change(fake.changes, 2.0):
            break
    assert len(posted(fake, gid, is_result_of(1))) == 1
    nonces = {c.json.get("nonce") for c in results}
    assert len(nonces) == 1 and None not in nonces, nonces  # the same nonce each time
    assert fake.nonces.repeats
