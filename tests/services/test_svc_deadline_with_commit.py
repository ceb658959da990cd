"""A deadline is stored with the action that sets it (issue 15, items 6 and 9): processes
sharing a database store the turn / claim, 准备 and 解散 deadlines in the same transaction as
the commit — a press, a hand's end, a 准备 press that leaves others to wait, a 解散 proposal,
a deal — so a process killed right after a press, before its batched deadline writes, still
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
from svc_helpers import (
    CHANNEL,
    GUILD,
    USERS,
    RecordingDelivery,
    hang_after_deal,
    simple_choice,
)
from test_svc_crash_endings import DeadDelivery, kill
from test_svc_play import play_until_over

from db.deadlines import DeadlineBook
from db.store import Store
from services.game import GameService
from services.real_engine import RealEngine
from services.results_owed import RESULT_POSTED
from services.reveal import HOLD_JITTER

PATIENCE = 20.0


@pytest.fixture
async def processes(db_url: str) -> AsyncIterator[Callable[..., Awaitable[GameService]]]:
    made: list[tuple[Store, GameService]] = []

    async def make(name: str, **kwargs: Any) -> GameService:
        store = await Store.open(db_url)
        kwargs.setdefault("claim_timeout", 600)
        ready_timeout = kwargs.pop("ready_timeout", None)
        vote_timeout = kwargs.pop("vote_timeout", None)
        svc = GameService(
            store,
            RealEngine(),
            kwargs.pop("delivery", None) or RecordingDelivery(),
            new_seed=lambda: "services-test-seed",
            snapshot_every=0,
            **kwargs,
        )
        if ready_timeout is not None:
            svc.ready_timeout = ready_timeout
        if vote_timeout is not None:
            svc.vote_timeout = vote_timeout
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
    for task in svc.cluster._cluster_tasks:
        task.cancel()
    await asyncio.gather(*svc.cluster._cluster_tasks, return_exceptions=True)
    svc.cluster._cluster_tasks = []


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
    live = a._games[gid].live
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


async def test_a_press_s_stored_deadline_waits_for_the_claim_windows_it_shows(processes, store):
    """With every claim window held (``claim_hold``), the table shows the human's next
    decision only once the windows of the press's discards were up: the deadline stored
    with the press counts each at its longest hold, so it is never earlier than the one
    the table shows (another process taking over would otherwise time out a turn the human
    still sees running) and later by at most the holds' jitter."""
    hold = 1.5
    a = await processes("a", turn_timeout=30, claim_hold=hold)
    game = await a.create_game(GUILD, CHANNEL, USERS[0], "host", "shangrao")
    await a.start(game.id, USERS[0])
    gid = game.id
    await writer_stopped(a)
    book = DeadlineBook(store)
    table = a._games[gid]
    held = 0
    for _ in range(12):
        before = time.time()
        await press(a, gid)
        live = table.live
        if a.engine.phase(live.state) not in ("turn", "claim") or live.deadline is None:
            break
        [row] = [d for d in await book.pending(gid) if d.kind == "play"]
        assert row.version == live.version  # written with the press
        assert row.due_at >= live.deadline - 0.05  # not early (the commit's own time at most)
        # at most the jitter of the press's windows late: a human discard and three AI
        # discards or claims hold at most five windows
        assert row.due_at - live.deadline <= 5 * hold * 2 * HOLD_JITTER + 0.5
        if live.deadline >= before + 30 + hold * (1 - HOLD_JITTER):
            held += 1  # the decision is shown after held windows (a discard's, not a pass)
    assert held >= 3  # (presses whose discards' windows were held before the decision)


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
    ended_at = a._games[gid].live.version
    before = time.time()
    rows = {d.kind: d for d in await DeadlineBook(store).pending(gid)}
    assert rows["session"].version == ended_at
    assert before + 25 <= rows["session"].due_at <= time.time() + 30


async def two_humans(svc: GameService, length: str = "8", *, humans: int = 2) -> int:
    """A started game of two humans (users 101 and 102; ``humans``: that many) and AI
    seats."""
    game = await svc.create_game(GUILD, CHANNEL, USERS[0], "host", "shangrao", length=length)
    for uid in USERS[1:humans]:
        await svc.join(game.id, uid, f"p{uid}")
    await svc.start(game.id, USERS[0])
    return game.id


async def until_stored(store: Store, gid: int, what: Callable[[list[Any]], bool]) -> list[Any]:
    """The game's log once ``what(log entries)`` holds (another process writes it)."""
    end = time.monotonic() + PATIENCE
    while True:
        log = [r.action for r in (await store.games.load(gid)).actions]
        if what(log):
            return log
        assert time.monotonic() < end, "the other process never fired the deadline"
        await asyncio.sleep(0.05)


