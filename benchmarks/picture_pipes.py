"""How a picture's bytes come back from a worker process: ``python -m benchmarks.picture_pipes
[--jobs 1500] [--kib 55]``.

Each job makes ``--kib`` KiB (a table picture's PNG) in a worker and returns it, three ways:

- ``pipes`` — :mod:`render.workers`, what :mod:`render.pool` uses: a pair of pipes per
  worker, the bytes written back in one frame and read on the event loop, no thread;
- ``pickled`` — a ``ProcessPoolExecutor``, the bytes pickled through its result queue (as
  :mod:`render.pool` did before): two threads of the executor's in the bot's process;
- ``file`` — the executor again, the bytes written once to a file in shared memory
  (``/dev/shm``, else the temp folder) and only its name sent back, the bot reading and
  removing it (tried before: it saves nothing measurable — the executor's own overhead
  per job, about 0.26 ms in the bot whatever the size, dwarfs the bytes' share).

Prints, per job, the CPU of the bot's process (its event loop and any threads) and of the
workers, and the wall time.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import shutil
import tempfile
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from typing import NamedTuple

from render.workers import Workers, forkserver_context, write_all

# ---- the hand-off through a file in shared memory (the alternative measured)

#: smaller pictures go back through the pipe (a file costs three calls to the system)
MIN_BYTES = 8 * 1024
#: where the folder is made: shared memory when the system has it
SHARED_MEMORY = "/dev/shm"


class Handed(NamedTuple):
    """The file a worker wrote a picture's bytes into, and how many bytes."""

    path: str
    size: int


_folder: str | None = None
_names = itertools.count()


def open_folder() -> str:
    """A new private folder for hand-offs (in shared memory when there is one)."""
    base = SHARED_MEMORY if os.access(SHARED_MEMORY, os.W_OK) else None
    return tempfile.mkdtemp(prefix="mj-pictures-", dir=base)


def close_folder(folder: str) -> None:
    """Remove the folder and any picture left in it."""
    shutil.rmtree(folder, ignore_errors=True)


def use_folder(folder: str | None) -> None:
    """In a worker: hand pictures over through ``folder`` (None: through the pipe)."""
    global _folder
    _folder = folder


def hand_over(data: bytes) -> Handed | bytes:
    """In a worker: ``data`` written to a new file of the folder, or ``data`` itself when
    small or without a folder."""
    if _folder is None or len(data) < MIN_BYTES:
        return data
    path = os.path.join(_folder, f"{os.getpid()}-{next(_names)}")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        write_all(fd, data)
    finally:
        os.close(fd)
    return Handed(path, len(data))


def take(handed: Handed | bytes) -> bytes:
    """In the bot: the bytes a worker handed over (the file is removed)."""
    if isinstance(handed, bytes):
        return handed
    try:
        fd = os.open(handed.path, os.O_RDONLY)
        try:
            data = os.read(fd, handed.size + 1)
        finally:
            os.close(fd)
    finally:
        os.unlink(handed.path)
    if len(data) != handed.size:
        raise OSError(f"picture hand-off {handed.path}: {len(data)} bytes, not {handed.size}")
    return data


# ---- the benchmark


def _make(kib: int) -> bytes:
    return os.urandom(64) * (kib * 16)


def _pickled(kib: int) -> bytes:
    return _make(kib)


def _by_file(kib: int) -> Handed | bytes:
    return hand_over(_make(kib))


def _cpu_of(pid: int) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _measure(
    pids: list[int], jobs: int, kib: int, at_once: int, job: Callable[[], Awaitable[int]]
) -> tuple[float, float, float]:
    """``jobs`` runs of ``job`` (each giving the bytes it got back), ``at_once`` at a time:
    per job, the CPU of this process and of the workers ``pids``, and the wall time (ms)."""
    own0, kids0, wall0 = time.process_time(), sum(map(_cpu_of, pids)), time.perf_counter()
    sem = asyncio.Semaphore(at_once)

    async def one() -> int:
        async with sem:
            return await job()

    sizes = await asyncio.gather(*(one() for _ in range(jobs)))
    assert all(s == kib * 1024 for s in sizes)
    own = time.process_time() - own0
    kids = sum(map(_cpu_of, pids)) - kids0
    wall = time.perf_counter() - wall0
    return own * 1e3 / jobs, kids * 1e3 / jobs, wall * 1e3 / jobs


async def _run(way: str, jobs: int, kib: int, workers: int) -> tuple[float, float, float]:
    """The ``pickled`` and ``file`` ways: a ``ProcessPoolExecutor``."""
    loop = asyncio.get_running_loop()
    folder = open_folder() if way == "file" else None
    fn = _pickled if way == "pickled" else _by_file
    with ProcessPoolExecutor(workers, initializer=use_folder, initargs=(folder,)) as pool:
        await asyncio.gather(*(loop.run_in_executor(pool, _make, 1) for _ in range(workers)))

        async def job() -> int:
            out = await loop.run_in_executor(pool, fn, kib)
            return len(out if isinstance(out, bytes) else take(out))

        pids = list(pool._processes)  # the workers, for their CPU
        figures = await _measure(pids, jobs, kib, workers * 2, job)
    if folder is not None:
        assert not os.listdir(folder)  # every file taken
        close_folder(folder)
    return figures


async def _run_pipes(jobs: int, kib: int, workers: int) -> tuple[float, float, float]:
    """The ``pipes`` way: :class:`render.workers.Workers`, as the bot's pool (which hands
    each worker one job at a time)."""
    pool = Workers(workers, context=forkserver_context(), init=use_folder, init_args=(None,))
    try:
        await asyncio.gather(*(pool.run(_make, 1) for _ in range(workers)))

        async def job() -> int:
            return len(await pool.run(_pickled, kib))

        pids = [w.process.pid for w in pool._workers]
        return await _measure(pids, jobs, kib, workers, job)
    finally:
        await pool.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=1500)
    parser.add_argument("--kib", type=int, default=55)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"cores {os.cpu_count()}, load average {os.getloadavg()[0]:.2f}; {args.kib} KiB a job")
    for r in range(args.rounds):
        for way in ("pipes", "pickled", "file"):
            run = (
                _run_pipes(args.jobs, args.kib, args.workers)
                if way == "pipes"
                else _run(way, args.jobs, args.kib, args.workers)
            )
            own, kids, wall = asyncio.run(run)
            print(
                f"round {r}  {way:8s} bot process {own:6.3f} ms/job  workers {kids:6.3f} ms/job"
                f"  wall {wall:6.3f} ms/job"
            )


if __name__ == "__main__":
    main()
