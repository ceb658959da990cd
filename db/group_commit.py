"""SQLite group commit: the writes of one process that arrive together share one transaction.

SQLite takes one writer at a time, and with ``synchronous=FULL`` every commit is an fsync.
Instead of one ``BEGIN IMMEDIATE … COMMIT`` (and one fsync) per press, the writers of this
process take turns on one open transaction (a *batch*):

- the first writer opens it (``BEGIN IMMEDIATE``), later ones join it while it is open;
- each writer after the first runs in a ``SAVEPOINT`` of its own: one that raises is rolled
  back alone, the others stay in (the first needs none: failing alone, it ends the batch);
  a write that can only be refused before it changes a row (an action append: its
  compare-and-set comes first) runs without one (``write(savepoint=False)``: two statements
  less);
- the batch is committed when no other writer is waiting for its turn (or ``batch_limit``
  writes joined, or it has been open ``max_open`` seconds: under load a write does not wait
  for dozens queued after it); every writer of the batch returns only after that
  ``COMMIT``, so a write is durable before its caller's ``await`` returns, exactly as with
  a commit of its own;
- writers arriving while a batch commits wait and make up the next batch — the busier the
  process, the more writes share each fsync; a lone writer commits at once.

A player is waiting for some writes — the move of a press (:func:`answering`): they take
their turn before the others (bookkeeping: message ids, alerts…), and a batch holding one
is committed as soon as no other such write waits, instead of staying open for the rest
(which make up the next batch). Other writers still get one turn in every
:data:`FAIR_SHARE` while answering writes queue, so they are never starved.

Taking turns in order (an ``asyncio.Lock``) also keeps SQLite's busy handler out of the
process's own writers (it sleeps and retries, so a writer could lose the race again and
again); another process still queues on the busy timeout, and one holding the lock past it
makes the write raise `StoreBusy`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar

from sqlalchemy.ext.asyncio import AsyncConnection

from db.errors import StoreBusy, WriteRolledBack, is_busy, outage, unwritable
from db.sqlite_driver import driver_of
from db.types import StoreError

log = logging.getLogger(__name__)

#: the group commit whose turn the current task holds, and its connection (a write inside
#: a write joins it)
_holding: ContextVar[tuple[GroupCommit, AsyncConnection] | None] = ContextVar(
    "mj_group_commit_holding", default=None
)

#: while answering writes queue, at most this many of them take turns in a row before a
#: waiting other write gets one (100 tables at a press per 3 s: 8 left the table messages'
#: bookkeeping, and so their edits, 6.6 s behind at p99; 2 keeps them 3.5 s behind for the
#: same press latency — ``python -m tests.e2e.loadtest_bot --tables 100``)
FAIR_SHARE = 2
#: seconds a batch stays open for writers queued behind it before it is committed anyway
MAX_OPEN = 0.05
#: Seconds a writer waits for its turn, and a batch for its COMMIT (or ROLLBACK), before it
#: gives up with `StoreBusy` (nothing of the write recorded, as far as it knows). A database
#: that stops answering — a disk that hangs, a file made immutable — must never leave a
#: press waiting for ever: every writer behind a stuck one is answered after this, and the
#: turn moves on to a fresh connection once the stuck commit is abandoned.
WAIT_BOUND = 20.0


class _Answering:
    """Marks the writes of one press as answering (until the press's service call ends)."""

    __slots__ = ("on",)

    def __init__(self) -> None:
        self.on = True


_answering: ContextVar[_Answering | None] = ContextVar("mj_group_commit_answering", default=None)


@contextmanager
def answering() -> Iterator[None]:
    """The writes made inside (a press being answered: its player waits for the commit)
    take their turn before other writes. Tasks started inside inherit the mark only until
    the block ends (an outbox started by the press does not stay ahead of everyone)."""
    mark = _Answering()
    token = _answering.set(mark)
    try:
        yield
    finally:
        mark.on = False
        _answering.reset(token)


def _is_answering() -> bool:
    mark = _answering.get()
    return mark is not None and mark.on


class _Batch:
    """One open ``BEGIN IMMEDIATE`` transaction and the writes that joined it."""

    def __init__(self, conn: AsyncConnection) -> None:
        self.conn = conn
        self.members = 0
        self.broken: BaseException | None = None
        loop = asyncio.get_running_loop()
        self.opened = loop.time()
        self.committed: asyncio.Future[None] = loop.create_future()
        #: a write of a press being answered joined (commit once no other such write waits)
        self.answering = False


class _TurnLock:
    """Whose turn it is: answering writers first (in order), then the others (in order),
    one other after every :data:`FAIR_SHARE` answering turns while both wait. The turn is
    handed straight to the next writer on release."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.held = False
        self.answering: deque[asyncio.Future[None]] = deque()
        self.others: deque[asyncio.Future[None]] = deque()
        self.streak = 0  # answering turns in a row while others waited

    def locked(self) -> bool:
        return self.held

    async def acquire(self, answering: bool = False, bound: float | None = None) -> None:
        """Wait for the turn (``bound``: at most that many seconds, then `TimeoutError`)."""
        if not self.held:
            self.held = True
            return
        turn: asyncio.Future[None] = self.loop.create_future()
        queue = self.answering if answering else self.others
        queue.append(turn)
        try:
            # (in this task: a cancellation of the writer is never swallowed by a timer)
            async with asyncio.timeout(bound):
                await turn
        except BaseException:
            if turn.done() and not turn.cancelled():
                self.release()  # handed the turn as it gave up: pass it on
            else:
                with contextlib.suppress(ValueError):
                    queue.remove(turn)
            raise

    def release(self) -> None:
        first, second = self.answering, self.others
        if self.others and (not self.answering or self.streak >= FAIR_SHARE):
            first, second = self.others, self.answering
        for queue in (first, second):
            while queue:
                turn = queue.popleft()
                if turn.done():  # cancelled while waiting
                    continue
                self.streak = self.streak + 1 if queue is self.answering and self.others else 0
                turn.set_result(None)  # the turn passes to it
                return
        self.streak = 0
        self.held = False


class _Turns:
    """The writers of one event loop: whose turn it is, who waits, the open batch."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.lock = _TurnLock(loop)
        self.waiting = 0
        self.batch: _Batch | None = None

    @property
    def answering_waiting(self) -> int:
        return len(self.lock.answering)


class GroupCommit:
    """Writes of one process on one SQLite database, committed in groups (see module)."""

    def __init__(
        self,
        begin: Callable[[], Awaitable[AsyncConnection]],
        *,
        batch_limit: int = 64,
        max_open: float = MAX_OPEN,
        wait_bound: float = WAIT_BOUND,
    ) -> None:
        if batch_limit < 1:
            raise ValueError("batch_limit must be at least 1")
        self._begin = begin
        self.batch_limit = batch_limit
        self.max_open = max_open
        self.wait_bound = wait_bound
        self._turns: _Turns | None = None
        self._finishing: set[asyncio.Task[None]] = set()
        self._active = 0  # writes begun and not yet returned
        #: commits made, and writes they held (figures for benchmarks)
        self.commits = 0
        self.writes = 0

    def _for_loop(self) -> _Turns:
        loop = asyncio.get_running_loop()
        if self._turns is None or self._turns.loop is not loop:
            self._turns = _Turns(loop)
        return self._turns

    @asynccontextmanager
    async def write(self, *, savepoint: bool = True) -> AsyncIterator[AsyncConnection]:
        """Run the block as one write of a batch; return once the batch committed.

        ``savepoint=False``: a block joining an open batch runs without a savepoint of its
        own (``SAVEPOINT`` and ``RELEASE`` spared). Raising before it changed any row (a
        refused compare-and-set: SQLite's change counter has not moved) leaves the batch
        as it was; raising after breaks the batch: it is rolled back and every writer of
        it gets `StoreError`, nothing recorded."""
        held = _holding.get()
        if held is not None and held[0] is self:
            yield held[1]  # part of the enclosing write
            return
        self._active += 1
        try:
            async with self._write(savepoint) as conn:
                yield conn
        finally:
            self._active -= 1

    @asynccontextmanager
    async def _write(self, use_savepoint: bool = True) -> AsyncIterator[AsyncConnection]:
        turns = self._for_loop()
        urgent = _is_answering()
        timing = log.isEnabledFor(logging.DEBUG)
        began = time.perf_counter() if timing else 0.0
        turns.waiting += 1
        try:
            await turns.lock.acquire(urgent, self.wait_bound)
        except BaseException as error:
            turns.waiting -= 1
            self._rescue(turns)
            if isinstance(error, TimeoutError):
                log.error("a write waited %.0f s for its turn: given up", self.wait_bound)
                raise StoreBusy(f"no turn to write within {self.wait_bound:.0f} s") from None
            raise
        turns.waiting -= 1
        turn = time.perf_counter() if timing else 0.0
        batch: _Batch | None = None
        joined = False
        refused: Exception | None = None  # the block's own error (a refusal, a conflict)
        try:
            if turns.batch is None:
                turns.batch = _Batch(await self._begin())
            batch = turns.batch
            first = batch.members == 0
            guarded = use_savepoint and not first
            savepoint = await batch.conn.begin_nested() if guarded else None
            changes = -1 if first or guarded else _total_changes(batch.conn)
            token = _holding.set((self, batch.conn))
            try:
                yield batch.conn
            except BaseException as error:
                if (
                    savepoint is None
                    and changes >= 0
                    and isinstance(error, Exception)  # (a cancelled statement may still run)
                    and _total_changes(batch.conn) == changes
                ):
                    pass  # it changed nothing (refused): the batch stays as it was
                elif savepoint is None:
                    batch.broken = batch.broken or _Abandoned()  # alone: roll back the batch
                else:
                    try:
                        await savepoint.rollback()
                    except BaseException as rollback_error:
                        batch.broken = rollback_error
                if not isinstance(error, Exception):
                    raise  # cancelled: leave at once
                refused = error
            finally:
                _holding.reset(token)
            if refused is None and savepoint is not None:
                try:
                    await savepoint.commit()  # RELEASE
                except BaseException as error:
                    batch.broken = error  # the batch cannot be trusted: it is rolled back
                    raise
            if refused is None:
                batch.members += 1
                batch.answering = batch.answering or urgent
                joined = True
        finally:
            self._end_turn(turns)
        if refused is not None:
            # The block failed and wrote nothing, but the writes before it in the batch are
            # not committed yet: its caller must not read the database (another connection)
            # before they are, or it would answer from a state older than what the others
            # were already told — so the error is raised once the batch is over.
            if batch is not None and batch.members:
                with contextlib.suppress(BaseException):
                    await asyncio.shield(batch.committed)
            raise refused
        if joined and batch is not None:
            written = time.perf_counter() if timing else 0.0
            await asyncio.shield(batch.committed)  # bounded: _finish gives up after wait_bound
            if timing:
                log.debug(
                    "write%s: turn=%.1f block=%.1f commit=%.1f ms (batch of %d)",
                    " (answering)" if urgent else "",
                    (turn - began) * 1000,
                    (written - turn) * 1000,
                    (time.perf_counter() - written) * 1000,
                    batch.members,
                )

    def _end_turn(self, turns: _Turns) -> None:
        """Commit the batch now (nobody else waiting, no other answering write waiting for
        one it holds, open for ``max_open``, or it is full or broken) — the turn passes to the committing task,
        which lets the next writer in once done — or leave it open for the next writer."""
        batch = turns.batch
        if batch is not None and (
            batch.broken is not None
            or turns.waiting == 0
            or batch.members >= self.batch_limit
            or (batch.answering and turns.answering_waiting == 0)
            or turns.loop.time() - batch.opened >= self.max_open
        ):
            turns.batch = None
            task = turns.loop.create_task(self._finish(turns, batch))
            self._finishing.add(task)
            task.add_done_callback(self._finishing.discard)
            return
        turns.lock.release()

    async def _finish(self, turns: _Turns, batch: _Batch) -> None:
        """Commit (or, broken or empty, roll back) the batch; answer its writers.

        Once the transaction is over (SQLite's write lock released) the next batch may begin
        and the writers are answered, before the connection goes back to the pool (one loop
        turn less for everyone); a transaction that did not end cleanly is closed first."""
        failure: BaseException | None = None
        ended = False
        try:
            if batch.broken is not None or batch.members == 0:
                await self._bounded(batch.conn.rollback(), "ROLLBACK")
                failure = batch.broken
            else:
                began = time.perf_counter()
                await self._bounded(batch.conn.commit(), "COMMIT")
                if log.isEnabledFor(logging.DEBUG):
                    log.debug(
                        "commit of %d: %.1f ms", batch.members, (time.perf_counter() - began) * 1000
                    )
                self.commits += 1
                self.writes += batch.members
                outage.written()
            ended = True
        except BaseException as error:
            failure = error
        finally:
            if not ended:  # (it may still hold the write lock)
                with contextlib.suppress(Exception):
                    await self._bounded(batch.conn.close(), "closing a failed batch")
            turns.lock.release()
        if batch.members:
            if failure is None:
                batch.committed.set_result(None)
            else:
                batch.committed.set_exception(_not_recorded(failure))
        if ended:
            with contextlib.suppress(Exception):
                await batch.conn.close()

    async def _bounded(self, step: Awaitable[None], what: str) -> None:
        """``step`` of a batch's ending, given up after :attr:`wait_bound` (`StoreBusy`):
        the connection is left to its thread, and the writers and the next batch go on."""
        try:
            async with asyncio.timeout(self.wait_bound):
                await step
        except TimeoutError:
            log.error(
                "the database did not finish a %s within %.0f s: given up (the writers are "
                "told their writes were not recorded); is its disk hanging?",
                what,
                self.wait_bound,
            )
            raise StoreBusy(f"{what} did not finish within {self.wait_bound:.0f} s") from None

    async def settle(self, grace: float = 10.0) -> None:
        """Wait (at most ``grace`` seconds) for the writes under way to return and their
        batches to be committed and their connections back in the pool (before the engine
        is disposed). Being cancelled does not cancel a commit."""
        deadline = time.monotonic() + grace
        while self._finishing or self._active:
            left = deadline - time.monotonic()
            if left <= 0:
                log.warning("closing with %d write(s) still under way", self._active)
                return
            if self._finishing:
                await asyncio.wait(set(self._finishing), timeout=left)
            else:
                await asyncio.sleep(min(0.01, left))

    def _rescue(self, turns: _Turns) -> None:
        """A writer gave up waiting for its turn (cancelled): if the open batch was left
        open for it alone, commit it now."""
        if turns.waiting == 0 and turns.batch is not None:
            task = turns.loop.create_task(self._flush(turns))
            self._finishing.add(task)
            task.add_done_callback(self._finishing.discard)

    async def _flush(self, turns: _Turns) -> None:
        await turns.lock.acquire(True)
        batch, turns.batch = turns.batch, None
        if batch is None:
            turns.lock.release()
            return
        await self._finish(turns, batch)


def _total_changes(conn: AsyncConnection) -> int:
    """Rows changed on the connection since it opened (SQLite's ``total_changes``, read
    without a trip to aiosqlite's thread)."""
    return int(driver_of(conn).total_changes)


class _Abandoned(Exception):
    """A write of the batch with no savepoint of its own (the first, or one joining with
    ``savepoint=False``) was cancelled or raised after changing rows: the batch is rolled
    back (that writer got its own error)."""

    def __init__(self) -> None:
        super().__init__("another write of the same batch was cancelled or failed midway")


def _not_recorded(error: BaseException) -> StoreError:
    """The error a writer of a failed batch gets: nothing of its write was recorded, and
    it may be tried again (`StoreBusy` when the database was locked past the timeout,
    else `db.errors.WriteRolledBack` saying why the batch was rolled back)."""
    if isinstance(error, StoreError):
        return error
    if is_busy(error):
        return StoreBusy(str(getattr(error, "orig", error)))
    cannot = unwritable(error)
    if cannot is not None:
        return cannot
    why = str(error) if isinstance(error, _Abandoned) else repr(error)
    failed = WriteRolledBack(why)
    failed.__cause__ = error
    return failed
