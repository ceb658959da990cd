"""Picture worker processes, each fed through its own pair of pipes read on the event loop.

:class:`Workers` starts ``n`` processes (the ``forkserver`` method, ``render`` preloaded)
and hands each job — a top-level renderer and its frozen model, pickled, about 1.5 KiB — to
an idle one over its pipe. The worker draws and writes the PNG bytes back as they are, in
one frame; the event loop reads them when they come (``add_reader``, the pipe
non-blocking), so nothing waits on the loop and no thread is involved.

A ``ProcessPoolExecutor`` did this before with two threads of its own in the bot's process
(one feeding the jobs, one collecting results) and the results pickled through a shared
queue: about 0.26 ms of the bot's CPU per picture against 0.05 ms here
(``python -m benchmarks.picture_pipes``), and more under load, when every hand-off woke a
thread.

A worker that dies (killed, out of memory) closes its pipe: its job fails with
:class:`WorkerDied` at once, and the worker is not used again (:class:`render.pool.PicturePool`
then starts a new set, or draws in threads).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import pickle
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

log = logging.getLogger(__name__)

#: a job to a worker: the length of the pickled ``(job id, renderer, model)`` that follows
_JOB = struct.Struct("!I")
#: a result from a worker: the length of what follows, 0 (PNG bytes) or 1 (a pickled
#: exception), and the job's id
_RESULT = struct.Struct("!IBI")
_OK, _FAILED = 0, 1
#: bytes read from a worker's pipe at a time (a table picture is about 60 KiB)
_READ = 1 << 18
#: seconds a worker has to exit once its pipe is closed, before it is killed
_EXIT_WAIT = 2.0
#: environment variable naming a path: each worker then appends every job it is given, as
#: it came, to ``<path>.<its pid>``, for ``python -m benchmarks.picture_jobs`` to replay
RECORD_ENV = "PICTURE_JOBS_RECORD"


class WorkerDied(RuntimeError):
    """The worker drawing the picture exited before it gave the picture back."""


# ---------------------------------------------------------------------------- in the worker


def _read_exact(fd: int, size: int) -> bytes | None:
    """``size`` bytes from ``fd``; None at the end of the pipe (the bot closed it)."""
    chunks = bytearray()
    while len(chunks) < size:
        chunk = os.read(fd, size - len(chunks))
        if not chunk:
            return None
        chunks += chunk
    return bytes(chunks)


def write_all(fd: int, data: bytes) -> None:
    """All of ``data`` to ``fd`` (a pipe takes part of a large write at a time)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _serve(
    jobs: Connection, results: Connection, init: Callable[..., None], args: tuple[Any, ...]
) -> None:
    """A worker's life: ``init(*args)``, then draw each job until the bot closes the pipe
    (it stopped its workers, or it was killed: a picture being drawn then has nobody to go
    to, and the worker exits quietly)."""
    init(*args)
    read_fd, write_fd = jobs.fileno(), results.fileno()
    record = os.environ.get(RECORD_ENV)
    # (unbuffered: a worker ends with os._exit, which flushes nothing)
    recording = open(f"{record}.{os.getpid()}", "ab", buffering=0) if record else None  # noqa: SIM115
    while True:
        try:
            head = _read_exact(read_fd, _JOB.size)
            body = None if head is None else _read_exact(read_fd, _JOB.unpack(head)[0])
        except OSError:
            return
        if body is None:
            return
        if recording is not None:
            recording.write(_JOB.pack(len(body)) + body)
        job_id, fn, model = pickle.loads(body)
        try:
            data, status = fn(model), _OK
            if not isinstance(data, bytes):
                raise TypeError(f"a renderer gave {type(data).__name__}, not bytes")
        except Exception as error:  # given back to the caller, raised there
            data, status = _pickled_error(error), _FAILED
        try:
            write_all(write_fd, _RESULT.pack(len(data), status, job_id) + data)
        except OSError:  # (BrokenPipeError: the bot closed its end)
            return


def _pickled_error(error: Exception) -> bytes:
    try:
        return pickle.dumps(error)
    except Exception:  # (an exception that cannot be pickled: its text)
        return pickle.dumps(RuntimeError(f"{type(error).__name__}: {error}"))


# ---------------------------------------------------------------------------- in the bot


@dataclass(eq=False)
class _Worker:
    process: Any
    jobs: Connection  # the bot writes jobs here
    results: Connection  # and reads the pictures here (non-blocking, on the loop)
    waiting: dict[int, asyncio.Future[bytes]] = field(default_factory=dict)
    received: bytearray = field(default_factory=bytearray)
    dead: bool = False


