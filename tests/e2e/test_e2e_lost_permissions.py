"""End-to-end: the bot loses its permissions in the game's channel mid-game, and gets them back.

A server admin takes Send Messages (and with it, as Discord does, Embed Links and Attach
Files) from the bot in the channel a game plays in, by a channel overwrite, in the middle of a
hand. The players go on playing by DM; the host is told once, by DM and in the server's
language, which permissions are missing where and that the table will catch up; the bot stops
asking Discord for what it will refuse — no traceback, a warning line or so, not one per
request. When the overwrite is lifted (Discord sends CHANNEL_UPDATE) the public table catches
up: it shows the game as it stands.
"""

from __future__ import annotations

import asyncio
import re

import pytest

from i18n import t

from .fake_discord import (
    ATTACH_FILES,
    CREATE_PUBLIC_THREADS,
    SEND_MESSAGES,
    FakeDiscord,
    FakeMessage,
    FakeUser,
)
from .game_driver import (
    choose,
    click_ok,
    game_env,
    game_thread,
    hand_message,
    open_game,
    play_hand,
    result_message,
    stored_version,
    table_message,
    table_messages,
    wait_still,
)
from .harness import BotProcess

pytestmark = pytest.mark.e2e

#: presses alice makes by DM while the bot may not post in the channel
PRESSES_BLIND = 4
#: the most warning lines one lost-permission episode may leave in the log
MAX_WARNINGS = 2
#: the most requests Discord refuses in the channel meanwhile (the first starts the episode)
MAX_REFUSALS = 2

SEED = "e2e-lost-permissions"


@pytest.fixture
async def channel_bot(fake: FakeDiscord, bot_factory) -> BotProcess:
    # the game plays in the channel (no thread permission): the channel is what is taken away
    fake.set_role_permissions(fake.bot_role, fake.bot_role.permissions & ~CREATE_PUBLIC_THREADS)
    # a wall chosen (not a random one): the test plays on through several presses of one
    # hand and needs that hand to last (an AI win a few moves in ends it, and nobody is asked)
    proc = bot_factory(env=game_env(EXTRA_EXTENSIONS="e2e_seed", E2E_SEEDS=SEED))
    await proc.start_ready()
    return proc


def notices(fake: FakeDiscord, user: FakeUser, gid: int) -> list[str]:
    """The DMs telling ``user`` the bot lost its permissions in game ``gid``'s channel."""
    name = t("common.permission.send_messages", "zh")
    return [
        m.text()
        for m in fake.dms(user, include_deleted=True)
        if name in m.text() and hand_message(fake, user, gid) is not m
    ]


async def status_text(fake: FakeDiscord, user: FakeUser) -> str:
    """The table as ``/mahjong status`` tells it now (an interaction answer: never refused)."""
    return (await (await fake.slash(user, "mahjong status")).wait_reply()).text()


def table_text(fake: FakeDiscord, gid: int) -> str:
    msg = table_message(fake, gid)
    assert msg is not None
    return str((fake.messages[msg.id].embeds or [{}])[0].get("description", ""))


async def table_catches_up(fake: FakeDiscord, user: FakeUser, gid: int) -> None:
    """Wait until the public table shows the game as ``/mahjong status`` tells it now."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + fake.scaled(20)
    while True:
        current = await status_text(fake, user)
        if table_text(fake, gid) == current:
            return
        if loop.time() > deadline:
            raise AssertionError(
                f"the table did not catch up:\n{table_text(fake, gid)}\n---\n{current}"
            )
        await fake.wait_change(fake.changes, 0.5)


def lost_warnings(proc: BotProcess, channel_id: int, gid: int) -> list[str]:
    """The warning lines of the bot's log about the channel or the game."""
    return [
        line
        for line in proc.log.splitlines()
        if re.search(r"\bWARNING\b", line) and (str(channel_id) in line or f"game {gid}" in line)
    ]


async def press_once(fake: FakeDiscord, proc: BotProcess, user: FakeUser, gid: int) -> int:
    """``user`` makes one press by DM once the game waits for them; the version before."""
    version = await wait_still(fake, proc, [user], gid)
    msg = hand_message(fake, user, gid)
    assert msg is not None
    cid = choose(fake.messages[msg.id])
    assert cid is not None
    await click_ok(fake, user, fake.messages[msg.id], cid)
    return version


