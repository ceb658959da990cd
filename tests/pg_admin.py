"""PostgreSQL databases for the tests: the server they run on, databases made and dropped on
it, and each run's migrated database per server (copied as a template, or emptied between
tests).

``TEST_POSTGRES_URL`` names the server (any database on it: the admin statements run there).
Without it a test that asks for the server skips, unless ``REQUIRE_POSTGRES=1`` (CI), where
it fails: CI never lets a PostgreSQL test skip. Every database made here has a name of its
own (a prefix and a random suffix), so two runs — two CI jobs — can share one server.

The db, services and end-to-end fixtures (``tests/db/conftest.py``,
``tests/services/svc_postgres.py``, ``tests/e2e/backends.py``) build on this module; it is
imported as ``pg_admin`` (``tests/`` is on ``sys.path``: pytest puts the folder of the
top ``conftest.py`` there).
"""

from __future__ import annotations

import os
import uuid

import asyncpg
import pytest
from sqlalchemy.engine import make_url

from db.store import Store

#: The backends every test that runs on both databases is parametrized with (ids
#: ``[sqlite]`` and ``[postgres]``; the PostgreSQL one carries the ``postgres`` marker).
BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
]


def postgres_server_url() -> str:
    """``TEST_POSTGRES_URL``, or skip (fail when ``REQUIRE_POSTGRES=1``)."""
    url = os.environ.get("TEST_POSTGRES_URL")
    if not url:
        message = "TEST_POSTGRES_URL is not set"
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(f"{message}, but REQUIRE_POSTGRES=1 demands the PostgreSQL tests")
        pytest.skip(message)
    return url


def asyncpg_dsn(url: str) -> str:
    """``url`` as asyncpg takes it (no SQLAlchemy driver name)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def database_url(server: str, name: str) -> str:
    """The URL of database ``name`` on ``server`` (same driver, user and password)."""
    return make_url(server).set(database=name).render_as_string(hide_password=False)


def database_name(url: str) -> str:
    """The database a URL names."""
    return str(make_url(url).database)


def unique_name(prefix: str) -> str:
    """A database name no other test or run uses: ``prefix`` and 12 random hex digits."""
    return f"{prefix}_{uuid.uuid4().hex[:12]}"


async def admin(server: str, sql: str) -> None:
    """Run one statement (``CREATE DATABASE`` …) on ``server``, outside a transaction."""
    conn = await asyncpg.connect(asyncpg_dsn(server))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def create_database(server: str, name: str, *, template: str | None = None) -> str:
    """Make database ``name`` on ``server`` — empty, or a copy of ``template`` (which must
    have no connection open) — and return its URL."""
    copy = f' TEMPLATE "{template}"' if template is not None else ""
    await admin(server, f'CREATE DATABASE "{name}"{copy}')
    return database_url(server, name)


async def drop_database(server: str, name: str) -> None:
    """Drop database ``name`` if it is there, closing the connections still open to it."""
    await admin(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def create_migrated_database(server: str, name: str) -> str:
    """Make database ``name`` migrated to head (the store's migrations) and return its URL;
    no connection to it stays open, so it can serve as a template."""
    url = await create_database(server, name)
    store = await Store.open(url)
    await store.close()
    return url


class MigratedDatabases:
    """One migrated database per server for the whole run, made on first use, each named
    ``prefix`` and a random suffix; :meth:`drop_all` removes them at the end of the run.

    Callers make sure two tasks never ask for a server's database at once (the tests run
    one at a time; the end-to-end helpers hold a lock)."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self._names: dict[str, str] = {}

    async def name_on(self, server: str) -> str:
        """The name of this run's migrated database on ``server`` (made on first use)."""
        name = self._names.get(server)
        if name is None:
            name = unique_name(self.prefix)
            await create_migrated_database(server, name)
            self._names[server] = name
        return name

    def made(self) -> bool:
        """Whether this run made any (to drop at the end)."""
        return bool(self._names)

    async def drop_all(self) -> None:
        """Drop every database made, on every server."""
        for server, name in list(self._names.items()):
            await drop_database(server, name)
            self._names.pop(server, None)
