"""Empty PostgreSQL databases for the services tests: one migrated database per test run,
emptied before each test.

``TEST_POSTGRES_URL`` names the server; without it the PostgreSQL runs skip, unless
``REQUIRE_POSTGRES=1`` (CI), where they fail. Emptying the tables (no rows, ids from 1
again) gives each test a database as fresh as a new one, for some 50 ms instead of the ~2 s
a ``CREATE DATABASE`` and ``DROP DATABASE`` cost per test. (The server and the database
making: :mod:`pg_admin`.)
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg
from pg_admin import MigratedDatabases, asyncpg_dsn, database_url, postgres_server_url

#: this run's migrated database, one per server
_migrated = MigratedDatabases("mahjong_svc")


async def _empty(url: str) -> None:
    """Remove every row of every table but Alembic's, and restart the ids (``DELETE`` with
    the foreign-key triggers off: faster than ``TRUNCATE`` on tables this small)."""
    conn = await asyncpg.connect(asyncpg_dsn(url))
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
    url = database_url(server, await _migrated.name_on(server))
    await _empty(url)
    yield url


async def drop_templates() -> None:
    """Drop the database made by this run."""
    await _migrated.drop_all()


def made_templates() -> bool:
    """Whether this run made its database (to drop at the end)."""
    return _migrated.made()
