"""A commit that stalls: the store's one answer to "the database is busy".

On SQLite another process may hold the write lock longer than the busy timeout; on
PostgreSQL a row lock may be held past ``lock_timeout``. Either way nothing was written, and
the caller gets `StoreBusy` (never the driver's own error), so the bot can say so plainly:
the table is busy, the move was not recorded, press again.
"""

from __future__ import annotations

import logging

from db.types import StoreError

log = logging.getLogger(__name__)

#: SQLite's words for a lock it gave up waiting for (``SQLITE_BUSY`` / ``SQLITE_LOCKED``).
_SQLITE_BUSY = ("database is locked", "database is busy", "database table is locked")
#: PostgreSQL's SQLSTATEs of a wait given up: ``lock_not_available`` (``lock_timeout``,
#: ``NOWAIT``) and ``query_canceled`` (``statement_timeout``).
_POSTGRES_BUSY = ("55P03", "57014")
#: PostgreSQL's SQLSTATEs of a transaction rolled back to break a conflict, safe to run
#: again: ``deadlock_detected`` and ``serialization_failure``.
_POSTGRES_RETRY = ("40P01", "40001")
#: Why a database cannot be written, by SQLite's words and PostgreSQL's SQLSTATEs: the disk
#: is full (``SQLITE_FULL``, ``disk_full``), the file or the server is read-only
#: (``SQLITE_READONLY``, ``read_only_sql_transaction``), or the disk refuses the write
#: (``SQLITE_IOERR``: an immutable or vanished file, a failing disk; ``io_error``).
FULL, READ_ONLY, IO = "disk full", "read-only", "write refused by the disk"
_SQLITE_UNWRITABLE = (
    ("database or disk is full", FULL),
    ("readonly database", READ_ONLY),
    ("read-only", READ_ONLY),
    ("disk i/o error", IO),
    ("unable to open database file", IO),
)
_POSTGRES_UNWRITABLE = {"53100": FULL, "25006": READ_ONLY, "58030": IO}


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


class StoreUnwritable(StoreError):
    """The database cannot be written at all (disk full, read-only, the disk refusing the
    write): nothing was written, and pressing again will not help until the operator acts.
    ``why``: :data:`FULL`, :data:`READ_ONLY` or :data:`IO`."""

    def __init__(self, why: str, detail: str = "") -> None:
        super().__init__(
            f"the database cannot be written ({why}); nothing was written"
            + (f": {detail}" if detail else "")
        )
        self.why = why
        self.detail = detail


class _Outage:
    """Whether the operator was told the database cannot be written: once per outage, as
    loudly as the log allows, and once more when writes succeed again."""

    def __init__(self) -> None:
        self.why: str | None = None

    def refused(self, why: str, detail: str) -> None:
        if self.why is not None:
            return
        self.why = why
        log.critical(
            "THE DATABASE CANNOT BE WRITTEN (%s: %s). Every move, lobby and score is refused "
            "until it is fixed: %s. Players are told their press was not recorded.",
            why,
            detail,
            _WHAT_TO_DO.get(why, _WHAT_TO_DO[IO]),
        )

    def written(self) -> None:
        if self.why is not None:
            log.warning("The database is written again (it was: %s)", self.why)
            self.why = None


_WHAT_TO_DO = {
    FULL: "free space on the database's disk (df -h), then press again",
    READ_ONLY: "make the database and its folder writable by the bot's user again "
    "(or the PostgreSQL server writable)",
    IO: "check the database's disk and files (dmesg, lsattr for immutable files, "
    "permissions); the last backup is described in docs/deploy.md",
}

#: the bot's one record of an outage (a process has one database)
outage = _Outage()


def unwritable(error: BaseException) -> StoreUnwritable | None:
    """``error`` as :class:`StoreUnwritable` when it says the database cannot be written
    (the operator is told, once per outage), else None."""
    original = getattr(error, "orig", None) or error
    sqlstate = getattr(original, "sqlstate", None) or getattr(original, "pgcode", None)
    why = _POSTGRES_UNWRITABLE.get(str(sqlstate)) if sqlstate else None
    if why is None:
        text = str(original).lower()
        why = next((w for words, w in _SQLITE_UNWRITABLE if words in text), None)
    if why is None:
        return None
    outage.refused(why, str(original))
    found = StoreUnwritable(why, str(original))
    found.__cause__ = error if isinstance(error, BaseException) else None
    return found


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


__all__ = [
    "FULL",
    "IO",
    "READ_ONLY",
    "StoreBusy",
    "StoreUnwritable",
    "WriteRolledBack",
    "is_busy",
    "is_conflict",
    "outage",
    "unwritable",
]
