"""Delayed turn and claim alerts (:mod:`cogs.delivery.alerts`, ``ALERT_DELAY_SECONDS``): the alert
goes out only if the same decision is still open the delay after the update was delivered.
A player who acts sooner gets no alert message at all — no send, no deletion; one who does
not gets exactly one. A fake clock moves time on (no test waits the delay for real)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from svc_helpers import USERS, lobby_with, settle, simple_choice
from test_svc_turn_ping import UID, Bot, Channel, Message, alerts, summary, update

from cogs.delivery.alerts import Alerts
from cogs.delivery.discord_delivery import DiscordDelivery
from engine.tiles import tile_str

DELAY = 5.0


class Clock:
    """A fake clock for the delay: a sleep ends only when the test moves time past it."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeping: list[tuple[float, asyncio.Future[None]]] = []

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.sleeping.append((self.now + seconds, future))
        await future

    async def advance(self, seconds: float) -> None:
        """Move time on, wake the sleeps that are over and let what they started run."""
        await settled()  # (tasks just created begin their sleep at the present time)
        self.now += seconds
        for due, future in list(self.sleeping):
            if due <= self.now or future.done():
                self.sleeping.remove((due, future))
                if not future.done():
                    future.set_result(None)
        await settled()


async def settled() -> None:
    """Let the ready tasks run until they wait again (the fakes never wait on the network)."""
    for _ in range(50):
        await asyncio.sleep(0)


def make_delivery(
    clock: Clock, *, closed: bool = False, mode: str = "on", bot: Bot | None = None
) -> tuple[DiscordDelivery, Bot]:
    bot = bot or Bot(closed=closed)
    delivery = DiscordDelivery(bot, ephemeral_lifetime=60)  # type: ignore[arg-type]
    delivery.alerts = Alerts(
        delivery.places, delivery.preferences, delivery.hands, delay=DELAY, sleep=clock.sleep
    )
    delivery.preferences.set_user_images(UID, False)
    delivery.preferences.set_user_alerts(UID, mode)
    delivery.preferences.note_user(UID, "zh-CN")
    return delivery, bot


def alert_tasks() -> list[asyncio.Task[Any]]:
    return [t for t in asyncio.all_tasks() if t.get_name().startswith("mj-alert-") and not t.done()]


async def dealt(delivery: DiscordDelivery, bot: Bot) -> Message:
    """The deal (not asked yet): the hand DM the alerts link to."""
    await delivery.hand_changed(summary(version=9), update(0))
    [hand] = bot.dm.sent
    return hand


async def test_a_player_who_acts_within_the_delay_gets_no_alert_at_all() -> None:
    clock = Clock()
    delivery, bot = make_delivery(clock)
    await dealt(delivery, bot)
    await delivery.hand_changed(summary(version=10), update(10))
    await clock.advance(DELAY - 1)
    await delivery.hand_changed(summary(version=11), update(0))  # acted
    await clock.advance(10 * DELAY)
    assert alerts(bot.dm) == [] and bot.dm.deleted == []  # nothing sent, nothing deleted
    assert len(bot.dm.sent) == 1 and alert_tasks() == []
    # the same for a claim window the player answers
    claim = summary(version=12, phase="claim")
    await delivery.hand_changed(claim, update(12, kind="claim"))
    await clock.advance(1)
    await delivery.hand_changed(summary(version=13), update(0))
    await clock.advance(10 * DELAY)
    assert alerts(bot.dm) == [] and bot.dm.deleted == []


async def test_a_player_who_does_not_act_gets_exactly_one_alert_after_the_delay() -> None:
    clock = Clock()
    delivery, bot = make_delivery(clock)
    hand = await dealt(delivery, bot)
    game = summary(version=10)
    await delivery.hand_changed(game, update(10))
    await clock.advance(DELAY - 0.1)
    assert alerts(bot.dm) == []
    await clock.advance(0.2)
    [alert] = alerts(bot.dm)
    assert "轮到你出牌" in alert.content
    assert f"<t:{int(game.deadline or 0)}:R>" in alert.content  # the decision's own deadline
    assert f"/channels/@me/{bot.dm.id}/{hand.id}" in alert.content
    await clock.advance(10 * DELAY)
    await delivery.hand_changed(summary(version=11), update(10, drawn=6))  # a kong: same one
    await clock.advance(10 * DELAY)
    assert len(alerts(bot.dm)) == 1
    await delivery.hand_changed(summary(version=12), update(0))
    assert bot.dm.deleted == [alert.id]  # gone once acted
    # remembered with the game's messages, as an alert sent at once
    assert delivery.places.refs(game)["alerts"][str(UID)][:3] == [bot.dm.id, 0, 10]


