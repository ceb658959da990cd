"""What a component interaction carries, typed: the pressed button of a persistent item,
the ``custom_id`` and the values chosen in a select menu.

discord.py hands ``DynamicItem.from_custom_id`` the component as an ``Item`` and
``interaction.data`` as a union of payloads; these helpers read them without guessing."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord


def pressed_button(item: discord.ui.Item[Any]) -> discord.ui.Button[Any]:
    """The button a persistent button item is rebuilt from (its label, its style)."""
    if not isinstance(item, discord.ui.Button):
        raise TypeError(f"a button was expected, not {type(item).__name__}")
    return item


def _data(interaction: discord.Interaction) -> dict[str, Any]:
    data: Any = interaction.data or {}
    return data if isinstance(data, dict) else {}


def custom_id_of(interaction: discord.Interaction) -> str:
    """The ``custom_id`` of the pressed component ("" for other interactions)."""
    return str(_data(interaction).get("custom_id", ""))


def component_ids(components: Iterable[Any]) -> set[str]:
    """The ``custom_id`` of every component of a message (``message.components``: action
    rows and what they hold, at any depth) — what its buttons are, read without building a
    ``discord.ui.View`` of them."""
    found: set[str] = set()
    todo = list(components)
    while todo:
        component = todo.pop()
        custom_id = getattr(component, "custom_id", None)
        if isinstance(custom_id, str):
            found.add(custom_id)
        todo.extend(getattr(component, "children", None) or ())
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            todo.append(accessory)
    return found


def chosen_values(interaction: discord.Interaction) -> list[str]:
    """The values chosen in a select menu (empty when none)."""
    values = _data(interaction).get("values") or []
    return [str(v) for v in values] if isinstance(values, list) else []


class RoutedView(discord.ui.View):
    """The buttons and menus of a message this bot sends. Every press is routed by its
    ``custom_id`` (the game's ``on_interaction``, the registered ``DynamicItem`` classes),
    never by discord.py's view store, so the view is never stored: discord.py keeps each
    unfinished view with a ``custom_id`` per message sent or edited, and a view without a
    timeout for ever (about 2 KB a result message, growing as long as the bot runs).

    >>> RoutedView().is_finished(), RoutedView().timeout
    (True, None)
    """

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_finished(self) -> bool:
        """Finished from the start: the view store never takes it."""
        return True
