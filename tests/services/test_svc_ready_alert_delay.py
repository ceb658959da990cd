"""Delayed ready alerts (:mod:`cogs.game.session`, ``ALERT_DELAY_SECONDS``): after a hand's
result, a human still not ready the delay after the result was delivered gets one alert (a
DM, or a mention where the game plays when their DMs are closed), taken away once they press
准备 or the next hand starts; one who presses sooner gets nothing sent and nothing deleted.
A fake clock moves time on (no test waits the delay for real)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from typing import Any

import pytest
from svc_helpers import USERS, settle
from test_svc_alert_delay import DELAY, Clock, SlowChannel
from test_svc_play import play_until_over
from test_svc_session import open_game
from test_svc_turn_ping import CHANNEL, UID, Bot, Channel, Message, summary

from cogs.delivery.alerts import Alerts
from cogs.delivery.discord_delivery import DiscordDelivery
from cogs.game.session import SessionMessages
from services.delivery import GameSummary
from services.model import Seat
from services.session_state import SessionInfo

#: the 摊牌 result message the alert links to
RESULT_ID = 4242


def ready_game(*, ready: bool = False, hand: int = 1, **kw: Any) -> GameSummary:
    """Game 7 after hand ``hand``: its 准备 check open, waiting for UID (the only human)
    unless ``ready``."""
    seats = (Seat("x", ai=True), Seat("me", user_id=UID), Seat("y", ai=True), Seat("z", ai=True))
    info = SessionInfo(
        length="8",
        ready_open=True,
        ready_hand=hand,
        ready_deadline=time.time() + 60,
        ready=(True, ready, True, True),
    )
    base: dict[str, Any] = {"seats": seats, "session": info, "hand_no": hand, "phase": "hand_over"}
    return summary(**{**base, **kw})


def next_hand() -> GameSummary:
    """Hand 2 dealt: the check after hand 1 is over."""
    game = ready_game()
    assert game.session is not None
    return replace(game, hand_no=2, phase="turn", session=replace(game.session, ready_open=False))


class DmBot(Bot):
    """The fake bot, also reached through a partial messageable of a known DM channel."""

    def get_partial_messageable(self, channel_id: int, **kw: Any) -> Channel:
        return self.get_channel(channel_id)


class Service:
    """The service's side: whether the check still waits for the user, as committed."""

    shared = False

    def __init__(self) -> None:
        self.waiting = True
        self.asked: list[tuple[int, int, int]] = []

    def ready_waiting(self, game_id: int, user_id: int, hand: int) -> bool | None:
        self.asked.append((game_id, user_id, hand))
        return self.waiting


def make_delivery(
    clock: Clock,
    *,
    closed: bool = False,
    mode: str = "on",
    bot: Bot | None = None,
    stored: dict[str, Any] | None = None,
) -> tuple[DiscordDelivery, Bot]:
    """The delivery with the alert delay on the fake clock; the ready alerts share the turn
    alerts' delayed sends (as :class:`cogs.delivery.discord_delivery.DiscordDelivery` wires them). ``stored``:
    the game's remembered messages as a restart finds them."""
    bot = bot or DmBot(closed=closed)
    delivery = DiscordDelivery(bot, ephemeral_lifetime=60)  # type: ignore[arg-type]
    delivery.alerts = Alerts(
        delivery.places, delivery.preferences, delivery.hands, delay=DELAY, sleep=clock.sleep
    )
    delivery.session = SessionMessages(
        delivery.places, delivery.preferences, delivery.hands, delivery.alerts.due
    )
    delivery.places.save_refs = _no_save  # type: ignore[method-assign]
    delivery.preferences.set_user_alerts(UID, mode)
    delivery.preferences.note_user(UID, "zh-CN")
    refs = delivery.places.refs(ready_game(messages=stored or {}))
    refs.setdefault("result", [CHANNEL, RESULT_ID, 1])
    return delivery, bot


async def _no_save(game_id: int, *, wait: bool = True) -> None:
    return None


def ready_alerts(bot: Bot) -> list[Message]:
    """The ready alert DMs sent (deleted ones too)."""
    return [m for m in bot.dm.sent if "「准备」" in m.content]


def alert_tasks() -> list[asyncio.Task[Any]]:
    return [t for t in asyncio.all_tasks() if t.get_name().startswith("mj-alert-") and not t.done()]


