"""Sends are not lost (issue 15, item 6): a failed delivery that may pass (429, 5xx, a
network error) is sent again with back-off until it lands or is obsolete; one that cannot
(403, 404) is given up; a result owed when the process died is delivered after a restart."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import pytest
from svc_helpers import USERS, RecordingDelivery, lobby_with, settle
from test_svc_play import play_until_over

from services import outbox
from services.gamelog import LiveGame


class Flaky(Exception):
    """A send that failed for a reason that may pass (``retry_after``: seconds)."""

    def __init__(self, retry_after: float = 0.0) -> None:
        super().__init__(f"try again in {retry_after} s")
        self.retry_after = retry_after


class Refused(Exception):
    """A send that will never succeed (403 Missing Permissions)."""


class FlakyDelivery(RecordingDelivery):
    """Records calls; the named calls fail with :class:`Flaky` the next ``fails[name]``
    times, and a :class:`Refused` name always fails."""

    def __init__(self) -> None:
        super().__init__()
        self.fails: dict[str, int] = {}
        self.refused: set[str] = set()
        #: names the delivery holds itself (its channel refuses the bot: made later)
        self.held: set[str] = set()
        self.attempts: dict[str, int] = {}

    def _note(self, name: str, *args: Any) -> None:
        self.attempts[name] = self.attempts.get(name, 0) + 1
        if name in self.refused:
            raise Refused(name)
        if name in self.held:
            raise outbox.Held(name)
        if self.fails.get(name, 0) > 0:
            self.fails[name] -= 1
            raise Flaky()
        super()._note(name, *args)

    def resend_delay(self, error: BaseException) -> float | None:
        return error.retry_after if isinstance(error, Flaky) else None


@pytest.fixture
def quick_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outbox, "BACKOFF_FIRST", 0.001)
    monkeypatch.setattr(outbox, "BACKOFF_MAX", 0.01)


async def test_a_result_failing_five_times_is_sent_until_it_lands(
    make_service, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(outbox, "BACKOFF_FIRST", 0.05)  # 5 failures: about 1.5 s in all
    delivery = FlakyDelivery()
    delivery.fails["result"] = 5
    svc = make_service(delivery=delivery)
    gid = await lobby_with(svc, 1)
    await svc.start(gid, USERS[0])
    await play_until_over(svc, gid, USERS[:1])
    assert delivery.attempts.get("result", 0) < 6  # still being sent again
    await svc.ready(gid, USERS[0])  # 准备 meanwhile: shown after the result, in order
    await settle(svc)
    assert delivery.attempts["result"] == 6
    results = delivery.named("result")
    assert len(results) == 1 and results[0][1].seed_reveal["seed"]
    names = [n for n, _ in delivery.calls]
    assert "session" in names[names.index("result") :]


async def test_a_refused_send_is_given_up_and_the_next_ones_go(make_service, quick_backoff):
    delivery = FlakyDelivery()
    delivery.refused.add("result")
    svc = make_service(delivery=delivery)
    gid = await lobby_with(svc, 1)
    await svc.start(gid, USERS[0])
    await play_until_over(svc, gid, USERS[:1])
    await settle(svc)
    assert delivery.attempts["result"] == 1
    await svc.next_hand(gid, USERS[0])
    await settle(svc)
    assert any(g.hand_no == 2 for g, *_ in delivery.named("table"))


async def test_a_held_result_stays_owed_and_is_no_failure(
    make_service, caplog: pytest.LogCaptureFixture
):
    """A result the delivery holds (its channel refuses the bot now) is not sent again nor
    logged as a failure; it stays owed, so the next deal notes it for a restart."""
    delivery = FlakyDelivery()
    delivery.held.add("result")
    svc = make_service(delivery=delivery)
    gid = await lobby_with(svc, 1)
    await svc.start(gid, USERS[0])
    await play_until_over(svc, gid, USERS[:1])
    await settle(svc)
    assert delivery.attempts["result"] == 1
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    assert svc._games[gid].live.results_unposted == {1}
    await svc.next_hand(gid, USERS[0])
    await settle(svc)
    assert list(svc._games[gid].live.session.results_owed) == [1]


def test_back_off_doubles_honours_retry_after_and_stops_growing() -> None:
    first = [outbox.backoff(1) for _ in range(50)]
    assert all(outbox.BACKOFF_FIRST <= s <= outbox.BACKOFF_FIRST * 1.2 for s in first)
    assert 2 * outbox.BACKOFF_FIRST <= outbox.backoff(2) <= 2.4 * outbox.BACKOFF_FIRST
    assert outbox.backoff(40) <= outbox.BACKOFF_MAX * 1.2
    assert outbox.backoff(1, at_least=7.5) >= 7.5  # Discord's retry_after


def _live() -> LiveGame:
    return LiveGame(1, 1, 1, "shangrao", {}, "active", 0, [0, 0, 0, 0], [])


async def test_a_rate_limited_send_waits_its_retry_after() -> None:
    live = _live()
    waited: list[float] = []
    tries = 0

    async def send() -> None:
        nonlocal tries
        tries += 1
        if tries <= 2:
            raise Flaky(retry_after=3.25)

    async def pause(seconds: float) -> None:
        waited.append(seconds)

    policy = outbox.Resend(lambda e: e.retry_after if isinstance(e, Flaky) else None, pause)
    outbox.enqueue(live, send, resend=policy)
    await outbox.drained([live])
    assert tries == 3
    assert len(waited) == 2 and all(s >= 3.25 for s in waited)
    await outbox.stop([live])


async def test_a_failing_send_is_dropped_once_a_newer_one_shows_the_same() -> None:
    live = _live()
    shown: list[str] = []
    gate = asyncio.Event()

    def hand(name: str, fail: bool) -> outbox.Job:
        async def send() -> None:
            if fail:
                raise Flaky()
            shown.append(name)

        return send

    async def pause(seconds: float) -> None:
        await gate.wait()

    policy = outbox.Resend(lambda e: 0.0 if isinstance(e, Flaky) else None, pause)
    outbox.enqueue(live, hand("old hand", True), key=("hand", 0), resend=policy)
    await asyncio.sleep(0.01)  # it failed and waits to be sent again
    outbox.enqueue(live, hand("new hand", False), key=("hand", 0), resend=policy)
    outbox.enqueue(live, hand("other seat", False), key=("hand", 1), resend=policy)
    gate.set()
    await outbox.drained([live])
    assert shown == ["new hand", "other seat"]
    assert live.outbox_keys == {}
    await outbox.stop([live])


def _slow_jobs(shown: list[str], gate: asyncio.Event) -> Any:
    """A maker of named jobs; those named ``slow …`` wait for ``gate`` before showing."""

    def job(name: str) -> outbox.Job:
        async def send() -> None:
            if name.startswith("slow"):
                await gate.wait()
            shown.append(name)

        return send

    return job


def _gated() -> tuple[LiveGame, list[str], asyncio.Event, Any]:
    """A game, what its deliveries showed, the gate its ``slow …`` jobs wait for, and the
    maker of its jobs (:func:`_slow_jobs`)."""
    shown: list[str] = []
    gate = asyncio.Event()
    return _live(), shown, gate, _slow_jobs(shown, gate)


async def test_a_hand_not_yet_shown_is_skipped_for_a_newer_one_of_the_same_seat() -> None:
    """A busy game's queue shows each seat's newest hand only: the hands queued behind a
    slow job are not replayed one by one; other jobs keep their order."""
    live, shown, gate, job = _gated()
    outbox.enqueue(live, job("slow table"))
    await asyncio.sleep(0)  # the table is being sent: the game moves on meanwhile
    for moment in ("hand v1", "hand v2", "hand v3"):
        outbox.enqueue(live, job(moment), key=("hand", 0))
        outbox.enqueue(live, job(f"line after {moment}"))
    outbox.enqueue(live, job("other seat v1"), key=("hand", 1))
    gate.set()
    await outbox.drained([live])
    assert shown == [
        "slow table",
        "line after hand v1",
        "line after hand v2",
        "hand v3",
        "line after hand v3",
        "other seat v1",
    ]
    assert live.outbox_keys == {}
    await outbox.stop([live])


async def test_the_table_does_not_wait_for_a_slow_hand_dm() -> None:
    """A hand DM being sent (here: stuck) holds back no public job queued after it — the
    next table, the result — while a seat's next hand still waits for it."""
    live, shown, gate, job = _gated()
    outbox.enqueue(live, job("table v1"), lane=outbox.PUBLIC)
    outbox.enqueue(live, job("slow hand v1"), key=("hand", 0), lane=outbox.PRIVATE)
    outbox.enqueue(live, job("table v2"), lane=outbox.PUBLIC)
    outbox.enqueue(live, job("result"), lane=outbox.PUBLIC)
    outbox.enqueue(live, job("other seat"), key=("hand", 1), lane=outbox.PRIVATE)
    for _ in range(20):
        await asyncio.sleep(0)
    assert shown == ["table v1", "table v2", "result"]
    assert outbox.busy(live)
    gate.set()
    await outbox.drained([live])
    assert shown == ["table v1", "table v2", "result", "slow hand v1", "other seat"]
    assert not outbox.busy(live)
    await outbox.stop([live])


