"""End-to-end: permissions, checked as Discord computes them (issue 12, item 7).

The fake Discord gives members roles carrying permission bits (the owner and administrators
have all), applies channel overwrites, and sends each interaction with ``member.permissions``
and ``app_permissions`` computed from them; it refuses the bot's own REST calls the bot has no
permission for (403 50013). A member without Manage Server who forces a ``/mahjong-admin``
command (``force=True``: a server that re-granted it, or a forged request) gets a clear
refusal and nothing changes in the store. The bot checks its own channel permissions before
a game starts and says which are missing.
"""

from __future__ import annotations

from typing import Any

import pytest

from botcore.client import DEFAULT_EXTENSIONS
from botcore.invite import invite_permissions

from .fake_discord import (
    ADMINISTRATOR,
    ATTACH_FILES,
    CREATE_PUBLIC_THREADS,
    EMBED_LINKS,
    MANAGE_GUILD,
    SEND_MESSAGES,
    FakeDiscord,
)
from .game_driver import game_env, lobby_message, open_game
from .harness import BotProcess

pytestmark = pytest.mark.e2e

EXTENSIONS = ",".join(
    ext
    for ext in ("cogs.game.commands", "cogs.stats.commands", "cogs.desk.commands")
    if ext not in DEFAULT_EXTENSIONS
)


@pytest.fixture
async def admin_bot(fake: FakeDiscord, bot_factory: Any) -> BotProcess:
    # games here play in the channel (what these tests look at): no thread permission
    fake.set_role_permissions(fake.bot_role, fake.bot_role.permissions & ~CREATE_PUBLIC_THREADS)
    env = game_env()
    if EXTENSIONS:
        env["EXTRA_EXTENSIONS"] = EXTENSIONS
    proc = bot_factory(env=env)
    await proc.start_ready()
    return proc


