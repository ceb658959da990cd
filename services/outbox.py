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

Each game has two **lanes**, so that the channel never waits on a player's DM: a hand DM
being posted (its picture, its saved message id, a 429 on the DM sent again for a minute)
no longer holds back the table of everyone else, and the table's pace tells nothing of
whose hand changed. A job is queued as

- :data:`PUBLIC` (the table, its moments and claim-window holds, results, the session's
  messages): it waits for the public jobs queued before it, not for the hand DMs;
- :data:`PRIVATE` (a seat's hand DM and its alert): it waits for every job queued before
  it, so a hand never shows before the moments that led to it;
- :data:`BOTH` (the default: a refresh, the game's end — what touches the hands as well
  as the channel): it waits for every job queued before it, and every job queued after
  it waits for it.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
from collections.abc import Awaitable, Callable, Hashable, Iterable
from dataclasses import dataclass, field

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


#: a job of the channel: waits for the public (and :data:`BOTH`) jobs queued before it
PUBLIC = "public"
#: a seat's hand DM: waits for every job queued before it
PRIVATE = "private"
#: waits for every job queued before it; every job queued after it waits for it
BOTH = "both"


@dataclass(frozen=True)
class _Queued:
    job: Job
    seq: int
    key: Hashable | None
    resend: Resend | None
    also: tuple[Hashable, ...] = ()
    #: the last job of the other lane when this one was queued: run once it has ended
    after: asyncio.Event | None = None
    #: set once this job has ended (run, skipped, failed or cancelled)
    ended: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Lane:
    """One lane of a game's deliveries: its jobs run in order, one at a time."""

    queue: asyncio.Queue[_Queued] = field(default_factory=asyncio.Queue)
    pump: asyncio.Task[None] | None = None
    #: the last job queued in it (the jobs of the other lane queued after it wait for it)
    last: _Queued | None = None


_seq = itertools.count(1)


def enqueue(
    live: LiveGame,
    job: Job,
    *,
    key: Hashable | None = None,
    resend: Resend | None = None,
    also: tuple[Hashable, ...] = (),
    lane: str = BOTH,
) -> None:
    """Queue a delivery; jobs of one game run in order, one at a time, in two lanes (see
    the module docstring: ``lane`` is :data:`PUBLIC`, :data:`PRIVATE` or :data:`BOTH`).
    ``key``: what the job shows (a job not yet started, or being sent again, is dropped
    once a newer one with the same key is queued); ``also``: other keys whose older jobs
    this one makes obsolete; ``resend``: when a failed job is sent again (None: never)."""
    if lane not in (PUBLIC, PRIVATE, BOTH):
        raise ValueError(f"no delivery lane {lane!r}")
    runs_in = PRIVATE if lane == PRIVATE else PUBLIC
    other = live.outbox_lanes.get(PUBLIC if runs_in == PRIVATE else PRIVATE)
    after = None
    if lane != PUBLIC and other is not None and other.last is not None:
        after = other.last.ended
    own = live.outbox_lanes.get(runs_in)
    if own is None:
        own = live.outbox_lanes[runs_in] = Lane()
    if own.pump is None or own.pump.done():
        own.pump = asyncio.create_task(_pump(live, own), name=f"mj-delivery-{live.id}-{runs_in}")
    item = _Queued(job, next(_seq), key, resend, also if key is not None else (), after)
    for shown in _keys(item):
        live.outbox_keys[shown] = item.seq
    own.last = item
    own.queue.put_nowait(item)


def _keys(item: _Queued) -> tuple[Hashable, ...]:
    return () if item.key is None else (item.key, *item.also)


def obsolete(live: LiveGame, item: _Queued) -> bool:
    """Whether a newer job showing the same thing was queued after ``item``."""
    return item.key is not None and live.outbox_keys.get(item.key, item.seq) > item.seq


async def _pump(live: LiveGame, lane: Lane) -> None:
    while True:
        item = await lane.queue.get()
        try:
            if item.after is not None:
                await item.after.wait()  # the other lane's jobs queued before this one
            if not obsolete(live, item):  # (a newer one showing the same thing follows)
                await _deliver(live, item)
        except asyncio.CancelledError:
            item.ended.set()
            lane.queue.task_done()
            raise
        except Exception:
            log.exception("game %s: delivery failed (the action stays committed)", live.id)
        for shown in _keys(item):
            if live.outbox_keys.get(shown) == item.seq:
                del live.outbox_keys[shown]
        item.ended.set()
        if lane.last is item:
            lane.last = None  # (nothing left to wait for: let the ended job go)
        lane.queue.task_done()


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
        while busy(live):  # (a lane's job may wait for the other's)
            for lane in list(live.outbox_lanes.values()):
                await lane.queue.join()


def cancel(live: LiveGame) -> list[asyncio.Task[None]]:
    """Cancel the game's delivery tasks; returns them (to be awaited)."""
    pumps = []
    for lane in live.outbox_lanes.values():
        if lane.pump is not None:
            lane.pump.cancel()
            pumps.append(lane.pump)
    return pumps


async def stop(games: Iterable[LiveGame]) -> None:
    """Stop the games' delivery tasks (after :func:`drained`)."""
    pumps = [pump for live in games for pump in cancel(live)]
    await asyncio.gather(*pumps, return_exceptions=True)


def busy(live: LiveGame) -> bool:
    """Whether deliveries of this game are queued or running."""
    return any(lane.queue._unfinished_tasks > 0 for lane in live.outbox_lanes.values())