async def test_a_hand_dm_waits_for_the_public_moments_queued_before_it() -> None:
    """A hand never shows before the moments that led to it: a private job waits for every
    public job queued before it (a claim window held, a paced moment)."""
    live, shown, gate, job = _gated()
    outbox.enqueue(live, job("slow moment"), lane=outbox.PUBLIC)
    outbox.enqueue(live, job("hand"), key=("hand", 0), lane=outbox.PRIVATE)
    outbox.enqueue(live, job("table after"), lane=outbox.PUBLIC)
    for _ in range(20):
        await asyncio.sleep(0)
    assert shown == []
    gate.set()
    await outbox.drained([live])
    assert shown[0] == "slow moment"
    assert sorted(shown[1:]) == ["hand", "table after"]
    await outbox.stop([live])


async def test_a_job_of_both_lanes_waits_for_all_before_and_holds_all_after() -> None:
    """The game's end (or a refresh) touches the hands and the channel: it waits for the
    hand DMs queued before it, and nothing queued after it overtakes it."""
    live, shown, gate, job = _gated()
    outbox.enqueue(live, job("slow hand"), key=("hand", 0), lane=outbox.PRIVATE)
    outbox.enqueue(live, job("ending"))  # BOTH, the default
    outbox.enqueue(live, job("table after"), lane=outbox.PUBLIC)
    outbox.enqueue(live, job("hand after"), key=("hand", 1), lane=outbox.PRIVATE)
    for _ in range(20):
        await asyncio.sleep(0)
    assert shown == []
    gate.set()
    await outbox.drained([live])
    assert shown[:2] == ["slow hand", "ending"]
    assert sorted(shown[2:]) == ["hand after", "table after"]
    await outbox.stop([live])


