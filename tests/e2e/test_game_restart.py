"""End-to-end: SIGKILL in the middle of a hand loses nothing; the restarted bot edits the
same hand DMs and table (no second message, no second alert); old buttons work afterwards."""

from __future__ import annotations

import asyncio

import pytest

from db.store import Store

from .fake_discord import FakeDiscord
from .game_driver import (
    check_privacy,
    choose,
    click_ok,
    game_env,
    hand_message,
    log_of,
    open_game,
    play_hand,
    stale_answer,
    table_message,
    wait_still,
)

pytestmark = pytest.mark.e2e


async def human_actions(url: str, gid: int) -> tuple[int, list[tuple[int, dict]]]:
    store = await Store.open(url)
    try:
        loaded = await store.games.load(gid)
        return loaded.game.version, [(a.seat, a.action) for a in loaded.actions]
    finally:
        await store.close()


async def test_kill_mid_hand_then_resume(fake: FakeDiscord, bot_factory) -> None:
    proc = bot_factory(env=game_env())
    await proc.start_ready()
    alice, bob = fake.user("alice"), fake.user("bob")
    gid, _lobby = await open_game(fake, alice, [bob])
    players = [alice, bob]

    # play a few decisions
    answered = []  # presses answered by redrawing the hand
    loop = asyncio.get_running_loop()
    deadline = loop.time() + fake.scaled(60)
    while len(answered) < 4 and loop.time() < deadline:
        for user in players:
            msg = hand_message(fake, user, gid)
            cid = choose(fake.messages[msg.id]) if msg else None
            if cid is None:
                continue
            ix = await click_ok(fake, user, fake.messages[msg.id], cid)
            if ix.response_type == 7:
                answered.append(ix)
        await asyncio.sleep(0.05)
    assert len(answered) >= 4

    # wait until the game is still (nothing more to store or deliver), then kill -9
    await wait_still(fake, proc, players, gid)

    await proc.kill()
    version, _ = await human_actions(proc.database_url, gid)
    human = [a for _seq, seat, a in log_of(proc, gid) if seat in (0, 1) and a.get("k") == "act"]
    # a press on a hand drawn for an earlier moment (a DM edit already under way when the
    # press's own answer redrew the hand can land after it) is answered by redrawing the
    # hand too, with a follow-up note that nothing was played: not an action. The note
    # follows the redraw at once, long before the game is still.
    taken = [ix for ix in answered if not stale_answer(ix)]
    assert taken, "no press was taken"
    assert len(human) >= len(taken)  # every acknowledged press is in the log

    old_dms = {u.id: hand_message(fake, u, gid) for u in players}
    dm_counts = {u.id: len(fake.dms(u, include_deleted=True)) for u in players}
    dm_versions = {u.id: len(fake.messages[old_dms[u.id].id].history) for u in players}
    notified = {u.id: fake.notifications.count(u) for u in players}
    table = table_message(fake, gid)
    assert table is not None
    table_versions = len(fake.messages[table.id].history)

    await proc.start_ready()
    # each player's hand DM is edited again (not sent anew) and the table is refreshed
    await fake.wait_for(
        lambda: all(
            len(fake.messages[old_dms[u.id].id].history) > dm_versions[u.id] for u in players
        ),
        15,
        what="hand DMs brought up to date after the restart",
    )
    await fake.wait_for(
        lambda: len(fake.messages[table.id].history) > table_versions, 15, what="table refreshed"
    )
    version_after, _ = await human_actions(proc.database_url, gid)
    assert version_after >= version  # nothing lost
    # no second hand DM, and the alert sent before the kill stands (no second one)
    assert {u.id: len(fake.dms(u, include_deleted=True)) for u in players} == dm_counts
    assert all(hand_message(fake, u, gid).id == old_dms[u.id].id for u in players)
    assert {u.id: fake.notifications.count(u) for u in players} == notified
    assert table_message(fake, gid).id == table.id

    # an old button (on the DM from before the restart) still works
    waiting = [u for u in players if old_dms[u.id] and choose(fake.messages[old_dms[u.id].id])]
    new_waiting = [u for u in players if choose(fake.messages[hand_message(fake, u, gid).id])]
    assert new_waiting, "someone must be asked to play"
    user = next((u for u in waiting if u in new_waiting), None)
    assert user is not None, "the player asked before the kill is asked again"
    old = fake.messages[old_dms[user.id].id]
    cid = choose(old)
    before, _ = await human_actions(proc.database_url, gid)
    ix = await click_ok(fake, user, old, cid)
    assert ix.response_type == 7, [m.text() for m in ix.replies()]
    after, _ = await human_actions(proc.database_url, gid)
    assert after > before
    # and the hand can be finished
    result = await play_hand(fake, players, gid)
    assert f"mj:{gid}:dissolve" in result.custom_ids()  # 准备 / 解散 (issue 13)
    check_privacy(fake)
