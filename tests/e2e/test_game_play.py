"""End-to-end games: a whole hand in each variant, through slash commands, DMs and buttons."""

from __future__ import annotations

import itertools

import pytest

from .fake_discord import FakeDiscord
from .game_driver import (
    check_privacy,
    click_ok,
    game_thread,
    hand_message,
    open_game,
    play_hand,
    result_message,
    start_bot,
    table_message,
    table_messages,
)

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("variant", ["shangrao", "xinyu", "jiujiang"])
async def test_one_human_three_ai_play_a_hand(fake: FakeDiscord, bot_factory, variant) -> None:
    proc = await start_bot(bot_factory)
    alice = fake.user("alice")
    gid, lobby = await open_game(fake, alice, [], variant=variant)
    await fake.wait_for(lambda: hand_message(fake, alice, gid), 10, what="alice's hand DM")
    result = await play_hand(fake, [alice], gid)
    text = result.text()
    assert "结果" in text or "Result" in text
    # 准备 for the next hand and 解散 (a vote): nobody ends the game alone any more
    assert {f"mj:{gid}:next:1", f"mj:{gid}:dissolve"} <= set(result.custom_ids())
    assert f"mj:{gid}:end:1" not in result.custom_ids()
    assert "摊牌" in text or "All hands" in text
    # the game plays in its own thread, named after it, opened on the lobby message; the
    # lobby stays in the channel without its buttons
    thread = game_thread(fake, lobby)
    assert thread is not None and thread.name.endswith(f"#{gid}"), thread
    assert not fake.messages[lobby.id].custom_ids()
    # one table message for the hand, in the thread, edited; the result there too
    [table] = table_messages(fake, gid)
    assert table.channel_id == thread.id and result.channel_id == thread.id
    assert fake.messages[table.id].edited_timestamp is not None
    assert "Traceback" not in proc.log


async def test_four_humans_play_a_hand_privately(fake: FakeDiscord, bot_factory) -> None:
    await start_bot(bot_factory)
    alice, bob, carol, dave = (fake.user(n) for n in ("alice", "bob", "carol", "dave"))
    gid, _lobby = await open_game(fake, alice, [bob, carol, dave], variant="shangrao")
    result = await play_hand(fake, [alice, bob, carol, dave], gid)
    table = table_message(fake, gid)
    assert table is not None
    assert f"mj:{gid}:next:1" in result.custom_ids()
    # every player got exactly one DM message for the hand (edited as play went)
    for user in (alice, bob, carol, dave):
        hands = [m for m in fake.dms(user) if m.embeds]
        assert len(hands) == 1, [m.text()[:80] for m in hands]
        assert len(hands[0].history) >= 1
    checked = check_privacy(fake)
    assert checked >= 4  # every player's concealed tiles were looked for
    # the table message is edited at most about once per 2 s while the hand is played (the
    # final edit at the hand's end is flushed at once)
    first_dm = min(m.created_at for u in (alice, bob, carol, dave) for m in fake.dms(u))
    edits = [t for t in fake.messages[table.id].edit_times if first_dm < t < result.created_at]
    gaps = [b - a for a, b in itertools.pairwise(edits)]
    assert sum(1 for g in gaps if g < 1.8) <= 1, gaps

    # the next hand once all four pressed 准备: same message flow, a new DM per player
    for user in (bob, alice, carol):
        await click_ok(fake, user, result, f"mj:{gid}:next:1")
    await fake.wait_for(lambda: "3/4" in fake.messages[result.id].content, 10, what="3 of 4 ready")
    assert all(len([m for m in fake.dms(u) if m.embeds]) == 1 for u in (alice, bob, carol))
    await click_ok(fake, dave, fake.messages[result.id], f"mj:{gid}:next:1")
    await fake.wait_for(
        lambda: all(
            len([m for m in fake.dms(u) if m.embeds]) == 2 for u in (alice, bob, carol, dave)
        ),
        10,
        what="the second hand's DMs",
    )
    # a fresh table message for hand 2; hand 1's table and result keep their last picture
    # and text as the hand's record, without buttons but the result's 回放
    await fake.wait_for(lambda: len(table_messages(fake, gid)) == 2, 10, what="hand 2's table")
    await fake.wait_for(
        lambda: (
            not fake.messages[table.id].custom_ids()
            and fake.messages[result.id].custom_ids() == [f"mj:rp:{gid}:1:o:0:4"]
        ),
        10,
        what="hand 1's buttons removed",
    )
    assert result_message(fake, gid, 1) is None
    assert fake.messages[result.id].embeds == result.embeds  # the record stays
    # a stale "next" from hand 1 (a client still showing it) changes nothing
    ix = await click_ok(fake, carol, result, f"mj:{gid}:next:1", force=True)
    reply = await ix.wait_reply()
    assert reply.ephemeral and ("过期" in reply.text() or "earlier" in reply.text())
    check_privacy(fake)