async def test_a_player_who_presses_within_the_delay_gets_nothing() -> None:
    clock = Clock()
    delivery, bot = make_delivery(clock)
    await delivery.session_changed(ready_game(), None)
    await clock.advance(DELAY - 1)
    await delivery.session_changed(ready_game(ready=True), None)  # 准备 pressed
    assert alert_tasks() == []  # the wait ends with the press
    await clock.advance(10 * DELAY)
    assert bot.dm.sent == [] and bot.dm.deleted == []  # nothing sent, nothing deleted
    assert bot.channel.sent == [] and alert_tasks() == []
    # the same when the next hand is dealt within the delay
    await delivery.session_changed(ready_game(hand=2), None)
    await clock.advance(DELAY / 2)
    await delivery.session_changed(replace(next_hand(), hand_no=3), None)
    await clock.advance(10 * DELAY)
    assert bot.dm.sent == [] and bot.dm.deleted == [] and alert_tasks() == []


async def test_a_player_who_does_not_press_gets_exactly_one_after_the_delay() -> None:
    clock = Clock()
    delivery, bot = make_delivery(clock)
    game = ready_game()
    await delivery.session.update_ready_alerts(game)  # the result was posted
    await clock.advance(DELAY - 0.1)
    assert ready_alerts(bot) == []
    await delivery.session_changed(game, None)  # (another change: the wait runs on)
    await clock.advance(0.2)
    [alert] = ready_alerts(bot)
    assert "第1局" in alert.content and f"/{CHANNEL}/{RESULT_ID}" in alert.content
    assert game.session is not None and game.session.ready_deadline is not None
    assert f"<t:{int(game.session.ready_deadline)}:R>" in alert.content
    await delivery.session_changed(game, None)
    await clock.advance(10 * DELAY)
    assert len(ready_alerts(bot)) == 1 and bot.dm.deleted == []
    await delivery.session_changed(ready_game(ready=True), None)
    assert bot.dm.deleted == [alert.id]  # gone once ready
    # the next check: one again, taken away when the next hand is dealt (nobody pressed:
    # the ready timeout put them on 托管)
    await delivery.session_changed(ready_game(hand=2), None)
    await clock.advance(DELAY + 1)
    [_, second] = ready_alerts(bot)
    await delivery.session_changed(replace(next_hand(), hand_no=3), None)
    assert bot.dm.deleted == [alert.id, second.id] and alert_tasks() == []


async def test_a_press_still_queued_for_delivery_is_not_alerted() -> None:
    """The player pressed just before the delay ended, but the update saying so waits in the
    game's delivery queue: the service (committed state) says the check waits no more."""
    clock = Clock()
    delivery, bot = make_delivery(clock)
    service = Service()
    delivery.places.service = service  # type: ignore[assignment]
    await delivery.session_changed(ready_game(), None)
    service.waiting = False
    await clock.advance(DELAY + 1)
    assert bot.dm.sent == [] and service.asked == [(7, UID, 1)]
    await delivery.session_changed(ready_game(ready=True), None)
    assert bot.dm.deleted == []
    # the next check, still waiting as committed: alerted
    service.waiting = True
    await delivery.session_changed(ready_game(hand=2), None)
    await clock.advance(DELAY + 1)
    assert len(ready_alerts(bot)) == 1 and service.asked[-1] == (7, UID, 2)


async def test_closed_dms_get_a_mention_after_the_delay() -> None:
    clock = Clock()
    delivery, bot = make_delivery(clock, closed=True)
    await delivery.session_changed(ready_game(), None)
    await clock.advance(DELAY - 0.5)
    assert bot.channel.sent == [] and bot.dm.sent == []
    await clock.advance(1)
    [ping] = bot.channel.sent
    assert ping.content.startswith(f"<@{UID}>") and "第1局" in ping.content
    await delivery.session_changed(ready_game(ready=True), None)
    assert bot.channel.deleted == [ping.id]
    # pressed within the delay: no mention at all
    await delivery.session_changed(ready_game(hand=2), None)
    await clock.advance(DELAY - 1)
    await delivery.session_changed(ready_game(hand=2, ready=True), None)
    await clock.advance(10 * DELAY)
    assert bot.channel.sent == [ping] and bot.channel.deleted == [ping.id]


@pytest.mark.parametrize("mode", ["off", "claims"])
async def test_a_player_without_ready_alerts_gets_none(mode: str) -> None:
    clock = Clock()
    delivery, bot = make_delivery(clock, mode=mode)
    await delivery.session_changed(ready_game(), None)
    assert alert_tasks() == []
    await clock.advance(10 * DELAY)
    assert bot.dm.sent == [] and bot.channel.sent == []