class Workers:
    """``n`` worker processes, each running ``init(*init_args)`` first (see the module
    docstring). Made from outside the event loop; the loop reading their pipes is the one
    :meth:`run` is first awaited in."""

    def __init__(
        self,
        n: int,
        *,
        context: Any,
        init: Callable[..., None],
        init_args: tuple[Any, ...] = (),
    ) -> None:
        self._workers: list[_Worker] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ids = 0
        self._closed = False
        try:
            for _ in range(n):
                self._workers.append(self._start(context, init, init_args))
        except BaseException:
            self.abandon()  # (the started ones read the end of their pipe and exit)
            self._stop_processes()
            raise

    @staticmethod
    def _start(context: Any, init: Callable[..., None], init_args: tuple[Any, ...]) -> _Worker:
        job_read, job_write = context.Pipe(duplex=False)
        result_read, result_write = context.Pipe(duplex=False)
        process = context.Process(
            target=_serve,
            args=(job_read, result_write, init, init_args),
            daemon=True,
            name="mj-picture-worker",
        )
        try:
            process.start()
        finally:
            job_read.close()  # the worker's ends: its own copies are open in it
            result_write.close()
        os.set_blocking(result_read.fileno(), False)
        return _Worker(process, job_write, result_read)

    @property
    def alive(self) -> int:
        """Workers still able to draw."""
        return sum(1 for w in self._workers if not w.dead)

    async def run(self, fn: Callable[[Any], bytes], model: Any, home: int | None = None) -> bytes:
        """``fn(model)`` in the least busy worker; its exception is raised here, and
        :class:`WorkerDied` when no worker is left or the one drawing it died.

        ``home``: pictures of one thing (a game's table) go to the same worker while it is
        no busier than the others, so that its caches (:mod:`render.table_layers`) hold each
        game's layers in one worker rather than every worker holding every game's."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._attach(loop)
        ready = [w for w in self._workers if not w.dead]
        if self._closed or not ready:
            raise WorkerDied("no picture worker is running")
        worker = min(ready, key=lambda w: len(w.waiting))
        if home is not None:
            own = ready[home % len(ready)]
            if len(own.waiting) <= len(worker.waiting):
                worker = own
        self._ids = (self._ids + 1) & 0xFFFFFFFF
        job_id = self._ids
        body = pickle.dumps((job_id, fn, model), protocol=pickle.HIGHEST_PROTOCOL)
        future: asyncio.Future[bytes] = loop.create_future()
        worker.waiting[job_id] = future
        try:  # a job is small and the pipe of a worker near idle is empty: no wait here
            write_all(worker.jobs.fileno(), _JOB.pack(len(body)) + body)
        except OSError as error:
            self._died(worker, f"its pipe refused a job ({error})")
        return await future

    def _attach(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._loop is not None:
            for worker in self._workers:
                with contextlib.suppress(Exception):
                    self._loop.remove_reader(worker.results.fileno())
        self._loop = loop
        for worker in self._workers:
            if not worker.dead:
                loop.add_reader(worker.results.fileno(), self._readable, worker)

    def _readable(self, worker: _Worker) -> None:
        """The worker wrote: take every whole result now in its pipe."""
        fd = worker.results.fileno()
        ended = False
        while True:
            try:
                chunk = os.read(fd, _READ)
            except BlockingIOError:
                break
            except OSError:
                ended = True
                break
            if not chunk:
                ended = True
                break
            worker.received += chunk
            if len(chunk) < _READ:
                break
        got = worker.received
        while len(got) >= _RESULT.size:
            size, status, job_id = _RESULT.unpack_from(got)
            end = _RESULT.size + size
            if len(got) < end:
                break
            data = bytes(got[_RESULT.size : end])
            del got[:end]
            future = worker.waiting.pop(job_id, None)
            if future is None or future.done():
                continue  # (its caller gave up)
            if status == _OK:
                future.set_result(data)
            else:
                future.set_exception(pickle.loads(data))
        if ended:
            self._died(worker, "it exited")

    def _died(self, worker: _Worker, why: str) -> None:
        if worker.dead:
            return
        worker.dead = True
        if not self._closed:
            log.warning("a picture worker stopped: %s", why)
        if self._loop is not None:
            with contextlib.suppress(Exception):
                self._loop.remove_reader(worker.results.fileno())
        waiting, worker.waiting = worker.waiting, {}
        for future in waiting.values():
            if not future.done():
                future.set_exception(WorkerDied(f"the picture worker drawing it stopped: {why}"))
        for end in (worker.jobs, worker.results):
            with contextlib.suppress(OSError):
                end.close()

    async def close(self) -> None:
        """Stop every worker: its pipe closes, it exits (or is killed after a while); the
        pictures still being drawn fail with :class:`WorkerDied`."""
        self.abandon()
        await asyncio.to_thread(self._stop_processes)

    def abandon(self) -> None:
        """Close every worker's pipes (on the loop): each exits when it reads the end. Its
        process is left to exit (:meth:`close` waits for it)."""
        self._closed = True
        for worker in self._workers:
            self._died(worker, "closed")

    def _stop_processes(self) -> None:
        until = time.monotonic() + _EXIT_WAIT
        for worker in self._workers:
            process = worker.process
            process.join(max(0.0, until - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join(1.0)


def forkserver_context() -> Any:
    """The ``forkserver`` start method, ``render`` preloaded (a worker starts warm)."""
    context = multiprocessing.get_context("forkserver")
    with contextlib.suppress(ValueError, RuntimeError):
        context.set_forkserver_preload(["render"])
    return context
