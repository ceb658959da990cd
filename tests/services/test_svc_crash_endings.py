"""Nothing acknowledged is lost across a crash (issue 15, item 6): a game whose last hand ended
right before the process died still gets that hand's result (with the seed reveal) and its
final standings, each posted once, by the restarted service — rebuilt from the stored log.

A crash is a service whose deliveries stop dead (every send hangs, so nothing queued after
the commit — results, standings, the hand's record — ever runs) and whose timers and
delivery tasks are then cancelled without the orderly shut-down."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from svc_helpers import USERS, RecordingDelivery, hang_after_deal, settle
from test_svc_play import play_until_over
from test_svc_session import log_kinds, open_game, wait_for

from services import outbox
from services.game import GameService
from services.real_engine import RealEngine
from services.results_owed import RESULT_POSTED


class DeadDelivery(RecordingDelivery):
    """Records calls; once ``dead`` every call hangs for ever (the process is gone)."""

    def __init__(self) -> None:
        super().__init__()
        self.dead = False

    async def _hang(self, name: str, *args: Any) -> None:
        if self.dead:
            await asyncio.Event().wait()
        self._note(name, *args)

    async def lobby_changed(self, game: Any) -> None:
        await self._hang("lobby", game)

    async def table_changed(self, game: Any, table: Any, events: Any) -> None:
        await self._hang("table", game, table, events)

    async def hand_changed(self, game: Any, update: Any) -> None:
        await self._hang("hand", game, update)

    async def hand_ended(self, game: Any, result: Any, table: Any) -> None:
        await self._hang("result", game, result, table)

    async def past_result(self, game: Any, result: Any, table: Any) -> None:
        await self._hang("past_result", game, result, table)

    async def game_ended(self, game: Any, reason: str) -> None:
        await self._hang("ended", game, reason)

    async def refresh(self, game: Any, table: Any) -> None:
        await self._hang("refresh", game, table)

    async def session_changed(self, game: Any, result: Any) -> None:
        await self._hang("session", game, result)


def doomed(store: Any, delivery: RecordingDelivery) -> GameService:
    """A service the test kills (not made by ``make_service``: it is never closed)."""
    return GameService(
        store,
        RealEngine(),
        delivery,
        turn_timeout=600,
        claim_timeout=600,
        new_seed=lambda: "services-test-seed",
        snapshot_every=0,
    )


async def kill(svc: GameService) -> None:
    """SIGKILL, as far as the store can tell: timers and deliveries stop where they are."""
    svc._stopping.set()
    tasks = svc._deadlines.close(svc._games.lives()) + svc.session_close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await outbox.stop(svc._games.lives())


async def play_to_the_last_hand(svc: GameService, gid: int, hands: int) -> None:
    """Play hands 1 … ``hands - 1`` (the only human presses 准备 after each)."""
    for _hand in range(1, hands):
        await play_until_over(svc, gid, USERS[:1])
        await svc.ready(gid, USERS[0])


async def test_a_crash_right_after_the_last_hand_posts_its_result_and_standings_once(
    make_service, store
):
    dead = DeadDelivery()
    svc = doomed(store, dead)
    gid = await open_game(svc, 1, length="4")
    await play_to_the_last_hand(svc, gid, 4)
    dead.dead = True  # from here on nothing reaches Discord
    await play_until_over(svc, gid, USERS[:1])
    await wait_for(lambda: svc._games[gid].live.status == "finished")
    await kill(svc)
    assert len(dead.named("result")) == 3 and not dead.named("ended")
    stored = await store.games.get(gid)
    assert stored is not None and stored.status == "finished"
    assert len(await store.hands.of_game(gid)) == 3  # the last hand's record never ran
    assert [g.game.id for g in await store.games.load_ending_owed()] == [gid]

    after = RecordingDelivery()
    fresh = make_service(delivery=after)
    await fresh.resume_all()
    await settle(fresh)
    [(game, result, _table)] = after.named("result")
    assert game.id == gid and game.hand_no == 4
    assert result.seed_reveal and result.seed_reveal["seed"]
    # with the hash published when the hand started, to check the reveal against
    assert result.seed_reveal["commitment"] == stored.seed_commitment
    [(ended, reason)] = after.named("ended")
    assert ended.id == gid and reason == "finished" and ended.session.ended_by == "length"
    assert len(ended.session.standings) == 4 and sum(s.total for s in ended.session.standings) == 0
    names = [n for n, _ in after.calls]
    assert names.index("result") < names.index("ended")
    assert len(await store.hands.of_game(gid)) == 4
    assert await store.games.load_ending_owed() == []
    assert log_kinds(await store.games.load(gid)).count("end") == 1

    again = RecordingDelivery()
    third = make_service(delivery=again)
    await third.resume_all()
    await settle(third)
    assert again.named("result") == [] and again.named("ended") == []


async def test_a_crash_between_the_end_entry_and_closing_closes_it_once(make_service, store):
    """The ``end`` entry was committed, the process died before the game was closed: the
    restarted service closes it (no second ``end`` entry) and posts result and standings."""
    dead = DeadDelivery()
    svc = doomed(store, dead)
    gid = await open_game(svc, 1, length="4")
    await play_to_the_last_hand(svc, gid, 4)
    dead.dead = True
    closing = asyncio.Event()

    async def die_before_closing(status: str) -> None:
        closing.set()
        await asyncio.Event().wait()

    svc._games[gid].close = die_before_closing  # type: ignore[method-assign]
    await play_until_over(svc, gid, USERS[:1])
    await asyncio.wait_for(closing.wait(), 5)
    await kill(svc)
    stored = await store.games.get(gid)
    assert stored is not None and stored.status == "active"
    assert log_kinds(await store.games.load(gid))[-1] == "end"

    after = RecordingDelivery()
    fresh = make_service(delivery=after)
    await fresh.resume_all()
    await wait_for(lambda: fresh._games[gid].live.status == "finished")
    await settle(fresh)
    assert [g.hand_no for g, _r, _t in after.named("result")] == [4]
    assert [reason for _g, reason in after.named("ended")] == ["finished"]
    assert log_kinds(await store.games.load(gid)).count("end") == 1
    assert (await store.games.get(gid)).status == "finished"
    assert await store.games.load_ending_owed() == []


async def test_a_manager_s_end_cut_short_by_a_crash_is_closed_as_abandoned(make_service, store):
    dead = DeadDelivery()
    svc = doomed(store, dead)
    gid = await open_game(svc, 1, length="8")
    await play_until_over(svc, gid, USERS[:1])
    closing = asyncio.Event()

    async def die_before_closing(status: str) -> None:
        closing.set()
        await asyncio.Event().wait()

    svc._games[gid].close = die_before_closing  # type: ignore[method-assign]
    ending = asyncio.create_task(svc.abandon(gid, USERS[0], admin=True))
    await asyncio.wait_for(closing.wait(), 5)
    ending.cancel()
    await kill(svc)
    assert (await store.games.get(gid)).status == "active"

    after = RecordingDelivery()
    fresh = make_service(delivery=after)
    await fresh.resume_all()
    await wait_for(lambda: fresh._games[gid].live.status == "abandoned")
    await settle(fresh)
    [(ended, reason)] = after.named("ended")
    assert reason == "abandoned" and ended.session.ended_by == "admin"
    assert log_kinds(await store.games.load(gid)).count("end") == 1
    assert await store.games.load_ending_owed() == []


async def test_hands_dealt_at_once_are_recorded_before_the_next_deal(make_service, store):
    """The only human on 托管: each hand is dealt the moment the last one ended, before the
    queued record of the ended hand could run (here: never — deliveries hang). The record
    is written before the deal, so a crash loses none; the last one comes with the ending."""
    dead = DeadDelivery()
    svc = doomed(store, dead)
    gid = await open_game(svc, 1, length="4")
    dead.dead = True
    await svc.set_autoplay(gid, USERS[0], True)
    await wait_for(lambda: svc._games[gid].live.status == "finished")
    await kill(svc)
    assert [h.hand_no for h in await store.hands.of_game(gid)] == [1, 2, 3]

    after = RecordingDelivery()
    fresh = make_service(delivery=after)
    await fresh.resume_all()
    await settle(fresh)
    hands = await store.hands.of_game(gid)
    assert [h.hand_no for h in hands] == [1, 2, 3, 4]
    # the results dealt past before they went out come first, then the ending's
    assert [g.hand_no for g, _r, _t in after.named("past_result")] == [1, 2, 3]
    assert [g.hand_no for g, _r, _t in after.named("result")] == [4]
    assert [n for n, _ in after.calls][:3] == ["past_result"] * 3
    final = (await store.games.get(gid)).totals
    by_seat = [0] * 4
    for hand in hands:
        for line in hand.deltas:
            by_seat[line["seat"]] += line["delta"]
    assert by_seat == final and sum(final) == 0


async def test_an_ending_whose_delivery_failed_is_posted_at_the_next_start(make_service, store):
    """A server manager ends the game at once; the standings' send fails (not one that may
    pass): the ending stays owed and the next start-up posts it; once it went out, a further
    restart posts nothing."""
    down = RecordingDelivery()
    svc = make_service(delivery=down)
    gid = await open_game(svc, 1, length="8")
    await play_until_over(svc, gid, USERS[:1])
    await settle(svc)
    assert len(down.named("result")) == 1
    down.fail = True
    await svc.abandon(gid, USERS[0], admin=True)
    await settle(svc)
    assert down.named("ended")  # tried, and failed
    assert [g.game.id for g in await store.games.load_ending_owed()] == [gid]
    await svc.close()

    after = RecordingDelivery()
    fresh = make_service(delivery=after)
    await fresh.resume_all()
    await settle(fresh)
    [(ended, reason)] = after.named("ended")
    assert ended.id == gid and reason == "abandoned" and ended.session.ended_by == "admin"
    # the result went out before the game was ended (noted posted): not handed over again
    assert after.named("result") == []
    assert (await store.games.get(gid)).messages[RESULT_POSTED] == 1
    assert await store.games.load_ending_owed() == []


async def test_a_crash_between_posting_the_ending_and_noting_it_hands_it_over_again(
    make_service, store, monkeypatch
):
    """At least once: the standings went out, the process died before noting it; the
    restarted service hands the ending over again (the Discord delivery remembers the
    standings it posted, in the game's stored messages, and does not post them twice)."""
    first = RecordingDelivery()
    svc = doomed(store, first)
    gid = await open_game(svc, 1, length="4")
    await play_to_the_last_hand(svc, gid, 4)
    noting = asyncio.Event()

    async def die_while_noting(game_id: int) -> None:
        noting.set()
        await asyncio.Event().wait()

    monkeypatch.setattr(store.games, "ending_posted", die_while_noting)
    await play_until_over(svc, gid, USERS[:1])
    await asyncio.wait_for(noting.wait(), 5)
    await kill(svc)
    assert len(first.named("ended")) == 1 and len(first.named("result")) == 4
    monkeypatch.undo()
    assert [g.game.id for g in await store.games.load_ending_owed()] == [gid]

    after = RecordingDelivery()
    fresh = make_service(delivery=after)
    await fresh.resume_all()
    await settle(fresh)
    assert [g.id for g, _reason in after.named("ended")] == [gid]
    assert await store.games.load_ending_owed() == []


async def test_an_ending_posted_in_the_normal_path_is_owed_no_more(make_service, store):
    delivery = RecordingDelivery()
    svc = make_service(delivery=delivery)
    gid = await open_game(svc, 1, length="4")
    await play_to_the_last_hand(svc, gid, 4)
    await play_until_over(svc, gid, USERS[:1])
    await wait_for(lambda: svc._games[gid].live.status == "finished")
    await settle(svc)
    assert len(delivery.named("ended")) == 1 and len(delivery.named("result")) == 4
    assert await store.games.load_ending_owed() == []
    await svc.close()
    after = RecordingDelivery()
    fresh = make_service(delivery=after)
    assert await fresh.resume_all() == []
    await settle(fresh)
    assert after.calls == []


@pytest.mark.parametrize("closed_by", ["host", "manager"])
async def test_a_closed_lobby_owes_nothing(make_service, store, closed_by):
    svc = make_service()
    game = await svc.create_game(1000, 2000, USERS[0], "host", "shangrao")
    await svc.abandon(game.id, USERS[0], admin=closed_by == "manager")
    await settle(svc)
    assert (await store.games.get(game.id)).status == "abandoned"
    assert await store.games.load_ending_owed() == []


async def test_results_dealt_past_on_a_tuoguan_table_are_posted_after_a_crash(make_service, store):
    """The only human on 托管: each hand is dealt the moment the last one ended, before its
    result could go out (here: never — deliveries hang). The process dies with the game
    still on; the restarted service posts the owed results of the hands before the one
    it stands at — oldest first, each as that hand ended (its totals, the hash published
    when it started beside the seed reveal), before the table is refreshed — and the hand
    it stands at as before."""
    dead = DeadDelivery()
    svc = doomed(store, dead)
    gid = await open_game(svc, 1, length="16")
    third = hang_after_deal(svc, 3)
    dead.dead = True
    await svc.set_autoplay(gid, USERS[0], True)
    await asyncio.wait_for(third.wait(), 20)
    await kill(svc)
    assert dead.named("result") == [] and dead.named("past_result") == []
    stored = await store.games.get(gid)
    assert stored is not None and stored.status == "active"
    deals = [a.action for a in (await store.games.load(gid)).actions if a.action["k"] == "next"]
    assert [d.get("owed") for d in deals] == [[1], [1, 2]]  # noted with each deal

    after = RecordingDelivery()
    fresh = make_service(delivery=after)
    fresh.session.arm = lambda live: None  # type: ignore[method-assign]  # (no 4th deal)
    await fresh.resume_all()
    await settle(fresh)
    past = after.named("past_result")
    assert [g.hand_no for g, _r, _t in past] == [1, 2]
    assert [g.hand_no for g, _r, _t in after.named("result")] == [3]
    names = [n for n, _ in after.calls]
    assert names[:3] == ["past_result", "past_result", "refresh"]
    recorded = {h.hand_no: h for h in await store.hands.of_game(gid)}
    totals = [0, 0, 0, 0]
    for game, result, table in past:
        assert not game.session.ready_open  # the next hand was dealt: nothing to press
        assert result.seed_reveal["seed"] == recorded[game.hand_no].seed_reveal["seed"]
        assert result.seed_reveal["commitment"] == table.commitment
        for line in recorded[game.hand_no].deltas:
            totals[line["seat"]] += line["delta"]
        assert list(game.totals) == totals
    # the first hand's hash as it was published when that hand started
    first = past[0][1].seed_reveal["commitment"]
    assert first and first != stored.seed_commitment

    # posted: a later restart (the deal's note still says owed) posts none of them again
    await fresh.close()
    again = RecordingDelivery()
    third = make_service(delivery=again)
    third.session.arm = lambda live: None  # type: ignore[method-assign]
    await third.resume_all()
    await settle(third)
    assert again.named("past_result") == [] and again.named("result") == []
    assert [n for n, _ in again.calls][:1] == ["refresh"]
