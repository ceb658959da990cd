"""The "your turn" ping for players whose DMs are closed: the service marks each decision
(``PrivateUpdate.prompt``) and the Discord delivery pings once per decision, only when the
player has no ephemeral hand reply it can still edit."""

from __future__ import annotations

import time
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import discord
from svc_helpers import USERS, lobby_with, settle, simple_choice

from cogs.delivery import EPHEMERAL_LIFETIME, DiscordDelivery, lifetime_from_env
from cogs.text import t
from services.delivery import GameSummary, PrivateUpdate
from services.model import ActionKey, HandView, Seat

UID = 501


class Channel:
    def __init__(self) -> None:
        self.sent: list[tuple[str, Any]] = []

    async def send(self, content: str = "", **kw: Any) -> None:
        self.sent.append((content, kw.get("allowed_mentions")))


class Bot:
    def __init__(self) -> None:
        self.channel = Channel()

    def get_channel(self, channel_id: int) -> Channel:
        return self.channel

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
        "channel_id": 2,
        "variant": "xinyu",
        "options": {},
        "seats": seats,
        "status": "active",
        "version": 10,
        "totals": (0, 0, 0, 0),
        "hand_no": 1,
        "phase": "turn",
    }
    base.update(kw)
    return GameSummary(**base)


def update(prompt: int, *, asked: bool = True, drawn: int | None = 5) -> PrivateUpdate:
    legal = (ActionKey("discard", "1m"), ActionKey("discard", "6m")) if asked else ()
    hand = HandView(
        seat=1,
        concealed=(0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 31, 32),
        drawn=drawn,
        melds=(),
        legal=legal,
    )
    return PrivateUpdate(seat=1, user_id=UID, hand=hand, prompt=prompt)


def closed_dm_delivery() -> tuple[DiscordDelivery, Channel]:
    bot = Bot()
    delivery = DiscordDelivery(bot, ephemeral_lifetime=60)  # type: ignore[arg-type]
    delivery.dm_closed.add(UID)
    delivery.notified_closed.add((7, UID))
    return delivery, bot.channel


async def test_one_ping_per_decision_without_a_hand_to_edit():
    delivery, channel = closed_dm_delivery()
    await delivery.hand_changed(summary(version=10), update(10))
    # the same decision again (another change while it is open): no second ping
    await delivery.hand_changed(summary(version=11), update(10, drawn=6))
    # not asked: no ping; a new decision: one more
    await delivery.hand_changed(summary(version=12), update(10, asked=False))
    await delivery.hand_changed(summary(version=13), update(13))
    expected = t("line_your_turn", "zh", mention=f"<@{UID}>")
    assert [c for c, _m in channel.sent] == [expected, expected]
    assert all(m is not None and m.users is True for _c, m in channel.sent)
    assert "1m" not in expected and "一万" not in expected  # never a tile


async def test_no_ping_while_the_ephemeral_reply_can_be_edited():
    delivery, channel = closed_dm_delivery()
    reply = Ephemeral()
    delivery.remember_ephemeral(7, UID, reply)  # type: ignore[arg-type]
    await delivery.hand_changed(summary(version=10), update(10))
    assert reply.edits == 1 and channel.sent == []
    # it lapses: the next decision gets a ping and the reply is no longer edited
    delivery.ephemeral[(7, UID)] = (time.monotonic() - 61, reply)  # type: ignore[assignment]
    await delivery.hand_changed(summary(version=11), update(11))
    assert reply.edits == 1 and len(channel.sent) == 1
    # Discord refusing the edit counts as lapsed too
    delivery.remember_ephemeral(7, UID, Ephemeral(fail=True))  # type: ignore[arg-type]
    await delivery.hand_changed(summary(version=12), update(12))
    assert len(channel.sent) == 2


async def test_no_ping_for_a_seat_on_autoplay_or_a_finished_game():
    delivery, channel = closed_dm_delivery()
    game = summary()
    auto = tuple(replace(s, auto=True) if s.user_id == UID else s for s in game.seats)
    await delivery.hand_changed(summary(seats=auto), update(10))
    await delivery.hand_changed(summary(version=11, status="finished"), update(11))
    assert channel.sent == []


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
    assert delivered and all(u.prompt > 0 for u in delivered)
