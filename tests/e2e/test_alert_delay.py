"""End-to-end: delayed turn, claim and ready alerts (``ALERT_DELAY_SECONDS``,
:mod:`cogs.delivery.alerts`, :mod:`cogs.game.session`).

Through the real bot: players who answer within the delay get no alert message at all; a
player who leaves a decision open gets exactly one, the delay after the decision was shown,
taken away once they act; nothing public shows who was asked. The same for the 准备 check
after a hand: pressed at once, no ready alert; left open, one each, the delay after the
result was posted."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from .fake_discord import FakeDiscord, FakeMessage, FakeUser
from .game_driver import (
    check_privacy,
    choose,
    click_ok,
    hand_message,
    open_game,
    play_hand,
    result_message,
    start_bot,
    wait_still,
)
from .test_game_discord import alert_dms, ready_alert_dms

pytestmark = pytest.mark.e2e


def dm_edits(fake: FakeDiscord, user: FakeUser, gid: int) -> int:
    """How many times the user's hand DM of game ``gid`` was edited so far."""
    msg = hand_message(fake, user, gid)
    return len(fake.messages[msg.id].edit_times) if msg is not None else 0


async def answered_at_once(
    fake: FakeDiscord, bot_factory: Any, *, edits: int
) -> tuple[float, Any, list[FakeUser], int]:
    """A bot with a delay of about a second (scaled); Alice and Bob play a Xinyu hand with
    two AIs, answering at once, until Alice's hand DM was edited ``edits`` times; then the
    game rests. ``(delay, bot process, players, game id)``."""
    delay = min(30.0, round(fake.scaled(1.0), 1))
    proc = await start_bot(bot_factory, ALERT_DELAY_SECONDS=str(delay))
    alice, bob = fake.user("alice"), fake.user("bob")
    players = [alice, bob]
    gid, _lobby = await open_game(fake, alice, [bob], variant="xinyu")
    await play_hand(
        fake, players, gid, until=lambda: True if dm_edits(fake, alice, gid) >= edits else None
    )
    await wait_still(fake, proc, players, gid)
    return delay, proc, players, gid


def asked_now(fake: FakeDiscord, players: list[FakeUser], gid: int) -> list[FakeUser]:
    """The players whose hand DM asks them to decide now (at least one)."""
    asked = [u for u in players if choose(fake.messages[hand_message(fake, u, gid).id])]
    assert asked
    return asked


def asked_moment(hand: FakeMessage, alert: FakeMessage) -> float:
    """When the decision the alert is about was shown: the hand DM's last edit before it."""
    return max(t for t in [hand.created_at, *hand.edit_times] if t <= alert.created_at)


async def test_only_a_player_who_leaves_a_decision_open_is_alerted(
    fake: FakeDiscord, bot_factory
) -> None:
    # both answer at once for a while: no alert message at all (nothing sent or deleted)
    delay, _proc, players, gid = await answered_at_once(fake, bot_factory, edits=6)
    assert [alert_dms(fake, u) for u in players] == [[], []]

    # now whoever is asked leaves the decision open: one alert each, after the delay
    asked = asked_now(fake, players, gid)
    for user in asked:
        [alert] = await fake.wait_for(
            lambda u=user: alert_dms(fake, u), delay + 20, what=f"{user.name}'s alert"
        )
        hand = fake.messages[hand_message(fake, user, gid).id]
        assert alert.created_at - asked_moment(hand, alert) >= delay - 0.05
        assert "/channels/@me/" in alert.content and "<t:" in alert.content
    for user in players:
        if user not in asked:
            assert alert_dms(fake, user) == []
    # they act: the alert is taken away; the hand is played out answering at once
    for user in asked:
        hand = fake.messages[hand_message(fake, user, gid).id]
        await click_ok(fake, user, hand, choose(hand) or "")
    await fake.wait_for(
        lambda: all(m.deleted for u in asked for m in alert_dms(fake, u)),
        10,
        what="the alerts taken away once acted",
    )
    await play_hand(fake, players, gid)
    assert [len(alert_dms(fake, u)) for u in players] == [int(u in asked) for u in players]
    check_privacy(fake)