async def test_a_dissolve_vote_s_deadline_is_stored_with_the_proposal(processes, store):
    """解散: the vote's deadline goes in the proposal's own transaction; the proposer's
    process dies before any batched write, and another process lets silence agree at the
    deadline — once."""
    a = await processes("a", turn_timeout=600, vote_timeout=1.0)
    gid = await two_humans(a)
    await writer_stopped(a)
    before = time.time()
    await a.propose_dissolve(gid, USERS[0])
    proposed_at = a._games[gid].live.version
    rows = {d.kind: d for d in await DeadlineBook(store).pending(gid)}
    assert rows["session"].version == proposed_at  # written with the proposal
    assert before + 1.0 <= rows["session"].due_at <= time.time() + 1.0
    await kill(a)

    b = await processes("b", turn_timeout=600, vote_timeout=1.0)
    log = await until_stored(store, gid, lambda log: log[-1]["k"] == "end")
    assert [e for e in log if e["k"] == "end"] == [
        {"k": "end", "why": "vote", "no": 1, "expired": True}
    ]
    assert len(log) == proposed_at + 1  # fired right after the proposal, nothing between
    await until_stored(store, gid, lambda _log: b._games[gid].live.status != "active")
    assert (await store.games.get(gid)).status in ("finished", "abandoned")


async def test_a_partial_ready_check_s_deadline_is_stored_with_the_press(processes, store):
    """准备: one of two humans presses it; its press stores the check's deadline (the
    hand's end stored it at the version before). The process dies; another one puts the
    absent seat on 托管 at the deadline and deals the next hand — once."""
    a = await processes("a", turn_timeout=600, ready_timeout=2.0)
    gid = await two_humans(a)
    await writer_stopped(a)
    await play_until_over(a, gid, USERS[:2])
    ended_at = a._games[gid].live.version
    deadline = a.session._ready_deadline(a._games[gid].live)
    book = DeadlineBook(store)
    assert {d.kind: d.version for d in await book.pending(gid)}["session"] == ended_at
    await a.ready(gid, USERS[0])
    pressed_at = a._games[gid].live.version
    assert pressed_at > ended_at
    [row] = [d for d in await book.pending(gid) if d.kind == "session"]
    assert row.version == pressed_at  # moved on with the press itself
    assert row.due_at == pytest.approx(deadline)
    await kill(a)

    await processes("b", turn_timeout=600, ready_timeout=2.0)
    log = await until_stored(store, gid, lambda log: any(e["k"] == "next" for e in log))
    after = log[pressed_at:]
    assert after[0] == {"k": "auto", "on": True}  # the absent seat, on 托管 at the deadline
    assert [e["k"] for e in after].count("next") == 1
    assert [e["k"] for e in log].count("rdy") == 1
    loaded = await store.games.load(gid)
    assert [r.seat for r in loaded.actions][pressed_at] == 1


async def test_a_seat_going_on_tuoguan_stores_the_deal_it_lets_happen(processes, store):
    """准备: one human pressed it, the other goes on 托管 — everyone is ready, the next
    hand is due at once; that is stored with the 托管 entry. The process dies before its
    timer deals; another process deals the hand — once."""
    a = await processes("a", turn_timeout=600, ready_timeout=600)
    gid = await two_humans(a)
    await writer_stopped(a)
    await play_until_over(a, gid, USERS[:2])
    await a.ready(gid, USERS[0])

    async def dies_first(live: Any) -> None:  # its timer never gets to deal: it dies first
        await asyncio.Event().wait()

    a.session.fire = dies_first  # type: ignore[method-assign]
    await a.set_autoplay(gid, USERS[1], True)
    toggled_at = a._games[gid].live.version
    [row] = [d for d in await DeadlineBook(store).pending(gid) if d.kind == "session"]
    assert row.version == toggled_at and row.due_at <= time.time()
    await kill(a)
    assert (await store.games.load(gid)).actions[-1].action == {"k": "auto", "on": True}

    await processes("b", turn_timeout=600, ready_timeout=600)
    log = await until_stored(store, gid, lambda log: any(e["k"] == "next" for e in log))
    assert [e["k"] for e in log[toggled_at:]].count("next") == 1