async def test_no_ready_alert_outlives_the_game_or_the_bot() -> None:
    clock = Clock()
    delivery, bot = make_delivery(clock)
    await delivery.session_changed(ready_game(), None)
    assert len(alert_tasks()) == 1
    await delivery.alerts.close_alerts(replace(ready_game(), status="finished"))
    assert alert_tasks() == []
    await clock.advance(10 * DELAY)
    assert bot.dm.sent == []
    # the game ends by a vote while the alert waits: none
    await delivery.session_changed(ready_game(hand=2), None)
    assert len(alert_tasks()) == 1
    await delivery.session_changed(replace(ready_game(hand=2), status="finished"), None)
    assert alert_tasks() == []
    await clock.advance(10 * DELAY)
    assert bot.dm.sent == []
    # shut-down
    await delivery.session_changed(ready_game(hand=3), None)
    assert len(alert_tasks()) == 1
    await delivery.close()
    assert alert_tasks() == []
    await clock.advance(10 * DELAY)
    assert bot.dm.sent == []


async def test_a_restart_sends_a_waiting_alert_never_and_a_sent_one_never_twice() -> None:
    """A waiting alert is not remembered: after a restart that check gets none; an alert
    sent before the restart stands (never a second) and is taken away once they press."""
    clock = Clock()
    delivery, bot = make_delivery(clock)
    await delivery.session_changed(ready_game(), None)
    held = delivery.places.held(ready_game(), "session_alerts")
    stored = {"session_alerts": {k: list(v) for k, v in held.items()}}
    assert stored["session_alerts"][str(UID)][:2] == [0, 0]  # (no alert message yet)
    await delivery.close()  # (a crash loses the waiting task the same way)
    again, _ = make_delivery(clock, bot=bot, stored=stored)
    await again.session_changed(ready_game(), None)
    await clock.advance(10 * DELAY)
    assert bot.dm.sent == []
    # the next check is alerted; a restart after its alert went out adopts it
    await again.session_changed(ready_game(hand=2), None)
    await clock.advance(DELAY + 1)
    [alert] = ready_alerts(bot)
    held = again.places.held(ready_game(), "session_alerts")
    stored = {"session_alerts": {k: list(v) for k, v in held.items()}}
    third, _ = make_delivery(clock, bot=bot, stored=stored)
    await third.session_changed(ready_game(hand=2), None)
    await clock.advance(10 * DELAY)
    assert ready_alerts(bot) == [alert] and bot.dm.deleted == []
    await third.session_changed(ready_game(hand=2, ready=True), None)
    assert bot.dm.deleted == [alert.id]


async def test_the_service_says_whether_the_ready_check_waits_for_a_user(
    make_service: Any,
) -> None:
    """:meth:`GameService.ready_waiting`: true while the check after that hand is open and
    the user not ready; false once they pressed, for another hand, for a stranger; None for a
    game this process does not hold."""
    svc = make_service()
    gid = await open_game(svc, 2, length="8")
    assert svc.ready_waiting(gid, USERS[0], 1) is False  # the hand is being played
    await play_until_over(svc, gid, USERS[:2])
    assert svc.ready_waiting(gid, USERS[0], 1) is True
    assert svc.ready_waiting(gid, USERS[0], 2) is False
    assert svc.ready_waiting(gid, 999, 1) is False
    await svc.ready(gid, USERS[0])
    assert svc.ready_waiting(gid, USERS[0], 1) is False
    assert svc.ready_waiting(gid, USERS[1], 1) is True
    await svc.ready(gid, USERS[1])  # the next hand is dealt
    assert svc.ready_waiting(gid, USERS[1], 1) is False
    assert svc.ready_waiting(gid + 1000, USERS[0], 1) is None
    await settle(svc)


async def test_an_alert_being_sent_when_the_player_presses_is_taken_away() -> None:
    """The send is never cancelled halfway (it may have reached Discord): the press's update
    waits for it, then deletes it — no ready alert is ever left behind."""
    clock = Clock()
    bot = DmBot()
    bot.dm = SlowChannel(bot.dm.id)
    bot.channels[bot.dm.id] = bot.dm
    delivery, _ = make_delivery(clock, bot=bot)
    await delivery.session_changed(ready_game(), None)
    bot.dm.hold = True
    await clock.advance(DELAY + 1)
    assert bot.dm.started.is_set() and bot.dm.sent == []
    pressed = asyncio.create_task(delivery.session_changed(ready_game(ready=True), None))
    await clock.advance(0)
    assert not pressed.done()  # waits for the send under way
    bot.dm.release.set()
    await pressed
    [alert] = ready_alerts(bot)
    assert bot.dm.deleted == [alert.id] and alert_tasks() == []