async def test_lost_channel_permissions_tell_the_host_once_and_the_table_catches_up(
    fake: FakeDiscord, channel_bot: BotProcess
) -> None:
    alice = fake.user("alice")
    alice.locale = "zh-CN"
    gid, _lobby = await open_game(fake, alice, [], variant="xinyu")
    await fake.wait_for(lambda: table_message(fake, gid), what="the table")
    await wait_still(fake, channel_bot, [alice], gid)
    before = table_text(fake, gid)
    assert before

    # mid-hand, the channel takes Send Messages from the bot (Embed Links and Attach Files go
    # with it); alice plays on by DM
    fake.overwrite(fake.channel, fake.bot_user, deny=SEND_MESSAGES)
    first = await press_once(fake, channel_bot, alice, gid)

    # alice, the host, is told, in the server's language (中文), what is missing where
    await fake.wait_for(lambda: notices(fake, alice, gid), what="the host told")
    for _ in range(PRESSES_BLIND):
        await press_once(fake, channel_bot, alice, gid)
    now = await wait_still(fake, channel_bot, [alice], gid)
    assert now > first, "play did not go on by DM"
    assert table_text(fake, gid) == before  # (nothing public could change meanwhile)
    told = notices(fake, alice, gid)
    assert len(told) == 1, told
    for perm in ("send_messages", "embed_links", "attach_files"):
        assert t(f"common.permission.{perm}", "zh") in told[0], told[0]
    assert f"<#{fake.channel.id}>" in told[0], told[0]

    # the bot stopped asking for what Discord refuses: a refusal or two, not one per change;
    # a warning line or so, no traceback
    refused = [c for c, _bits in fake.permission_refusals if c == fake.channel.id]
    assert len(refused) <= MAX_REFUSALS, refused
    lost = lost_warnings(channel_bot, fake.channel.id, gid)
    assert len(lost) <= MAX_WARNINGS, lost
    assert "Traceback" not in channel_bot.log

    # the permission is back (CHANNEL_UPDATE): the public table catches up with the game
    fake.overwrite(fake.channel, fake.bot_user)
    await table_catches_up(fake, alice, gid)
    # and it keeps following the game
    await press_once(fake, channel_bot, alice, gid)
    await wait_still(fake, channel_bot, [alice], gid)
    await table_catches_up(fake, alice, gid)
    assert len(notices(fake, alice, gid)) == 1


async def test_a_host_with_closed_dms_is_told_in_the_lobby_channel(
    fake: FakeDiscord, bot_factory
) -> None:
    """The game plays in its thread; the server takes Attach Files from everyone and from the
    bot's role (two GUILD_ROLE_UPDATEs), so the table's pictures are refused. Alice, the host,
    has closed DMs and plays from ``/mahjong hand``: she is told once in the lobby's channel,
    which the bot may still write in. Giving the roles their bits back (GUILD_ROLE_UPDATE)
    brings the thread's table up to date."""
    proc = bot_factory(env=game_env())
    await proc.start_ready()
    alice, bob = fake.user("alice"), fake.user("bob")
    alice.locale = bob.locale = "zh-CN"
    fake.close_dms(alice)
    gid, lobby = await open_game(fake, alice, [bob], variant="xinyu")
    thread = await fake.wait_for(lambda: game_thread(fake, lobby), what="the game's thread")
    await fake.wait_for(lambda: table_message(fake, gid), what="the table")
    assert (await (await fake.slash(alice, "mahjong hand")).wait_reply()).ephemeral
    start = stored_version(proc, gid)

    everyone, bots = fake.everyone_role.permissions, fake.bot_role.permissions
    fake.set_role_permissions(fake.everyone_role, everyone & ~ATTACH_FILES)
    fake.set_role_permissions(fake.bot_role, bots & ~ATTACH_FILES)
    assert not fake.bot_permissions_in(thread) & ATTACH_FILES

    def told() -> list[FakeMessage]:
        name = t("common.permission.attach_files", "zh")
        return [
            m
            for m in fake.channel_messages(fake.channel)
            if alice.mention in m.content and name in m.content
        ]

    target = start + PRESSES_BLIND * 2
    await play_hand(
        fake,
        [alice, bob],
        gid,
        ephemeral=frozenset({alice.id}),
        until=lambda: (stored_version(proc, gid) >= target and bool(told())) or None,
    )
    [notice] = told()
    assert f"<#{thread.id}>" in notice.content, notice.content
    assert t("common.permission.send_messages", "zh") not in notice.content
    assert fake.dms(alice) == []
    assert len(lost_warnings(proc, thread.id, gid)) <= MAX_WARNINGS
    assert "Traceback" not in proc.log

    fake.set_role_permissions(fake.everyone_role, everyone)
    fake.set_role_permissions(fake.bot_role, bots)
    await table_catches_up(fake, bob, gid)
    assert len(told()) == 1


