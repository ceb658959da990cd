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
        await conn.execution_options(**{IMMEDIATE: True})
        async with conn.begin():
            if conn.dialect.name == "postgresql":
                await conn.execute(text(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})"))
            await conn.run_sync(_upgrade, revision)
