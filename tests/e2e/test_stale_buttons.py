"""End-to-end: old buttons go away — after a failed edit (retried later) and after a crash
(SIGKILL, then the resume takes them off). At any moment only the current message of each
purpose (a player's hand DM, the table, the 准备 result, the standings) keeps game buttons;
a result keeps its 回放 (replay) button for good."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .fake_discord import FakeDiscord, FakeMessage, FakeUser
from .game_driver import (
    choose,
    click_ok,
    game_env,
    hand_message,
    open_game,
    play_hand,
    result_message,
    table_message,
    wait_still,
)

pytestmark = pytest.mark.e2e

#: discord.py gives up on a 503 at once (a 500 is tried five times, 25 s in all)
UNAVAILABLE = 503


def live_buttons(fake: FakeDiscord, gid: int) -> dict[int, list[str]]:
    """Every message (channel or DM) still showing enabled buttons of game ``gid`` other
    than 回放: message id → those buttons' custom ids."""
    out: dict[int, list[str]] = {}
    for msg in fake.all_messages(include_deleted=False):
        if msg.ephemeral:
            continue  # (answers only the presser sees; their tokens lapse)
        ids = [
            b["custom_id"]
            for b in msg.buttons()
            if not b.get("disabled") and str(b.get("custom_id", "")).startswith(f"mj:{gid}:")
        ]
        if ids:
            out[msg.id] = ids
    return out


def path_of(msg: FakeMessage) -> str:
    return rf"^/channels/{msg.channel_id}/messages/{msg.id}$"


def strips(call: Any) -> bool:
    """A PATCH that leaves no game button (a replaced hand DM, an old table, a result)."""
    rows = (call.json or {}).get("components")
    if rows is None:
        return False
    ids = [c.get("custom_id", "") for row in rows for c in row.get("components", [])]
    return not any(i.startswith("mj:") and not i.startswith("mj:rp:") for i in ids)


def stored_table_hand(proc: Any, gid: int) -> int | None:
    """The hand of the table the game's stored messages describe (``table_at``)."""
    [row] = proc.rows("SELECT messages FROM games WHERE id = ?", gid)
    at = json.loads(row[0] or "{}").get("table_at")
    return int(at[1]) if at else None


async def asked(fake: FakeDiscord, players: list[FakeUser], gid: int) -> FakeUser:
    """A player asked to act now (their hand DM shows buttons)."""
    for user in players:
        msg = hand_message(fake, user, gid)
        if msg is not None and choose(fake.messages[msg.id]):
            return user
    raise AssertionError("nobody is asked to act")


async def replaced_dm_left_live(
    fake: FakeDiscord, proc: Any, players: list[FakeUser], gid: int
) -> tuple[FakeUser, FakeMessage, Any]:
    """Edits of the asked player's hand DM fail (503) and their turn times out: the bot
    sends a new hand DM, and the old one keeps its buttons (taking them off failed too).
    Returns the player, the old DM and the fault (still refusing)."""
    await wait_still(fake, proc, players, gid)
    user = await asked(fake, players, gid)
    old = hand_message(fake, user, gid)
    assert old is not None
    rule = fake.break_next("PATCH", path_of(old), None, status=UNAVAILABLE)

    def pointed_to_new() -> bool:
        # the old DM's edit that points to the new one (and takes its buttons off) refused
        new = hand_message(fake, user, gid)
        return new is not None and any(
            strips(c) and str(new.id) in json.dumps(c.json) for c in rule.refused
        )

    await fake.wait_for(pointed_to_new, 60, what="a new hand DM, the old one's buttons kept")
    assert old.id in live_buttons(fake, gid), "the old DM should still show its buttons here"
    return user, old, rule


async def test_a_replaced_hand_dm_loses_its_buttons_after_the_failed_edit(
    fake: FakeDiscord, bot_factory
) -> None:
    proc = bot_factory(env=game_env(TURN_TIMEOUT_SECONDS="3", CLAIM_TIMEOUT_SECONDS="3"))
    await proc.start_ready()
    alice, bob = fake.user("alice"), fake.user("bob")
    gid, _lobby = await open_game(fake, alice, [bob])
    user, old, rule = await replaced_dm_left_live(fake, proc, [alice, bob], gid)
    rule.heal()  # Discord answers again: the removal is made again, later
    await fake.wait_for(
        lambda: old.id not in live_buttons(fake, gid), 30, what="the old DM's buttons gone"
    )
    new = hand_message(fake, user, gid)
    assert new is not None and new.id != old.id


