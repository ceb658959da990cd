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


def test_a_messages_buttons_are_read_from_its_components() -> None:
    """Whether a pressed button is still on its message (else the press is stale) is read
    from the message's components: the same ids a ``discord.ui.View`` of it would hold."""
    from discord.components import _component_factory

    from cogs.components import component_ids

    view = discord.ui.View(timeout=None)
    view.add_item(GameButton(42, "discard", "5m").item)
    view.add_item(GameButton(42, "pass").item)
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id="mj:42:pick", options=[discord.SelectOption(label="a")], row=2
    )
    view.add_item(select)
    view.add_item(discord.ui.Button(label="link", url="https://example.com", row=3))
    rows = [_component_factory(row) for row in view.to_components()]
    message: Any = SimpleNamespace(components=rows)
    expected = {
        item.custom_id
        for item in discord.ui.View.from_message(message, timeout=None).walk_children()
        if getattr(item, "custom_id", None)
    }
    assert component_ids(rows) == expected == {"mj:42:discard:5m", "mj:42:pass", "mj:42:pick"}
    assert component_ids([]) == set()
