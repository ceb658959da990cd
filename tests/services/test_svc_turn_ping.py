"""Turn alerts in the Discord delivery (:mod:`cogs.delivery.alerts`): one new message per decision
(the service numbers them: ``PrivateUpdate.alert``), taken away once the player acts; for a
player whose DMs are closed, a mention on their turn only (a claim is never public); never
for a seat on 托管. The service marks each decision (``PrivateUpdate.prompt``) for stale
buttons."""

from __future__ import annotations

import itertools
import time
from dataclasses import replace
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import discord
from svc_helpers import USERS, lobby_with, settle, simple_choice

from cogs.delivery.discord_delivery import DiscordDelivery
from cogs.delivery.hand_dm import EPHEMERAL_LIFETIME, lifetime_from_env
from services.delivery import GameSummary, PrivateUpdate
from services.model import ActionKey, HandView, Seat

UID = 501
CHANNEL = 2
_ids = itertools.count(1)


def snowflake() -> int:
    return discord.utils.time_snowflake(datetime.now(UTC)) + next(_ids)


class Message:
    def __init__(self, channel: Channel, content: str, kw: dict[str, Any]) -> None:
        self.id = snowflake()
        self.channel = channel
        self.content = content
        self.kw = kw
        self.edits = 0

    async def edit(self, **kw: Any) -> None:
        self.edits += 1


class Partial:
    def __init__(self, channel: Channel, message_id: int) -> None:
        self.channel = channel
        self.id = message_id

    async def delete(self) -> None:
        self.channel.deleted.append(self.id)

    async def edit(self, **kw: Any) -> None:
        return None


class Channel:
    def __init__(self, channel_id: int, *, closed: bool = False) -> None:
        self.id = channel_id
        self.closed = closed
        self.sent: list[Message] = []
        self.deleted: list[int] = []

    async def send(self, content: str = "", **kw: Any) -> Message:
        if self.closed:
            raise discord.Forbidden(
                SimpleNamespace(status=403, reason="Forbidden"),
                {"code": 50007, "message": "Cannot send messages to this user"},
            )
        message = Message(self, content, kw)
        self.sent.append(message)
        return message

    def get_partial_message(self, message_id: int) -> Partial:
        return Partial(self, message_id)

    def live(self) -> list[Message]:
        return [m for m in self.sent if m.id not in self.deleted]


class Bot:
    def __init__(self, *, closed: bool = False) -> None:
        self.channels: dict[int, Channel] = {CHANNEL: Channel(CHANNEL)}
        self.dm = Channel(9000 + UID, closed=closed)
        self.channels[self.dm.id] = self.dm

    @property
    def channel(self) -> Channel:
        return self.channels[CHANNEL]

    def get_channel(self, channel_id: int) -> Channel:
        return self.channels.setdefault(channel_id, Channel(channel_id))

    def get_partial_messageable(self, channel_id: int) -> Channel:
        return self.get_channel(channel_id)

    async def create_dm(self, user: Any) -> Channel:
        return self.dm

    def is_closed(self) -> bool:
        return False


class Ephemeral:
    """An interaction whose reply the delivery edits; ``fail`` makes Discord refuse."""

    def __init__(self, fail: bool = False) -> None:
        self.edits = 0
        self.fail = fail

    async def edit_original_response(self, **kw: Any) -> None:
        if self.fail:
            raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), "gone")
        self.edits += 1


def summary(**kw: Any) -> GameSummary:
    seats = (Seat("a", user_id=9), Seat("me", user_id=UID), Seat("x", ai=True), Seat("y", ai=True))
    base: dict[str, Any] = {
        "id": 7,
        "guild_id": 1,
        "channel_id": CHANNEL,
        "variant": "xinyu",
        "options": {},
        "seats": seats,
        "status": "active",
        "version": 10,
        "totals": (0, 0, 0, 0),
        "hand_no": 1,
        "phase": "turn",
        "deadline": time.time() + 60,
    }
    base.update(kw)
    return GameSummary(**base)


def update(alert: int, *, kind: str = "turn", drawn: int | None = 5) -> PrivateUpdate:
    """An update asking the seat (``alert`` > 0, a ``turn`` or a ``claim``) or not (0)."""
    legal: tuple[ActionKey, ...] = ()
    if alert:
        legal = (
            (ActionKey("discard", "1m"), ActionKey("discard", "6m"))
            if kind == "turn"
            else (ActionKey("pong"), ActionKey("pass"))
        )
    hand = HandView(
        seat=1,
        concealed=(0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 31, 32),
        drawn=drawn,
        melds=(),
        legal=legal,
    )
    return PrivateUpdate(
        seat=1,
        user_id=UID,
        hand=hand,
        prompt=alert,
        alert=alert,
        alert_kind=kind if alert else "",
    )