async def test_a_newer_update_of_the_episode_waits_the_delay_again() -> None:
    """Draw → kong → the replacement draw: the player is acting, so the delay runs from the
    newest update; not asked for a moment (a kong others may rob) and asked again, too."""
    clock = Clock()
    delivery, bot = make_delivery(clock)
    await dealt(delivery, bot)
    await delivery.hand_changed(summary(version=10), update(10))
    await clock.advance(DELAY - 1)
    await delivery.hand_changed(summary(version=11), update(10, drawn=6))
    await clock.advance(DELAY - 1)
    await delivery.hand_changed(summary(version=12, phase="claim"), update(0))  # robbing?
    await clock.advance(DELAY - 1)
    await delivery.hand_changed(summary(version=13), update(10, drawn=7))
    await clock.advance(DELAY - 1)
    assert alerts(bot.dm) == []
    await clock.advance(1.5)
    assert len(alerts(bot.dm)) == 1


async def test_a_claim_alert_waiting_when_the_window_closes_is_never_sent() -> None:
    """Another seat pongs (or the window times out, or the seat goes on 托管): the episode
    is over before the delay, so nothing is sent."""
    clock = Clock()
    delivery, bot = make_delivery(clock)
    await dealt(delivery, bot)
    await delivery.hand_changed(summary(version=10, phase="claim"), update(10, kind="claim"))
    await clock.advance(DELAY / 2)
    await delivery.hand_changed(summary(version=11), update(0))  # the window closed
    await clock.advance(10 * DELAY)
    assert alerts(bot.dm) == [] and bot.dm.deleted == []
    # on 托管 (timed out): the seat is not asked any more
    await delivery.hand_changed(summary(version=12), update(12))
    game = summary(version=13)
    auto = tuple(replace(s, auto=True) if s.user_id == UID else s for s in game.seats)
    await delivery.hand_changed(replace(game, seats=auto), update(12, drawn=6))
    await clock.advance(10 * DELAY)
    assert alerts(bot.dm) == [] and alert_tasks() == []


async def test_closed_dms_get_their_turn_mention_after_the_delay_never_a_claim() -> None:
    clock = Clock()
    delivery, bot = make_delivery(clock, closed=True)
    delivery.hands.dm_closed.add(UID)
    delivery.hands.notified_closed.add((7, UID))
    # a claim window left to lapse: nothing public, before or after the delay
    await delivery.hand_changed(summary(version=10, phase="claim"), update(10, kind="claim"))
    await clock.advance(3 * DELAY)
    assert bot.channel.sent == [] and bot.channel.deleted == []
    # his turn in the same episode (he drew): the mention, once the delay is over
    await delivery.hand_changed(summary(version=11), update(10))
    await clock.advance(DELAY - 0.5)
    assert bot.channel.sent == []
    await clock.advance(1)
    [ping] = bot.channel.sent
    assert ping.content.startswith(f"<@{UID}>") and "🀄" in ping.content
    await delivery.hand_changed(summary(version=12), update(0))
    assert bot.channel.deleted == [ping.id]
    # his next turn, answered within the delay: no mention at all
    await delivery.hand_changed(summary(version=13), update(13))
    await clock.advance(DELAY - 1)
    await delivery.hand_changed(summary(version=14), update(0))
    await clock.advance(10 * DELAY)
    assert bot.channel.sent == [ping] and bot.channel.deleted == [ping.id]


class Service:
    """The service's side: whether the decision is still open as committed."""

    shared = False

    def __init__(self) -> None:
        self.open = True
        self.asked: list[tuple[int, int, int]] = []

    def decision_open(self, game_id: int, seat: int, prompt: int) -> bool | None:
        self.asked.append((game_id, seat, prompt))
        return self.open


