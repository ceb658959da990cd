"""Command pictures (scoring desk, stats, replay) are drawn off the event loop through the
picture workers of the game pictures (:func:`services.pictures.draw`), by priority — the
desk's answer first, replay animations last — and in a thread while the workers are not
started (pictures off) or with ``PICTURE_WORKERS=0``."""

from __future__ import annotations

import asyncio
import functools
import io
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from PIL import Image
from svc_helpers import GUILD
from test_replay_service import finished_game
from test_stats_picture import page, ranked

from cogs.desk.answer import hand_picture
from render import pool, render_hand
from render.charts import render_rating_chart
from render.leaderboard import render_leaderboard
from services import pictures
from services.desk import DeskQuery, score_desk
from services.replay import ALL, ReplayService
from services.stats_picture import board_picture

#: which thread drew each picture of :func:`_note_thread`
_DRAWN_IN: list[str] = []
_ORDER: list[str] = []
_GATE = threading.Event()


def _note_thread(model: str) -> bytes:
    _DRAWN_IN.append(threading.current_thread().name)
    return model.encode()


def _in_order(model: str) -> bytes:
    if model == "blocker":
        _GATE.wait(10)
    _ORDER.append(model)
    return model.encode()


@pytest.fixture
def own_pool(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``services.pictures.draw`` on the pool a test makes (each test closes it; the
    process's own pool is put back afterwards)."""
    monkeypatch.setattr(pictures, "USE_POOL", True)
    monkeypatch.setattr(pool, "_shared", None)
    yield


async def test_without_the_workers_a_thread_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pictures, "USE_POOL", False)
    monkeypatch.setattr(pool, "_shared", None)
    _DRAWN_IN.clear()
    assert await pictures.draw(_note_thread, "x") == b"x"
    assert _DRAWN_IN and _DRAWN_IN[0] != threading.main_thread().name
    assert pool._shared is None  # no workers started for it


async def test_priorities_answer_first_animation_last(own_pool: None) -> None:
    shared = pool.shared()
    shared.workers = 0  # PICTURE_WORKERS=0: the pool draws in a thread, one at a time, in order
    _ORDER.clear()
    _GATE.clear()
    try:
        blocker = asyncio.ensure_future(pictures.draw(_in_order, "blocker", wait="bulk"))
        while shared._running == 0:
            await asyncio.sleep(0.01)
        jobs = [
            asyncio.ensure_future(pictures.draw(_in_order, "animation", wait="bulk")),
            asyncio.ensure_future(pictures.draw(_in_order, "stats card", wait="reply")),
            asyncio.ensure_future(pictures.draw(_in_order, "desk answer", wait="answer")),
        ]
        await asyncio.sleep(0.05)
        assert shared.waiting == 3
        _GATE.set()
        await asyncio.gather(blocker, *jobs)
    finally:
        _GATE.set()
        await pool.close_shared()
    assert _ORDER == ["blocker", "desk answer", "stats card", "animation"]
    assert shared.fallbacks == 4 and shared.rendered == 0


async def test_every_command_picture_is_drawn_in_a_worker_process(
    own_pool: None, make_service, store
) -> None:
    """The pictures' models travel to the worker processes (they pickle) and come back as
    the same pictures a thread draws."""
    monkey_pool = pool.PicturePool(workers=1, nice=0)
    pool._shared = monkey_pool
    try:
        answer = score_desk(DeskQuery(hand="123m456m789m123p44p +4p", variant="xinyu"))
        desk = await pictures.draw(render_hand, hand_picture(answer), wait="answer")
        assert desk == render_hand(hand_picture(answer))
        board = board_picture(page(ranked(5), None))
        assert await pictures.draw(render_leaderboard, board) == render_leaderboard(board)
        start = datetime(2026, 1, 1, tzinfo=UTC)
        chart = [(start + timedelta(days=i), 20.0 + i) for i in range(5)]
        drawn = await pictures.draw(functools.partial(render_rating_chart, title="等级分"), chart)
        assert drawn == render_rating_chart(chart, title="等级分")
        _svc, gid = await finished_game(make_service, variant="xinyu")
        replays = ReplayService(store)
        rh = await replays.hand(GUILD, f"#{gid}-1")
        assert (await replays.picture(rh, 3, ALL, "zh")).startswith(b"\x89PNG")
        gif = Image.open(io.BytesIO(await replays.animation(rh, "zh")))
        assert gif.format == "GIF" and gif.n_frames == rh.steps + 1
        assert monkey_pool.rendered == 5 and monkey_pool.fallbacks == 0
    finally:
        await pool.close_shared()
