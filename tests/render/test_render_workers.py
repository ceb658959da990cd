"""The picture worker processes (render.workers): results framed whole over the pipes
whatever their size, a renderer's exception raised in the bot, a worker that dies failing
its picture at once (the pool then draws it in a thread and starts new workers), and
closing stopping every process."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest

from render import pool, render_table
from render.samples import sample_table
from render.workers import WorkerDied, Workers, forkserver_context

#: a worker's set-up in these tests (nothing: a function the workers can import)
_nothing = os.getpid


async def test_results_of_every_size_come_back_whole_to_their_own_callers() -> None:
    """``bytes(n)`` drawn in two workers: results far larger than a pipe holds (64 KiB),
    many in flight at once, each caller gets its own."""
    workers = Workers(2, context=forkserver_context(), init=_nothing)
    try:
        sizes = [0, 1, 70_000, 5, 300_000, 65_536, 12, 1 << 20] * 4
        got = await asyncio.gather(*(workers.run(bytes, n) for n in sizes))
        assert [len(g) for g in got] == sizes
        assert all(g == bytes(len(g)) for g in got)
    finally:
        await workers.close()


async def test_a_renderer_s_exception_is_raised_in_the_bot() -> None:
    workers = Workers(1, context=forkserver_context(), init=_nothing)
    try:
        with pytest.raises(AttributeError):
            await workers.run(render_table, None)
        with pytest.raises(TypeError, match="not bytes"):
            await workers.run(time.sleep, 0)  # (gives None)
        table = sample_table()  # the worker goes on drawing
        assert await workers.run(render_table, table) == render_table(table)
    finally:
        await workers.close()


async def test_a_worker_that_dies_fails_its_picture_at_once() -> None:
    workers = Workers(1, context=forkserver_context(), init=_nothing)
    try:
        assert await workers.run(bytes, 3) == bytes(3)
        [worker] = workers._workers
        os.kill(worker.process.pid, signal.SIGKILL)
        with pytest.raises(WorkerDied):
            await asyncio.wait_for(workers.run(bytes, 3), 5)
        assert workers.alive == 0
        with pytest.raises(WorkerDied):  # none left: refused without waiting
            await workers.run(bytes, 3)
    finally:
        await workers.close()


def _drawn_by(_model: object) -> bytes:
    """A "picture" naming the worker that drew it."""
    return str(os.getpid()).encode()


def _slowly(seconds: float) -> bytes:
    time.sleep(seconds)
    return b"slow"


async def test_one_home_s_pictures_go_to_one_worker_while_it_is_free() -> None:
    """A game's table pictures (one ``home``) are drawn by the same worker, so its layer
    caches hold that game; homes spread over the workers; a home whose worker is busy
    goes to a free one rather than wait."""
    workers = Workers(2, context=forkserver_context(), init=_nothing)
    try:
        drawn = {
            home: {await workers.run(_drawn_by, None, home) for _ in range(4)}
            for home in (0, 1, 2, 3)
        }
        assert all(len(pids) == 1 for pids in drawn.values()), drawn
        assert drawn[0] == drawn[2] != drawn[1] == drawn[3]
        slow = asyncio.create_task(workers.run(_slowly, 0.5, 0))  # home 0's worker busy
        await asyncio.sleep(0.1)
        assert {await workers.run(_drawn_by, None, 0)} == drawn[1]
        assert await slow == b"slow"
        assert {await workers.run(_drawn_by, None, 0)} == drawn[0]  # free again: back home
    finally:
        await workers.close()


async def test_closing_stops_every_worker() -> None:
    workers = Workers(2, context=forkserver_context(), init=_nothing)
    await workers.run(bytes, 1)
    processes = [w.process for w in workers._workers]
    await workers.close()
    assert not any(p.is_alive() for p in processes)
    with pytest.raises(WorkerDied):
        await workers.run(bytes, 1)


async def test_a_worker_whose_bot_stops_mid_picture_exits_quietly() -> None:
    """The bot stops (or is killed) while a picture is being drawn: the worker finds the
    pipe closed when it gives the picture back and exits without a traceback (one printed
    there lands in the bot's log)."""
    workers = Workers(1, context=forkserver_context(), init=_nothing)
    drawing = asyncio.create_task(workers.run(time.sleep, 0.5))  # (a slow picture)
    await asyncio.sleep(0.2)
    [worker] = workers._workers
    workers.abandon()
    with pytest.raises(WorkerDied):
        await drawing
    await asyncio.to_thread(worker.process.join, 5)
    assert worker.process.exitcode == 0  # an uncaught exception exits with 1
    await workers.close()


async def test_the_pool_draws_a_dead_worker_s_picture_in_a_thread_then_starts_new_ones() -> None:
    pictures = pool.PicturePool(1)
    table = sample_table()
    expected = render_table(table)
    try:
        assert await pictures.render(render_table, table) == expected
        first = pictures._processes
        assert first is not None
        os.kill(first._workers[0].process.pid, signal.SIGKILL)
        await asyncio.sleep(0.2)  # (its pipe closes: the loop notices)
        assert await pictures.render(render_table, table) == expected
        assert pictures.fallbacks == 1  # that one in a thread
        assert await pictures.render(render_table, table) == expected
        assert pictures._processes is not None and pictures._processes is not first
        assert pictures.rendered == 2 and pictures.fallbacks == 1  # in a new worker
    finally:
        await pictures.close()


async def test_a_recording_worker_keeps_each_job_as_it_came(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``PICTURE_JOBS_RECORD`` set, each worker appends the jobs it is given to a file
    of its own, which ``benchmarks.picture_jobs`` reads back and draws again."""
    import multiprocessing

    from benchmarks.picture_jobs import read_jobs, replay
    from render.workers import RECORD_ENV

    monkeypatch.setenv(RECORD_ENV, str(tmp_path / "jobs"))
    # (spawned: a forkserver started earlier would not have the variable)
    workers = Workers(1, context=multiprocessing.get_context("spawn"), init=_nothing)
    table = sample_table()
    try:
        assert await workers.run(bytes, 3) == bytes(3)
        picture = await workers.run(render_table, table)
        [worker] = workers._workers
        pid = worker.process.pid
    finally:
        await workers.close()
    jobs = read_jobs(tmp_path / f"jobs.{pid}")
    assert jobs == [(bytes, 3), (render_table, table)]
    figures = replay([jobs])
    assert figures["render_table"][0] == 1
    assert round(figures["render_table"][2] * 1024) == len(picture)
