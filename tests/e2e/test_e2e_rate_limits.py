"""End-to-end: Discord rate limits (HTTP 429 and ``X-RateLimit-*`` headers).

The fake answers 429 like Discord (JSON ``retry_after`` / ``global``, ``Retry-After`` and
``X-RateLimit-*`` headers) on demand or per route, and records a violation when a client
sends a request again before it was told it may (the teardown in ``conftest.py`` fails on
any). First the fake's own behaviour, with a plain HTTP client that can misbehave; then a
whole hand played by the real bot while its table edits, DM sends and DM edits hit 429s.
"""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from .fake_discord import FakeDiscord, FakeMessage, FakeUser
from .fake_discord.ratelimit import GLOBAL_EXEMPT
from .game_driver import (
    check_privacy,
    game_env,
    hand_message,
    lobby_message,
    log_of,
    parse_id,
    play_hand,
    result_message,
    stale_answer,
    table_message,
)

pytestmark = pytest.mark.e2e


async def _lobby_of_two(
    fake: FakeDiscord, alice: FakeUser, bob: FakeUser
) -> tuple[FakeMessage, int]:
    """Alice opens a Shangrao game, Bob joins: its lobby message and the game id."""
    ix = await fake.slash(alice, "mahjong new", {"variant": "shangrao"})
    await ix.wait_reply(10)
    lobby = await fake.wait_for(lambda: lobby_message(fake), 10, what="the lobby")
    gid = parse_id(lobby.custom_ids()[0])[0]
    join = await fake.click(bob, lobby, f"mj:{gid}:join")
    await join.wait_ack(10)
    await fake.wait_for(lambda: bob.mention in fake.messages[lobby.id].text(), 10, what="bob")
    return lobby, gid


async def _request(
    session: aiohttp.ClientSession, fake: FakeDiscord, method: str, path: str, body: dict
) -> tuple[int, dict, dict[str, str]]:
    headers = {"Authorization": f"Bot {fake.token}"}
    async with session.request(method, fake.api_base + path, json=body, headers=headers) as resp:
        return resp.status, await resp.json(), dict(resp.headers)


async def test_fake_answers_429_like_discord_and_catches_early_retries(fake: FakeDiscord) -> None:
    path = f"/channels/{fake.channel.id}/messages"
    rule = fake.fail_next("POST", rf"^{path}$", 1, retry_after=0.4)
    async with aiohttp.ClientSession() as session:
        status, body, headers = await _request(session, fake, "POST", path, {"content": "a"})
        assert status == 429
        assert body == {
            "message": "You are being rate limited.",
            "retry_after": 0.4,
            "global": False,
            "code": 0,
        }
        assert headers["Content-Type"] == "application/json"
        assert headers["Retry-After"] == "1"
        assert headers["X-RateLimit-Remaining"] == "0"
        assert float(headers["X-RateLimit-Reset-After"]) == 0.4
        assert float(headers["X-RateLimit-Reset"]) > 0
        assert headers["X-RateLimit-Bucket"] and headers["X-RateLimit-Scope"] == "user"
        assert headers["Via"]  # without it discord.py takes a 429 for a Cloudflare ban
        assert "X-RateLimit-Global" not in headers
        assert rule.count == 0 and fake.channel_messages() == []  # nothing was posted

        # the same request again at once: Discord would refuse it; the fake records it
        status, _body, _headers = await _request(session, fake, "POST", path, {"content": "a"})
        assert status == 200  # the rule is used up, so it goes through, but too early:
        [early] = fake.ratelimit_violations
        assert early.kind == "retried before retry_after" and early.path == path
        assert 0 < early.early_by <= 0.4
        fake.ratelimit_violations.clear()
        await asyncio.sleep(early.early_by)  # now wait as told

        # a global 429, then a retry after retry_after: no violation
        fake.fail_next("POST", rf"^{path}$", 1, retry_after=0.2, is_global=True)
        status, body, headers = await _request(session, fake, "POST", path, {"content": "b"})
        assert status == 429 and body["global"] is True
        assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
        await asyncio.sleep(body["retry_after"])
        status, _body, _headers = await _request(session, fake, "POST", path, {"content": "b"})
        assert status == 200
    assert fake.ratelimit_violations == []
    assert [m.content for m in fake.channel_messages()] == ["a", "b"]
    assert [h.is_global for h in fake.ratelimit_hits] == [False, True]


