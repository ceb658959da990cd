"""End-to-end: /mahjong rules, /mahjong-admin config (Manage Server only), status, autoplay,
abandon."""

from __future__ import annotations

import pytest

from .fake_discord import FakeDiscord
from .game_driver import (
    check_privacy,
    ephemeral_texts,
    hand_message,
    open_game,
    start_bot,
    table_message,
)

pytestmark = pytest.mark.e2e


async def test_commands_are_synced_with_chinese_names(fake: FakeDiscord, bot_factory) -> None:
    await start_bot(bot_factory)
    [group] = [c for c in fake.synced_commands() if c["name"] == "mahjong"]
    subs = {o["name"]: o for o in group["options"] if o["type"] == 1}
    wanted = {
        "new": "新局",
        "join": "加入",
        "leave": "离开",
        "addbot": "加电脑",
        "start": "开始",
        "hand": "手牌",
        "status": "状态",
        "autoplay": "托管",
        "abandon": "放弃",
        "rules": "规则",
    }
    for name, zh in wanted.items():
        assert subs[name]["name_localizations"]["zh-CN"] == zh
        assert subs[name]["description_localizations"]["zh-CN"]
    assert group["default_member_permissions"] is None  # everyone may play
    # server admin commands: a top-level group declared for Manage Server (bit 5) only
    [admin] = [c for c in fake.synced_commands() if c["name"] == "mahjong-admin"]
    assert admin["default_member_permissions"] == str(1 << 5)
    assert admin["name_localizations"]["zh-CN"] == "麻将管理"
    assert admin["dm_permission"] is False  # servers only
    subs = {o["name"]: o for o in admin["options"] if o["type"] == 1}
    assert {"config", "season", "void", "end"} <= set(subs)
    assert subs["config"]["name_localizations"]["zh-CN"] == "设置"


async def test_config_needs_manage_server_and_changes_new_games(
    fake: FakeDiscord, bot_factory
) -> None:
    await start_bot(bot_factory)
    alice, bob = fake.user("alice"), fake.user("bob")  # alice owns the server
    with pytest.raises(PermissionError):  # the client hides the command from bob
        await fake.slash(bob, "mahjong-admin config", {"variant": "jiujiang"})
    ix = await fake.slash(bob, "mahjong-admin config", {"variant": "jiujiang"}, force=True)
    refused = await ix.wait_reply()
    assert refused.ephemeral and (
        "管理服务器" in refused.text() or "Manage Server" in refused.text()
    )
    ix = await fake.slash(
        alice,
        "mahjong-admin config",
        {"variant": "jiujiang", "options": "chi=true", "hints": False},
    )
    saved = await ix.wait_reply()
    assert saved.ephemeral and "variant: Jiujiang" in saved.text()
    assert "chi=True" in saved.text()
    ix = await fake.slash(alice, "mahjong-admin config", {"options": "chi=perhaps"})
    bad = await ix.wait_reply()
    assert "chi" in bad.text() and bad.ephemeral
    # rules shows the server's values
    ix = await fake.slash(bob, "mahjong rules")
    rules = await ix.wait_reply()
    assert "`chi=true`" in rules.text()
    ix = await fake.slash(bob, "mahjong rules", {"variant": "shangrao"})
    assert "scoring" in (await ix.wait_reply()).text()
    # a new game without a variant takes the server's default and options
    ix = await fake.slash(bob, "mahjong new")
    await ix.wait_reply()
    lobby = await fake.wait_for_message(lambda m: any(c.endswith(":join") for c in m.custom_ids()))
    assert "九江" in lobby.text() or "Jiujiang" in lobby.text()
    assert "`chi=true`" in lobby.text()


async def test_status_autoplay_and_abandon(fake: FakeDiscord, bot_factory) -> None:
    await start_bot(bot_factory)
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    ix = await fake.slash(carol, "mahjong status")
    assert (await ix.wait_reply()).ephemeral
    gid, _lobby = await open_game(fake, alice, [bob])
    await fake.wait_for(lambda: hand_message(fake, alice, gid), 10, what="alice's hand")
    table = await fake.wait_for(lambda: table_message(fake, gid), 10, what="the table")
    ix = await fake.slash(carol, "mahjong status")
    status = await ix.wait_reply()
    assert status.ephemeral and ("余牌" in status.text() or "tiles left" in status.text())
    # bob hands over to the AI and comes back
    ix = await fake.slash(bob, "mahjong autoplay", {"on": True})
    assert (await ix.wait_reply()).ephemeral
    await fake.wait_for_message(lambda m: "托管" in m.content or "auto-play" in m.content)
    ix = await fake.slash(bob, "mahjong autoplay", {"on": False})
    assert (await ix.wait_reply()).ephemeral
    # only the host (or a server manager) may abandon
    ix = await fake.slash(bob, "mahjong abandon")
    no = await ix.wait_reply()
    assert "房主" in no.text() or "host" in no.text()
    ix = await fake.slash(alice, "mahjong abandon")
    assert (await ix.wait_reply()).ephemeral
    await fake.wait_for_message(lambda m: "放弃" in m.text() or "abandoned" in m.text())
    await fake.wait_for(
        lambda: not fake.messages[table.id].custom_ids(), 10, what="table buttons gone"
    )
    # the channel is free again
    ix = await fake.slash(carol, "mahjong new", {"variant": "xinyu"})
    assert (await ix.wait_reply()).ephemeral
    check_privacy(fake)


async def test_pictures_off_gives_text_only_hand_messages(fake: FakeDiscord, bot_factory) -> None:
    """/mahjong pictures off: that player's hand DM has no picture but the same text; others
    keep theirs, and the choice is saved (it survives a restart)."""
    proc = await start_bot(bot_factory)
    alice, bob = fake.user("alice"), fake.user("bob")
    ix = await fake.slash(bob, "mahjong pictures", {"on": False})
    await ix.wait_reply(5)
    assert any("text only" in t or "只显示文字" in t for t in ephemeral_texts(fake, bob))
    await proc.restart()
    gid, _table = await open_game(fake, alice, [bob], variant="xinyu")
    a = await fake.wait_for(lambda: hand_message(fake, alice, gid), 10, what="alice's hand")
    b = await fake.wait_for(lambda: hand_message(fake, bob, gid), 10, what="bob's hand")
    assert a.attachments and a.attachments[0].filename.endswith(".png")
    assert not b.attachments
    assert b.embeds and b.text().strip()  # the text hand is all there