async def test_a_hand_made_obsolete_while_it_waited_for_the_table_is_skipped() -> None:
    """A seat's hand that waits for the public lane is skipped once a newer hand of the
    same seat is queued meanwhile (only the newest is shown)."""
    live, shown, gate, job = _gated()
    outbox.enqueue(live, job("slow table"), lane=outbox.PUBLIC)
    outbox.enqueue(live, job("hand v1"), key=("hand", 0), lane=outbox.PRIVATE)
    for _ in range(5):
        await asyncio.sleep(0)  # hand v1 is taken, waiting for the table
    outbox.enqueue(live, job("hand v2"), key=("hand", 0), lane=outbox.PRIVATE)
    gate.set()
    await outbox.drained([live])
    assert shown == ["slow table", "hand v2"]
    assert live.outbox_keys == {}
    await outbox.stop([live])


async def test_stopping_cancels_both_lanes_and_a_lane_waiting_on_the_other() -> None:
    live, shown, _never_set, job = _gated()  # (Discord hangs)
    outbox.enqueue(live, job("slow table"), lane=outbox.PUBLIC)
    outbox.enqueue(live, job("hand"), key=("hand", 0), lane=outbox.PRIVATE)
    await asyncio.sleep(0.01)
    await asyncio.wait_for(outbox.stop([live]), 2)
    assert shown == []
    assert all(lane.pump.done() for lane in live.outbox_lanes.values())


