"""Alembic environment: runs on a connection handed over by ``db.migrate`` (the store's
start-up), or, from the ``alembic`` command line, on an async engine of its own."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from db.connection import make_engine
from db.models import Base

config = context.config
target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_async() -> None:
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("alembic: set sqlalchemy.url (or run the migrations through db.migrate)")
    engine = make_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(_run)
    finally:
        await engine.dispose()


def _run_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    _run_offline()
elif (shared := config.attributes.get("connection")) is not None:
    _run(shared)
else:
    asyncio.run(_run_async())
