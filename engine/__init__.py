"""The game engine: pure Python, no I/O (tiles, hand analysis, scoring, table flow, AI).

``from engine import is_complete, winning_tiles`` gives the hand-analysis entry points.
"""

from __future__ import annotations

from typing import Any

__all__ = ["is_complete", "shanten", "winning_tiles"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from engine import agari, shanten

        return {"is_complete": agari.is_complete, "winning_tiles": agari.winning_tiles}.get(
            name, getattr(shanten, "shanten", None)
        )
    raise AttributeError(f"module 'engine' has no attribute {name!r}")
