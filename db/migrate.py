"""Running the Alembic migrations in ``db/migrations`` from code (no alembic.ini needed)."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from db.connection import IMMEDIATE
from db.errors import is_busy

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: How long start-up waits for another process's migration on SQLite (milliseconds).
MIGRATION_WAIT_MS = 600_000
#: PostgreSQL advisory lock key: bot processes starting together migrate one at a time.
MIGRATION_LOCK = 0x6D6A6462  # "mjdb"


def alembic_config(url: str | None = None) -> Config:
    """The Alembic configuration, equivalent to an ``alembic.ini`` next to the migrations."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("path_separator", "os")
    config.set_main_option("version_locations", str(MIGRATIONS / "versions"))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def _upgrade(connection: Connection, revision: str) -> None:
    config = alembic_config()
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Apply the migrations up to ``revision`` on ``engine``, in one transaction, holding a
    lock (SQLite: the write lock; PostgreSQL: an advisory lock) so that several processes
    starting at once do not race.

    SQLite may answer "database is locked" at once, without waiting its busy timeout (a
    new file switched to WAL by another process, or the WAL recovered, at that moment): the
    migration, which wrote nothing, is tried again until :data:`MIGRATION_WAIT_MS`."""
    give_up = time.monotonic() + MIGRATION_WAIT_MS / 1000
    while True:
        try:
            await _upgrade_once(engine, revision)
            return
        except OperationalError as error:
            if engine.dialect.name != "sqlite" or not is_busy(error):
                raise
            if time.monotonic() > give_up:
                raise
            log.info("database locked by another process starting: migrating again shortly")
            await asyncio.sleep(0.05)


async def _upgrade_once(engine: AsyncEngine, revision: str) -> None:
    async with engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:  # wait for another process's migration, however long it takes
            busy = int((await conn.exec_driver_sql("PRAGMA busy_timeout")).scalar_one())
            await conn.exec_driver_sql(f"PRAGMA busy_timeout={MIGRATION_WAIT_MS}")
            await conn.commit()
        try:
            await conn.execution_options(**{IMMEDIATE: True})
            async with conn.begin():
                if not sqlite:
                    # the other starting processes wait here however long a migration takes
                    await conn.execute(text("SET LOCAL lock_timeout = 0"))
                    await conn.execute(text(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})"))
                await conn.run_sync(_upgrade, revision)
        finally:
            if sqlite:  # the connection goes back to the pool with the store's busy timeout
                await conn.execution_options(**{IMMEDIATE: False})
                await conn.exec_driver_sql(f"PRAGMA busy_timeout={busy}")
                await conn.commit()
