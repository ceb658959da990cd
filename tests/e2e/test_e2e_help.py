"""End-to-end: /mahjong help — open it, turn pages, jump to a variant, Chinese and English,
the commands page, a public help message, and old help buttons after a restart."""

from __future__ import annotations

import pytest

from .fake_discord import FakeDiscord
from .game_driver import start_bot

pytestmark = pytest.mark.e2e


def current(fake: FakeDiscord, message):
    return fake.messages[message.id]


async def test_help_pages_and_topic_menu(fake: FakeDiscord, bot_factory) -> None:
    proc = await start_bot(bot_factory)
    [group] = [c for c in fake.synced_commands() if c["name"] == "mahjong"]
    [sub] = [o for o in group["options"] if o["name"] == "help"]
    assert sub["name_localizations"]["zh-CN"] == "帮助"
    [topic] = [o for o in sub["options"] if o["name"] == "topic"]
    assert {c["value"] for c in topic["choices"]} >= {"overview", "shangrao", "commands"}
    assert all(c["name_localizations"]["zh-CN"] for c in topic["choices"])

    alice = fake.user("alice")  # en-US
    ix = await fake.slash(alice, "mahjong help")
    msg = await ix.wait_reply()
    assert msg.ephemeral and msg.visible_to is not None and msg.visible_to.id == alice.id
    assert "Getting started" in msg.text() and "/mahjong new" in msg.text()
    assert "page 1/4" in msg.text()  # overview: start, playing, session, results
    assert msg.find_component(label="◀").get("disabled")

    # ▶ turns the page in place (the same ephemeral message is edited)
    press = await fake.click(alice, msg, label="▶")
    await press.wait_ack()
    assert press.response_type == 7
    page2 = await fake.wait_for(
        lambda: "page 2/4" in current(fake, msg).text() or None, what="page 2"
    )
    assert page2 and "托管" in current(fake, msg).text()
    assert "This server" in current(fake, msg).text()
    assert "s per turn" in current(fake, msg).text()

    # the menu jumps to a variant's first page
    menu = current(fake, msg).find_component(custom_id="mj:help:overview")
    jump = await fake.click(alice, current(fake, msg), menu["custom_id"], values=["shangrao"])
    await jump.wait_ack()
    await fake.wait_for(
        lambda: "Shangrao" in current(fake, msg).text() or None, what="the Shangrao page"
    )
    text = current(fake, msg).text()
    assert "indicator" in text and "page 1/5" in text
    assert "mj:help:shangrao:1" in current(fake, msg).custom_ids()

    # an old help message still turns its pages after a restart (DynamicItem)
    await proc.restart()
    press = await fake.click(alice, current(fake, msg), "mj:help:shangrao:1")
    await press.wait_ack()
    await fake.wait_for(
        lambda: "page 2/5" in current(fake, msg).text() or None, what="page 2 after restart"
    )
    assert "宝吊头" in current(fake, msg).text()


async def test_help_in_chinese_commands_and_public(fake: FakeDiscord, bot_factory) -> None:
    await start_bot(bot_factory)
    bob, carol = fake.user("bob"), fake.user("carol")
    bob.locale = "zh-CN"
    ix = await fake.slash(bob, "mahjong help", {"topic": "commands"})
    msg = await ix.wait_reply()
    text = msg.text()
    assert msg.ephemeral and "全部命令" in text
    # generated from the registered tree, in the user's language
    for name in ("`/麻将 新局", "`/麻将 帮助", "`/麻将 算分 <手牌>", "`/麻将 排行榜"):
        assert name in text, name

    ix = await fake.slash(bob, "mahjong help", {"topic": "jiujiang"})
    msg = await ix.wait_reply()
    assert "九江" in msg.text() and "二炮起胡" in msg.text() and "第 1/3 页" in msg.text()

    # a public help message: another user's press answers privately, the message stays
    ix = await fake.slash(bob, "mahjong help", {"topic": "notation", "public": True})
    public = await ix.wait_reply()
    assert not public.ephemeral and "123m 456p 789s 55z [111s] +1m" in public.text()
    before = public.text()
    press = await fake.click(carol, public, label="▶")
    await press.wait_ack()
    assert press.response_type == 4
    mine = await press.wait_reply()
    assert mine.ephemeral and mine.visible_to is not None and mine.visible_to.id == carol.id
    assert "page 2/2" in mine.text() and "Chinese" in mine.text()
    assert current(fake, public).text() == before


async def test_help_shows_this_servers_settings(fake: FakeDiscord, bot_factory) -> None:
    await start_bot(bot_factory)
    alice = fake.user("alice")  # owns the server
    ix = await fake.slash(alice, "mahjong-admin config", {"variant": "xinyu", "turn_timeout": 97})
    await ix.wait_reply()
    ix = await fake.slash(alice, "mahjong help")
    msg = await ix.wait_reply()
    assert "This server" not in msg.text()  # only on the timeouts page
    press = await fake.click(alice, msg, label="▶")
    await press.wait_ack()
    text = await fake.wait_for(
        lambda: current(fake, msg).text() if "page 2/4" in current(fake, msg).text() else None,
        what="page 2",
    )
    assert "97 s per turn" in text and "default variant Xinyu" in text


async def test_help_and_commands_in_traditional_chinese(fake: FakeDiscord, bot_factory) -> None:
    """A zh-TW user: 繁體 command names on sync, and the guide in 繁體."""
    await start_bot(bot_factory)
    [group] = [c for c in fake.synced_commands() if c["name"] == "mahjong"]
    assert group["name_localizations"]["zh-TW"] == "麻將"
    [sub] = [o for o in group["options"] if o["name"] == "help"]
    assert sub["name_localizations"]["zh-TW"] == "幫助"
    [autoplay] = [o for o in group["options"] if o["name"] == "autoplay"]
    assert autoplay["name_localizations"] == {"zh-CN": "托管", "zh-TW": "託管"}

    dave = fake.user("dave")
    dave.locale = "zh-TW"
    ix = await fake.slash(dave, "mahjong help")
    msg = await ix.wait_reply()
    text = msg.text()
    assert "入門：怎麼開局" in text and "第 1/4 頁" in text and "開局" in text
    assert "开局" not in text and "页" not in text
    ix = await fake.slash(dave, "mahjong help", {"topic": "commands"})
    text = (await ix.wait_reply()).text()
    for name in ("`/麻將 新局", "`/麻將 幫助", "`/麻將 算分 <手牌>", "`/麻將 排行榜"):
        assert name in text, name
    # a variant's rule pages are 繁體 too (no longer 简体 for zh-TW readers)
    ix = await fake.slash(dave, "mahjong help", {"topic": "shangrao"})
    text = (await ix.wait_reply()).text()
    assert "上饒麻將規則" in text and "寶牌" in text and "莊家" in text
    assert "宝牌" not in text and "庄家" not in text