async def test_route_limit_sends_headers_and_refuses_over_the_limit(fake: FakeDiscord) -> None:
    path = f"/channels/{fake.channel.id}/messages"
    fake.limit_route("POST", r"^/channels/\d+/messages$", per=2, window=0.5)
    async with aiohttp.ClientSession() as session:
        first = await _request(session, fake, "POST", path, {"content": "1"})
        second = await _request(session, fake, "POST", path, {"content": "2"})
        assert (first[0], second[0]) == (200, 200)
        assert first[2]["X-RateLimit-Limit"] == "2"
        assert first[2]["X-RateLimit-Remaining"] == "1"
        assert second[2]["X-RateLimit-Remaining"] == "0"
        assert first[2]["X-RateLimit-Bucket"] == second[2]["X-RateLimit-Bucket"]
        reset_after = float(second[2]["X-RateLimit-Reset-After"])
        assert 0 < reset_after <= 0.5
        # told "Remaining: 0": a third request before the reset is refused and recorded
        third = await _request(session, fake, "POST", path, {"content": "3"})
        assert third[0] == 429 and 0 < third[1]["retry_after"] <= 0.5
        [ignored] = fake.ratelimit_violations
        assert ignored.kind == "ignored Remaining: 0"
        fake.ratelimit_violations.clear()
        # after waiting as told, the bucket is full again
        await asyncio.sleep(third[1]["retry_after"])
        fourth = await _request(session, fake, "POST", path, {"content": "4"})
        assert fourth[0] == 200 and fourth[2]["X-RateLimit-Remaining"] == "1"
    assert fake.ratelimit_violations == []
    assert [m.content for m in fake.channel_messages()] == ["1", "2", "4"]


async def test_the_global_limit_counts_every_route_but_interaction_answers(
    fake: FakeDiscord,
) -> None:
    """Discord's global limit: N requests a second in all, whatever the route; past it a
    global 429 until the second ends; webhooks (interaction answers) do not count."""
    fake.limit_global(3)
    path = f"/channels/{fake.channel.id}/messages"
    async with aiohttp.ClientSession() as session:
        answers = [
            await _request(session, fake, "POST", path, {"content": str(n)}) for n in range(3)
        ]
        assert [a[0] for a in answers] == [200, 200, 200]
        # another route, same second: over the bot's limit
        edit = await _request(session, fake, "PATCH", f"{path}/{answers[0][1]['id']}", {})
        assert edit[0] == 429 and edit[1]["global"] is True
        assert edit[2]["X-RateLimit-Global"] == "true"
        assert 0 < edit[1]["retry_after"] <= 1.0
        # a webhook (how interactions are answered) is not under the global limit
        webhook = await _request(session, fake, "POST", f"/webhooks/{fake.application_id}/x", {})
        assert webhook[0] != 429
        await asyncio.sleep(edit[1]["retry_after"])
        again = await _request(session, fake, "PATCH", f"{path}/{answers[0][1]['id']}", {})
        assert again[0] == 200
    assert fake.ratelimit_violations == []
    assert [h.reason for h in fake.ratelimit_hits] == ["global limit"]


def _accepted_presses(fake: FakeDiscord, gid: int, users) -> int:
    """Hand-button presses the bot took (the hand message was redrawn, with no "that was an
    earlier moment" note)."""
    ids = {u.id for u in users}
    taken = 0
    for ix in fake.interactions.values():
        data = ix.payload.get("data") or {}
        cid = data.get("custom_id", "")
        if ix.type != 3 or ix.user.id not in ids or not cid.startswith(f"mj:{gid}:"):
            continue
        if parse_id(cid)[1] in ("join", "start", "hand", "next", "end", "dissolve"):
            continue
        if ix.response_type == 7 and not stale_answer(ix):
            taken += 1
    return taken