def _rows(proc: BotProcess, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    return proc.rows(sql, *args)


def _settings(proc: BotProcess, guild_id: int) -> list[tuple[Any, ...]]:
    return _rows(
        proc,
        "SELECT default_variant, rule_options, turn_timeout, claim_timeout, language, hints,"
        " current_season FROM guilds WHERE id = ?",
        guild_id,
    )


def _refusal(text: str) -> bool:
    return "Manage Server" in text and "nothing changed" in text


async def test_admin_commands_refuse_a_member_without_manage_server(
    fake: FakeDiscord, admin_bot: BotProcess
) -> None:
    alice, bob, carol, dave = (fake.user(n) for n in ("alice", "bob", "carol", "dave"))
    assert fake.owner is alice
    # alice hosts a game; a table record waits for confirmations
    gid, _table = await open_game(fake, alice, [carol])
    ix = await fake.slash(
        alice,
        "mahjong record",
        {
            "player1": alice, "player2": bob, "player3": carol, "player4": dave,
            "winner": carol, "how": "discard", "discarder": dave, "points": 5,
            "variant": "xinyu",
        },
    )  # fmt: skip
    record_msg = await ix.wait_reply()
    rid = int(record_msg.custom_ids()[0].split(":")[2])
    settings_before = _settings(admin_bot, fake.guild_id)
    seasons_before = _rows(
        admin_bot, "SELECT number FROM seasons WHERE guild_id = ?", fake.guild_id
    )

    # the client does not even offer the commands to bob …
    for command in ("mahjong-admin config", "mahjong-admin season", "mahjong-admin end"):
        with pytest.raises(PermissionError):
            await fake.slash(bob, command)
    # … and when they reach the bot anyway, it refuses every one, clearly and privately
    forced = [
        ("mahjong-admin config", {"variant": "jiujiang", "turn_timeout": 30, "hints": False}),
        ("mahjong-admin season", {}),
        ("mahjong-admin end", {}),
        ("mahjong-admin void", {"record": rid}),
    ]
    for command, options in forced:
        ix = await fake.slash(bob, command, options, force=True)
        reply = await ix.wait_reply()
        assert reply.ephemeral and reply.visible_to is bob, command
        assert _refusal(reply.text()), (command, reply.text())
    # the button route of a void, too (a button cannot be declared: checked at run time)
    press = await fake.click(bob, fake.messages[record_msg.id], f"mj:rec:{rid}:void")
    await fake.wait_for(lambda: any("Manage Server" in m.content for m in press.followups))

    # nothing changed: settings, seasons, the game, the record
    assert _settings(admin_bot, fake.guild_id) == settings_before
    assert (
        _rows(admin_bot, "SELECT number FROM seasons WHERE guild_id = ?", fake.guild_id)
        == seasons_before
    )
    assert _rows(admin_bot, "SELECT status FROM games WHERE id = ?", gid) == [("active",)]
    assert _rows(admin_bot, "SELECT status FROM physical_records WHERE id = ?", rid) == [
        ("pending",)
    ]
    assert f"mj:rec:{rid}:void" in fake.messages[record_msg.id].custom_ids()

    # a role with Manage Server makes carol a manager: the client offers the command and the
    # bot accepts it — she ends alice's game (alice is the host, carol only played)
    fake.grant(carol, MANAGE_GUILD)
    ended = await (await fake.slash(carol, "mahjong-admin end")).wait_reply()
    assert ended.ephemeral and "abandon" in ended.text().lower()
    await fake.wait_for(
        lambda: _rows(admin_bot, "SELECT status FROM games WHERE id = ?", gid) == [("abandoned",)],
        what="the game abandoned",
    )
    # an Administrator role is enough too (administrators have every permission)
    fake.grant(dave, ADMINISTRATOR)
    voided = await (await fake.slash(dave, "mahjong-admin void", {"record": rid})).wait_reply()
    assert voided.ephemeral and f"#{rid}" in voided.text()
    assert _rows(admin_bot, "SELECT status FROM physical_records WHERE id = ?", rid) == [("void",)]
    await fake.wait_for(
        lambda: fake.messages[record_msg.id].custom_ids() == [], what="the record redrawn"
    )
    # the owner may change the settings; bob's forced attempt above left them as they were
    saved = await (
        await fake.slash(alice, "mahjong-admin config", {"turn_timeout": 30})
    ).wait_reply()
    assert "turn_timeout: 30 seconds" in saved.text()


async def test_abandon_is_for_the_host_or_a_manager(
    fake: FakeDiscord, admin_bot: BotProcess
) -> None:
    """``/mahjong abandon`` stays open to all (a host ends their own game); only a member with
    Manage Server in the channel — a role, as Discord computed it — may end someone else's."""
    bob, carol = fake.user("bob"), fake.user("carol")
    gid, _table = await open_game(fake, bob, [carol])
    no = await (await fake.slash(carol, "mahjong abandon")).wait_reply()
    assert "host" in no.text()
    assert _rows(admin_bot, "SELECT status FROM games WHERE id = ?", gid) == [("active",)]
    managers = fake.add_role("mahjong managers", MANAGE_GUILD)
    fake.give_role(carol, managers)
    ok = await (await fake.slash(carol, "mahjong abandon")).wait_reply()
    assert ok.ephemeral and "abandon" in ok.text().lower()
    await fake.wait_for(
        lambda: _rows(admin_bot, "SELECT status FROM games WHERE id = ?", gid) == [("abandoned",)],
        what="the game abandoned",
    )


async def test_new_game_says_which_channel_permissions_the_bot_lacks(
    fake: FakeDiscord, admin_bot: BotProcess
) -> None:
    alice, bob = fake.user("alice"), fake.user("bob")
    # a channel overwrite takes Attach Files from the bot (its role still has it)
    fake.overwrite(fake.channel, fake.bot_user, deny=ATTACH_FILES)
    ix = await fake.slash(alice, "mahjong new", {"variant": "xinyu"})
    reply = await ix.wait_reply()
    assert reply.ephemeral and "Attach Files" in reply.text(), reply.text()
    assert "Embed Links" not in reply.text()
    assert lobby_message(fake) is None and fake.channel_messages() == []
    assert _rows(admin_bot, "SELECT id FROM games") == []  # nothing was created
    assert ix.payload["app_permissions"] == str(fake.bot_permissions_in(fake.channel))

    # an overwrite for the bot's role takes Embed Links too (@everyone has it, so taking it
    # from the role's own bits would not do): both are named, in Chinese for a Chinese client
    fake.overwrite(fake.channel, fake.bot_role, deny=EMBED_LINKS)
    bob.locale = "zh-CN"
    reply = await (await fake.slash(bob, "mahjong new")).wait_reply()
    assert "附加文件" in reply.text() and "嵌入链接" in reply.text()
    assert fake.channel_messages() == []

    # permissions back, but no thread permissions: that is no error (games stay in the channel)
    fake.overwrite(fake.channel, fake.bot_role)
    fake.overwrite(fake.channel, fake.bot_user, deny=CREATE_PUBLIC_THREADS)
    assert not fake.bot_permissions_in(fake.channel) & CREATE_PUBLIC_THREADS
    reply = await (await fake.slash(alice, "mahjong new", {"variant": "xinyu"})).wait_reply()
    assert "Attach Files" not in reply.text() and "Create Public Threads" not in reply.text()
    lobby = await fake.wait_for(lambda: lobby_message(fake), what="the lobby")

    # the channel stops the bot from posting before Start: Start says so, the game waits
    fake.overwrite(fake.channel, fake.bot_user, deny=SEND_MESSAGES | CREATE_PUBLIC_THREADS)
    gid = int(lobby.custom_ids()[0].split(":")[1])
    press = await fake.click(alice, lobby, f"mj:{gid}:start")
    told = await press.wait_reply()
    assert told.ephemeral and "Send Messages" in told.text()
    assert _rows(admin_bot, "SELECT status FROM games WHERE id = ?", gid) == [("lobby",)]


async def test_the_fake_refuses_what_the_bot_may_not_do(fake: FakeDiscord) -> None:
    """The fake's own rules: Discord's permission hierarchy and its REST refusals."""
    alice, bob = fake.user("alice"), fake.user("bob")
    channel = fake.channel
    # the owner and administrators have everything; others what their roles give
    assert fake.permissions_of(alice, channel) == fake.permissions_of(alice) != 0
    assert not fake.permissions_of(bob) & MANAGE_GUILD
    role = fake.grant(bob, MANAGE_GUILD)
    assert fake.permissions_of(bob) & MANAGE_GUILD
    fake.take_role(bob, role)
    # overwrites: @everyone, then roles together, then the member
    fake.overwrite(channel, fake.everyone_role, deny=SEND_MESSAGES)
    assert not fake.permissions_of(bob, channel) & (SEND_MESSAGES | ATTACH_FILES | EMBED_LINKS)
    talkers = fake.add_role("talkers", 0)
    fake.give_role(bob, talkers)
    fake.overwrite(channel, talkers, allow=SEND_MESSAGES)
    assert fake.permissions_of(bob, channel) & SEND_MESSAGES
    fake.overwrite(channel, bob, deny=SEND_MESSAGES)
    assert not fake.permissions_of(bob, channel) & SEND_MESSAGES
    assert fake.permissions_of(alice, channel) & SEND_MESSAGES  # the owner is above overwrites
    # interactions carry what Discord computed
    payload = fake.member_payload(bob, channel)
    assert payload["roles"] == [str(talkers.id)]
    assert int(payload["permissions"]) == fake.permissions_of(bob, channel)
    # the bot's own REST calls are refused the same way (403 50013)
    from .fake_discord.server import HTTPError

    assert not fake.bot_permissions_in(channel) & SEND_MESSAGES  # @everyone's deny
    fake.overwrite(channel, fake.everyone_role)
    fake.overwrite(channel, fake.bot_user, deny=ATTACH_FILES)
    with pytest.raises(HTTPError) as refused:
        fake._permitted(channel, {"content": "x"}, {"files[0]": b"png"}, creating=True)
    assert (refused.value.status, refused.value.code) == (403, 50013)
    assert fake._permitted(channel, {"content": "x"}, {}, creating=True) == {"content": "x"}
    fake.overwrite(channel, fake.bot_user, deny=EMBED_LINKS)
    # an embed without Embed Links: dropped beside text, refused on its own
    assert (
        fake._permitted(channel, {"content": "x", "embeds": [{}]}, {}, creating=True)["embeds"]
        == []
    )
    with pytest.raises(HTTPError):
        fake._permitted(channel, {"embeds": [{"title": "t"}]}, {}, creating=True)


async def test_the_bot_prints_its_invite_url(fake: FakeDiscord, admin_bot: BotProcess) -> None:
    """The start-up log has the URL that adds the bot with its scopes and permissions."""
    log = admin_bot.log
    wanted = invite_permissions()
    assert f"client_id={fake.application_id}" in log
    assert "scope=bot+applications.commands" in log
    assert f"permissions={wanted.value}" in log
    for name in ("send_messages", "embed_links", "attach_files", "create_public_threads"):
        assert getattr(wanted, name)
    assert not wanted.administrator and not wanted.manage_guild
