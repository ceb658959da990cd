"""The delivery queue: what happened, handed to :class:`services.delivery.Delivery` in order.

Jobs of one game run one at a time, in the order they were queued, after the change that
queued them was committed. A failing job is logged and skipped: delivery never undoes a
committed action.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable

from services.gamelog import LiveGame

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]


def enqueue(live: LiveGame, job: Job) -> None:
    """Queue a delivery; jobs of one game run in order, one at a time."""
    if live.queue is None:
        live.queue = asyncio.Queue()
    if live.pump is None or live.pump.done():
        live.pump = asyncio.create_task(_pump(live), name=f"mj-delivery-{live.id}")
    live.queue.put_nowait(job)


async def _pump(live: LiveGame) -> None:
    assert live.queue is not None
    while True:
        job = await live.queue.get()
        try:
            await job()
        except asyncio.CancelledError:
            live.queue.task_done()
            raise
        except Exception:
            log.exception("game %s: delivery failed (the action stays committed)", live.id)
        live.queue.task_done()


async def drained(games: Iterable[LiveGame]) -> None:
    """Wait until every job queued for these games ran. A change in progress (holding the
    game's lock) queues its jobs first."""
    for live in list(games):
        async with live.lock:
            pass
        if live.queue is not None:
            await live.queue.join()


async def stop(games: Iterable[LiveGame]) -> None:
    """Stop the games' delivery tasks (after :func:`drained`)."""
    pumps = []
    for live in games:
        if live.pump is not None:
            live.pump.cancel()
            pumps.append(live.pump)
    await asyncio.gather(*pumps, return_exceptions=True)


def busy(live: LiveGame) -> bool:
    """Whether deliveries of this game are queued or running."""
    queue = live.queue
    return queue is not None and (not queue.empty() or queue._unfinished_tasks > 0)  # type: ignore[attr-defined]
