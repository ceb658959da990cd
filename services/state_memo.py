"""What the engine adapter works out once per game state, kept exactly as long as the state.

The adapter remembers, per engine state, its step (who is awaited, their legal actions), the
seats' button keys and the public table (:mod:`services.real_engine`). Kept in a few dozen
slots shared by every game, these were lost under load: between two presses of one game
every other game made its own states, so at hundreds of tables each press worked them all
out again. Here an entry lives as long as its state does, through a weak
reference, and goes when the state is dropped: the state a game holds keeps what was worked
out for it, however many games play, and no memory is held for states nobody keeps.

A value must not refer to its state (it would keep the state, and itself, alive for good).
"""

from __future__ import annotations

import weakref
from typing import Any, Generic, TypeVar

V = TypeVar("V")


class StateMemo(Generic[V]):
    """Values by object identity, each dropped with its object (which must accept weak
    references, as the engine's ``GameState`` does)."""

    def __init__(self) -> None:
        self._entries: dict[int, tuple[weakref.ref[Any], V]] = {}

    def get(self, obj: object) -> V | None:
        """The value kept for ``obj`` (this very object), or None."""
        hit = self._entries.get(id(obj))
        if hit is not None and hit[0]() is obj:
            return hit[1]
        return None

    def put(self, obj: object, value: V) -> V:
        """Keep ``value`` for ``obj`` until ``obj`` is dropped; returns ``value``."""
        key = id(obj)
        entries = self._entries

        def forget(ref: weakref.ref[Any]) -> None:
            hit = entries.get(key)
            if hit is not None and hit[0] is ref:
                del entries[key]

        entries[key] = (weakref.ref(obj, forget), value)
        return value

    def clear(self) -> None:
        """Forget everything (tests count the engine's work from a clean start)."""
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
