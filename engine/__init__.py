"""The game engine: pure Python, no I/O (tiles, hand analysis, scoring, table flow, AI).

``from engine import is_complete, winning_tiles`` gives the hand-analysis entry points
(loaded on first use, so ``import engine.tiles`` stays cheap). The shanten number is
``engine.shanten.shanten``: ``engine.shanten`` is the submodule, never the function.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["is_complete", "winning_tiles"]

# exported name -> the submodule that defines it. A name here must never be a submodule's
# name: ``from engine import <name>`` would then find this hook and the submodule in turn.
_LAZY = {"is_complete": "engine.agari", "winning_tiles": "engine.agari"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
