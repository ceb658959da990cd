"""Under load, fewer table pictures rather than late ones: a table picture the workers would
not finish within its budget is not drawn at all, and the table's text goes at once."""

from __future__ import annotations

import pytest

from cogs.delivery import pictures
from engine.game.machine import new_game
from engine.game.view import public_view
from render import pool
from services.delivery import GameSummary
from services.engine_views import table_of
from services.model import Seat


def _game_and_table() -> tuple[GameSummary, object]:
    seats = tuple(Seat(name=f"p{i}", user_id=i + 1) for i in range(4))
    game = GameSummary(1, 1, 1, "shangrao", {}, seats, "active", 1, (0, 0, 0, 0), hand_no=1)
    return game, table_of(public_view(new_game("shangrao", None, "budget").state), None)


@pytest.fixture
def workers(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(pictures, "ENABLED", True)
    shared = pool.PicturePool(0)
    monkeypatch.setattr(pool, "_shared", shared)
    yield shared
    monkeypatch.setattr(pool, "_shared", None)


async def test_a_table_picture_in_time_is_drawn(workers: pool.PicturePool) -> None:
    game, table = _game_and_table()
    workers.job_seconds = 0.05
    png = await pictures.table_png(game, table, budget=3.0)
    assert png is not None and png.startswith(b"\x89PNG")
    assert workers.fallbacks == 1  # drawn (in a thread: no worker processes here)


async def test_a_table_picture_that_would_be_late_is_not_drawn(workers: pool.PicturePool) -> None:
    game, table = _game_and_table()
    workers.job_seconds = 4.0  # the workers are that far behind
    assert await pictures.table_png(game, table, budget=3.0) is None
    assert workers.fallbacks == 0 and workers.rendered == 0 and workers.waiting == 0
    # without a budget (a caller that must have it) it is drawn however long it takes
    assert await pictures.table_png(game, table, budget=None) is not None
