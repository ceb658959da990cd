"""Fixtures for the store tests: every test runs on SQLite (a real file) and on PostgreSQL.

The PostgreSQL runs take the server from ``TEST_POSTGRES_URL`` and give each test a fresh
database of its own. Without the variable they skip, unless ``REQUIRE_POSTGRES=1`` (CI),
where they fail.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from pg_admin import BACKENDS, create_database, drop_database, postgres_server_url, unique_name

from db.store import Store


async def fresh_postgres() -> AsyncIterator[str]:
    """A new, empty database on the test server; dropped afterwards."""
    server = postgres_server_url()
    name = unique_name("mahjong_t")
    url = await create_database(server, name)
    try:
        yield url
    finally:
        await drop_database(server, name)


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


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> AsyncIterator[Store]:
    """An opened store on a SQLite file (for tests of SQLite's own paths)."""
    opened = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'mahjong.db'}")
    try:
        yield opened
    finally:
        await opened.close()
