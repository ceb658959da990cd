"""Before the bot opens its SQLite database (数据库开机检查): the file must be whole and no
other bot process may be using it.

- **Whole**: ``PRAGMA quick_check`` reads every page. A file damaged mid-way would otherwise
  start without complaint and lose games silently (each one that cannot be read looks gone
  to its players); a damaged header would end in a raw traceback. Either is refused with a
  message saying how to restore a backup (``docs/deploy.md``).
- **Alone**: two bot processes on one SQLite file would both resume, time and deliver every
  game. The first holds an advisory lock (``flock``) on ``<file>.lock`` while it runs; a
  second is refused. The operating system lets the lock go when the process ends, however it
  ends (a SIGKILL too), so a crash never leaves a stale lock. Several processes share one
  database only on PostgreSQL (shards, ``docs/deploy.md``), which needs no lock here.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path
from typing import IO

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; the check is left out there
    fcntl = None  # type: ignore[assignment]

#: where the restore steps are
RESTORE_HELP = "docs/deploy.md, section Backups"
#: the most problems quoted from ``quick_check`` (it may list thousands)
QUOTED_PROBLEMS = 5


class DatabaseRefused(Exception):
    """The bot must not run on this database; ``str()`` says why and what to do."""


def sqlite_file(database_url: str) -> Path | None:
    """The file of a SQLite ``DATABASE_URL`` (None: another database, or in memory)."""
    prefix, sep, path = database_url.partition(":///")
    if not sep or not prefix.startswith("sqlite"):
        return None
    path = path.split("?", 1)[0]
    if path in ("", ":memory:"):
        return None
    return Path(path)


def damaged_text(path: Path, problem: str) -> str:
    """What the operator reads when the file is damaged."""
    return (
        f"The database {path} is damaged ({problem}). The bot will not run on it: games "
        f"and scores read from a damaged file may be wrong or missing. Restore the latest "
        f"backup ({RESTORE_HELP}): stop the bot, move the damaged file aside with its "
        f"-wal and -shm files (mv {path} {path}.damaged), put the backup at {path}, start "
        f"the bot. Without a backup, sqlite3's .recover may save part of it."
    )


def check_integrity(path: Path) -> None:
    """Refuse (:class:`DatabaseRefused`) a file that ``PRAGMA quick_check`` finds damaged,
    or that is no SQLite database at all. A missing or empty file is a new database: fine."""
    if not path.exists() or path.stat().st_size == 0:
        return
    try:
        con = sqlite3.connect(path, timeout=30)
    except sqlite3.Error as error:
        raise DatabaseRefused(damaged_text(path, str(error))) from None
    try:
        rows = [str(row[0]) for row in con.execute("PRAGMA quick_check").fetchall()]
    except sqlite3.OperationalError as error:
        if "locked" in str(error) or "busy" in str(error):
            # another process holds a write lock that long: not a damage (the lock says who)
            return
        raise DatabaseRefused(damaged_text(path, str(error))) from None
    except sqlite3.DatabaseError as error:  # "file is not a database", "malformed"
        raise DatabaseRefused(damaged_text(path, str(error))) from None
    finally:
        con.close()
    if rows != ["ok"]:
        quoted = "; ".join(rows[:QUOTED_PROBLEMS])
        more = len(rows) - QUOTED_PROBLEMS
        if more > 0:
            quoted += f"; and {more} more"
        raise DatabaseRefused(damaged_text(path, f"PRAGMA quick_check: {quoted}"))


def lock_path(path: Path) -> Path:
    """The lock file of a SQLite database."""
    return path.with_name(path.name + ".lock")


def hold_lock(path: Path) -> IO[str] | None:
    """Take the database's advisory lock for this process (kept while the returned file is
    open: keep it until the process ends). Refuses (:class:`DatabaseRefused`) when another
    process holds it, or when the lock file cannot be written (the folder is read-only: the
    database could not be written either). None where there are no advisory locks."""
    if fcntl is None:
        return None
    lock = lock_path(path)
    try:
        handle = open(lock, "a+", encoding="utf-8")  # noqa: SIM115 - held until the end
    except OSError as error:
        raise DatabaseRefused(
            f"Cannot write {lock} next to the database ({error.strerror}): the bot needs to "
            f"write in {path.parent} (the database and its journal live there). Check the "
            f"folder's owner, permissions and free space."
        ) from None
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip() or "?"
        handle.close()
        raise DatabaseRefused(
            f"Another bot process (pid {holder}) is using the database {path}. Two processes "
            f"on one SQLite file would both run every game: stop the other one first. "
            f"Several processes (Discord shards) can share a PostgreSQL database "
            f"(docs/deploy.md)."
        ) from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle


def preflight(database_url: str) -> IO[str] | None:
    """Both checks for a SQLite ``database_url`` (nothing for PostgreSQL): the lock first
    (a second process must not even read a file the first is writing), then the integrity.
    Returns the held lock (None: nothing held)."""
    path = sqlite_file(database_url)
    if path is None:
        return None
    handle = hold_lock(path)
    try:
        check_integrity(path)
    except BaseException:
        if handle is not None:
            with contextlib.suppress(OSError):
                handle.close()
        raise
    return handle


__all__ = [
    "DatabaseRefused",
    "check_integrity",
    "damaged_text",
    "hold_lock",
    "lock_path",
    "preflight",
    "sqlite_file",
]
