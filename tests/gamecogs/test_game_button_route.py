"""A game button press travels as the bot event ``game_button``: the buttons (cogs.views)
need not import the game cog that answers them (cogs.game), so the two make no circle."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import discord

from cogs.game import Game
from cogs.views import CUSTOM_ID, GameButton


class RecordingClient:
    def __init__(self) -> None:
        self.events: list[tuple[str, tuple[Any, ...]]] = []

    def dispatch(self, event: str, *args: Any) -> None:
        self.events.append((event, args))


async def test_a_press_is_announced_with_the_game_kind_and_argument() -> None:
    client = RecordingClient()
    interaction: Any = SimpleNamespace(client=client)
    match = re.fullmatch(CUSTOM_ID, "mj:42:discard:5m")
    assert match is not None
    pressed: discord.ui.Button[Any] = discord.ui.Button(label="5万")
    button = await GameButton.from_custom_id(interaction, pressed, match)
    assert button.item.label == "5万"  # the press keeps the button's label
    await button.callback(interaction)
    assert client.events == [("game_button", (interaction, 42, "discard", "5m"))]


async def test_a_press_without_argument_is_announced_with_none() -> None:
    client = RecordingClient()
    interaction: Any = SimpleNamespace(client=client)
    await GameButton(7, "pass").callback(interaction)
    assert client.events == [("game_button", (interaction, 7, "pass", None))]


def test_the_game_cog_listens_for_the_presses() -> None:
    listeners = dict(Game.__cog_listeners__)
    assert listeners.get("on_game_button") == "on_game_button"