def make_delivery(*, closed: bool = False, mode: str = "on") -> tuple[DiscordDelivery, Bot]:
    bot = Bot(closed=closed)
    delivery = DiscordDelivery(bot, ephemeral_lifetime=60)  # type: ignore[arg-type]
    delivery.preferences.set_user_images(UID, False)
    delivery.preferences.set_user_alerts(UID, mode)
    delivery.preferences.note_user(UID, "zh-CN")
    return delivery, bot


def alerts(channel: Channel) -> list[Message]:
    return [m for m in channel.sent if m.content.startswith("🀄")]


async def test_one_alert_dm_per_decision_taken_away_once_acted() -> None:
    delivery, bot = make_delivery()
    # the deal asks the seat: the new hand DM notifies by itself, no second message
    await delivery.hand_changed(summary(version=10), update(10))
    [hand] = bot.dm.sent
    assert hand.kw.get("embed") is not None and alerts(bot.dm) == []
    # more of the same decision (a kong, then its replacement draw): no alert
    await delivery.hand_changed(summary(version=11), update(10, drawn=6))
    await delivery.hand_changed(summary(version=12), update(0))  # it acted
    assert alerts(bot.dm) == [] and len(bot.dm.sent) == 1
    # the next decision: one short DM with the hand, the deadline and a link to the hand
    game = summary(version=13)
    await delivery.hand_changed(game, update(13))
    [alert] = alerts(bot.dm)
    assert "轮到你出牌" in alert.content and "第1局" in alert.content
    assert f"<t:{int(game.deadline)}:R>" in alert.content
    assert f"/channels/@me/{bot.dm.id}/{hand.id}" in alert.content
    assert "1m" not in alert.content and "一万" not in alert.content  # never a tile
    await delivery.hand_changed(summary(version=14), update(13, drawn=7))
    assert len(alerts(bot.dm)) == 1  # still the same decision
    await delivery.hand_changed(summary(version=15), update(0))
    assert bot.dm.deleted == [alert.id]  # gone once acted
    # a claim says so
    await delivery.hand_changed(summary(version=16, phase="claim"), update(16, kind="claim"))
    assert "吃碰杠胡" in alerts(bot.dm)[-1].content
    assert hand.edits >= 4  # the hand DM itself is edited, never sent again


async def test_alert_choices() -> None:
    delivery, bot = make_delivery(mode="claims")
    await delivery.hand_changed(summary(version=10), update(0))  # the deal, not asked
    await delivery.hand_changed(summary(version=11), update(11))  # a turn: no alert
    await delivery.hand_changed(summary(version=12), update(0))
    await delivery.hand_changed(summary(version=13, phase="claim"), update(13, kind="claim"))
    assert [("吃碰杠胡" in m.content) for m in alerts(bot.dm)] == [True]
    delivery.preferences.set_user_alerts(UID, "off")
    await delivery.hand_changed(summary(version=14), update(0))
    await delivery.hand_changed(summary(version=15, phase="claim"), update(15, kind="claim"))
    assert len(alerts(bot.dm)) == 1


async def test_closed_dms_get_a_mention_on_their_turn_never_for_a_claim() -> None:
    delivery, bot = make_delivery(closed=True)
    delivery.hands.dm_closed.add(UID)
    delivery.hands.notified_closed.add((7, UID))
    await delivery.hand_changed(summary(version=10, phase="claim"), update(10, kind="claim"))
    assert bot.channel.sent == []  # a public mention would tell who may claim
    await delivery.hand_changed(summary(version=11), update(0))
    await delivery.hand_changed(summary(version=12), update(12))
    [ping] = bot.channel.sent
    assert ping.content.startswith(f"<@{UID}>") and "🀄" in ping.content
    allowed = ping.kw["allowed_mentions"]
    assert [u.id for u in allowed.users] == [UID] and not allowed.everyone
    assert "1m" not in ping.content and "一万" not in ping.content  # never a tile
    await delivery.hand_changed(summary(version=13), update(12, drawn=6))
    assert len(bot.channel.sent) == 1  # one per decision
    await delivery.hand_changed(summary(version=14), update(0))
    assert bot.channel.deleted == [ping.id]


async def test_a_closed_dm_turn_right_after_its_claim_window_gets_its_mention() -> None:
    """He may claim the discard before his turn, lets the window lapse, then draws: one alert
    episode (the service keeps it open through the claim), yet the claim could not be
    mentioned, so the turn is; its later steps (a kong, the replacement draw) are not."""
    delivery, bot = make_delivery(closed=True)
    delivery.hands.dm_closed.add(UID)
    delivery.hands.notified_closed.add((7, UID))
    await delivery.hand_changed(summary(version=10, phase="claim"), update(10, kind="claim"))
    assert bot.channel.sent == []
    await delivery.hand_changed(summary(version=11), update(10))  # same episode: his turn
    [ping] = bot.channel.sent
    assert ping.content.startswith(f"<@{UID}>")
    await delivery.hand_changed(summary(version=12), update(10, drawn=6))
    assert len(bot.channel.sent) == 1
    await delivery.hand_changed(summary(version=13), update(0))
    assert bot.channel.deleted == [ping.id]


