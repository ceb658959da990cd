"""End-to-end: start-up, /mahjong ping and about, the error handler, token hygiene, restart."""

from __future__ import annotations

import re

import pytest

from .fake_discord import FakeDiscord
from .harness import BotProcess
from .privacy import assert_no_concealed_leak, find_leaks

pytestmark = pytest.mark.e2e


async def test_ping_answers_pong_ephemerally(fake: FakeDiscord, bot: BotProcess) -> None:
    alice = fake.user("alice")
    ix = await fake.slash(alice, "mahjong ping")
    await ix.wait_ack()
    assert ix.response_type == 4
    reply = ix.original
    assert reply is not None
    assert reply.content == "pong"
    assert reply.ephemeral and reply.visible_to is alice
    assert fake.ephemerals(alice) == [reply]
    assert fake.channel_messages() == []  # nothing public
    assert fake.calls_to("POST", rf"^/interactions/{ix.id}/.+/callback$")


async def test_startup_syncs_group_without_privileged_intents(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    [group] = [c for c in fake.synced_commands() if c["name"] == "mahjong"]
    subcommands = {o["name"] for o in group["options"] if o["type"] == 1}
    assert {"ping", "about"} <= subcommands
    assert group["name_localizations"]["zh-CN"] == "麻将"
    session = fake.gateway.current
    assert session is not None
    privileged = (1 << 1) | (1 << 8) | (1 << 15)
    assert session.intents & privileged == 0
    assert session.intents & 1  # GUILDS


async def test_about_in_chinese_for_chinese_locale(fake: FakeDiscord, bot: BotProcess) -> None:
    bob = fake.user("bob")
    bob.locale = "zh-CN"
    ix = await fake.slash(bob, "mahjong about")
    reply = await ix.wait_reply()
    assert reply.ephemeral
    assert reply.embeds and "江西麻将" in reply.embeds[0]["title"]
    assert reply.embeds[0]["description"].startswith("在 Discord 上打江西麻将")


async def test_unknown_command_gets_ephemeral_explanation(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    carol = fake.user("carol")
    ix = await fake.slash(carol, "mahjong nosuchthing")
    reply = await ix.wait_reply()
    assert reply.ephemeral and reply.visible_to is carol
    assert "out of date or unknown" in reply.content


async def test_raising_command_is_logged_and_answered(fake: FakeDiscord, bot_factory) -> None:
    proc = bot_factory(env={"EXTRA_EXTENSIONS": "e2e_boom"})
    proc.allow_traceback(r"RuntimeError: deliberate e2e failure")
    await proc.start_ready()
    dave = fake.user("dave")

    ix = await fake.slash(dave, "e2e-boom")
    reply = await ix.wait_reply()
    assert reply.ephemeral and reply.visible_to is dave
    match = re.search(r"ref ([0-9a-f]{6})", reply.content)
    assert match, reply.content
    await fake.wait_for(lambda: "deliberate e2e failure" in proc.log, what="the error log line")
    assert f"(ref {match.group(1)})" in proc.log
    assert "RuntimeError: deliberate e2e failure" in proc.log

    ix2 = await fake.slash(dave, "e2e-refuse")
    refusal = await ix2.wait_reply()
    assert refusal.content == "Nope: deliberate refusal"
    assert refusal.ephemeral


async def test_dev_guild_sync(fake: FakeDiscord, bot_factory) -> None:
    proc = bot_factory(env={"DEV_GUILD_ID": str(fake.guild_id)})
    await proc.start_ready()
    assert [c["name"] for c in fake.synced_commands(guild=True)] == [
        "mahjong",
        "mahjong-admin",
        "mahjong-language",
        "mahjong-sessions",
    ]
    assert fake.synced_commands() == []
    ix = await fake.slash(fake.user("alice"), "mahjong ping")
    assert ix.payload["data"]["guild_id"] == str(fake.guild_id)
    assert (await ix.wait_reply()).content == "pong"


async def test_without_token_exits_2_with_help(fake: FakeDiscord, bot_factory) -> None:
    proc = bot_factory(env={"DISCORD_TOKEN": None})
    await proc.start()
    assert await proc.wait_exit() == 2
    assert "DISCORD_TOKEN" in proc.log
    assert "Developer Portal" in proc.log and "Reset Token" in proc.log
    assert ".env" in proc.log
    assert fake.calls == []  # never tried to reach Discord


async def test_blank_token_in_env_file_exits_2(fake: FakeDiscord, bot_factory, tmp_path) -> None:
    workdir = tmp_path / "with-env-file"
    workdir.mkdir()
    (workdir / ".env").write_text("DISCORD_TOKEN=\nLOG_LEVEL=DEBUG\n", encoding="utf-8")
    proc = bot_factory(env={"DISCORD_TOKEN": None}, workdir=workdir)
    await proc.start()
    assert await proc.wait_exit() == 2
    assert "No Discord bot token" in proc.log


async def test_rejected_token_exits_1_without_printing_it(fake: FakeDiscord, bot_factory) -> None:
    wrong = "MTE2WRONG.xyz.definitely-not-the-token-123456"
    proc = bot_factory(env={"DISCORD_TOKEN": wrong})
    await proc.start()
    assert await proc.wait_exit() == 1
    assert "rejected the token" in proc.log
    assert wrong not in proc.log
    assert fake.gateway.identify_count == 0


async def test_token_never_logged_even_at_debug(fake: FakeDiscord, bot_factory) -> None:
    proc = bot_factory(env={"LOG_LEVEL": "DEBUG"})
    await proc.start_ready()
    ix = await fake.slash(fake.user("bob"), "mahjong ping")
    await ix.wait_reply()
    assert await proc.stop() == 0  # SIGTERM is a clean stop
    log = proc.all_logs
    assert "Stop signal received" in log
    assert "DEBUG" in log  # the debug level really was on
    assert fake.token not in log
    # nor any long piece of it (e.g. a token printed truncated or split)
    pieces = [fake.token[i : i + 12] for i in range(0, len(fake.token) - 12, 4)]
    assert not [p for p in pieces if p in log]


async def test_sigkill_restart_reconnects_and_answers(fake: FakeDiscord, bot: BotProcess) -> None:
    alice = fake.user("alice")
    first = await fake.slash(alice, "mahjong ping")
    await first.wait_reply()
    first_session = fake.gateway.current

    await bot.kill()
    assert bot.process is not None and bot.process.returncode == -9
    await fake.wait_for(lambda: not fake.connected, what="the gateway to notice the kill")

    await bot.start_ready()
    assert fake.gateway.identify_count == 2
    assert fake.gateway.current is not first_session
    second = await fake.slash(alice, "mahjong ping")
    reply = await second.wait_reply()
    assert reply.content == "pong" and reply.ephemeral


async def test_privacy_checker_finds_public_and_foreign_leaks(fake: FakeDiscord, bot) -> None:
    """The checker itself, on messages the real bot sent (a pong is harmless here)."""
    alice, bob = fake.user("alice"), fake.user("bob")
    ix = await fake.slash(alice, "mahjong ping")
    await ix.wait_reply()
    # "pong" went to Alice only: allowed for owner=alice, a leak for owner=bob.
    assert_no_concealed_leak(fake, ["pong"])
    assert_no_concealed_leak(fake, ["pong"], owner=alice)
    leaks = find_leaks(fake, ["pong"], owner=bob)
    assert len(leaks) == 1 and leaks[0].audience == "alice"
    with pytest.raises(AssertionError, match="concealed information leaked"):
        assert_no_concealed_leak(fake, ["pong"], owner=bob)


async def test_gateway_reconnect_resumes_session(fake: FakeDiscord, bot: BotProcess) -> None:
    session = fake.gateway.current
    await fake.gateway.request_reconnect()
    await fake.wait_for(lambda: fake.gateway.resume_count == 1, what="a RESUME")
    assert fake.gateway.current is session and fake.gateway.identify_count == 1
    ix = await fake.slash(fake.user("bob"), "mahjong ping")
    assert (await ix.wait_reply()).content == "pong"
