"""SQLite group commit: the writes of one process that arrive together share one transaction.

SQLite takes one writer at a time, and with ``synchronous=FULL`` every commit is an fsync.
Instead of one ``BEGIN IMMEDIATE … COMMIT`` (and one fsync) per press, the writers of this
process take turns on one open transaction (a *batch*):

- the first writer opens it (``BEGIN IMMEDIATE``), later ones join it while it is open;
- each writer after the first runs in a ``SAVEPOINT`` of its own: one that raises is rolled
  back alone, the others stay in (the first needs none: failing alone, it ends the batch);
- the batch is committed when no other writer is waiting for its turn (or ``batch_limit``
  writes joined); every writer of the batch returns only after that ``COMMIT``, so a write
  is durable before its caller's ``await`` returns, exactly as with a commit of its own;
- writers arriving while a batch commits wait and make up the next batch — the busier the
  process, the more writes share each fsync; a lone writer commits at once.

Taking turns in order (an ``asyncio.Lock``) also keeps SQLite's busy handler out of the
process's own writers (it sleeps and retries, so a writer could lose the race again and
again); another process still queues on the busy timeout, and one holding the lock past it
makes the write raise `StoreBusy`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar

from sqlalchemy.ext.asyncio import AsyncConnection

from db.errors import StoreBusy, is_busy
from db.types import StoreError

#: the group commit whose turn the current task holds, and its connection (a write inside
#: a write joins it)
_holding: ContextVar[tuple[GroupCommit, AsyncConnection] | None] = ContextVar(
    "mj_group_commit_holding", default=None
)


class _Batch:
    """One open ``BEGIN IMMEDIATE`` transaction and the writes that joined it."""

    def __init__(self, conn: AsyncConnection) -> None:
        self.conn = conn
        self.members = 0
        self.broken: BaseException | None = None
        self.committed: asyncio.Future[None] = asyncio.get_running_loop().create_future()


class _Turns:
    """The writers of one event loop: whose turn it is, who waits, the open batch."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.lock = asyncio.Lock()
        self.waiting = 0
        self.batch: _Batch | None = None


class GroupCommit:
    """Writes of one process on one SQLite database, committed in groups (see module)."""

    def __init__(
        self, begin: Callable[[], Awaitable[AsyncConnection]], *, batch_limit: int = 64
    ) -> None:
        if batch_limit < 1:
            raise ValueError("batch_limit must be at least 1")
        self._begin = begin
        self.batch_limit = batch_limit
        self._turns: _Turns | None = None
        self._finishing: set[asyncio.Task[None]] = set()
        #: commits made, and writes they held (figures for benchmarks)
        self.commits = 0
        self.writes = 0

    def _for_loop(self) -> _Turns:
        loop = asyncio.get_running_loop()
        if self._turns is None or self._turns.loop is not loop:
            self._turns = _Turns(loop)
        return self._turns

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncConnection]:
        """Run the block as one write of a batch; return once the batch committed."""
        held = _holding.get()
        if held is not None and held[0] is self:
            yield held[1]  # part of the enclosing write
            return
        turns = self._for_loop()
        turns.waiting += 1
        try:
            await turns.lock.acquire()
        except BaseException:
            turns.waiting -= 1
            self._rescue(turns)
            raise
        turns.waiting -= 1
        batch: _Batch | None = None
        joined = False
        refused: Exception | None = None  # the block's own error (a refusal, a conflict)
        try:
            if turns.batch is None:
                turns.batch = _Batch(await self._begin())
            batch = turns.batch
            first = batch.members == 0
            savepoint = None if first else await batch.conn.begin_nested()
            token = _holding.set((self, batch.conn))
            try:
                yield batch.conn
            except BaseException as error:
                if savepoint is None:
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
            await asyncio.shield(batch.committed)

    def _end_turn(self, turns: _Turns) -> None:
        """Commit the batch now (nobody else waiting, or it is full or broken) — the turn
        passes to the committing task, which lets the next writer in once done — or leave
        it open for the next writer."""
        batch = turns.batch
        if batch is not None and (
            batch.broken is not None or turns.waiting == 0 or batch.members >= self.batch_limit
        ):
            turns.batch = None
            task = turns.loop.create_task(self._finish(turns, batch))
            self._finishing.add(task)
            task.add_done_callback(self._finishing.discard)
            return
        turns.lock.release()

    async def _finish(self, turns: _Turns, batch: _Batch) -> None:
        """Commit (or, broken or empty, roll back) the batch; answer its writers."""
        failure: BaseException | None = None
        try:
            if batch.broken is not None or batch.members == 0:
                await batch.conn.rollback()
                failure = batch.broken
            else:
                await batch.conn.commit()
                self.commits += 1
                self.writes += batch.members
        except BaseException as error:
            failure = error
        finally:
            with contextlib.suppress(Exception):
                await batch.conn.close()
            turns.lock.release()
        if batch.members == 0:
            return
        if failure is None:
            batch.committed.set_result(None)
        else:
            batch.committed.set_exception(_not_recorded(failure))

    def _rescue(self, turns: _Turns) -> None:
        """A writer gave up waiting for its turn (cancelled): if the open batch was left
        open for it alone, commit it now."""
        if turns.waiting == 0 and turns.batch is not None:
            task = turns.loop.create_task(self._flush(turns))
            self._finishing.add(task)
            task.add_done_callback(self._finishing.discard)

    async def _flush(self, turns: _Turns) -> None:
        await turns.lock.acquire()
        batch, turns.batch = turns.batch, None
        if batch is None:
            turns.lock.release()
            return
        await self._finish(turns, batch)


class _Abandoned(Exception):
    """The batch's first write raised: the batch is rolled back (that writer got its error)."""


def _not_recorded(error: BaseException) -> StoreError:
    """The error a writer of a failed batch gets: nothing of its write was recorded."""
    if isinstance(error, StoreError):
        return error
    if is_busy(error):
        return StoreBusy(str(getattr(error, "orig", error)))
    failed = StoreError(f"the write was not recorded (its commit failed: {error})")
    failed.__cause__ = error
    return failed
