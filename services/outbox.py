"""The delivery queue: what happened, handed to :class:`services.delivery.Delivery` in order.

Jobs of one game run one at a time, in the order they were queued, after the change that
queued them was committed. Delivery never undoes a committed action; a failing job is

- **sent again** when its :class:`Resend` policy says the failure may pass (Discord's 429
  rate limit, a 5xx, a network error): after a back-off that honours the ``retry_after`` it
  was given, doubling up to :data:`BACKOFF_MAX`, until it succeeds, becomes **obsolete** (a
  newer job with the same ``key`` was queued: e.g. a newer hand for the same seat), or the
  service shuts down (what is still owed then is rebuilt from the stored state at resume);
- **logged and skipped** otherwise (a 403 or 404 that sending again cannot mend);
- **held** by the delivery itself when it raises :class:`Held` (a channel that refuses the
  bot now: it makes the job once the channel opens) — not a failure, logged as a note.

Later jobs of the game wait behind a job being sent again, so the order is kept.

A job not yet started is **skipped** once a newer job with the same ``key`` is queued behind
it: a seat's hand changed again before its DM was edited, so only the newest hand is shown.
Under load the queue of a busy game would otherwise replay every moment of the AI's moves on
the hand DM (each an edit with a new picture), seconds behind the game, offering buttons of
moments already past; the newer job shows all that the skipped one would have. A job may
also stand for other keys (``also``): it then makes older jobs with those keys obsolete too
(a hand asking the seat to decide replaces the seat's moments in between, but only a hand
of the same decision replaces it: :meth:`services.table.Table.show_change`).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
from collections.abc import Awaitable, Callable, Hashable, Iterable
from dataclasses import dataclass

from services.gamelog import LiveGame

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]

#: seconds before the first resend (unless the error asked for longer: ``retry_after``)
BACKOFF_FIRST = 1.0
#: the back-off doubles per failed attempt up to this many seconds
BACKOFF_MAX = 60.0


class Held(Exception):
    """Raised by a job the delivery keeps to make later itself (its channel refuses the bot
    now): not logged as a failure, and what the job stood for stays owed — a hand's result
    stays unposted (:mod:`services.results_owed`: a restart hands it over again)."""


@dataclass(frozen=True)
class Resend:
    """When to send a failed job again.

    ``delay(error)``: the least number of seconds to wait before sending again (Discord's
    ``retry_after``, or 0), or None when sending again cannot help (give up now);
    ``pause(seconds)``: waits that long (cut short at shut-down; ``delay`` is then asked
    again and gives up)."""

    delay: Callable[[BaseException], float | None]
    pause: Callable[[float], Awaitable[None]] = asyncio.sleep


def backoff(attempt: int, at_least: float = 0.0) -> float:
    """Seconds to wait before attempt ``attempt + 1`` (``attempt`` ≥ 1 failed so far):
    :data:`BACKOFF_FIRST` doubling per attempt up to :data:`BACKOFF_MAX`, with up to 20 %
    jitter so many games do not all send again at once, and never less than ``at_least``
    (the ``retry_after`` Discord asked for)."""
    base: float = min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** max(0, attempt - 1))
    return max(at_least, base * random.uniform(1.0, 1.2))


@dataclass(frozen=True)
class _Queued:
    job: Job
    seq: int
    key: Hashable | None
    resend: Resend | None
    also: tuple[Hashable, ...] = ()


_seq = itertools.count(1)


def enqueue(
    live: LiveGame,
    job: Job,
    *,
    key: Hashable | None = None,
    resend: Resend | None = None,
    also: tuple[Hashable, ...] = (),
) -> None:
    """Queue a delivery; jobs of one game run in order, one at a time. ``key``: what the
    job shows (a job not yet started, or being sent again, is dropped once a newer one with
    the same key is queued); ``also``: other keys whose older jobs this one makes obsolete;
    ``resend``: when a failed job is sent again (None: never)."""
    if live.queue is None:
        live.queue = asyncio.Queue()
    if live.pump is None or live.pump.done():
        live.pump = asyncio.create_task(_pump(live), name=f"mj-delivery-{live.id}")
    item = _Queued(job, next(_seq), key, resend, also if key is not None else ())
    for shown in _keys(item):
        live.outbox_keys[shown] = item.seq
    live.queue.put_nowait(item)  # type: ignore[arg-type]


def _keys(item: _Queued) -> tuple[Hashable, ...]:
    return () if item.key is None else (item.key, *item.also)


def obsolete(live: LiveGame, item: _Queued) -> bool:
    """Whether a newer job showing the same thing was queued after ``item``."""
    return item.key is not None and live.outbox_keys.get(item.key, item.seq) > item.seq


async def _pump(live: LiveGame) -> None:
    assert live.queue is not None
    while True:
        item: _Queued = await live.queue.get()  # type: ignore[assignment]
        try:
            if not obsolete(live, item):  # (a newer one showing the same thing follows)
                await _deliver(live, item)
        except asyncio.CancelledError:
            live.queue.task_done()
            raise
        except Exception:
            log.exception("game %s: delivery failed (the action stays committed)", live.id)
        for shown in _keys(item):
            if live.outbox_keys.get(shown) == item.seq:
                del live.outbox_keys[shown]
        live.queue.task_done()


async def _deliver(live: LiveGame, item: _Queued) -> None:
    """Run the job; send it again while its policy says the failure may pass."""
    attempt = 0
    while True:
        try:
            await item.job()
            if attempt:
                log.info("game %s: delivery sent at attempt %d", live.id, attempt + 1)
            return
        except asyncio.CancelledError:
            raise
        except Held as held:
            log.info("game %s: delivery held (%s)", live.id, held)
            return
        except Exception as error:
            wait = item.resend.delay(error) if item.resend is not None else None
            if wait is None:
                log.exception("game %s: delivery failed (the action stays committed)", live.id)
                return
            attempt += 1
            seconds = backoff(attempt, wait)
            log.warning(
                "game %s: delivery failed (%s: %s); sending again in %.1f s (attempt %d)",
                live.id,
                type(error).__name__,
                error,
                seconds,
                attempt + 1,
            )
            assert item.resend is not None
            await item.resend.pause(seconds)
            if item.resend.delay(error) is None:
                log.warning("game %s: delivery given up (shutting down)", live.id)
                return
        if obsolete(live, item):
            log.info("game %s: a failed delivery is obsolete (a newer one is queued)", live.id)
            return


async def drained(games: Iterable[LiveGame]) -> None:
    """Wait until every job queued for these games ran (a change still in progress queues
    its jobs later: :meth:`services.game.GameService.idle` waits for it first)."""
    for live in list(games):
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