async def test_the_deal_stores_the_turn_deadline_of_the_next_hand(processes, store):
    """Four humans press 准备: the next hand is dealt, and the dealer's turn deadline (a
    human's, no AI move between) is stored with the deal itself."""
    a = await processes("a", turn_timeout=600, ready_timeout=600)
    gid = await two_humans(a, humans=4)
    await writer_stopped(a)
    await play_until_over(a, gid, USERS)
    for uid in USERS:
        await a.ready(gid, uid)
    live = a._games[gid].live
    assert live.hand_no == 2 and live.deadline is not None  # a human is asked
    loaded = await store.games.load(gid)
    assert loaded.actions[-1].action["k"] == "next"  # the deal is the last write
    [row] = [d for d in await DeadlineBook(store).pending(gid) if d.kind == "play"]
    assert row.version == live.version
    assert row.due_at == pytest.approx(live.deadline, abs=1.0)


async def finished_by_another(processes: Any, store: Store, gid: int) -> GameService:
    """Another process ("b") takes the game over at its stored deadline and plays it to the
    end; returned once its deliveries ran."""
    b = await processes("b", turn_timeout=600)
    end = time.monotonic() + PATIENCE
    while (await store.games.get(gid)).status == "active":
        assert time.monotonic() < end, "the other process never took the game over"
        await asyncio.sleep(0.05)
    await b.idle()
    return b


async def test_a_process_taking_over_a_tuoguan_table_posts_the_results_left_owed(processes, store):
    """The only human on 托管: hands are dealt the moment the last one ended. Its process
    dies right after hand 2 ended (deliveries hang: nothing was posted). Another process
    takes the game over at its stored deadline: it posts hand 1's result (noted owed with
    the deal of hand 2) and hand 2's, then plays on — every result once, in order."""
    dead = DeadDelivery()
    a = await processes("a", turn_timeout=600, delivery=dead)
    gid = await two_humans(a, "4", humans=1)
    await writer_stopped(a)
    second = hang_after_deal(a, 2)
    dead.dead = True
    await a.set_autoplay(gid, USERS[0], True)
    await asyncio.wait_for(second.wait(), PATIENCE)
    await kill(a)
    assert dead.named("result") == [] and dead.named("past_result") == []

    seen = (await finished_by_another(processes, store, gid)).delivery
    assert [g.hand_no for g, _r, _t in seen.named("past_result")] == [1]
    assert [g.hand_no for g, _r, _t in seen.named("result")] == [2, 3, 4]
    names = [n for n, _ in seen.calls if n in ("past_result", "result")]
    assert names[0] == "past_result"


class ResultsHeld(RecordingDelivery):
    """A delivery whose results go out once ``gate`` is set (a slow send)."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()

    async def hand_ended(self, game: Any, result: Any, table: Any) -> None:
        await self.gate.wait()
        await super().hand_ended(game, result, table)


async def test_a_process_taking_over_a_tuoguan_table_posts_no_result_the_owner_posted(
    processes, store
):
    """The only human on 托管: hand 2 is dealt the moment hand 1 ended (its result still
    going out, so the deal notes it owed) and played out within the deal. The owner posts
    both results, noted posted with the game's messages, and dies. The process taking the
    game over posts neither again (nor the owed note's hand 1) — only the hands it plays."""
    held = ResultsHeld()
    a = await processes("a", turn_timeout=600, delivery=held)
    gid = await two_humans(a, "4", humans=1)
    await writer_stopped(a)
    second = hang_after_deal(a, 2)
    await a.set_autoplay(gid, USERS[0], True)
    await asyncio.wait_for(second.wait(), PATIENCE)
    held.gate.set()  # the results go out now, after the deal
    end = time.monotonic() + PATIENCE
    while (await store.games.get(gid)).messages.get(RESULT_POSTED) != 2:
        assert time.monotonic() < end, "the owner never noted hand 2's result posted"
        await asyncio.sleep(0.05)
    await kill(a)
    assert [g.hand_no for g, _r, _t in a.delivery.named("result")] == [1, 2]
    deals = [r.action for r in (await store.games.load(gid)).actions if r.action["k"] == "next"]
    assert deals[0].get("owed") == [1]  # the note a take-over would otherwise act on

    seen = (await finished_by_another(processes, store, gid)).delivery
    assert seen.named("past_result") == []
    assert [g.hand_no for g, _r, _t in seen.named("result")] == [3, 4]


async def test_one_process_alone_stores_no_deadline(make_service, store):
    svc = make_service(turn_timeout=1)
    game = await svc.create_game(GUILD, CHANNEL, USERS[0], "host", "shangrao")
    await svc.start(game.id, USERS[0])
    await press(svc, game.id)
    assert await DeadlineBook(store).pending(game.id) == []