async def test_a_press_whose_update_is_still_queued_is_not_pinged() -> None:
    """The player acted just before the delay ended, but the update saying so waits in the
    game's delivery queue: the service (committed state) says the decision is closed."""
    clock = Clock()
    delivery, bot = make_delivery(clock)
    service = Service()
    delivery.places.service = service  # type: ignore[assignment]
    delivery.places.save_refs = _no_save  # type: ignore[method-assign]
    await dealt(delivery, bot)
    await delivery.hand_changed(summary(version=10), update(10))
    service.open = False
    await clock.advance(DELAY + 1)
    assert alerts(bot.dm) == [] and service.asked == [(7, 1, 10)]
    # the queued update of the next decision brings its own wait
    service.open = True
    await delivery.hand_changed(summary(version=12), update(12))
    await clock.advance(DELAY + 1)
    assert len(alerts(bot.dm)) == 1


async def _no_save(game_id: int, *, wait: bool = True) -> None:
    return None


class SlowChannel(Channel):
    """A DM channel whose next send waits until the test lets it through."""

    def __init__(self, channel_id: int) -> None:
        super().__init__(channel_id)
        self.hold = False
        self.started = asyncio.Event()
        self.release = asyncio.Event()

    async def send(self, content: str = "", **kw: Any) -> Message:
        if self.hold and content.startswith("🀄"):
            self.started.set()
            await self.release.wait()
        return await super().send(content, **kw)


async def test_an_alert_being_sent_when_the_player_acts_is_taken_away() -> None:
    """The send is never cancelled halfway (it may have reached Discord): the player's next
    update waits for it, then deletes it — no alert is ever left behind."""
    clock = Clock()
    bot = Bot()
    bot.dm = SlowChannel(bot.dm.id)
    bot.channels[bot.dm.id] = bot.dm
    delivery, _ = make_delivery(clock, bot=bot)
    hand = await dealt(delivery, bot)
    await delivery.hand_changed(summary(version=10), update(10))
    bot.dm.hold = True
    await clock.advance(DELAY + 1)
    assert bot.dm.started.is_set() and alerts(bot.dm) == []
    edits = hand.edits
    acted = asyncio.create_task(delivery.hand_changed(summary(version=11), update(0)))
    await clock.advance(0)
    assert not acted.done() and hand.edits == edits  # the hand DM waits for the alert
    bot.dm.release.set()
    await acted
    assert hand.edits == edits + 1
    [alert] = alerts(bot.dm)
    assert bot.dm.deleted == [alert.id] and alert_tasks() == []


async def test_no_alert_outlives_the_game_or_the_bot() -> None:
    clock = Clock()
    delivery, bot = make_delivery(clock)
    await dealt(delivery, bot)
    game = summary(version=10)
    await delivery.hand_changed(game, update(10))
    assert len(alert_tasks()) == 1
    await delivery.alerts.close_alerts(replace(game, status="finished"))
    assert alert_tasks() == []
    await clock.advance(10 * DELAY)
    assert alerts(bot.dm) == []
    # shut-down
    await delivery.hand_changed(summary(version=11), update(11))
    assert len(alert_tasks()) == 1
    await delivery.close()
    assert alert_tasks() == []
    await clock.advance(10 * DELAY)
    assert alerts(bot.dm) == []


