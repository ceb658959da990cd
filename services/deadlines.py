"""Timeouts: the deadline of the decision awaited from humans, and the task that fires it.

One timer per game. It is re-armed after every change (``window_at`` + the turn or claim
timeout of the game), cancelled when the game ends or the service closes, and on expiry it
calls back into the service, which plays the safe default and puts the seat on 托管.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from services.engine_adapter import GameEngine
from services.gamelog import LiveGame
from services.logged import logged

log = logging.getLogger(__name__)

Expiry = Callable[[LiveGame, int], Awaitable[None]]


def awaited_timeout(
    engine: GameEngine,
    live: LiveGame,
    turn_default: float,
    claim_default: float,
    state: Any = None,
) -> float | None:
    """Seconds allowed for the decision now awaited from humans (seats not on 托管), or
    None when no human is awaited (lobby, hand over, only robots to play). ``state``: the
    decision awaited at that state of the game instead (one about to be committed)."""
    state = live.state if state is None else state
    if live.status != "active" or state is None:
        return None
    phase = engine.phase(state)
    if phase not in ("turn", "claim"):
        return None
    if all(live.seats[s].robot for s in engine.pending_seats(state)):
        return None
    if phase == "turn":
        return float(live.cfg.get("turn_timeout", turn_default))
    return float(live.cfg.get("claim_timeout", claim_default))


class Deadlines:
    """Arms and cancels each game's timeout task; ``on_expiry(live, version)`` is called
    when the deadline passes (``version``: the game's version when it was armed)."""

    def __init__(self, clock: Callable[[], float], on_expiry: Expiry) -> None:
        self.clock = clock
        self.on_expiry = on_expiry
        self.closed = False

    def cancel(self, live: LiveGame) -> None:
        """Stop the game's timer (not the running one: it is the caller)."""
        if live.timer is not None and live.timer is not asyncio.current_task():
            live.timer.cancel()
        live.timer = None
        live.deadline = None

    def arm(self, live: LiveGame, timeout: float | None) -> None:
        """(Re)start the game's timer: the deadline is ``live.window_at + timeout``; None
        (or a closed service) only cancels."""
        self.cancel(live)
        if self.closed or timeout is None:
            return
        live.deadline = live.window_at + timeout
        live.timer = asyncio.create_task(
            self._wait(live, live.version, live.deadline), name=f"mj-timer-{live.id}"
        )

    def close(self, games: Iterable[LiveGame]) -> list[asyncio.Task[None]]:
        """No timer fires any more (shut-down); the deadlines stay as they were. Returns the
        cancelled tasks: await them before closing the store they may be writing to."""
        self.closed = True
        cancelled = []
        for live in games:
            if live.timer is not None and live.timer is not asyncio.current_task():
                live.timer.cancel()
                cancelled.append(live.timer)
        return cancelled

    async def _wait(self, live: LiveGame, version: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - self.clock()))
        await logged(
            self.on_expiry(live, version), log, "game %s: timeout handling failed", live.id
        )
