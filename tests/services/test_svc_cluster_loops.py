"""The cluster's loops (deadline writer, sweep, presence) keep running
(:mod:`services.cluster`): a failed step is logged and the loop goes on; a loop that ends
with an error is logged and started again."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from services.game import GameService

#: how long a test waits for a loop to come round again (seconds)
PATIENCE = 10.0


async def joined(svc: GameService) -> GameService:
    await svc.join_cluster("loops-test", sweep_every=0.02, grace=0.5, lease=10.0)
    return svc


async def test_a_failed_sweep_is_logged_and_the_sweep_goes_on(
    make_service: Any, caplog: pytest.LogCaptureFixture
) -> None:
    svc = await joined(make_service())
    claim = svc.cluster._book.claim_overdue
    calls: list[str] = []
    came_round = asyncio.Event()

    async def fails_once(*args: Any, **kwargs: Any) -> Any:
        calls.append("claim")
        if len(calls) == 1:
            raise RuntimeError("database is locked")
        came_round.set()
        return await claim(*args, **kwargs)

    svc.cluster._book.claim_overdue = fails_once  # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR, logger="services.cluster"):
        await asyncio.wait_for(came_round.wait(), PATIENCE)
    assert "deadline sweep failed" in caplog.text
    assert "starting it again" not in caplog.text  # the loop itself never ended


async def test_a_loop_that_ends_with_an_error_is_logged_and_started_again(
    make_service: Any, caplog: pytest.LogCaptureFixture
) -> None:
    svc = await joined(make_service())
    starts: list[int] = []
    restarted = asyncio.Event()

    async def loop() -> None:
        starts.append(len(starts) + 1)
        if len(starts) == 1:
            raise RuntimeError("lost the connection")
        restarted.set()
        await asyncio.Event().wait()

    with caplog.at_level(logging.ERROR, logger="services.cluster"):
        svc.cluster._keep_running("mj-test-loop", loop)
        await asyncio.wait_for(restarted.wait(), PATIENCE)
    assert starts == [1, 2]
    assert "mj-test-loop stopped (RuntimeError('lost the connection')); starting it again" in (
        caplog.text
    )
    await svc.leave_cluster()
    assert (
        all(task.done() for task in svc.cluster._cluster_tasks) and svc.cluster._cluster_tasks == []
    )
