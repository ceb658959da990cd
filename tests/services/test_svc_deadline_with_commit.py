"""A deadline is stored with the action that sets it (issue 15, items 6 and 9): processes
sharing a database store the turn / claim and 准备 deadlines in the same transaction as the
commit, so a process killed right after a press — before its batched deadline writes — still
leaves them for another process to fire.

Two service instances (two "processes", a store each) on one database, SQLite file and
PostgreSQL; the first one's batched deadline writer is stopped, so only what its commits
wrote is stored, and then it is killed."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from svc_helpers import CHANNEL, GUILD, USERS, RecordingDelivery, simple_choice
from test_svc_crash_endings import kill

from db.deadlines import DeadlineBook
from db.store import Store
from services.game import GameService
from services.real_engine import RealEngine

PATIENCE = 20.0


@pytest.fixture
async def processes(db_url: str) -> AsyncIterator[Callable[..., Awaitable[GameService]]]:
    made: list[tuple[Store, GameService]] = []

    async def make(name: str, **kwargs: Any) -> GameService:
        store = await Store.open(db_url)
        kwargs.setdefault("claim_timeout", 600)
        ready_timeout = kwargs.pop("ready_timeout", None)
        svc = GameService(
            store,
            RealEngine(),
            RecordingDelivery(),
            new_seed=lambda: "services-test-seed",
            snapshot_every=0,
            **kwargs,
        )
        if ready_timeout is not None:
            svc.ready_timeout = ready_timeout
        await svc.join_cluster(name, sweep_every=0.1, grace=0.5, lease=10.0)
        made.append((store, svc))
        return svc

    yield make
    for store, svc in made:
        if not svc._stopping.is_set():
            await svc.close()
        await store.close()


async def writer_stopped(svc: GameService) -> None:
    """Only the commits store deadlines from now on (the batched writer and sweeper stop)."""
    for task in svc._cluster_tasks:
        task.cancel()
    await asyncio.gather(*svc._cluster_tasks, return_exceptions=True)
    svc._cluster_tasks = []


async def press(svc: GameService, gid: int) -> None:
    view = await svc.private_view(gid, USERS[0])
    drawn = None
    if view.hand.drawn is not None:
        from engine.tiles import tile_str

        drawn = tile_str(view.hand.drawn)
    await svc.act(gid, USERS[0], simple_choice(view.hand.legal, drawn))


async def test_a_press_stores_its_deadline_and_another_process_fires_it(processes, store):
    a = await processes("a", turn_timeout=1)
    game = await a.create_game(GUILD, CHANNEL, USERS[0], "host", "shangrao")
    await a.start(game.id, USERS[0])
    gid = game.id
    await writer_stopped(a)
    book = DeadlineBook(store)
    assert (await a.private_view(gid, USERS[0])).hand.legal  # the human's turn
    before = time.time()
    await press(a, gid)
    live = a._games[gid]
    assert a.engine.phase(live.state) in ("turn", "claim")  # the human is asked again
    pressed_at = live.version
    [row] = [d for d in await book.pending(gid) if d.kind == "play"]
    assert row.version == pressed_at  # written with the press, not by the batched writer
    assert before + 1 <= row.due_at <= time.time() + 1
    await kill(a)

    b = await processes("b", turn_timeout=1)

    async def timed_out() -> bool:
        log = (await store.games.load(gid)).actions
        return any(r.action.get("timeout") for r in log)

    end = time.monotonic() + PATIENCE
    while not await timed_out():
        assert time.monotonic() < end, "the other process never fired the deadline"
        await asyncio.sleep(0.05)
    log = (await store.games.load(gid)).actions
    timeouts = [r for r in log if r.action.get("timeout")]
    assert [r.seq for r in timeouts] == [pressed_at + 1]  # fired once, right after the press
    assert [r.seq for r in log] == list(range(1, len(log) + 1))
    assert b._games.get(gid) is not None  # it took the game over


async def test_the_hand_s_last_action_stores_its_ready_deadline(processes, store):
    a = await processes("a", turn_timeout=600, ready_timeout=30)
    game = await a.create_game(GUILD, CHANNEL, USERS[0], "host", "shangrao", length="8")
    await a.start(game.id, USERS[0])
    gid = game.id
    await writer_stopped(a)
    steps = 0
    while (await a.summary(gid)).phase not in ("hand_over", "game_over"):
        await press(a, gid)
        steps += 1
        assert steps < 500
    ended_at = a._games[gid].version
    before = time.time()
    rows = {d.kind: d for d in await DeadlineBook(store).pending(gid)}
    assert rows["session"].version == ended_at
    assert before + 25 <= rows["session"].due_at <= time.time() + 30


async def test_one_process_alone_stores_no_deadline(make_service, store):
    svc = make_service(turn_timeout=1)
    game = await svc.create_game(GUILD, CHANNEL, USERS[0], "host", "shangrao")
    await svc.start(game.id, USERS[0])
    await press(svc, game.id)
    assert await DeadlineBook(store).pending(game.id) == []
