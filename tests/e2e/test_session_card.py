"""End-to-end: a player's 战绩 (issue 25, item 7) with the real bot against the fake Discord.

Alice plays a four-hand session with Bob and two AI seats; it ends by itself with its
standings, which offer the 战绩卡. ``/mahjong-sessions`` then lists the session with every
player's total and the 大赢家; picking it shows Alice its card privately with 分享, and
pressing 分享 posts the card — text and picture — in the channel for everyone, with the
totals the database recorded.
"""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from services.stats_text import signed

from .fake_discord import FakeDiscord, FakeMessage
from .game_driver import _game_row, click_ok, open_game, play_hand, result_message, start_bot
from .harness import BotProcess
from .privacy import audience_of
from .test_session import standings

pytestmark = pytest.mark.e2e

AI_NAMES = {"电脑一", "电脑二", "电脑三", "电脑四"}


def public(fake: FakeDiscord) -> list[FakeMessage]:
    """Every message anyone in the server can see, oldest first."""
    return [m for m in fake.all_messages() if audience_of(fake, m) is None]


def shared_cards(fake: FakeDiscord) -> list[FakeMessage]:
    """The public messages that carry a shared 战绩卡."""
    found = []
    for msg in public(fake):
        current = fake.messages[msg.id]
        titles = [str(e.get("title") or "") for e in current.embeds]
        if (
            any(title.startswith("战绩卡") for title in titles)
            and "分享了战绩卡" in current.content
        ):
            found.append(current)
    return found


def card_picture(msg: FakeMessage) -> Image.Image:
    [file] = [a for a in msg.attachments if a.filename == "zhanji.png"]
    assert msg.embeds[0]["image"]["url"] == "attachment://zhanji.png"
    assert file.description and file.description.startswith("战绩卡")  # alt text
    img = Image.open(io.BytesIO(file.data))
    img.load()
    assert img.format == "PNG" and img.width == 560
    return img


def recorded(proc: BotProcess, gid: int) -> tuple[str, list[int], list[str]]:
    """The game's status, totals and seat names as the bot stored them."""
    [(status, raw)] = proc.rows("SELECT status, totals FROM games WHERE id = ?", gid)
    names = [str(s["name"]) for s in _game_row(proc, gid)[2]]
    return str(status), list(json.loads(raw)), names


def assert_card_shows(text: str, names: list[str], totals: list[int]) -> None:
    """Every player's name and total on their own line; 🏆 大赢家 on the top line(s) only."""
    top = max(totals)
    scored = any(totals)
    lines = text.splitlines()
    for name, total in zip(names, totals, strict=True):
        shown = f"🤖 {name}" if name in AI_NAMES else name
        [line] = [x for x in lines if f"{shown} **{signed(total)}**" in x]
        assert ("🏆" in line) == (scored and total == top), (line, totals)


async def test_play_a_session_then_list_it_and_share_its_card(
    fake: FakeDiscord, bot_factory
) -> None:
    proc = await start_bot(bot_factory)
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    gid, _lobby = await open_game(fake, alice, [bob], variant="xinyu", length="4")
    for hand in range(1, 5):
        last = (lambda: standings(fake, gid)) if hand == 4 else None
        await play_hand(fake, [alice, bob], gid, hand_no=hand, until=last)
        if hand < 4:
            result = await fake.wait_for(lambda h=hand: result_message(fake, gid, h), 20)
            for user in (alice, bob):
                await click_ok(fake, user, fake.messages[result.id], f"mj:{gid}:next:{hand}")
    board = await fake.wait_for(lambda: standings(fake, gid), 30, what="the final standings")
    await fake.wait_for(
        lambda: recorded(proc, gid)[0] == "finished", 15, what="the game recorded as over"
    )
    _status, totals, names = recorded(proc, gid)
    assert sum(totals) == 0 and len(names) == 4

    # the standings offer the 战绩卡 beside 再来一局: the card, privately, with 分享
    assert f"mj:zc:{gid}" in board.custom_ids() and f"mj:{gid}:rematch" in board.custom_ids()
    press = await click_ok(fake, bob, board, f"mj:zc:{gid}")
    private = await press.wait_reply(10)
    assert private.ephemeral and private.visible_to is bob
    assert private.custom_ids() == [f"mj:zs:{gid}"]
    assert_card_shows(private.embeds[0]["description"], names, totals)
    card_picture(private)

    # /mahjong-sessions (Carol asks for Alice's): public, the session with every total
    ix = await fake.slash(carol, "mahjong-sessions", {"user": alice})
    listing = await ix.wait_reply(10)
    assert not listing.ephemeral
    embed = listing.embeds[0]
    assert embed["title"].startswith("alice 的场次战绩")
    mine = totals[names.index("alice")]
    tops = int(mine == max(totals) and any(totals))
    assert embed["description"].startswith(f"共 1 场 · 🏆 大赢家 {tops} 次 · 总积分 {signed(mine)}")
    assert f"**#{gid}** · 新余麻将 · " in embed["description"] and " · 4 局" in embed["description"]
    for name, total in zip(names, totals, strict=True):
        assert f"{name} {signed(total)}" in embed["description"].replace("**", "")
    assert listing.custom_ids() == [f"mj:zk:{alice.id}"]  # one page: the picker alone

    # alice picks it: her card privately, then 分享 posts it for everyone
    press = await fake.click(alice, listing, f"mj:zk:{alice.id}", values=[str(gid)])
    card = await press.wait_reply(10)
    assert card.ephemeral and card.visible_to is alice
    assert card.embeds[0]["title"] == "战绩卡 · 新余麻将"
    assert shared_cards(fake) == []  # nothing public yet
    press = await click_ok(fake, alice, fake.messages[card.id], f"mj:zs:{gid}")
    [shared] = await fake.wait_for(lambda: shared_cards(fake), 15, what="the shared card")
    assert not shared.ephemeral and shared.channel_id == fake.channel.id
    assert shared.content.startswith("alice 分享了战绩卡")
    assert_card_shows(shared.embeds[0]["description"], names, totals)
    footer = shared.embeds[0]["footer"]["text"]
    assert footer.startswith(f"#{gid} · 共 4 局 · ")
    img = card_picture(shared)
    assert img.height > 4 * 52  # a row per player
    assert shared.custom_ids() == []  # the public card is just the card

    # a text-only player gets the card without a picture
    off = await fake.slash(bob, "mahjong pictures", {"on": False})
    await off.wait_ack()
    again = await click_ok(fake, bob, fake.messages[board.id], f"mj:zc:{gid}")
    text_only = await again.wait_reply(10)
    assert text_only.attachments == [] and "image" not in text_only.embeds[0]
    assert_card_shows(text_only.embeds[0]["description"], names, totals)
