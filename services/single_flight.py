"""Bookkeeping writes combined per key (a game): at most one run in flight, and the calls
that arrive meanwhile are served together by ONE following run, which writes the latest
state (write capacity is what a busy process runs out of first).

``work(key)`` must read the state it writes before its first ``await`` (a run serves every
call made before it started). A run that raises is logged; the next call starts a new run.
Runs are started in an empty context: a bookkeeping write neither counts as a press being
answered nor joins a write its first caller happens to hold.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

from db.errors import StoreUnwritable

log = logging.getLogger(__name__)

K = TypeVar("K", bound=Hashable)


class _Flight:
    """One key's run under way, and the run that follows it (asked for meanwhile)."""

    __slots__ = ("following", "task")

    def __init__(self) -> None:
        self.task: asyncio.Task[None] | None = None
        #: done when the run that starts next has ended (None: no run asked for)
        self.following: asyncio.Future[None] | None = None


class SingleFlight(Generic[K]):
    """Per key, one run of ``work`` at a time; calls meanwhile share one following run.

    ``what`` names the work in logs (``"messages of game"``)."""

    def __init__(self, work: Callable[[K], Awaitable[None]], what: str) -> None:
        self._work = work
        self._what = what
        self._flights: dict[K, _Flight] = {}
        #: runs made (each one write) — how many calls were combined shows against the calls
        self.runs = 0

    def request(self, key: K) -> asyncio.Future[None]:
        """Ask for a run that starts after now (one already under way read the state before
        this call's change). Returns a future done when that run has ended — whether it
        wrote or failed (a failure is logged); cancelled only when the run is cut off."""
        flight = self._flights.get(key)
        if flight is None:
            flight = self._flights[key] = _Flight()
        if flight.following is None:
            flight.following = asyncio.get_running_loop().create_future()
        done = flight.following
        if flight.task is None:
            flight.task = asyncio.create_task(
                self._fly(key, flight), name=f"mj-save-{key}", context=contextvars.Context()
            )
        return done

    async def run(self, key: K) -> None:
        """Ask for a run and wait until it has ended (the caller being cancelled does not
        cancel the run: other callers share it)."""
        await asyncio.shield(self.request(key))

    def busy(self, key: K) -> bool:
        """Whether a run for ``key`` is under way or asked for."""
        return key in self._flights

    async def settled(self, key: K) -> None:
        """Wait until no run for ``key`` is under way or asked for (asks for none)."""
        while (flight := self._flights.get(key)) is not None and flight.task is not None:
            await asyncio.wait([flight.task])

    async def drained(self) -> None:
        """Wait until no run is under way or asked for (shut-down, tests)."""
        while self._flights:
            tasks = [f.task for f in self._flights.values() if f.task is not None]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _fly(self, key: K, flight: _Flight) -> None:
        done: asyncio.Future[None] | None = None
        try:
            while flight.following is not None:
                done, flight.following = flight.following, None
                self.runs += 1
                try:
                    await self._work(key)
                except StoreUnwritable as error:  # the operator was told once, loudly
                    log.warning("%s %s: not saved: %s", self._what, key, error)
                except Exception:
                    log.exception("%s %s: not saved", self._what, key)
                if not done.done():
                    done.set_result(None)
                done = None
        finally:
            for waiting in (done, flight.following):
                if waiting is not None and not waiting.done():
                    waiting.cancel()  # cut off (shut-down): no run will serve it
            flight.following = None
            flight.task = None
            if self._flights.get(key) is flight:
                del self._flights[key]
