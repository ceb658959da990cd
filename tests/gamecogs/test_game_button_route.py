"""A game button press is routed by its custom_id (``mj:<game>:<kind>[:<arg>]``) in the game
cog's ``on_interaction``, not by discord.py's view store: a press of a button on its message
is handled with the game, kind and argument; one that is not on its message is answered as
stale; the views carrying game buttons are never kept by discord.py (issue 15: no view is
rebuilt from the pressed message per press, none stored per message sent)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord.components import _component_factory

from cogs.components import component_ids
from cogs.game import commands as game_cog
from cogs.game.commands import Game
from cogs.game.views import GameButton, lobby_message
from services.delivery import GameSummary
from services.model import Seat


def _rows(*buttons: discord.ui.Item[Any]) -> list[Any]:
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(button)
    return [_component_factory(row) for row in view.to_components()]


def _press(custom_id: str, rows: list[Any] | None) -> Any:
    message = None if rows is None else SimpleNamespace(components=rows)
    return SimpleNamespace(
        id=1,
        guild_id=None,
        channel_id=None,
        type=discord.InteractionType.component,
        data={"custom_id": custom_id},
        message=message,
        locale=discord.Locale.american_english,
    )


@pytest.fixture
def routed(monkeypatch: pytest.MonkeyPatch) -> tuple[Game, list[Any], list[str]]:
    """The game cog (without a bot) and what it did: presses handled, texts answered."""
    handled: list[Any] = []
    answered: list[str] = []

    async def handle_button(interaction: Any, game_id: int, kind: str, arg: str | None) -> None:
        handled.append((interaction, game_id, kind, arg))

    async def answer(_interaction: Any, text: str, **_kwargs: Any) -> None:
        answered.append(text)

    monkeypatch.setattr(game_cog, "handle_button", handle_button)
    monkeypatch.setattr(game_cog, "answer", answer)
    cog = Game.__new__(Game)
    places = SimpleNamespace(note_snowflake=lambda _id: None, note_permissions=lambda *_a: None)
    cog.delivery = SimpleNamespace(places=places)  # type: ignore[assignment]
    return cog, handled, answered


async def test_a_press_on_its_message_is_handled_with_game_kind_and_argument(
    routed: tuple[Game, list[Any], list[str]],
) -> None:
    cog, handled, answered = routed
    rows = _rows(GameButton(42, "discard", "5m", label="5万"), GameButton(42, "pass"))
    press = _press("mj:42:discard:5m", rows)
    await cog.on_interaction(press)
    bare = _press("mj:42:pass", rows)
    await cog.on_interaction(bare)
    assert handled == [(press, 42, "discard", "5m"), (bare, 42, "pass", None)]
    assert answered == []


async def test_a_press_not_on_its_message_is_stale_and_changes_nothing(
    routed: tuple[Game, list[Any], list[str]],
) -> None:
    cog, handled, answered = routed
    await cog.on_interaction(_press("mj:42:discard:6m", _rows(GameButton(42, "discard", "5m"))))
    assert handled == []
    assert len(answered) == 1


async def test_other_components_are_left_to_their_cogs(
    routed: tuple[Game, list[Any], list[str]],
) -> None:
    cog, handled, answered = routed
    replay = discord.ui.Button(label="next", custom_id="mj:rp:7:1:n:1:4")
    await cog.on_interaction(_press("mj:rp:7:1:n:1:4", _rows(replay)))
    await cog.on_interaction(_press("mj:42:pass", None))  # (no message: nothing to check)
    assert handled == [] and answered == []


def test_views_of_game_buttons_are_not_kept_by_discord_py() -> None:
    """discord.py stores a sent view (and would route its presses itself) only when it is
    dispatchable; game buttons are not, so the lobby's view is never stored."""
    seats = tuple(Seat(name=f"p{i}", user_id=100 + i) for i in range(4))
    lobby = GameSummary(7, 1, 2, "shangrao", {}, seats, "lobby", 3, (0, 0, 0, 0), 0, "lobby")
    _embed, view = lobby_message(lobby, "en")
    assert view is not None and view.children
    assert not view.is_dispatchable()
    assert {item.custom_id for item in view.children} == {  # type: ignore[attr-defined]
        "mj:7:join",
        "mj:7:leave",
        "mj:7:addbot",
        "mj:7:start",
    }


def test_a_messages_buttons_are_read_from_its_components() -> None:
    """Whether a pressed button is still on its message (else the press is stale) is read
    from the message's components: the same ids a ``discord.ui.View`` of it would hold."""
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id="mj:42:pick", options=[discord.SelectOption(label="a")], row=2
    )
    link = discord.ui.Button(label="link", url="https://example.com", row=3)
    rows = _rows(GameButton(42, "discard", "5m"), GameButton(42, "pass"), select, link)
    message: Any = SimpleNamespace(components=rows)
    expected = {
        item.custom_id
        for item in discord.ui.View.from_message(message, timeout=None).walk_children()
        if getattr(item, "custom_id", None)
    }
    assert component_ids(rows) == expected == {"mj:42:discard:5m", "mj:42:pass", "mj:42:pick"}
    assert component_ids([]) == set()
