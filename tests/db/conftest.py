"""Fixtures for the store tests: every test runs on SQLite (a real file) and on PostgreSQL.

The PostgreSQL runs take the server from ``TEST_POSTGRES_URL`` and give each test a fresh
database of its own. Without the variable they skip, unless ``REQUIRE_POSTGRES=1`` (CI),
where they fail.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy.engine import make_url

from db.store import Store

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


def _dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def _admin(sql: str, server: str) -> None:
    conn = await asyncpg.connect(_dsn(server))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def fresh_postgres() -> AsyncIterator[str]:
    """A new, empty database on the test server; dropped afterwards."""
    server = postgres_server_url()
    name = f"mahjong_t_{uuid.uuid4().hex[:16]}"
    await _admin(f'CREATE DATABASE "{name}"', server)
    try:
        yield make_url(server).set(database=name).render_as_string(hide_password=False)
    finally:
        await _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', server)


@pytest.fixture(params=BACKENDS)
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A clean database URL on each backend (nothing created in it yet)."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'db' / 'mahjong.db'}"
        return
    async for url in fresh_postgres():
        yield url


@pytest.fixture
async def postgres_url() -> AsyncIterator[str]:
    """A clean PostgreSQL database URL (for tests of PostgreSQL's own behaviour)."""
    async for url in fresh_postgres():
        yield url


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    """An opened (migrated) store on a clean database."""
    opened = await Store.open(db_url)
    try:
        yield opened
    finally:
        await opened.close()