async def test_a_hand_is_played_to_the_end_through_429s(fake: FakeDiscord, bot_factory) -> None:
    """Table edits, DM sends and DM edits get 429s (one of them global) and DM edits carry
    route limit headers; the hand still ends, every refused request is sent again after its
    ``retry_after`` (never before), each player has one hand DM, nothing is lost."""
    guild_ch = fake.channel.id
    proc = bot_factory(env=game_env())
    await proc.start_ready()
    alice, bob = fake.user("alice"), fake.user("bob")
    lobby, gid = await _lobby_of_two(fake, alice, bob)

    # the game plays in a thread opened on the lobby message (its id is the lobby's): DM
    # channels are the others
    thread_ch = lobby.id
    dm_send = rf"^/channels/(?!{guild_ch}/|{thread_ch}/)\d+/messages$"
    dm_edit = rf"^/channels/(?!{guild_ch}/|{thread_ch}/)\d+/messages/\d+$"
    # DM edits: at most 2 per second per DM channel, told in the headers; the bot must wait
    fake.limit_route("PATCH", dm_edit, per=2, window=1.0)
    # the first hand DM sends get 429 twice
    dm_sends = fake.fail_next("POST", dm_send, 2, retry_after=0.6)
    # the table message (in the thread): its first edits get 429, the third one global
    table_edit = rf"^/channels/{thread_ch}/messages/\d+$"
    table_local = fake.fail_next("PATCH", table_edit, 2, retry_after=0.7)
    table_global = fake.fail_next("PATCH", table_edit, 1, retry_after=0.5, is_global=True)
    start = await fake.click(alice, lobby, f"mj:{gid}:start")
    await start.wait_ack(10)
    for user in (alice, bob):
        await fake.wait_for(lambda u=user: hand_message(fake, u, gid), 15, what="hand DMs")
    # and the first DM edits after the deal get 429 too (over the route limit's headers)
    dm_edits = fake.fail_next("PATCH", dm_edit, 2, retry_after=0.5)

    result = await play_hand(fake, [alice, bob], gid)
    assert f"mj:{gid}:dissolve" in result.custom_ids()  # 准备 / 解散 (issue 13)
    assert result_message(fake, gid) is result

    # every 429 was served
    assert dm_sends.count == table_local.count == table_global.count == dm_edits.count == 0
    hits = fake.ratelimit_hits
    assert sum(1 for h in hits if h.is_global) == 1
    assert len(hits) >= 7, hits
    # discord.py saw them as rate limits (not a Cloudflare ban) and waited them out
    assert "rate limited" in proc.log
    assert fake.ratelimit_violations == []
    # nothing lost: every refused request went through later, after its retry_after
    for hit in hits:
        later = [
            c
            for c in fake.calls
            if c.method == hit.method and c.path == hit.path and c.at >= hit.at
        ]
        ok = [c for c in later if 200 <= c.status < 300]
        assert ok, (hit, later)
        assert ok[0].at >= hit.until - fake.ratelimits.tolerance, (hit, ok[0])
    # one hand DM per player (a retried send is not a second message), and it was kept up
    # to date to the end of the hand (its buttons are gone or are "next hand" ones)
    for user in (alice, bob):
        hands = [m for m in fake.dms(user) if m.embeds]
        assert len(hands) == 1, [m.text()[:60] for m in hands]
        final = fake.messages[hands[0].id]
        kinds = {parse_id(c)[1] for c in final.custom_ids()}
        assert not kinds & {"discard", "pass", "win", "pong", "chi", "kong"}, kinds
    # the table's last edit (after its 429s) shows the hand's end, in the game's thread
    table = table_message(fake, gid)
    assert table is not None and table.channel_id == thread_ch
    assert f"mj:{gid}:next:1" in table.custom_ids(), table.custom_ids()
    # every press the bot took is in the game's log once (no lost or doubled action)
    acts = [a for _seq, seat, a in log_of(proc, gid) if seat in (0, 1) and a.get("k") == "act"]
    assert len(acts) == _accepted_presses(fake, gid, [alice, bob]) > 0
    # the route limit's headers were honoured: DM edits came faster than 2 a second at
    # times (the fake said "Remaining: 0"), yet its own 429 never had to be sent
    assert fake.ratelimits.exhausted >= 1
    assert not [h for h in hits if h.reason == "route limit"], hits
    check_privacy(fake)


#: the fake's global limit in the test below (Discord's is 50), and the bot's own budget
GLOBAL_LIMIT = 8
BOT_BUDGET = GLOBAL_LIMIT - 2  # a margin for the requests' jitter on the way to the fake


async def test_the_bot_keeps_under_discords_global_limit(fake: FakeDiscord, bot_factory) -> None:
    """Discord's global limit, set small: the bot's request budget
    (``DISCORD_REQUESTS_PER_SECOND``) keeps it under it — a game opens, deals, plays a hand
    to its result without one global 429, though the bot had more to send than the limit
    at times (the budget was full); answers (not counted) are not held up (the teardown
    fails on a late one); no secret leaks."""
    fake.limit_global(GLOBAL_LIMIT)
    proc = bot_factory(env=game_env(DISCORD_REQUESTS_PER_SECOND=str(BOT_BUDGET)))
    await proc.start_ready()
    alice, bob = fake.user("alice"), fake.user("bob")
    lobby, gid = await _lobby_of_two(fake, alice, bob)
    start = await fake.click(alice, lobby, f"mj:{gid}:start")
    await start.wait_ack(10)
    result = await play_hand(fake, [alice, bob], gid)
    assert f"mj:{gid}:dissolve" in result.custom_ids()
    assert result_message(fake, gid) is result
    await asyncio.sleep(3)  # the last table edit

    assert [h for h in fake.ratelimit_hits if h.is_global] == []
    assert fake.ratelimits.during_global == []
    assert fake.ratelimit_violations == []
    # at most the budget in any one second, as the fake saw them; and the budget was used
    # up at times (without it, the fake would have answered 429s)
    counted = [c.at for c in fake.calls if not GLOBAL_EXEMPT.match(c.path)]
    busiest = max(sum(1 for u in counted if t - 1.0 < u <= t) for t in counted)
    assert BOT_BUDGET <= busiest <= GLOBAL_LIMIT, busiest
    # the table's last edit shows the hand's end; each player has one hand DM
    table = table_message(fake, gid)
    assert table is not None and f"mj:{gid}:next:1" in table.custom_ids()
    for user in (alice, bob):
        assert len([m for m in fake.dms(user) if m.embeds]) == 1
    check_privacy(fake)