def test_an_unknown_lane_is_refused() -> None:
    with pytest.raises(ValueError, match="no delivery lane"):
        outbox.enqueue(_live(), _slow_jobs([], asyncio.Event())("x"), lane="dm")


async def test_closing_the_service_gives_up_sends_being_made_again(make_service) -> None:
    delivery = FlakyDelivery()
    svc = make_service(delivery=delivery)
    gid = await lobby_with(svc, 1)
    delivery.fails["lobby"] = 10**6  # Discord is down for good
    await svc.join(gid, USERS[1], "p")
    await asyncio.sleep(0.05)
    started = time.monotonic()
    await asyncio.wait_for(svc.close(), 5)
    assert time.monotonic() - started < 5
    assert delivery.attempts["lobby"] >= 2


async def test_a_result_owed_at_a_crash_is_delivered_after_the_restart(
    make_service, store, quick_backoff
):
    """The process died right after the hand's last action was committed, before the
    result went out: the restarted service delivers it (with the seed reveal)."""
    down = RecordingDelivery()
    svc = make_service(delivery=down)
    gid = await lobby_with(svc, 1)
    await svc.start(gid, USERS[0])
    down.fail = True  # nothing reaches Discord any more: as good as dead
    await play_until_over(svc, gid, USERS[:1])
    await settle(svc)
    assert down.named("result")  # it was tried, and failed
    await svc.close()

    after = RecordingDelivery()
    fresh = make_service(delivery=after)
    await fresh.resume_all()
    await settle(fresh)
    results = after.named("result")
    assert len(results) == 1
    game, result, _table = results[0]
    assert game.id == gid and result.seed_reveal and result.seed_reveal["seed"]
    names = [n for n, _ in after.calls]
    assert names.index("refresh") < names.index("result") < names.index("session")


class StuckDMs(RecordingDelivery):
    """A delivery whose hand DMs hang (Discord keeps the DM channel busy) until ``gate``."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()

    async def hand_changed(self, game: Any, update: Any) -> None:
        await self.gate.wait()
        await super().hand_changed(game, update)


async def test_a_stuck_hand_dm_holds_back_neither_the_table_nor_the_result(make_service):
    """Through the service: while the human's hand DM hangs, the table follows the whole
    hand and its result goes out; the hands follow once the DM is free, in order."""
    delivery = StuckDMs()
    svc = make_service(delivery=delivery)
    gid = await lobby_with(svc, 1)
    await svc.start(gid, USERS[0])
    await play_until_over(svc, gid, USERS[:1])
    try:
        for _ in range(200):
            if delivery.named("result"):
                break
            await asyncio.sleep(0.01)
        assert delivery.named("result"), "the result waited for a hand DM"
        assert delivery.named("table")[-1][0].phase in ("hand_over", "game_over")
        assert delivery.named("hand") == []
    finally:
        delivery.gate.set()
    await settle(svc)
    versions = [args[0].version for args in delivery.named("hand")]
    assert versions and versions == sorted(versions)
    await svc.close()
