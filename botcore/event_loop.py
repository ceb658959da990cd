"""The bot's event loop: uvloop when it is installed and wanted, else asyncio's own.

The bot spends most of its CPU in the event loop's socket work — a Discord REST request per
message sent, edited or deleted, the gateway's events — and uvloop (libuv) does that work in
C for a fraction of what asyncio's pure-Python selector loop costs. Nothing in the bot
depends on which loop runs it (``UVLOOP=false`` keeps asyncio's).
"""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def uvloop_installed() -> bool:
    """Whether the ``uvloop`` package can be imported here (not on Windows)."""
    return importlib.util.find_spec("uvloop") is not None


def loop_factory(use_uvloop: bool) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """What makes the bot's loop: uvloop's when ``use_uvloop`` and it is installed, else
    None (asyncio's default loop)."""
    if not use_uvloop or not uvloop_installed():
        return None
    import uvloop

    return uvloop.new_event_loop


def run(main: Coroutine[Any, Any, T], *, use_uvloop: bool = True) -> T:
    """``asyncio.run(main)`` on the loop :func:`loop_factory` chooses."""
    with asyncio.Runner(loop_factory=loop_factory(use_uvloop)) as runner:
        return runner.run(main)
