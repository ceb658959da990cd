"""Pictures rendered off the event loop, in a pool of worker processes.

:class:`PicturePool` runs a renderer (a top-level function of :mod:`render` taking one frozen
picture model, returning PNG bytes) in worker processes (:mod:`render.workers`: a pair of
pipes each, read on the event loop), so pictures render in parallel with the bot's event
loop instead of on it. Jobs wait in the loop by priority —
:data:`URGENT` (a press is being answered), :data:`PRIVATE` (a hand DM), :data:`TABLE` (the
public table, which may lag) — and only ``workers`` are handed to the processes at a time, so
an urgent picture never queues behind a backlog of tables. Workers run at a lower CPU
priority (``nice``) than the bot: under load the loop's answers come first.

When the pool cannot run (no processes allowed, a worker died) the picture is rendered in a
thread instead, and the pool is rebuilt on the next call.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import heapq
import itertools
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from render.workers import WorkerDied, Workers, forkserver_context

log = logging.getLogger(__name__)

URGENT = 0  # the answer to a press waits for it
PRIVATE = 1  # a player's hand DM
TABLE = 2  # the public table (coalesced; may lag under load)

#: ``nice`` increment of the worker processes (answers on the loop come first)
WORKER_NICE = 5
#: after this many broken pools (a worker that cannot start or dies), render in threads
MAX_BREAKS = 3
#: seconds per picture assumed before any was timed, and the weight of each new timing in
#: the moving average (about the last 20 pictures count)
FIRST_JOB_SECONDS = 0.02
JOB_SECONDS_WEIGHT = 0.1

Renderer = Callable[[Any], bytes]


def _worker_init(nice: int, owner: int) -> None:
    """In each worker: a lower CPU priority, the tile cache and palette built once, and a
    watch on ``owner`` (the bot's process): a worker whose bot was killed (``kill -9``)
    exits too (its forkserver then follows)."""
    if nice:
        with contextlib.suppress(OSError, AttributeError):
            os.nice(nice)
    threading.Thread(target=_exit_with_owner, args=(owner,), daemon=True).start()
    import render

    render.warm_up()


def _exit_with_owner(owner: int) -> None:
    while True:
        time.sleep(1.0)
        try:
            os.kill(owner, 0)
        except ProcessLookupError:
            os._exit(0)
        except OSError:
            pass


def default_workers() -> int:
    """One worker per core, at least one, at most four (``PICTURE_WORKERS`` overrides)."""
    raw = os.environ.get("PICTURE_WORKERS", "").strip()
    if raw.isdigit():
        return max(0, int(raw))
    return max(1, min(4, os.cpu_count() or 1))


class PicturePool:
    """Render pictures in worker processes, by priority (see the module docstring).

    ``workers=0`` renders in a thread of this process (no pool)."""

    def __init__(self, workers: int | None = None, *, nice: int = WORKER_NICE) -> None:
        self.workers = default_workers() if workers is None else max(0, workers)
        self.nice = nice
        self._processes: Workers | None = None
        self._heap: list[tuple[int, int, Renderer, Any, int | None, asyncio.Future[bytes]]] = []
        self._seq = itertools.count()
        self._running = 0
        self._closed = False
        self._breaks = 0
        #: figures for benchmarks: pictures rendered, and rendered in a thread instead
        self.rendered = 0
        self.fallbacks = 0
        #: seconds one picture keeps a worker, a moving average (:meth:`expected_wait`)
        self.job_seconds = FIRST_JOB_SECONDS
        self._stopping: set[asyncio.Future[None]] = set()  # broken workers being stopped

    # ------------------------------------------------------------------ the processes

    def _pool(self) -> Workers | None:
        if self.workers <= 0 or self._closed:
            return None
        if self._processes is None:
            try:
                with _without_main():  # the workers need ``render``, not the bot
                    self._processes = Workers(
                        self.workers,
                        context=forkserver_context(),
                        init=_worker_init,
                        init_args=(self.nice, os.getpid()),
                    )
            except (OSError, ValueError, NotImplementedError) as error:
                log.warning("no picture worker processes (%s); rendering in a thread", error)
                self.workers = 0
                return None
        return self._processes

    def start(self) -> None:
        """Start the workers now (each builds its tile cache) rather than on first use."""
        self._pool()

    async def close(self) -> None:
        """Stop the workers; pictures still waiting are cancelled."""
        self._closed = True
        while self._heap:
            *_, future = heapq.heappop(self._heap)
            future.cancel()
        processes, self._processes = self._processes, None
        if processes is not None:
            await processes.close()
        await asyncio.gather(*self._stopping, return_exceptions=True)

    # ------------------------------------------------------------------ rendering

    @property
    def waiting(self) -> int:
        """Pictures queued, not yet handed to a worker."""
        return len(self._heap)

    def expected_wait(self, priority: int = TABLE) -> float:
        """Seconds a picture of ``priority`` queued now would wait before it is done: the
        pictures ahead of it (its priority or more urgent, and those being drawn) and
        itself, at the recent time per picture, shared by the workers. Under load a table
        picture that would come too late is better not drawn at all (the table's text goes
        alone and stays current; the next edit brings a picture again)."""
        ahead = sum(1 for job in self._heap if job[0] <= priority and not job[-1].done())
        return (ahead + self._running + 1) * self.job_seconds / max(1, self.workers)

    async def render(
        self, fn: Renderer, model: Any, *, priority: int = TABLE, home: int | None = None
    ) -> bytes:
        """``fn(model)`` (PNG bytes) in a worker; lower ``priority`` values go first.
        ``home``: the pictures of one game's table share it, to be drawn by the same worker
        when it is free (:meth:`render.workers.Workers.run`)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bytes] = loop.create_future()
        heapq.heappush(self._heap, (priority, next(self._seq), fn, model, home, future))
        self._dispatch()
        return await future

    def _dispatch(self) -> None:
        limit = max(1, self.workers)
        while self._heap and self._running < limit:
            _priority, _seq, fn, model, home, future = heapq.heappop(self._heap)
            if future.done():  # its caller gave up
                continue
            self._running += 1
            task = asyncio.ensure_future(self._run(fn, model, home))
            task.add_done_callback(functools.partial(self._finished, future=future))

    def _finished(self, task: asyncio.Future[bytes], future: asyncio.Future[bytes]) -> None:
        self._running -= 1
        if not future.done():
            if task.cancelled():
                future.cancel()
            elif (error := task.exception()) is not None:
                future.set_exception(error)
            else:
                future.set_result(task.result())
        self._dispatch()

    async def _run(self, fn: Renderer, model: Any, home: int | None = None) -> bytes:
        pool = self._pool()
        if pool is not None:
            try:
                began = time.monotonic()
                data = await pool.run(fn, model, home)
                self._timed(time.monotonic() - began)
                self.rendered += 1
                return data
            except WorkerDied:
                broken, self._processes = self._processes, None
                if broken is pool:  # (the first job to notice rebuilds it, once)
                    self._breaks += 1
                    if self._breaks >= MAX_BREAKS:
                        log.error("picture workers keep failing; rendering in threads")
                        self.workers = 0
                    else:
                        log.warning("a picture worker died; starting the workers again")
                    stopping = asyncio.ensure_future(broken.close())
                    self._stopping.add(stopping)
                    stopping.add_done_callback(self._stopping.discard)
                elif broken is not None:
                    self._processes = broken
        self.fallbacks += 1
        began = time.monotonic()
        data = await asyncio.to_thread(fn, model)
        self._timed(time.monotonic() - began)
        return data

    def _timed(self, seconds: float) -> None:
        """A picture kept a worker ``seconds`` (its wait for a core included: under load
        that is what the next pictures will wait too)."""
        self.job_seconds += (seconds - self.job_seconds) * JOB_SECONDS_WEIGHT


@contextlib.contextmanager
def _without_main() -> Iterator[None]:
    """Start processes without the main script: a new process of the ``forkserver`` method
    otherwise imports the program's ``__main__`` (the whole bot) before its first job."""
    main = sys.modules.get("__main__")
    saved: dict[str, Any] = {
        k: main.__dict__[k] for k in ("__file__", "__spec__") if k in vars(main or object)
    }
    try:
        if main is not None:
            if "__file__" in saved:
                del main.__file__
            main.__spec__ = None
        yield
    finally:
        if main is not None:
            vars(main).update(saved)


_shared: PicturePool | None = None


def shared() -> PicturePool:
    """The process's pool (made on first use)."""
    global _shared
    if _shared is None or _shared._closed:
        _shared = PicturePool()
    return _shared


async def close_shared() -> None:
    """Stop the process's pool (shut-down)."""
    global _shared
    pool, _shared = _shared, None
    if pool is not None:
        await pool.close()
