"""Bookkeeping writes combined per game (:mod:`services.single_flight`, issue 15): one run in
flight, the calls made meanwhile served by one following run that sees the latest state."""

from __future__ import annotations

import asyncio
import contextvars
import logging

import pytest

from services.single_flight import SingleFlight

marker: contextvars.ContextVar[str] = contextvars.ContextVar("marker", default="none")


class Saver:
    """A write that copies ``state[key]`` before its first await, then waits for ``gate``."""

    def __init__(self) -> None:
        self.state: dict[int, int] = {}
        self.stored: dict[int, int] = {}
        self.writes: list[tuple[int, int]] = []
        self.gate = asyncio.Event()
        self.fail_next = False
        self.seen_marker: list[str] = []

    async def write(self, key: int) -> None:
        value = self.state[key]
        self.seen_marker.append(marker.get())
        self.writes.append((key, value))
        await self.gate.wait()
        if self.fail_next:
            self.fail_next = False
            raise RuntimeError("disk full")
        self.stored[key] = value


@pytest.fixture
def saver() -> Saver:
    return Saver()


@pytest.fixture
def flight(saver: Saver) -> SingleFlight[int]:
    """The writes of ``saver`` combined per key."""
    return SingleFlight(saver.write, "counter")


async def test_calls_during_a_write_share_one_following_write_of_the_latest(
    saver: Saver, flight: SingleFlight[int]
) -> None:
    saver.state[1] = 0
    first = asyncio.create_task(flight.run(1))
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert saver.writes == [(1, 0)]  # under way, waiting for the gate
    later = []
    for value in range(1, 6):
        saver.state[1] = value
        later.append(asyncio.create_task(flight.run(1)))
    await asyncio.sleep(0)
    assert saver.writes == [(1, 0)]  # nothing more while one is in flight
    saver.gate.set()
    await asyncio.gather(first, *later)
    assert saver.writes == [(1, 0), (1, 5)]  # 6 calls, 2 writes: the last one of the latest
    assert saver.stored == {1: 5}
    assert flight.runs == 2 and not flight.busy(1)


async def test_games_are_written_independently(saver: Saver, flight: SingleFlight[int]) -> None:
    saver.gate.set()
    saver.state.update({1: 10, 2: 20})
    await asyncio.gather(flight.run(1), flight.run(2))
    assert sorted(saver.writes) == [(1, 10), (2, 20)]


async def test_a_failed_write_is_logged_and_the_next_call_writes(
    saver: Saver, flight: SingleFlight[int], caplog: pytest.LogCaptureFixture
) -> None:
    saver.gate.set()
    saver.fail_next = True
    saver.state[3] = 1
    with caplog.at_level(logging.ERROR, logger="services.single_flight"):
        await flight.run(3)  # the caller is not told: the failure is logged
    assert "counter 3: not saved" in caplog.text
    assert saver.stored == {}
    saver.state[3] = 2
    await flight.run(3)
    assert saver.stored == {3: 2}


async def test_a_caller_that_does_not_wait_is_drained_at_shut_down(
    saver: Saver, flight: SingleFlight[int]
) -> None:
    saver.state[4] = 7
    flight.request(4)
    await asyncio.sleep(0)
    assert flight.busy(4) and saver.stored == {}
    saver.gate.set()
    await flight.drained()
    assert saver.stored == {4: 7} and not flight.busy(4)


async def test_settled_waits_for_the_write_under_way_and_the_one_asked_for(
    saver: Saver, flight: SingleFlight[int]
) -> None:
    saver.state[5] = 1
    flight.request(5)
    await asyncio.sleep(0)
    saver.state[5] = 2
    flight.request(5)
    settled = asyncio.create_task(flight.settled(5))
    await asyncio.sleep(0)
    assert not settled.done()
    saver.gate.set()
    await settled
    assert saver.stored == {5: 2} and flight.runs == 2


async def test_a_write_does_not_run_in_its_first_callers_context(
    saver: Saver, flight: SingleFlight[int]
) -> None:
    """(A press being answered marks its writes urgent by a context variable: bookkeeping
    started from inside must not inherit the mark.)"""
    saver.gate.set()
    saver.state[6] = 1
    token = marker.set("answering")
    try:
        await flight.run(6)
    finally:
        marker.reset(token)
    assert saver.seen_marker == ["none"]


async def test_a_waiting_caller_cancelled_does_not_cancel_the_write(
    saver: Saver, flight: SingleFlight[int]
) -> None:
    saver.state[8] = 3
    waiting = asyncio.create_task(flight.run(8))
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    saver.gate.set()
    await flight.drained()
    assert saver.stored == {8: 3}
