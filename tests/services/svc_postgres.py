"""Empty PostgreSQL databases for the services tests: one migrated database per test run,
emptied before each test.

``TEST_POSTGRES_URL`` names the server; without it the PostgreSQL runs skip, unless
``REQUIRE_POSTGRES=1`` (CI), where they fail. Emptying the tables (no rows, ids from 1
again) gives each test a database as fresh as a new one, for some 50 ms instead of the ~2 s
a ``CREATE DATABASE`` and ``DROP DATABASE`` cost per test.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator

import asyncpg
import pytest
from sqlalchemy.engine import make_url

from db.store import Store

_template: dict[str, str] = {}


def postgres_server_url() -> str:
    """``TEST_POSTGRES_URL``, or skip (fail when ``REQUIRE_POSTGRES=1``)."""
    url = os.environ.get("TEST_POSTGRES_URL")
    if not url:
        message = "TEST_POSTGRES_URL is not set"
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(f"{message}, but REQUIRE_POSTGRES=1 demands the PostgreSQL tests")
        pytest.skip(message)
    return url


def _dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def _admin(sql: str, server: str) -> None:
    conn = await asyncpg.connect(_dsn(server))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def _url(server: str, name: str) -> str:
    return make_url(server).set(database=name).render_as_string(hide_password=False)


async def _migrated_database(server: str) -> str:
    """The name of this run's database, migrated to head (made on first use)."""
    name = _template.get(server)
    if name is None:  # (tests run one at a time: no two make it at once)
        name = f"mahjong_svc_{uuid.uuid4().hex[:12]}"
        await _admin(f'CREATE DATABASE "{name}"', server)
        store = await Store.open(_url(server, name))
        await store.close()
        _template[server] = name
    return name


async def _empty(url: str) -> None:
    """Remove every row of every table but Alembic's, and restart the ids (``DELETE`` with
    the foreign-key triggers off: faster than ``TRUNCATE`` on tables this small)."""
    conn = await asyncpg.connect(_dsn(url))
    try:
        tables = await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            " AND tablename <> 'alembic_version'"
        )
        sequences = await conn.fetch(
            "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'"
        )
        sql = ["SET session_replication_role = replica"]
        sql += [f'DELETE FROM "{row["tablename"]}"' for row in tables]
        sql += [f"SELECT setval('\"{row['sequencename']}\"', 1, false)" for row in sequences]
        sql.append("SET session_replication_role = DEFAULT")
        await conn.execute(";\n".join(sql))
    finally:
        await conn.close()


async def fresh_postgres() -> AsyncIterator[str]:
    """This run's database, migrated and empty, for one test."""
    server = postgres_server_url()
    url = _url(server, await _migrated_database(server))
    await _empty(url)
    yield url


async def drop_templates() -> None:
    """Drop the database made by this run."""
    for server, name in list(_template.items()):
        await _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', server)
        _template.pop(server, None)


def made_templates() -> bool:
    """Whether this run made its database (to drop at the end)."""
    return bool(_template)
