"""Fixtures: a real store — every test runs on SQLite (a file in a temp folder) and on
PostgreSQL (``TEST_POSTGRES_URL``, a fresh database each) — the real engine, a recording
delivery."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import svc_postgres
from svc_helpers import RecordingDelivery
from svc_postgres import drop_templates, fresh_postgres

from db.store import Store
from services.game import GameService
from services.real_engine import RealEngine

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
]


@pytest.fixture(params=BACKENDS)
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A database of its own for the test: a SQLite file, or a fresh PostgreSQL database
    (``TEST_POSTGRES_URL``; see :mod:`svc_postgres`)."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'mahjong.db'}"
        return
    async for url in fresh_postgres():
        yield url


@pytest.fixture(scope="session", autouse=True)
def _drop_postgres_templates() -> Iterator[None]:
    yield
    if svc_postgres.made_templates():
        asyncio.run(drop_templates())


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    s = await Store.open(db_url)
    yield s
    await s.close()


@pytest.fixture
def delivery() -> RecordingDelivery:
    return RecordingDelivery()


ServiceFactory = Callable[..., GameService]


@pytest.fixture
async def make_service(store: Store, delivery: RecordingDelivery) -> AsyncIterator[ServiceFactory]:
    made: list[GameService] = []

    def factory(**kwargs: Any) -> GameService:
        kwargs.setdefault("turn_timeout", 600)
        kwargs.setdefault("claim_timeout", 600)
        kwargs.setdefault("new_seed", lambda: "services-test-seed")
        kwargs.setdefault("snapshot_every", 0)  # tests read the whole log
        svc = GameService(
            kwargs.pop("store", store),
            RealEngine(),
            kwargs.pop("delivery", delivery),
            **kwargs,
        )
        made.append(svc)
        return svc

    yield factory
    for svc in made:
        await svc.close()


@pytest.fixture
async def processes(db_url: str) -> AsyncIterator[Callable[[], Awaitable[GameService]]]:
    """``await processes()``: one more service instance on the test's database (its own
    store and memory, as another bot process would be), closed after the test."""
    made: list[tuple[Store, GameService]] = []

    async def make() -> GameService:
        store = await Store.open(db_url)
        svc = GameService(
            store,
            RealEngine(),
            RecordingDelivery(),
            turn_timeout=600,
            claim_timeout=600,
            new_seed=lambda: "services-test-seed",
        )
        made.append((store, svc))
        return svc

    yield make
    for store, svc in made:
        await svc.close()
        await store.close()