async def test_a_hand_that_ends_meanwhile_has_its_result_posted_when_the_channel_opens(
    fake: FakeDiscord, channel_bot: BotProcess
) -> None:
    """Nothing acknowledged is lost: the hand ends while the channel refuses the bot; its
    result (摊牌 with 准备) waits, and is posted once the permission is back; 准备 there
    deals the next hand."""
    alice = fake.user("alice")
    alice.locale = "zh-CN"
    gid, _lobby = await open_game(fake, alice, [], variant="xinyu")
    await fake.wait_for(lambda: table_message(fake, gid), what="the table")
    fake.overwrite(fake.channel, fake.bot_user, deny=SEND_MESSAGES)

    def hands_ended() -> int:
        return len(channel_bot.rows("SELECT hand_no FROM hands WHERE game_id = ?", gid))

    await play_hand(fake, [alice], gid, until=lambda: hands_ended() >= 1 or None)
    await fake.wait_for(lambda: notices(fake, alice, gid), what="the host told")
    # (the game's deliveries trail its moves by the AI's pace: wait for the result's turn)
    await fake.wait_for(lambda: "delivery held" in channel_bot.log, 30, what="the result held")
    assert result_message(fake, gid, 1) is None  # (the channel refuses the bot)
    assert "Traceback" not in channel_bot.log

    fake.overwrite(fake.channel, fake.bot_user)
    result = await fake.wait_for(lambda: result_message(fake, gid, 1), what="the result posted")
    await table_catches_up(fake, alice, gid)
    await click_ok(fake, alice, fake.messages[result.id], f"mj:{gid}:next:1")
    await fake.wait_for(lambda: len(table_messages(fake, gid)) >= 2, what="the second hand's table")
    assert len(notices(fake, alice, gid)) == 1
    assert len(lost_warnings(channel_bot, fake.channel.id, gid)) <= MAX_WARNINGS


async def test_a_role_given_back_to_the_bot_is_found_by_the_probe(
    fake: FakeDiscord, bot_factory
) -> None:
    """The bot member itself is given a role the channel denies Send Messages to, and later
    loses it again: Discord announces a member's roles only with the privileged members intent
    (GUILD_MEMBER_UPDATE), which the bot does not ask for, so no event says the permission is
    back. The bounded probe (``CHANNEL_PROBE_SECONDS``) finds it: the table catches up."""
    fake.set_role_permissions(fake.bot_role, fake.bot_role.permissions & ~CREATE_PUBLIC_THREADS)
    proc = bot_factory(env=game_env(CHANNEL_PROBE_SECONDS="1"))
    await proc.start_ready()
    alice = fake.user("alice")
    alice.locale = "zh-CN"
    gid, _lobby = await open_game(fake, alice, [], variant="xinyu")
    await fake.wait_for(lambda: table_message(fake, gid), what="the table")
    await wait_still(fake, proc, [alice], gid)
    muted = fake.add_role("muted", 0)
    fake.overwrite(fake.channel, muted, deny=SEND_MESSAGES)
    fake.give_role(fake.bot_user, muted)
    assert not fake.bot_permissions_in(fake.channel) & SEND_MESSAGES

    await press_once(fake, proc, alice, gid)
    await fake.wait_for(lambda: notices(fake, alice, gid), what="the host told")
    await press_once(fake, proc, alice, gid)
    await wait_still(fake, proc, [alice], gid)
    fake.take_role(fake.bot_user, muted)  # (no event reaches the bot)
    # (nothing in the channel meanwhile: an interaction there would carry the permissions)
    await fake.wait_for(lambda: "back (a probe)" in proc.log, what="the probe")
    await table_catches_up(fake, alice, gid)
    assert len(notices(fake, alice, gid)) == 1
    assert len(lost_warnings(proc, fake.channel.id, gid)) <= MAX_WARNINGS
