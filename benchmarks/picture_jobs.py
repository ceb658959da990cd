"""Picture jobs recorded from a running bot, drawn again here (prints figures, asserts
nothing).

A paced load test measures a picture change only within ±10 % of the whole bot's CPU,
and a synthetic replay (``benchmarks.pictures``) draws other pictures than players make.
This replays the very jobs a bot's workers were given, in their order:

1. Record: run the bot with ``PICTURE_JOBS_RECORD=/tmp/jobs``, e.g. ``PICTURE_JOBS_RECORD=/tmp/jobs
   python -m tests.e2e.loadtest_bot --tree . --tables 100 --seconds 60 --think 3``. Each picture
   worker appends every job it is given, as it came, to ``/tmp/jobs.<its pid>``
   (:data:`render.workers.RECORD_ENV`).
2. Replay: ``python -m benchmarks.picture_jobs /tmp/jobs.* [--rounds 2]``. Each worker's jobs
   are drawn in order in this process, the picture caches emptied before each worker's (as
   that worker's started empty): CPU ms per picture and KiB per kind of picture, per round.

A job names its renderer by module and name, so another tree draws the same jobs with its
own code: ``PYTHONPATH=<tree> python benchmarks/picture_jobs.py /tmp/jobs.*``, alternating
trees, compares two versions on the same pictures.
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import struct
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: as :data:`render.workers._JOB`: the length of the pickled job that follows (written here,
#: not imported: the tree under test, given by ``PYTHONPATH``, may be an older one)
_JOB = struct.Struct("!I")

Job = tuple[Callable[[Any], bytes], Any]


def read_jobs(path: Path) -> list[Job]:
    """The ``(renderer, model)`` of each job recorded in ``path``, in order."""
    data = path.read_bytes()
    jobs: list[Job] = []
    at = 0
    while at + _JOB.size <= len(data):
        (size,) = _JOB.unpack_from(data, at)
        at += _JOB.size
        if at + size > len(data):
            break  # (a job cut short: the recording ended while it was written)
        _job_id, fn, model = pickle.loads(data[at : at + size])
        jobs.append((fn, model))
        at += size
    return jobs


def replay(workers: list[list[Job]]) -> dict[str, tuple[int, float, float]]:
    """Each worker's jobs drawn in order, caches empty before each worker's: per renderer,
    ``(pictures, CPU ms per picture, KiB per picture)``."""
    seconds: dict[str, list[float]] = {}
    sizes: dict[str, list[int]] = {}
    from render import table_layers

    for jobs in workers:
        table_layers.clear()  # (its layers and the compressed bands)
        for fn, model in jobs:
            began = time.process_time()
            data = fn(model)
            took = time.process_time() - began
            name = fn.__qualname__
            seconds.setdefault(name, []).append(took)
            sizes.setdefault(name, []).append(len(data))
    return {
        name: (len(took), 1000 * statistics.fmean(took), statistics.fmean(sizes[name]) / 1024)
        for name, took in sorted(seconds.items())
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+", type=Path, help="files a recording wrote")
    parser.add_argument("--rounds", type=int, default=2, help="replays, each printed")
    args = parser.parse_args(argv)
    workers = [read_jobs(path) for path in args.records]
    print(f"{sum(map(len, workers))} jobs of {len(workers)} worker(s)")
    for round_no in range(1, args.rounds + 1):
        figures = replay(workers)
        line = "  ".join(
            f"{name}: {n} × {ms:.3f} ms, {kib:.1f} KiB" for name, (n, ms, kib) in figures.items()
        )
        print(f"round {round_no}: {line}")


if __name__ == "__main__":
    main()
