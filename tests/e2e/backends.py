"""The database an end-to-end bot runs on: a SQLite file in its folder, or a PostgreSQL
database of its own.

Every test that runs a bot runs once per backend (ids ``[sqlite]`` and ``[postgres]``). The
PostgreSQL variant needs ``TEST_POSTGRES_URL`` (the server); without it the variant is left
out of the run (``tests/conftest.py`` says so in one summary line), and with
``REQUIRE_POSTGRES=1`` (CI) it fails instead of skipping.

Each bot folder gets a fresh database, copied (``CREATE DATABASE … TEMPLATE``) from one
migrated at the first use in the run, and dropped when the test ends (in a background
thread, while the next test runs); bots sharing a folder share its database, as they share
the SQLite file. The template is dropped at the end of the run, after the tests' databases.
(The server and the database making: :mod:`pg_admin`.)
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar, cast

import asyncpg
from sqlalchemy.engine import make_url

try:  # under pytest: tests/ is on sys.path (the folder of the top conftest.py)
    import pg_admin
except ModuleNotFoundError:  # run from the repository root: python -m tests.e2e.loadtest_bot
    from tests import pg_admin

T = TypeVar("T")

#: The backends every bot-running end-to-end test is parametrized with.
BACKENDS = pg_admin.BACKENDS

#: this run's migrated template database, one per server (made under the lock: the tests'
#: threads may ask at once)
_templates = pg_admin.MigratedDatabases("mahjong_e2e_tpl")
_template_lock = threading.Lock()


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def run_blocking(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to its end on a loop of its own in another thread, and wait for it.

    The tests' own loop also runs the fake Discord; a blocking look-up (as SQLite's are)
    holds it for the few milliseconds a query takes, which is what the tests' synchronous
    helpers (``stored_version``…) expect."""
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["value"] = asyncio.run(coro)
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=work, name="e2e-postgres")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return cast(T, box["value"])


def _template(server: str) -> str:
    with _template_lock:
        return run_blocking(_templates.name_on(server))


class _Dropper:
    """Drops the tests' databases in a thread of its own, one after another, while the next
    test runs (a ``DROP DATABASE`` takes 0.7–2 s here, mostly waiting on the disk)."""

    def __init__(self) -> None:
        self._pending: list[tuple[str, str]] = []
        self._failed: list[str] = []
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def drop(self, server: str, name: str) -> None:
        with self._lock:
            self._pending.append((server, name))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._work, name="e2e-drop-databases")
                self._thread.start()

    def _work(self) -> None:
        while True:
            with self._lock:
                if not self._pending:
                    self._thread = None
                    return
                server, name = self._pending.pop(0)
            try:
                asyncio.run(pg_admin.drop_database(server, name))
            except Exception as exc:  # reported by :meth:`finish`
                self._failed.append(f"{name}: {exc!r}")

    def finish(self) -> list[str]:
        """Wait until every database handed over is dropped; the ones that could not be."""
        while (thread := self._thread) is not None:
            thread.join()
        failed, self._failed = self._failed, []
        return failed


_dropper = _Dropper()


def drop_templates() -> list[str]:
    """At the end of the run: wait for the tests' databases to be dropped, then drop the
    template databases. Returns the databases that could not be dropped."""
    failed = _dropper.finish()
    run_blocking(_templates.drop_all())
    return failed


class Databases:
    """The databases of one test's bots on ``backend`` (``"sqlite"`` or ``"postgres"``):
    one per bot folder, made on first use; :meth:`drop` removes the PostgreSQL ones."""

    def __init__(self, backend: str) -> None:
        self.backend = backend
        self.server = pg_admin.postgres_server_url() if backend == "postgres" else None
        self._made: dict[Path, str] = {}

    def url_for(self, workdir: Path) -> str:
        """The database URL of the bot that runs in ``workdir``."""
        workdir = Path(workdir)
        if self.server is None:
            return f"sqlite+aiosqlite:///{workdir / 'mahjong.db'}"
        url = self._made.get(workdir)
        if url is None:
            template = _template(self.server)
            made = pg_admin.create_database(
                self.server, pg_admin.unique_name("mahjong_e2e"), template=template
            )
            url = self._made[workdir] = run_blocking(made)
        return url

    def drop(self) -> None:
        """Drop every PostgreSQL database made for this test (its bots are stopped), in the
        background: the end of the run waits for it (:func:`drop_templates`)."""
        for workdir, url in list(self._made.items()):
            assert self.server is not None  # (only PostgreSQL databases are made)
            _dropper.drop(self.server, pg_admin.database_name(url))
            del self._made[workdir]


_PLACEHOLDER = re.compile(r"\?")


def rows(url: str, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """The rows ``sql`` (``?`` placeholders) returns from the database at ``url``, read-only.

    Values come as each backend gives them: JSON columns as text on both, booleans as 0/1
    on SQLite and ``bool`` on PostgreSQL (equal in Python), timestamps as ISO text on SQLite
    and ``datetime`` on PostgreSQL (``str()`` of either parses with ``fromisoformat``)."""
    if is_sqlite(url):
        path = url.split(":///", 1)[1]
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            return db.execute(sql, params).fetchall()
    counter = iter(range(1, len(params) + 2))
    numbered = _PLACEHOLDER.sub(lambda _m: f"${next(counter)}", sql)

    async def fetch() -> list[tuple[Any, ...]]:
        conn = await asyncpg.connect(pg_admin.asyncpg_dsn(url))
        try:
            async with conn.transaction(readonly=True):
                return [tuple(r) for r in await conn.fetch(numbered, *params)]
        finally:
            await conn.close()

    return run_blocking(fetch())
