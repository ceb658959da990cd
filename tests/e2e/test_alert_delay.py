"""End-to-end: delayed turn and claim alerts (``ALERT_DELAY_SECONDS``, :mod:`cogs.alerts`).

Through the real bot: players who answer within the delay get no alert message at all; a
player who leaves a decision open gets exactly one, the delay after the decision was shown,
taken away once they act; nothing public shows who was asked."""

from __future__ import annotations

import asyncio
from functools import partial

import pytest

from .fake_discord import FakeDiscord, FakeMessage, FakeUser
from .game_driver import (
    check_privacy,
    choose,
    click_ok,
    hand_message,
    open_game,
    play_hand,
    start_bot,
    wait_still,
)
from .test_game_discord import alert_dms

pytestmark = pytest.mark.e2e


def dm_edits(fake: FakeDiscord, user: FakeUser, gid: int) -> int:
    """How many times the user's hand DM of game ``gid`` was edited so far."""
    msg = hand_message(fake, user, gid)
    return len(fake.messages[msg.id].edit_times) if msg is not None else 0


def asked_moment(hand: FakeMessage, alert: FakeMessage) -> float:
    """When the decision the alert is about was shown: the hand DM's last edit before it."""
    return max(t for t in [hand.created_at, *hand.edit_times] if t <= alert.created_at)


async def test_only_a_player_who_leaves_a_decision_open_is_alerted(
    fake: FakeDiscord, bot_factory
) -> None:
    delay = min(30.0, round(fake.scaled(1.0), 1))
    proc = await start_bot(bot_factory, ALERT_DELAY_SECONDS=str(delay))
    alice, bob = fake.user("alice"), fake.user("bob")
    players = [alice, bob]
    gid, _lobby = await open_game(fake, alice, [bob], variant="xinyu")

    # both answer at once for a while: no alert message at all (nothing sent or deleted)
    edits = partial(dm_edits, fake, gid=gid)
    await play_hand(fake, players, gid, until=lambda: True if edits(alice) >= 6 else None)
    await wait_still(fake, proc, players, gid)
    assert [alert_dms(fake, u) for u in players] == [[], []]

    # now whoever is asked leaves the decision open: one alert each, after the delay
    asked = [u for u in players if choose(fake.messages[hand_message(fake, u, gid).id])]
    assert asked
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
    delay = min(30.0, round(fake.scaled(1.0), 1))
    proc = await start_bot(bot_factory, ALERT_DELAY_SECONDS=str(delay))
    alice, bob = fake.user("alice"), fake.user("bob")
    players = [alice, bob]
    gid, _lobby = await open_game(fake, alice, [bob], variant="xinyu")

    edits = partial(dm_edits, fake, gid=gid)
    await play_hand(fake, players, gid, until=lambda: True if edits(alice) >= 4 else None)
    await wait_still(fake, proc, players, gid)
    await proc.kill()
    await proc.start_ready()
    await wait_still(fake, proc, players, gid)
    asked = [u for u in players if choose(fake.messages[hand_message(fake, u, gid).id])]
    assert asked
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
