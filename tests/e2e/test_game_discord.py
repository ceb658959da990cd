"""End-to-end: a table that works on real Discord (issue 12).

- Turn alerts: the notifications each human received (the fake counts only *new* messages,
  as Discord does) match the decisions they were asked for, replayed from the bot's log.
- A game that runs past an hour of Discord time keeps its table up to date without editing
  old messages (Discord's 30046 budget); a failed table edit posts a fresh table.
- A thread per game (archived after a quiet day, reopened by the bot), or the channel when
  the bot may not create threads.
- AI moves shown at a readable pace, while the log is written at once.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from services.action_codec import read_step

from .fake_discord import CREATE_PUBLIC_THREADS, FakeDiscord, FakeMessage, FakeUser
from .game_driver import (
    check_privacy,
    choose,
    click_ok,
    game_env,
    game_thread,
    hand_message,
    log_of,
    open_game,
    play_hand,
    result_message,
    start_bot,
    stored_version,
    table_message,
    table_messages,
)
from .harness import BotProcess

pytestmark = pytest.mark.e2e


# ------------------------------------------------------------------ decisions from the log


def _game_row(proc: BotProcess, gid: int) -> tuple[str, dict[str, Any], list[dict[str, Any]]]:
    [row] = proc.rows("SELECT variant, options, seats FROM games WHERE id = ?", gid)
    return row[0], json.loads(row[1]), json.loads(row[2])


def decisions(proc: BotProcess, gid: int) -> dict[int, list[dict[str, Any]]]:
    """Every decision each human seat was shown, replayed from the bot's action log: one per
    turn or claim, where consecutive decisions of one turn count once (draw → kong →
    discard, claim → pong → discard) and a seat that waited on the others' decision starts
    a new one. ``{seat: [{"kind": "turn" | "claim", "deal": opened while dealing, "phases":
    the phases it was shown in}]}`` (a claim window let go, then the seat's own draw: one
    decision of kind ``claim`` shown in ``["claim", "turn"]``).

    A change is one log entry and the AI entries that follow it (what the bot shows at
    once); only a decision still open when a change is shown counts."""
    from services.action_codec import entry_action, read_step
    from services.real_engine import RealEngine

    engine = RealEngine()
    variant, options, seats = _game_row(proc, gid)
    humans = {i for i, s in enumerate(seats) if not s.get("ai")}
    log = log_of(proc, gid)
    # a claim window that timed out only passes, quietly (no 托管): replayed like a press
    assert not [
        e
        for _q, _s, e in log
        if e.get("k") == "auto" or (e.get("timeout") and (e.get("a") or {}).get("type") != "pass")
    ], "this replay knows no 托管"
    changes: list[list[tuple[int, int | None, dict[str, Any]]]] = []
    for seq, seat, entry in log:
        if entry.get("k") in ("setup", "rdy", "vote", "rematch"):
            continue  # the session's entries (issue 13): no hand decision
        if entry.get("k") == "ai" and changes:
            changes[-1].append((seq, seat, entry))
        else:
            changes.append([(seq, seat, entry)])
    out: dict[int, list[dict[str, Any]]] = {s: [] for s in humans}
    open_: dict[int, dict[str, Any]] = {}
    shown: dict[int, tuple[bool, Any]] = {}
    state: Any = None

    def pending_now() -> set[int]:
        if state is None or engine.phase(state) not in ("turn", "claim"):
            return set()
        return set(engine.pending_seats(state))

    def stepped(new_hand: bool, deal: bool, actor: int | None = None, old: Any = None) -> None:
        if new_hand:
            open_.clear()
        if actor is not None and old is not None and engine.phase(old) == "claim":
            # a claim window the seat let go is not the turn it may draw next
            took = len(engine.hand_view(state, actor).melds) > len(
                engine.hand_view(old, actor).melds
            )
            if actor in engine.pending_seats(old) and not took:
                open_.pop(actor, None)
        pending = pending_now()
        for s in list(open_):
            if s not in pending and engine.phase(state) != "claim":
                del open_[s]
        for s in sorted(pending):
            if s not in open_:
                open_[s] = {"kind": engine.phase(state), "deal": deal, "shown": False, "phases": []}

    for change in changes:
        _seq, first_seat, first = change[0]
        actor = first_seat if first.get("k") == "act" else None
        deal = first.get("k") in ("start", "next")
        for _seq, seat, entry in change:
            k = entry.get("k")
            if k == "start":
                state, _ = engine.new_game(variant, options, entry["seed"])
                stepped(True, deal)
                continue
            if k == "next":
                state, _ = engine.next_hand(state, entry["seed"])
                stepped(True, deal)
                continue
            acts = [read_step(a) for a in entry.get("acts", [])] if k == "ai" else []
            if k == "act":
                acts = [(seat, entry_action(entry)), *map(read_step, entry.get("ai", []))]
            for s, logged in acts:
                before = state
                state, _ = engine.apply_logged(state, s, logged)
                stepped(False, deal, s, before)
        pending = pending_now()
        for s, (asked, episode) in shown.items():
            if asked or s == actor or episode is None or open_.get(s) is not episode:
                continue
            del open_[s]
            if s in pending:
                open_[s] = {"kind": engine.phase(state), "deal": deal, "shown": False, "phases": []}
        for s in humans & pending:
            episode = open_[s]
            if engine.phase(state) not in episode["phases"]:
                episode["phases"].append(engine.phase(state))
            if not episode["shown"]:
                episode["shown"] = True
                out[s].append(episode)
        shown = {s: (s in pending, open_.get(s)) for s in humans}
    return out


def alert_dms(fake: FakeDiscord, user: FakeUser) -> list[FakeMessage]:
    """The short turn and claim alert DMs the bot sent ``user`` (deleted ones too)."""
    return [
        m
        for m in fake.dms(user, include_deleted=True)
        if not m.embeds and "🀄" in m.content and m not in ready_alert_dms(fake, user)
    ]


def ready_alert_dms(fake: FakeDiscord, user: FakeUser) -> list[FakeMessage]:
    """The alert DMs of the 准备 check after a hand (issue 13; deleted ones too)."""
    return [
        m
        for m in fake.dms(user, include_deleted=True)
        if not m.embeds and ("「准备」" in m.content or "press Ready" in m.content)
    ]


def hand_dms(fake: FakeDiscord, user: FakeUser, gid: int) -> list[FakeMessage]:
    out = []
    for m in fake.dms(user, include_deleted=True):
        footers = [(e.get("footer") or {}).get("text", "") for e in m.embeds]
        if any(f.startswith(f"#{gid} ") or f == f"#{gid}" for f in footers):
            out.append(m)
    return out


async def next_hand(fake: FakeDiscord, user: FakeUser, gid: int, hand_no: int) -> None:
    result = await fake.wait_for(lambda: result_message(fake, gid, hand_no), 20, what="result")
    await click_ok(fake, user, result, f"mj:{gid}:next:{hand_no}")


# ------------------------------------------------------------------ alerts


async def test_each_decision_notifies_once(fake: FakeDiscord, bot_factory) -> None:
    """Two humans and two AIs play two hands. Each human is notified exactly once per
    decision they were shown (a short DM, deleted once they acted; the new hand DM of a deal
    stands for the decision it asks), plus once per new hand DM; nobody else is notified,
    and edits never notify."""
    proc = await start_bot(bot_factory)
    alice, bob = fake.user("alice"), fake.user("bob")
    gid, _lobby = await open_game(fake, alice, [bob], variant="xinyu")
    await play_hand(fake, [alice, bob], gid)
    for user in (bob, alice):  # 准备: the next hand starts once both pressed it
        await next_hand(fake, user, gid, 1)
    await play_hand(fake, [alice, bob], gid, hand_no=2)
    await fake.wait_for(
        lambda: all(m.deleted for u in (alice, bob) for m in alert_dms(fake, u)),
        10,
        what="every alert taken away",
    )
    asked = decisions(proc, gid)
    for seat, user in enumerate((alice, bob)):
        episodes = asked[seat]
        alerts = alert_dms(fake, user)
        hands = hand_dms(fake, user, gid)
        assert len(hands) == 2, [m.text()[:60] for m in hands]
        assert len(alerts) == len([e for e in episodes if not e["deal"]]), (user.name, episodes)
        assert len(episodes) >= 3
        # turn and claim alerts say which
        turns = [m for m in alerts if "轮到你出牌" in m.content or "Your turn" in m.content]
        assert len(turns) == len([e for e in episodes if e["kind"] == "turn" and not e["deal"]])
        # each hand's end asked them to press 准备: one alert each, the first one taken away
        # once they pressed it
        ready = await fake.wait_for(
            lambda u=user: len(ready_alert_dms(fake, u)) == 2 and ready_alert_dms(fake, u),
            10,
            what="a 准备 alert after each hand",
        )
        assert ready[0].deleted and not ready[1].deleted, [m.content[:40] for m in ready]
        # what notified them: exactly the alert DMs and the hand DMs, once each
        got = fake.notifications.of(user)
        expected = [*alerts, *hands, *ready]
        assert sorted(n.message_id for n in got) == sorted(m.id for m in expected)
        assert all(n.kind == "dm" for n in got)
        # each alert links to the hand and shows when the decision times out
        assert all("/channels/@me/" in m.content and "<t:" in m.content for m in alerts)
    for other in (fake.user("carol"), fake.user("dave")):
        assert fake.notifications.count(other) == 0
    check_privacy(fake)


async def test_alert_choices_are_saved_and_kept(fake: FakeDiscord, bot_factory) -> None:
    """``/mahjong alerts off`` — no alerts (the hand DM still comes); ``claims`` — claim
    alerts only. Saved: they hold after a restart."""
    proc = await start_bot(bot_factory)
    alice, bob = fake.user("alice"), fake.user("bob")
    for user, mode in ((alice, "claims"), (bob, "off")):
        ix = await fake.slash(user, "mahjong alerts", {"mode": mode})
        assert (await ix.wait_reply()).ephemeral
    await proc.restart()
    gid, _lobby = await open_game(fake, alice, [bob], variant="xinyu")
    await play_hand(fake, [alice, bob], gid)
    asked = decisions(proc, gid)
    assert alert_dms(fake, bob) == [] and len(hand_dms(fake, bob, gid)) == 1
    assert fake.notifications.count(bob) == 1
    claims = [e for e in asked[0] if e["kind"] == "claim"]
    alerts = alert_dms(fake, alice)
    assert len(alerts) == len(claims)
    assert all("吃碰杠胡" in m.content or "claim" in m.content for m in alerts)
    ix = await fake.slash(alice, "mahjong alerts", {"mode": "on"})
    reply = await ix.wait_reply()
    assert "提醒已开启" in reply.text() or "Alerts on" in reply.text()


# ------------------------------------------------------------------ threads and tables


#: her turns played before the hour passes (fewer when the hand ends first)
TURNS_BEFORE_THE_HOUR = 3


async def test_a_game_past_an_hour_keeps_its_table_up_to_date(
    fake: FakeDiscord, bot_factory
) -> None:
    """An hour of Discord time passes in the middle of a hand: the bot posts a fresh table
    and a fresh hand DM (the old one links to it) instead of editing messages over an hour
    old, so Discord's small edit budget for them (30046) is never hit and the table shows
    the game as it is to the end."""
    await start_bot(bot_factory)
    alice = fake.user("alice")
    gid, lobby = await open_game(fake, alice, [], variant="xinyu")
    thread = await fake.wait_for(lambda: game_thread(fake, lobby), 10, what="the thread")
    dm = await fake.wait_for(lambda: hand_message(fake, alice, gid), 10, what="the hand DM")
    first_table = await fake.wait_for(lambda: table_message(fake, gid), 10, what="the table")
    # a few turns, then an hour passes
    hand_no = 1
    for _ in range(TURNS_BEFORE_THE_HOUR):
        current = fake.messages[hand_message(fake, alice, gid).id]
        cid = choose(current)
        if cid is None:
            break
        ix = await click_ok(fake, alice, current, cid)
        assert ix.response_type == 7
        await fake.wait_for(
            lambda dm_id=dm.id: choose(fake.messages[dm_id]) or result_message(fake, gid),
            10,
            what="her next turn or the hand's end",
        )
        result = result_message(fake, gid)
        if result is not None:
            # an AI won off her discard (a few turns in, as the shuffle may have it): the
            # hour passes in the middle of the next hand instead, with its own hand DM
            await click_ok(fake, alice, result, f"mj:{gid}:next:1")  # 准备: deals at once
            hand_no = 2
            dm = await fake.wait_for(
                lambda old=dm.id: (
                    (m := hand_message(fake, alice, gid)) is not None
                    and m.id != old
                    and choose(m) is not None
                    and m
                ),
                10,
                what="her hand DM of the next hand",
            )
            break
    fake.advance(3700)
    # she plays from a copy of her hand (/mahjong hand): the bot brings her hand DM, over
    # an hour old now, up to date — with a new DM
    ix = await fake.slash(alice, "mahjong hand")
    copy = await ix.wait_reply()
    await click_ok(fake, alice, copy, choose(copy))
    new_dm = await fake.wait_for(
        lambda: (m := hand_message(fake, alice, gid)) is not None and m.id != dm.id and m,
        10,
        what="a new hand DM",
    )
    result = await play_hand(fake, [alice], gid, hand_no=hand_no)
    # the table kept up: the newest table message shows the hand over (下一局 on it), and it
    # is a new one, posted in the thread after the hour passed
    await fake.wait_for(
        lambda: (
            f"mj:{gid}:next:{hand_no}" in fake.messages[table_message(fake, gid).id].custom_ids()
        ),
        10,
        what="the table showing the hand's end",
    )
    tables = table_messages(fake, gid)
    assert len(tables) >= 2 and tables[0].id == first_table.id
    assert all(t.channel_id == thread.id for t in tables)
    assert not fake.messages[first_table.id].custom_ids()  # the old one lost its buttons
    # no edit of an old message was refused, and the few made only took buttons off
    assert fake.old_edits.refused == []
    assert all(  # (a result keeps its 回放)
        all(":o:0:4" in c for c in fake.messages[e.message_id].custom_ids())
        for e in fake.old_edits.allowed
    )
    # the hand DM from before the hour points to the new one
    assert hand_message(fake, alice, gid).id == new_dm.id
    assert f"/channels/@me/{new_dm.channel_id}/{new_dm.id}" in fake.messages[dm.id].text()
    assert not fake.messages[dm.id].custom_ids()
    assert result.channel_id == thread.id
    check_privacy(fake)


async def test_a_failed_table_edit_posts_a_fresh_table(fake: FakeDiscord, bot_factory) -> None:
    """Discord keeps refusing an edit of the table (5 × 429: discord.py gives up): the bot
    posts a fresh table message, so the update is not lost."""
    await start_bot(bot_factory)
    alice = fake.user("alice")
    gid, _lobby = await open_game(fake, alice, [], variant="xinyu")
    table = await fake.wait_for(lambda: table_message(fake, gid), 10, what="the table")
    await fake.wait_for(lambda: hand_message(fake, alice, gid), 10, what="the hand DM")
    rule = fake.fail_next(
        "PATCH", rf"^/channels/{table.channel_id}/messages/{table.id}$", 5, retry_after=0.1
    )
    result = await play_hand(fake, [alice], gid)
    assert rule.count == 0
    assert len(table_messages(fake, gid)) >= 2
    await fake.wait_for(
        lambda: f"mj:{gid}:next:1" in fake.messages[table_message(fake, gid).id].custom_ids(),
        10,
        what="the fresh table showing the hand's end",
    )
    assert result is not None


async def test_the_thread_archives_and_the_bot_reopens_it(fake: FakeDiscord, bot_factory) -> None:
    """A day without messages archives the game's thread; the next hand (下一局 pressed a
    day later) posts in it, which reopens it; the old result loses its buttons."""
    await start_bot(bot_factory)
    alice = fake.user("alice")
    gid, lobby = await open_game(fake, alice, [], variant="xinyu")
    result = await play_hand(fake, [alice], gid)
    thread = game_thread(fake, lobby)
    assert thread is not None and result.channel_id == thread.id
    fake.advance(25 * 3600)
    assert thread.archived
    await click_ok(fake, alice, fake.messages[result.id], f"mj:{gid}:next:1")
    await fake.wait_for(lambda: len(table_messages(fake, gid)) == 2, 10, what="hand 2's table")
    assert not thread.archived
    assert table_message(fake, gid).channel_id == thread.id
    await fake.wait_for(
        lambda: fake.messages[result.id].custom_ids() == [f"mj:rp:{gid}:1:o:0:4"],
        10,
        what="the old result's buttons (回放 only)",
    )
    check_privacy(fake)


async def test_without_thread_permission_the_game_plays_in_the_channel(
    fake: FakeDiscord, bot_factory
) -> None:
    await start_bot(bot_factory)
    alice = fake.user("alice")
    fake.overwrite(fake.channel, fake.bot_role, deny=CREATE_PUBLIC_THREADS)
    gid, lobby = await open_game(fake, alice, [], variant="xinyu")
    result = await play_hand(fake, [alice], gid)
    assert game_thread(fake, lobby) is None and fake.threads() == []
    [table] = table_messages(fake, gid)
    assert table.channel_id == fake.channel.id == result.channel_id
    assert table.id != lobby.id  # a table message of its own; the lobby stays as it was
    assert not fake.messages[lobby.id].custom_ids()


async def test_a_server_may_turn_threads_off(fake: FakeDiscord, bot_factory) -> None:
    await start_bot(bot_factory)
    alice = fake.user("alice")  # owns the server
    ix = await fake.slash(alice, "mahjong-admin config", {"thread": False})
    assert "thread: off" in (await ix.wait_reply()).text()
    gid, _lobby = await open_game(fake, alice, [], variant="xinyu")
    await fake.wait_for(lambda: table_message(fake, gid), 10, what="the table")
    assert fake.threads() == [] and table_message(fake, gid).channel_id == fake.channel.id


# ------------------------------------------------------------------ AI pace


async def test_ai_moves_are_shown_at_a_readable_pace(fake: FakeDiscord, bot_factory) -> None:
    """With a pace of 0.5 s, the three AI discards after Alice's take at least a second to
    be shown before her next turn reaches her; the log has them at once."""
    pace = 0.5
    proc = bot_factory(env=game_env(AI_PACE_SECONDS=str(pace)))
    await proc.start_ready()
    alice = fake.user("alice")
    gid, _lobby = await open_game(fake, alice, [], variant="xinyu")
    dm = await fake.wait_for(lambda: hand_message(fake, alice, gid), 10, what="the hand DM")
    await fake.wait_for(lambda: choose(fake.messages[dm.id]), 10, what="alice's first turn")
    before = stored_version(proc, gid)
    current = fake.messages[dm.id]
    versions = len(current.history)
    loop = asyncio.get_running_loop()
    pressed = loop.time()
    ix = await click_ok(fake, alice, current, choose(current))
    assert ix.response_type == 7
    # written at once: the AI replies are in the log before anything more is shown
    assert stored_version(proc, gid) > before
    logged = [e for _q, _s, e in log_of(proc, gid)][-1]
    ai_discards = [a for a in logged.get("ai", []) if read_step(a)[1]["type"] == "discard"]
    # the answer shows her hand right after her discard, without buttons
    assert choose(fake.messages[dm.id]) is None or not ai_discards
    await fake.wait_for(
        lambda: len(fake.messages[dm.id].history) > versions and choose(fake.messages[dm.id]),
        20,
        what="alice's next decision",
    )
    if len(ai_discards) >= 3:
        assert loop.time() - pressed >= (len(ai_discards) - 1) * pace
