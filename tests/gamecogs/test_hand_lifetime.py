"""How long :class:`cogs.delivery.hand_dm.HandMessages` edits a closed-DM player's ephemeral hand reply:
while the token of the interaction that made (or last renewed) it lives — never after, on
a clock the test moves by hand."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.delivery import hand_dm
from cogs.delivery.hand_dm import EPHEMERAL_LIFETIME, EPHEMERAL_LIFETIME_ENV, HandMessages
from cogs.delivery.places import Places
from cogs.delivery.preferences import Preferences

GAME, UID = 7, 42


class Reply:
    """The interaction behind an ephemeral hand reply; records the delivery's edits."""

    def __init__(self) -> None:
        self.edits: list[dict[str, Any]] = []

    async def edit_original_response(self, **fields: Any) -> None:
        self.edits.append(fields)


class Clock:
    """``time.monotonic`` for :mod:`cogs.delivery.hand_dm`, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    made = Clock()
    monkeypatch.setattr(hand_dm, "time", SimpleNamespace(monotonic=made.monotonic))
    return made


def hands(lifetime: float | None = None) -> HandMessages:
    bot: Any = SimpleNamespace()
    preferences = Preferences(None)
    return HandMessages(bot, Places(bot, preferences), preferences, ephemeral_lifetime=lifetime)


async def edit(messages: HandMessages) -> bool:
    embed = discord.Embed(description="**Tiles**：1m 2m 3m")
    return await messages._edit_ephemeral((GAME, UID), embed, None)


def test_the_lifetime_is_read_from_the_environment_when_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(EPHEMERAL_LIFETIME_ENV, "2.5")
    assert hands().ephemeral_lifetime == 2.5
    assert hands(30).ephemeral_lifetime == 30  # the bot's settings win
    monkeypatch.delenv(EPHEMERAL_LIFETIME_ENV)
    assert hands().ephemeral_lifetime == EPHEMERAL_LIFETIME


async def test_the_reply_is_edited_until_its_lifetime_and_never_after(clock: Clock) -> None:
    messages = hands(6)
    reply = Reply()
    messages.remember_ephemeral(GAME, UID, reply)  # type: ignore[arg-type]
    clock.now += 5.9
    assert messages.has_live_ephemeral(GAME, UID)
    assert await edit(messages) and len(reply.edits) == 1
    clock.now += 0.2  # 6.1 s after the reply: its token has lapsed
    assert not messages.has_live_ephemeral(GAME, UID)
    assert not await edit(messages)
    assert len(reply.edits) == 1  # the lapsed reply stays as it was
    assert (GAME, UID) not in messages.ephemeral  # and is forgotten


async def test_a_press_on_the_reply_renews_its_lifetime(clock: Clock) -> None:
    messages = hands(6)
    first, pressed = Reply(), Reply()
    messages.remember_ephemeral(GAME, UID, first)  # type: ignore[arg-type]
    clock.now += 4
    messages.remember_ephemeral(GAME, UID, pressed)  # type: ignore[arg-type]
    clock.now += 4  # 8 s after the reply, 4 s after the press
    assert await edit(messages)
    assert (len(first.edits), len(pressed.edits)) == (0, 1)  # with the press's fresh token
    clock.now += 2.5
    assert not await edit(messages) and len(pressed.edits) == 1
