"""Background work whose failure is logged, never raised (:func:`services.logged.logged`):
the timers, the deadline sweep, the refreshes and the cluster's loops go on after a failed
step."""

from __future__ import annotations

import asyncio
import logging

import pytest

from services.logged import logged

log = logging.getLogger("tests.logged")


async def fails() -> None:
    raise RuntimeError("database is locked")


async def succeeds(done: list[str]) -> None:
    await asyncio.sleep(0)
    done.append("written")


async def test_a_failure_is_logged_with_its_traceback_and_not_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.ERROR, logger="tests.logged"):
        ok = await logged(fails(), log, "game %s: timer failed", 7)
    assert ok is False
    [record] = caplog.records
    assert record.getMessage() == "game 7: timer failed"
    assert record.exc_info is not None and "database is locked" in str(record.exc_info[1])


async def test_work_that_finishes_is_not_logged(caplog: pytest.LogCaptureFixture) -> None:
    done: list[str] = []
    with caplog.at_level(logging.DEBUG, logger="tests.logged"):
        assert await logged(succeeds(done), log, "never said") is True
    assert done == ["written"] and caplog.records == []


async def test_cancellation_goes_through(caplog: pytest.LogCaptureFixture) -> None:
    started = asyncio.Event()

    async def hangs() -> None:
        started.set()
        await asyncio.Event().wait()

    task = asyncio.create_task(logged(hangs(), log, "never said"))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert caplog.records == []
