"""End-to-end: presses the bot must refuse although they look plausible — a moderator who is
not a server manager using ``/mahjong-admin``, and the 准备 (ready) button of an earlier hand."""

from __future__ import annotations

import pytest

from .fake_discord import FakeDiscord
from .fake_discord.permissions import (
    BAN_MEMBERS,
    KICK_MEMBERS,
    MANAGE_CHANNELS,
    MANAGE_MESSAGES,
)
from .game_driver import click_ok, log_of, open_game, play_hand, start_bot, table_message
from .harness import BotProcess

pytestmark = pytest.mark.e2e

MODERATOR = MANAGE_MESSAGES | KICK_MEMBERS | BAN_MEMBERS | MANAGE_CHANNELS
STALE = ("earlier turn or hand", "已过期")


def _settings(proc: BotProcess, guild_id: int) -> list[tuple[object, ...]]:
    return proc.rows("SELECT turn_timeout, hints FROM guilds WHERE id = ?", guild_id)


async def test_a_moderator_without_manage_server_is_no_manager(
    fake: FakeDiscord, bot_factory
) -> None:
    proc = await start_bot(bot_factory)
    alice, mod = fake.user("alice"), fake.user("bob")
    gid, _lobby = await open_game(fake, alice, [])
    # every moderation permission a server gives its moderators, but not Manage Server
    fake.grant(mod, MODERATOR)
    before = _settings(proc, fake.guild_id)
    for command, options in (
        ("mahjong-admin config", {"turn_timeout": 30, "hints": False}),
        ("mahjong-admin end", {}),
    ):
        reply = await (await fake.slash(mod, command, options, force=True)).wait_reply()
        assert reply.ephemeral and reply.visible_to is mod, command
        assert "Manage Server" in reply.text(), (command, reply.text())
    assert _settings(proc, fake.guild_id) == before
    assert proc.rows("SELECT status FROM games WHERE id = ?", gid) == [("active",)]


async def test_the_ready_button_of_an_earlier_hand_is_refused(
    fake: FakeDiscord, bot_factory
) -> None:
    proc = await start_bot(bot_factory)
    alice = fake.user("alice")
    gid, _lobby = await open_game(fake, alice, [], variant="xinyu", length="4")
    first = await play_hand(fake, [alice], gid, hand_no=1)
    # every edit of hand 1's result fails from now on: its 准备 button stays live
    for method in ("PATCH", "DELETE"):
        fake.break_next(method, rf"/messages/{first.id}$", None, status=503)
    await click_ok(fake, alice, first, f"mj:{gid}:next:1")
    await fake.wait_for(
        lambda: "第2/4局" in (table_message(fake, gid) or first).text(), 15, what="hand 2"
    )
    second = await play_hand(fake, [alice], gid, hand_no=2)
    log_before = log_of(proc, gid)
    # hand 2's ready check is open; hand 1's 准备, left live by the failed edits, is pressed
    assert f"mj:{gid}:next:1" in fake.messages[first.id].custom_ids()
    press = await click_ok(fake, alice, fake.messages[first.id], f"mj:{gid}:next:1")
    said = (await press.wait_reply()).text()
    assert any(word in said for word in STALE), said
    # nothing counted: no ready for hand 2, hand 3 not dealt
    assert log_of(proc, gid) == log_before
    assert not any(e.get("k") == "rdy" and e.get("hand") == 2 for _q, _s, e in log_of(proc, gid))
    # hand 2's own 准备 still works: hand 3 is dealt
    await click_ok(fake, alice, fake.messages[second.id], f"mj:{gid}:next:2")
    await fake.wait_for(
        lambda: "第3/4局" in (table_message(fake, gid) or second).text(), 15, what="hand 3"
    )