async def test_a_kill_after_a_new_hand_dm_leaves_no_second_live_dm(
    fake: FakeDiscord, bot_factory
) -> None:
    proc = bot_factory(env=game_env(TURN_TIMEOUT_SECONDS="3", CLAIM_TIMEOUT_SECONDS="3"))
    await proc.start_ready()
    alice, bob = fake.user("alice"), fake.user("bob")
    gid, _lobby = await open_game(fake, alice, [bob])
    _user, old, rule = await replaced_dm_left_live(fake, proc, [alice, bob], gid)
    await proc.kill()  # before any retry could take them off
    rule.heal()
    assert old.id in live_buttons(fake, gid)
    await proc.start_ready()
    await fake.wait_for(
        lambda: old.id not in live_buttons(fake, gid), 30, what="the old DM's buttons gone"
    )
    # each player has one hand DM with buttons at most: the current one
    for player in (alice, bob):
        live = [m.id for m in fake.dms(player) if m.id in live_buttons(fake, gid)]
        current = hand_message(fake, player, gid)
        assert live in ([], [current.id if current else None]), (player.name, live)


async def test_a_kill_between_hands_leaves_no_old_ready_button(
    fake: FakeDiscord, bot_factory
) -> None:
    proc = bot_factory(env=game_env())
    await proc.start_ready()
    alice, bob = fake.user("alice"), fake.user("bob")
    players = [alice, bob]
    gid, _lobby = await open_game(fake, alice, [bob], length="4")
    result = await play_hand(fake, players, gid)  # 准备 / 解散 shown
    table1 = table_message(fake, gid)
    assert table1 is not None
    # taking 准备 off hand 1's result fails, and the bot dies before trying again
    rule = fake.break_next("PATCH", path_of(result), None, status=UNAVAILABLE, match=strips)
    for user in players:
        await click_ok(fake, user, fake.messages[result.id], f"mj:{gid}:next:1")
    await fake.wait_for(lambda: rule.refused, 30, what="hand 1's 准备 refused removal")
    await fake.wait_for(
        lambda: (t := table_message(fake, gid)) is not None and t.id != table1.id,
        30,
        what="hand 2's table",
    )
    await fake.wait_for(lambda: stored_table_hand(proc, gid) == 2, 30, what="hand 2 stored")
    await proc.kill()
    rule.heal()
    assert f"mj:{gid}:next:1" in live_buttons(fake, gid).get(result.id, [])
    await proc.start_ready()
    await fake.wait_for(
        lambda: result.id not in live_buttons(fake, gid), 30, what="hand 1's 准备 gone"
    )
    assert f"mj:rp:{gid}:1:" in " ".join(fake.messages[result.id].custom_ids())  # 回放 kept
    table2 = table_message(fake, gid)
    live = live_buttons(fake, gid)
    assert table1.id not in live
    assert table2 is not None and table2.id in live
    assert result_message(fake, gid, 1) is None


async def test_a_kill_after_the_game_ended_leaves_no_live_hand_dm(
    fake: FakeDiscord, bot_factory
) -> None:
    proc = bot_factory(env=game_env())
    await proc.start_ready()
    alice, bob = fake.user("alice"), fake.user("bob")
    players = [alice, bob]
    gid, _lobby = await open_game(fake, alice, [bob])
    await wait_still(fake, proc, players, gid)
    user = await asked(fake, players, gid)
    dm = hand_message(fake, user, gid)
    assert dm is not None
    table = await fake.wait_for(lambda: table_message(fake, gid), 10, what="the table")
    # 解散 mid-hand; taking the moves off the asked player's DM fails, then the bot dies
    other = bob if user is alice else alice
    await click_ok(fake, user, fake.messages[table.id], f"mj:{gid}:dissolve")
    vote = await fake.wait_for(
        lambda: next(
            (m for m in fake.guild_messages() if f"mj:{gid}:agree:1" in m.custom_ids()),
            None,
        ),
        10,
        what="the vote",
    )
    rule = fake.break_next("PATCH", path_of(dm), None, status=UNAVAILABLE, match=strips)
    await click_ok(fake, other, vote, f"mj:{gid}:agree:1")
    await fake.wait_for(lambda: rule.refused, 30, what="the hand DM refused its removal")
    await fake.wait_for(
        lambda: any(f"mj:{gid}:rematch" in m.custom_ids() for m in fake.channel_messages()),
        30,
        what="the final standings",
    )
    await proc.kill()
    rule.heal()
    assert dm.id in live_buttons(fake, gid)
    await proc.start_ready()
    await fake.wait_for(
        lambda: all(f"mj:{gid}:rematch" in ids for ids in live_buttons(fake, gid).values()),
        30,
        what="only the standings' 再来一局 left",
    )
