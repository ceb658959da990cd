"""Running the Alembic migrations in ``db/migrations`` from code (no alembic.ini needed)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from db.connection import IMMEDIATE

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
    starting at once do not race."""
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