async def test_a_restart_while_an_alert_waits_arms_it_again_and_never_sends_two() -> None:
    """An alert waiting out the delay when the bot stops is armed again after the restart
    (the player is still asked, nothing reached them); an alert sent before the restart
    stands (never a second)."""
    clock = Clock()
    delivery, bot = make_delivery(clock)
    await dealt(delivery, bot)
    await delivery.hand_changed(summary(version=10), update(10))
    stored = {"alerts": {k: list(v) for k, v in delivery.places.held(summary(), "alerts").items()}}
    await delivery.close()  # (a crash loses the waiting task the same way)
    again, _ = make_delivery(clock, bot=bot)
    again.hands.dm_messages.update(delivery.hands.dm_messages)  # (refresh reopens them)
    game = summary(version=10, messages=stored)
    again.alerts.adopt_alerts(game)
    await again.alerts.update_alert(game, update(10))
    await clock.advance(DELAY / 2)
    assert alerts(bot.dm) == []  # the delay runs again from the resumed update
    await clock.advance(DELAY)
    [restored] = alerts(bot.dm)
    # the next episode is alerted as usual, and a restart then adopts it
    await again.alerts.update_alert(summary(version=12), update(12))
    assert bot.dm.deleted == [restored.id]
    await clock.advance(DELAY + 1)
    [alert] = alerts(bot.dm)[1:]
    stored = {"alerts": {k: list(v) for k, v in again.places.held(game, "alerts").items()}}
    third, _ = make_delivery(clock, bot=bot)
    third.hands.dm_messages.update(delivery.hands.dm_messages)
    game = summary(version=12, messages=stored)
    third.alerts.adopt_alerts(game)
    await third.alerts.update_alert(game, update(12))
    await clock.advance(10 * DELAY)
    assert alerts(bot.dm) == [restored, alert] and bot.dm.deleted == [restored.id]
    await third.alerts.update_alert(summary(version=13), update(0))
    assert bot.dm.deleted == [restored.id, alert.id]


async def test_a_waiting_alert_is_stored_only_once_it_goes_out() -> None:
    """An alert waiting out the delay is not written (a write per turn otherwise); once it
    went out it is, and so is the next episode's waiting alert, which takes its place (a
    restart must not find the taken-away alert and adopt it). A restart that finds only the
    older episode stored still alerts the decision once, after the delay."""
    clock = Clock()
    delivery, bot = make_delivery(clock)
    saves: list[int] = []
    real_save = delivery.places.save_refs

    async def counted(game_id: int, *, wait: bool = True) -> None:
        saves.append(game_id)
        await real_save(game_id, wait=wait)

    delivery.places.save_refs = counted  # type: ignore[method-assign]
    await dealt(delivery, bot)
    saves.clear()
    await delivery.hand_changed(summary(version=10), update(10))
    assert saves == []  # waiting: not written
    await clock.advance(DELAY + 1)
    [first] = alerts(bot.dm)
    assert saves  # sent: written
    saves.clear()
    await delivery.hand_changed(summary(version=12), update(12))
    assert bot.dm.deleted == [first.id] and saves  # the sent one taken away: written
    # a restart while the next one waits, finding the store as it was before it
    stored = {"alerts": {str(UID): [0, 0, 10, ""]}}
    await delivery.close()
    again, _ = make_delivery(clock, bot=bot)
    again.hands.dm_messages.update(delivery.hands.dm_messages)
    game = summary(version=12, messages=stored)
    again.alerts.adopt_alerts(game)
    await again.alerts.update_alert(game, update(12))
    await clock.advance(DELAY / 2)
    assert alerts(bot.dm) == [first]
    await clock.advance(DELAY)
    assert len(alerts(bot.dm)) == 2  # once


async def test_the_service_says_whether_a_decision_is_still_open(make_service) -> None:
    """:meth:`GameService.decision_open`: true for the prompt the seat is asked now, false
    once it acted (its next decision has another prompt) or for a seat not asked; None for a
    game this process does not hold."""
    svc = make_service()
    gid = await lobby_with(svc, 2, variant="xinyu")
    await svc.start(gid, USERS[0])
    for _ in range(4):
        views = {uid: await svc.private_view(gid, uid) for uid in USERS[:2]}
        uid, view = next((u, v) for u, v in views.items() if v.hand.legal)
        other = next(v for u, v in views.items() if u != uid)
        assert svc.decision_open(gid, view.seat, view.prompt) is True
        if not other.hand.legal:
            assert svc.decision_open(gid, other.seat, other.prompt) is False
        drawn = tile_str(view.hand.drawn) if view.hand.drawn is not None else None
        await svc.act(gid, uid, simple_choice(view.hand.legal, drawn))
        assert svc.decision_open(gid, view.seat, view.prompt) is False  # it acted
    assert svc.decision_open(gid + 1000, 0, 1) is None
    await settle(svc)