async def test_an_alerted_claim_window_stands_for_the_turn_that_follows() -> None:
    """Open DMs: the claim's alert DM went out, so the turn of the same episode brings no
    second one; with ``claims`` alerts likewise (a turn is not among them)."""
    for mode in ("on", "claims"):
        delivery, bot = make_delivery(mode=mode)
        await delivery.hand_changed(summary(version=9), update(0))  # the hand DM
        await delivery.hand_changed(summary(version=10, phase="claim"), update(10, kind="claim"))
        await delivery.hand_changed(summary(version=11), update(10))
        assert [("吃碰杠胡" in m.content) for m in alerts(bot.dm)] == [True], mode


async def test_a_claim_left_silent_by_choice_then_the_turn() -> None:
    """``off``: neither the claim nor the turn of one episode alerts."""
    delivery, bot = make_delivery(mode="off")
    await delivery.hand_changed(summary(version=9), update(0))
    await delivery.hand_changed(summary(version=10, phase="claim"), update(10, kind="claim"))
    await delivery.hand_changed(summary(version=11), update(10))
    assert alerts(bot.dm) == []


async def test_the_closed_dm_notice_stands_for_the_decision_it_comes_with() -> None:
    delivery, bot = make_delivery(closed=True)
    await delivery.hand_changed(summary(version=10), update(10))  # the deal asks the dealer
    [notice] = bot.channel.sent
    assert f"<@{UID}>" in notice.content and "/mahjong hand" in notice.content
    assert UID in delivery.hands.dm_closed


async def test_no_alert_for_a_seat_on_autoplay_or_a_finished_game() -> None:
    delivery, bot = make_delivery()
    game = summary()
    auto = tuple(replace(s, auto=True) if s.user_id == UID else s for s in game.seats)
    await delivery.hand_changed(summary(version=9), update(0))
    await delivery.hand_changed(summary(seats=auto), update(10))
    await delivery.hand_changed(summary(version=11, status="finished"), update(11))
    assert alerts(bot.dm) == []


async def test_the_ephemeral_reply_is_edited_while_it_lives() -> None:
    delivery, _bot = make_delivery(closed=True)
    delivery.hands.dm_closed.add(UID)
    delivery.hands.notified_closed.add((7, UID))
    reply = Ephemeral()
    delivery.hands.remember_ephemeral(7, UID, reply)  # type: ignore[arg-type]
    await delivery.hand_changed(summary(version=10), update(10))
    assert reply.edits == 1
    delivery.hands.ephemeral[(7, UID)] = (time.monotonic() - 61, reply)  # type: ignore[assignment]
    await delivery.hand_changed(summary(version=11), update(10, drawn=6))
    assert reply.edits == 1  # lapsed: no longer edited
    delivery.hands.remember_ephemeral(7, UID, Ephemeral(fail=True))  # type: ignore[arg-type]
    await delivery.hand_changed(summary(version=12), update(10, drawn=7))
    assert (7, UID) not in delivery.hands.ephemeral  # Discord refused: forgotten


def test_the_lifetime_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("EPHEMERAL_LIFETIME_SECONDS", "3.5")
    assert lifetime_from_env() == 3.5
    for bad in ("abc", "-1", "0", str(EPHEMERAL_LIFETIME * 10)):
        monkeypatch.setenv("EPHEMERAL_LIFETIME_SECONDS", bad)
        assert lifetime_from_env() == EPHEMERAL_LIFETIME
    monkeypatch.delenv("EPHEMERAL_LIFETIME_SECONDS")
    assert lifetime_from_env() == EPHEMERAL_LIFETIME


async def test_the_service_marks_each_decision(make_service, delivery):
    """Every update of one decision carries the same ``prompt``; the next decision a new one."""
    svc = make_service()
    gid = await lobby_with(svc, 2, variant="xinyu")
    await svc.start(gid, USERS[0])
    prompts: list[int] = []
    for _ in range(6):
        for uid in USERS[:2]:
            view = await svc.private_view(gid, uid)
            if view.hand.legal:
                again = await svc.private_view(gid, uid)
                assert again.prompt == view.prompt  # a second look: the same decision
                prompts.append(view.prompt)
                drawn = None
                if view.hand.drawn is not None:
                    from engine.tiles import tile_str

                    drawn = tile_str(view.hand.drawn)
                await svc.act(gid, uid, simple_choice(view.hand.legal, drawn))
                break
    assert len(prompts) == 6 and prompts == sorted(set(prompts))  # new for each decision
    await settle(svc)
    delivered = [u for _g, u in delivery.named("hand") if u.hand.legal]
    assert delivered and all(u.prompt > 0 and u.alert > 0 for u in delivered)
