"""Changes per place: wake only who watches the channel (or DM) that changed.

``fake.wait_change`` wakes every waiter on every change the fake sees; with a thousand
simulated players each waiting for its own hand DM or table, every REST answer would wake
all of them to look again — a cost per change that grows with the number of tables (the
load test's driver, not the bot, became the bottleneck). :class:`PlaceChanges` counts the
changes of each place (a channel id, or a user id for "their DM channel was opened") and
wakes only the waiters of the places that changed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable


class PlaceChanges:
    """Change counters and waiters per place id (channel, thread, DM channel, or user)."""

    def __init__(self) -> None:
        self._counts: dict[int, int] = {}
        self._waiters: dict[int, set[asyncio.Future[None]]] = {}

    def touch(self, *places: int | None) -> None:
        """Something changed in ``places`` (``None`` entries are ignored)."""
        for place in places:
            if place is None:
                continue
            self._counts[place] = self._counts.get(place, 0) + 1
            for waiter in self._waiters.pop(place, ()):
                if not waiter.done():
                    waiter.set_result(None)

    def marks(self, places: Iterable[int]) -> tuple[int, ...]:
        """The change counts of ``places`` now (pass them to :meth:`wait`)."""
        return tuple(self._counts.get(place, 0) for place in places)

    async def wait(self, places: Iterable[int], marks: tuple[int, ...], timeout: float) -> bool:
        """Wait until one of ``places`` changed since ``marks`` (from :meth:`marks`, same
        order); ``True`` at once if one already has, ``False`` after ``timeout`` s."""
        watched = list(places)
        if self.marks(watched) != marks:
            return True
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        for place in watched:
            self._waiters.setdefault(place, set()).add(waiter)
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waiter, timeout)
        finally:
            for place in watched:
                waiting = self._waiters.get(place)
                if waiting is not None:
                    waiting.discard(waiter)
                    if not waiting:
                        del self._waiters[place]
        return self.marks(watched) != marks
