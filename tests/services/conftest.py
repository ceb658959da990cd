"""Fixtures: a real SQLite store in a temp folder, the real engine, a recording delivery."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from svc_helpers import RecordingDelivery

from db.store import Store
from services.game import GameService
from services.real_engine import RealEngine


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'mahjong.db'}"


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
