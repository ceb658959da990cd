"""A commit that stalls: the store's one answer to "the database is busy".

On SQLite another process may hold the write lock longer than the busy timeout; on
PostgreSQL a row lock may be held past ``lock_timeout``. Either way nothing was written, and
the caller gets `StoreBusy` (never the driver's own error), so the bot can say so plainly:
the table is busy, the move was not recorded, press again.
"""

from __future__ import annotations

from db.types import StoreError

#: SQLite's words for a lock it gave up waiting for (``SQLITE_BUSY`` / ``SQLITE_LOCKED``).
_SQLITE_BUSY = ("database is locked", "database is busy", "database table is locked")
#: PostgreSQL's SQLSTATEs of a wait given up: ``lock_not_available`` (``lock_timeout``,
#: ``NOWAIT``) and ``query_canceled`` (``statement_timeout``).
_POSTGRES_BUSY = ("55P03", "57014")
#: PostgreSQL's SQLSTATEs of a transaction rolled back to break a conflict, safe to run
#: again: ``deadlock_detected`` and ``serialization_failure``.
_POSTGRES_RETRY = ("40P01", "40001")


class StoreBusy(StoreError):
    """The database stayed locked past the timeout; nothing of this write was recorded."""

    def __init__(self, detail: str = "") -> None:
        super().__init__(
            "the database is busy (locked by another writer past the timeout); "
            "nothing was written" + (f": {detail}" if detail else "")
        )
        self.detail = detail


class WriteRolledBack(StoreError):
    """A write rolled back with the SQLite batch it shared (:mod:`db.group_commit`), through
    no fault of its own: another write of the batch was cancelled or failed midway, or the
    batch's commit failed. Nothing of it was recorded; it may be tried again as it was."""

    def __init__(self, why: str) -> None:
        super().__init__(
            f"the write was NOT recorded: the batch it shared was rolled back ({why}); "
            "nothing of it was saved, and it may be tried again"
        )
        self.why = why


def is_busy(error: BaseException) -> bool:
    """Whether ``error`` (SQLAlchemy's wrapper or the driver's own) is a lock wait given up."""
    original = getattr(error, "orig", None) or error
    sqlstate = getattr(original, "sqlstate", None) or getattr(original, "pgcode", None)
    if sqlstate in _POSTGRES_BUSY:
        return True
    text = str(original).lower()
    return any(words in text for words in _SQLITE_BUSY)


def is_conflict(error: BaseException) -> bool:
    """Whether ``error`` is PostgreSQL rolling a transaction back to break a deadlock or a
    serialization conflict: nothing was written, and running it again is safe."""
    original = getattr(error, "orig", None) or error
    sqlstate = getattr(original, "sqlstate", None) or getattr(original, "pgcode", None)
    return sqlstate in _POSTGRES_RETRY


__all__ = ["StoreBusy", "WriteRolledBack", "is_busy", "is_conflict"]
