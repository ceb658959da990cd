"""End-to-end: the fake Discord features game cogs rely on, driven through a probe extension."""

from __future__ import annotations

import pytest

from .fake_discord import FakeDiscord
from .harness import BotProcess
from .privacy import assert_hands_private, assert_no_concealed_leak

pytestmark = pytest.mark.e2e

PROBE = {"EXTRA_EXTENSIONS": "e2e_probe"}


@pytest.fixture
async def probe_bot(bot_factory) -> BotProcess:
    proc = bot_factory(env=PROBE)
    await proc.start_ready()
    return proc


async def test_channel_message_with_file_and_button_click(fake: FakeDiscord, probe_bot) -> None:
    alice, bob = fake.user("alice"), fake.user("bob")
    ix = await fake.slash(alice, "e2e-probe table")
    table = await fake.wait_for(lambda: fake.channel_messages(), what="the table message")
    [msg] = table
    assert msg.content == "table v1"
    assert [a.filename for a in msg.attachments] == ["table.png"]
    assert msg.attachments[0].data.startswith(b"\x89PNG")
    assert msg.custom_ids() == ["probe:1:press"]
    assert (await ix.wait_reply()).content == "posting"
    await fake.wait_for(lambda: msg.reactions, what="the reaction")
    assert msg.reactions == {"\N{MAHJONG TILE RED DRAGON}": {fake.bot_user.id}}

    click = await fake.click(bob, msg, label="Press 1")
    await click.wait_ack()
    assert click.response_type == 7
    assert msg.content == "pressed 1 by bob"
    assert msg.custom_ids() == ["probe:2:press"]
    assert [a.filename for a in msg.attachments] == ["table2.png"]  # replaced, multipart
    assert msg.attachments[0].data.endswith(b"v2")
    assert msg.history[0]["content"] == "table v1"
    assert len(msg.edit_times) == 1 and msg.edit_times[0] > msg.created_at
    with pytest.raises(LookupError):
        await fake.click(bob, msg, "probe:1:press")  # the old button is gone


async def test_persistent_button_survives_sigkill_restart(fake: FakeDiscord, probe_bot) -> None:
    await fake.slash(fake.user("alice"), "e2e-probe table")
    [msg] = await fake.wait_for(lambda: fake.channel_messages(), what="the table message")
    await probe_bot.restart()
    click = await fake.click(fake.user("carol"), msg, "probe:1:press")
    await click.wait_ack()
    assert msg.content == "pressed 1 by carol"


async def test_dm_delivery_and_closed_dms_fallback(fake: FakeDiscord, probe_bot) -> None:
    alice, bob = fake.user("alice"), fake.user("bob")
    fake.close_dms(bob)

    ok = await fake.slash(alice, "e2e-probe dm", {"secret": "1m2m3m"})
    await fake.wait_for(lambda: len(ok.followups) == 1, what="alice's second follow-up")
    assert [m.content for m in fake.dms(alice)] == ["your hand: 1m2m3m"]
    assert fake.dms(alice)[0].custom_ids() == ["probe:100:press"]
    assert ok.response_type == 5
    assert ok.original is not None and ok.original.content == "sent by DM"  # filled the defer
    assert ok.original.ephemeral and ok.followups[0].ephemeral

    [hand] = fake.dms(alice)
    with pytest.raises(ValueError, match="cannot see the DM"):
        await fake.click(bob, hand, "probe:100:press")
    press = await fake.click(alice, hand, "probe:100:press")
    await press.wait_ack()
    assert hand.content == "pressed 100 by alice"
    assert "user" in press.payload and "member" not in press.payload  # a DM interaction

    closed = await fake.slash(bob, "e2e-probe dm", {"secret": "7s8s9s"})
    reply = await closed.wait_reply()
    assert reply.content == "DMs closed; your hand: 7s8s9s" and reply.visible_to is bob
    assert fake.dms(bob) == []
    assert any(c.status == 403 and c.response["code"] == 50007 for c in fake.calls)
    notice = await fake.wait_for_message(lambda m: "DMs closed" in m.content)
    assert bob.mention in notice.content
    assert (await fake.wait_for_message(dm_of=alice)).history[0]["content"] == "your hand: 1m2m3m"
    assert (await fake.wait_for_message(ephemeral_to=bob)).content.startswith("DMs closed")

    assert_no_concealed_leak(fake, ["1m2m3m", "7s8s9s"])
    assert_hands_private(fake, {alice: ["1m2m3m"], bob: ["7s8s9s"]})


async def test_typed_options_and_public_reply(fake: FakeDiscord, probe_bot) -> None:
    alice, dave = fake.user("alice"), fake.user("dave")
    ix = await fake.slash(
        alice, "e2e-probe echo", {"text": "hi", "count": 3, "who": dave, "loud": True}
    )
    reply = await ix.wait_reply()
    assert reply.content == "hi|3|dave|True"
    assert not reply.ephemeral and fake.channel_messages() == [reply]
    [option] = ix.payload["data"]["options"][0]["options"][2:3]
    assert option["type"] == 6  # from the synced definition


async def test_modal_round_trip(fake: FakeDiscord, probe_bot) -> None:
    carol = fake.user("carol")
    opened = await fake.slash(carol, "e2e-probe modal")
    await opened.wait_ack()
    assert opened.response_type == 9
    submitted = await fake.submit_modal(carol, opened, {"probe-answer": "42"})
    assert (await submitted.wait_reply()).content == "answered 42"


async def test_deferred_then_edit_original(fake: FakeDiscord, probe_bot) -> None:
    ix = await fake.slash(fake.user("dave"), "e2e-probe edit")
    await fake.wait_for(lambda: ix.original is not None and ix.original.content, what="the edit")
    assert ix.original is not None
    assert ix.original.content == "edited original" and not ix.original.ephemeral
    assert fake.calls_to("PATCH", r"^/webhooks/\d+/.+/messages/@original$")


async def test_double_acknowledge_is_rejected_like_discord(fake: FakeDiscord, probe_bot) -> None:
    """A second callback for one interaction gets 40060, as on Discord."""
    import aiohttp

    ix = await fake.slash(
        fake.user("alice"), "e2e-probe echo", {"text": "a", "count": 1, "who": fake.user("bob")}
    )
    await ix.wait_ack()
    async with aiohttp.ClientSession() as session:
        url = f"{fake.api_base}/interactions/{ix.id}/{ix.token}/callback"
        async with session.post(url, json={"type": 4, "data": {"content": "again"}}) as resp:
            assert resp.status == 400
            assert resp.headers["Content-Type"] == "application/json"
            assert (await resp.json())["code"] == 40060