async def test_a_restart_with_an_alert_waiting_sends_never_two_and_leaves_none(
    fake: FakeDiscord, bot_factory
) -> None:
    """Killed (-9) while a decision's alert waits out the delay: after the restart each
    player has at most one alert for it, and none is left once they act; the hand plays out."""
    delay, proc, players, gid = await answered_at_once(fake, bot_factory, edits=4)
    await proc.kill()
    await proc.start_ready()
    await wait_still(fake, proc, players, gid)
    asked = asked_now(fake, players, gid)
    # the delay passes again after the restart (whatever it sends, it sends by then)
    loop = asyncio.get_running_loop()
    until = loop.time() + 2 * delay + fake.scaled(1.0)
    while (left := until - loop.time()) > 0:
        await fake.wait_change(fake.changes, left)
    assert all(len(alert_dms(fake, u)) <= 1 for u in players)
    for user in asked:
        hand = fake.messages[hand_message(fake, user, gid).id]
        await click_ok(fake, user, hand, choose(hand) or "")
    await play_hand(fake, players, gid)
    await fake.wait_for(
        lambda: all(m.deleted for u in players for m in alert_dms(fake, u)),
        10,
        what="no alert left behind",
    )


def ready_alerts(fake: FakeDiscord, user: FakeUser, hand: int) -> list[FakeMessage]:
    """The ready alert DMs of the 准备 check after hand ``hand`` (deleted ones too)."""
    return [
        m
        for m in ready_alert_dms(fake, user)
        if f"第{hand}局" in m.content or f"Hand {hand} " in m.content
    ]


async def test_only_a_player_who_leaves_the_ready_check_open_gets_a_ready_alert(
    fake: FakeDiscord, bot_factory
) -> None:
    delay = min(30.0, round(fake.scaled(1.0), 1))
    await start_bot(bot_factory, ALERT_DELAY_SECONDS=str(delay))
    alice, bob = fake.user("alice"), fake.user("bob")
    players = [alice, bob]
    gid, _lobby = await open_game(fake, alice, [bob], variant="xinyu", length="4")
    # hand 1: both press 准备 as soon as the result shows — no ready alert at all
    result = await play_hand(fake, players, gid, hand_no=1)
    for user in players:
        await click_ok(fake, user, fake.messages[result.id], f"mj:{gid}:next:1")
    loop = asyncio.get_running_loop()
    due = loop.time() + delay + fake.scaled(0.5)  # (when an alert of hand 1 would be out)
    result = await play_hand(fake, players, gid, hand_no=2)
    while (left := due - loop.time()) > 0:
        await fake.wait_change(fake.changes, left)
    assert [ready_alerts(fake, u, 1) for u in players] == [[], []]

    # hand 2: nobody presses — one alert each, no sooner than the delay after the result
    alerts = []
    for user in players:
        [alert] = await fake.wait_for(
            lambda u=user: ready_alerts(fake, u, 2), delay + 20, what=f"{user.name}'s ready alert"
        )
        assert alert.created_at - result.created_at >= delay - 0.05
        alerts.append(alert)
    until = loop.time() + delay + fake.scaled(0.5)  # another delay: still one each
    while (left := until - loop.time()) > 0:
        await fake.wait_change(fake.changes, left)
    assert [ready_alert_dms(fake, u) for u in players] == [[a] for a in alerts]  # (ever)
    # they press: each alert is taken away, hand 3 is dealt
    for user, alert in zip(players, alerts, strict=True):
        await click_ok(fake, user, fake.messages[result.id], f"mj:{gid}:next:2")
        await fake.wait_for(
            lambda a=alert: fake.messages[a.id].deleted, 10, what="the ready alert taken away"
        )
    await fake.wait_for(lambda: result_message(fake, gid, 2) is None, 10, what="hand 3 dealt")
    check_privacy(fake)
