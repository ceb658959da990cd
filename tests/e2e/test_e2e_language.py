"""End-to-end: one language per table. A game's private texts (the hand DM, the hand shown by
``/mahjong hand``) follow the server's language, not each player's Discord client, unless the
player chose their own with ``/mahjong-language``."""

from __future__ import annotations

import pytest

from i18n import t

from .fake_discord import FakeDiscord
from .game_driver import hand_message, open_game, start_bot

pytestmark = pytest.mark.e2e


async def test_the_hand_follows_the_servers_language_unless_chosen(
    fake: FakeDiscord, bot_factory
) -> None:
    await start_bot(bot_factory)
    alice = fake.user("alice")  # owns the server; her Discord client is English
    ix = await fake.slash(alice, "mahjong-admin config", {"language": "zh-TW"})
    await ix.wait_reply()
    gid, _lobby = await open_game(fake, alice, [], variant="xinyu")
    hand = await fake.wait_for(lambda: hand_message(fake, alice, gid), 15, what="the hand DM")
    title = hand.embeds[0].get("title", "")
    assert "新餘" in title and "Xinyu" not in title, title  # 繁體, not her client's English
    ix = await fake.slash(alice, "mahjong hand")
    shown = (await ix.wait_reply()).text()
    assert "新餘" in shown and "Xinyu" not in shown, shown
    # she chooses 简体 for herself
    ix = await fake.slash(alice, "mahjong-language", {"language": "zh"})
    said = (await ix.wait_reply()).text()
    assert said == t("game.language_set", "zh", language="简体中文")
    ix = await fake.slash(alice, "mahjong hand")
    shown = (await ix.wait_reply()).text()
    assert "新余" in shown and "新餘" not in shown, shown
    # and back to the server's
    ix = await fake.slash(alice, "mahjong-language", {"language": "server"})
    await ix.wait_reply()
    ix = await fake.slash(alice, "mahjong hand")
    assert "新餘" in (await ix.wait_reply()).text()
