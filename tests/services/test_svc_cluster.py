"""Two service instances (two bot processes) on one PostgreSQL database.

Each instance has its own store (connection pool), delivery and timers, as two processes
would; they share only the database. A press reaches the instance that does not hold the
game; joins arrive through both at once; a deadline falls due with both alive (fired once),
and with its owner stopped (fired by the other); the owner hears of changes made elsewhere
(``LISTEN/NOTIFY``) and refreshes its copy and its messages.

PostgreSQL only (``TEST_POSTGRES_URL``; with ``REQUIRE_POSTGRES=1`` a missing server fails).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from svc_helpers import CHANNEL, GUILD, USERS, RecordingDelivery, simple_choice
from svc_postgres import fresh_postgres

from cogs.delivery.message_ids import MessageIds
from db.store import Store
from services.action_codec import entry_key
from services.game import GameService
from services.real_engine import RealEngine

pytestmark = pytest.mark.postgres

#: how long a test waits for something another instance does (seconds)
PATIENCE = 20.0


class Instance:
    """One "process": a store of its own, a service, a recording delivery."""

    def __init__(self, store: Store, service: GameService, delivery: RecordingDelivery) -> None:
        self.store = store
        self.svc = service
        self.delivery = delivery

    def held(self, game_id: int) -> Any:
        table = self.svc._games.get(game_id)
        return None if table is None else table.live


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    async for url in fresh_postgres():
        yield url


@pytest.fixture
async def instances(pg_url: str) -> AsyncIterator[Callable[..., Awaitable[Instance]]]:
    made: list[Instance] = []

    async def make(name: str, **kwargs: Any) -> Instance:
        store = await Store.open(pg_url)
        delivery = RecordingDelivery()
        kwargs.setdefault("turn_timeout", 600)
        kwargs.setdefault("claim_timeout", 600)
        kwargs.setdefault("new_seed", lambda: "services-test-seed")
        kwargs.setdefault("snapshot_every", 0)
        svc = GameService(store, RealEngine(), delivery, **kwargs)
        await svc.join_cluster(name, sweep_every=0.1, grace=0.5, lease=10.0, presence_every=0.2)
        one = Instance(store, svc, delivery)
        made.append(one)
        return one

    yield make
    for one in made:
        await one.svc.close()
        await one.store.close()


async def eventually(check: Callable[[], Awaitable[bool] | bool], what: str) -> None:
    """Wait until ``check()`` holds (another instance acts on its own time)."""
    deadline = time.monotonic() + PATIENCE
    while True:
        result = check()
        if not isinstance(result, bool):
            result = await result
        if result:
            return
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


async def started_game(owner: Instance, humans: int = 1) -> int:
    """A game of ``humans`` humans (users 101…) and AI seats, started by ``owner``."""
    game = await owner.svc.create_game(GUILD, CHANNEL, USERS[0], "host", "shangrao")
    for uid in USERS[1:humans]:
        await owner.svc.join(game.id, uid, f"p{uid}")
    await owner.svc.start(game.id, USERS[0])
    return game.id


async def stored_log(store: Store, game_id: int) -> list[Any]:
    return (await store.games.load(game_id)).actions


async def test_a_press_is_served_by_the_instance_not_holding_the_game(instances) -> None:
    a = await instances("a")
    b = await instances("b")
    gid = await started_game(a)
    assert b.held(gid) is None
    view = await b.svc.private_view(gid, USERS[0])  # b loads it from the database
    assert view.hand.legal, "the human is asked to decide after the deal"
    version = a.held(gid).version
    key = simple_choice(view.hand.legal, view.hand.drawn)
    # counted before the press: the owner may hear of it (NOTIFY) before ``act`` returns here
    tables_before = len(a.delivery.named("table"))

    result = await b.svc.act(gid, USERS[0], key)

    log = await stored_log(b.store, gid)
    mine = [r for r in log if r.seq > version and r.seat == 0 and r.action["k"] == "act"]
    assert [entry_key(r.action) for r in mine] == [key]
    assert result.game.version == log[-1].seq
    # the owner hears of it and refreshes its copy and its table message
    await eventually(lambda: a.held(gid).version == log[-1].seq, "the owner's refresh")
    await a.svc.idle()
    assert len(a.delivery.named("table")) > tables_before
    assert a.delivery.named("table")[-1][0].version == log[-1].seq


async def test_joins_through_both_instances_keep_every_seat(instances) -> None:
    a = await instances("a")
    b = await instances("b")
    lobby = await a.svc.create_game(GUILD, CHANNEL, USERS[0], "host", "shangrao")
    await b.svc.summary(lobby.id)  # b holds the lobby too (as after an earlier press)

    joined = await asyncio.gather(
        a.svc.join(lobby.id, USERS[1], "p1"), b.svc.join(lobby.id, USERS[2], "p2")
    )

    stored = await a.store.games.get(lobby.id)
    assert stored is not None
    users = [s.get("user_id") for s in stored.seats]
    assert sorted(users) == [USERS[0], USERS[1], USERS[2]]
    # each was told the seats as they were stored after its own join
    assert USERS[1] in [s.user_id for s in joined[0].seats]
    assert USERS[2] in [s.user_id for s in joined[1].seats]
    # the host starts on whichever copy it has: the stored seats are kept, not written over
    started = await a.svc.start(lobby.id, USERS[0])
    after = await a.store.games.get(lobby.id)
    assert after is not None and after.status == "active"
    humans = [s.get("user_id") for s in after.seats if not s.get("ai")]
    assert sorted(humans) == [USERS[0], USERS[1], USERS[2]]
    assert [s.user_id for s in started.seats if not s.ai] == humans


async def test_the_last_seat_goes_to_one_joiner_only(instances) -> None:
    a = await instances("a")
    b = await instances("b")
    lobby = await a.svc.create_game(GUILD, CHANNEL, USERS[0], "host", "shangrao")
    await a.svc.join(lobby.id, USERS[1], "p1")
    await a.svc.join(lobby.id, USERS[2], "p2")
    await b.svc.summary(lobby.id)

    results = await asyncio.gather(
        a.svc.join(lobby.id, USERS[3], "p3"),
        b.svc.join(lobby.id, 999, "p999"),
        return_exceptions=True,
    )

    refused = [r for r in results if isinstance(r, Exception)]
    assert len(refused) == 1 and type(refused[0]).__name__ == "LobbyFull"
    stored = await a.store.games.get(lobby.id)
    assert stored is not None and len(stored.seats) == 4


async def test_a_deadline_with_both_instances_alive_fires_once(instances) -> None:
    a = await instances("a", turn_timeout=1)
    b = await instances("b", turn_timeout=1)
    gid = await started_game(a)
    # b serves a press: now both hold the game and both arm the next deadline
    view = await b.svc.private_view(gid, USERS[0])
    await b.svc.act(gid, USERS[0], simple_choice(view.hand.legal, view.hand.drawn))
    await eventually(lambda: a.held(gid).version == b.held(gid).version, "the owner's refresh")
    assert a.held(gid).deadline is not None and b.held(gid).deadline is not None

    async def timed_out() -> bool:
        return any(r.action.get("timeout") for r in await stored_log(a.store, gid))

    await eventually(timed_out, "the turn's timeout")
    await asyncio.sleep(2.0)  # both timers and both sweepers had their chance

    log = await stored_log(a.store, gid)
    timeouts = [r for r in log if r.action.get("timeout")]
    assert len(timeouts) == 1
    assert [r.seq for r in log] == list(range(1, len(log) + 1))  # one log, no gap


async def test_a_stopped_instance_s_deadlines_are_fired_by_the_other(instances) -> None:
    a = await instances("a", turn_timeout=1)
    b = await instances("b", turn_timeout=1)
    gid = await started_game(a)
    assert a.held(gid).deadline is not None
    await a.svc.close()  # the owner goes away (its timers with it)
    await a.store.close()
    assert b.held(gid) is None

    async def timed_out() -> bool:
        return any(r.action.get("timeout") for r in await stored_log(b.store, gid))

    await eventually(timed_out, "the other instance firing the deadline")
    log = await stored_log(b.store, gid)
    assert len([r for r in log if r.action.get("timeout")]) == 1

    # b took the game over: it holds it (as stored) and keeps its messages
    async def taken_over() -> bool:
        stored = await b.store.games.get(gid)
        held = b.held(gid)
        return held is not None and stored is not None and held.version == stored.version

    await eventually(taken_over, "the other instance holding the game")
    await b.svc.idle()
    assert b.delivery.named("table")


async def test_the_owner_hears_of_a_join_made_elsewhere(instances) -> None:
    a = await instances("a")
    b = await instances("b")
    lobby = await a.svc.create_game(GUILD, CHANNEL, USERS[0], "host", "shangrao")
    await a.svc.idle()
    before = len(a.delivery.named("lobby"))

    await b.svc.join(lobby.id, USERS[1], "p1")

    await eventually(lambda: len(a.held(lobby.id).seats) == 2, "the owner's refresh")
    await a.svc.idle()
    shown = a.delivery.named("lobby")
    assert len(shown) > before
    assert [s.user_id for s in shown[-1][0].seats] == [USERS[0], USERS[1]]
    # its look-ups know the new player too
    assert a.svc.game_of_player(GUILD, USERS[1]) == lobby.id


async def killed_owner(
    pg_url: str, *args: str, before_kill: Callable[[int], Awaitable[None]] | None = None
) -> int:
    """Run ``cluster_owner.py`` (a process owning one game; ``args``: its turn timeout and
    ``claim``), call ``before_kill(game_id)``, SIGKILL it mid-hand; returns the game id."""
    owner = await asyncio.create_subprocess_exec(
        sys.executable,
        str(Path(__file__).with_name("cluster_owner.py")),
        pg_url,
        *args,
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        line = await asyncio.wait_for(owner.stdout.readline(), PATIENCE)  # type: ignore[union-attr]
        gid = int(line)
        if before_kill is not None:
            await before_kill(gid)
        os.kill(owner.pid, signal.SIGKILL)  # mid-hand, its turn deadline pending
        await owner.wait()
    finally:
        if owner.returncode is None:
            owner.kill()
            await owner.wait()
    return gid


async def test_a_killed_process_s_deadlines_are_fired_by_the_other(instances, pg_url) -> None:
    b = await instances("b", turn_timeout=1)
    gid = await killed_owner(pg_url)
    assert b.held(gid) is None

    async def timed_out() -> bool:
        return any(r.action.get("timeout") for r in await stored_log(b.store, gid))

    await eventually(timed_out, "the surviving instance firing the killed one's deadline")
    log = await stored_log(b.store, gid)
    assert len([r for r in log if r.action.get("timeout")]) == 1
    assert [r.seq for r in log] == list(range(1, len(log) + 1))


async def test_the_owner_adopts_the_table_message_posted_elsewhere(instances) -> None:
    """A process that served a press posted the hand's table: the owner, hearing of the new
    version, edits that table from then on (it does not post another over it)."""
    a = await instances("a")
    b = await instances("b")
    gid = await started_game(a)
    ids_a, ids_b = MessageIds(a.svc.store.games), MessageIds(b.svc.store.games)
    ids_a.table_message_id(await a.svc.summary(gid))
    assert await ids_a.set_table_message(gid, 1111) == 1111
    view = await b.svc.private_view(gid, USERS[0])
    ids_b.table_message_id(await b.svc.summary(gid))  # b loaded the game after 1111
    assert await ids_b.set_table_message(gid, 2222) == 2222
    await b.svc.act(gid, USERS[0], simple_choice(view.hand.legal, view.hand.drawn))
    await eventually(lambda: a.held(gid).version == b.held(gid).version, "the owner's refresh")
    assert a.held(gid).table_message_id == 2222
    # the owner's delivery takes the table its summary now carries
    assert ids_a.table_message_id(await a.svc.summary(gid)) == 2222
    assert await ids_a.set_table_message(gid, 3333) == 3333  # replacing the one it adopted


async def test_a_deadline_claimed_by_a_killed_process_is_free_at_once(instances, pg_url) -> None:
    """The owner claimed its deadline for ten minutes (as its timer does right before firing)
    and died: the claim of a process that is gone is void, so the other fires it now."""
    b = await instances("b", turn_timeout=1)

    async def seen_alive(_gid: int) -> None:
        await eventually(lambda: "doomed" in (b.svc.cluster._alive or ()), "the owner seen alive")

    gid = await killed_owner(pg_url, "1", "claim", before_kill=seen_alive)
    [claimed] = await b.svc.cluster._book.pending(gid)
    assert claimed.due_at < time.time() + 1  # due now; only its ten-minute claim could wait

    async def timed_out() -> bool:
        return any(r.action.get("timeout") for r in await stored_log(b.store, gid))

    await eventually(timed_out, "the claim of the dead process being ignored")
    log = await stored_log(b.store, gid)
    assert len([r for r in log if r.action.get("timeout")]) == 1


async def test_when_a_process_dies_the_other_redraws_the_games_it_holds(instances, pg_url) -> None:
    """Both processes edit a game's messages, so an edit the dead one drew for an earlier
    moment may have landed last: the survivor shows the game again, table and hands, as
    stored — without any deadline falling due (ten minutes) and without a NOTIFY."""
    b = await instances("b")
    before: dict[str, int] = {}

    async def b_serves_a_press(gid: int) -> None:
        await eventually(lambda: "doomed" in (b.svc.cluster._alive or ()), "the owner seen alive")
        view = await b.svc.private_view(gid, USERS[0])
        await b.svc.act(gid, USERS[0], simple_choice(view.hand.legal, view.hand.drawn))
        await b.svc.idle()
        # counted before the kill: b may see the owner gone before the test sees it exit
        before["refreshes"] = len(b.delivery.named("refresh"))
        before["hands"] = len(b.delivery.named("hand"))

    gid = await killed_owner(pg_url, "600", before_kill=b_serves_a_press)
    refreshes, hands = before["refreshes"], before["hands"]
    version = b.held(gid).version

    await eventually(lambda: len(b.delivery.named("refresh")) > refreshes, "the redraw")
    await b.svc.idle()
    [(game, _table)] = b.delivery.named("refresh")[refreshes:]
    assert game.id == gid and game.version == version
    redrawn = b.delivery.named("hand")[hands:]
    assert [update.user_id for _game, update in redrawn] == [USERS[0]]  # the one human
    assert b.delivery.named("table")[-1][0].version == version
    assert "doomed" not in (b.svc.cluster._alive or ())


class Escaped(BaseException):
    """An error no loop catches (not an ``Exception``)."""


async def test_a_sweep_that_dies_is_started_again(instances, caplog) -> None:
    a = await instances("a", turn_timeout=1)
    b = await instances("b", turn_timeout=1)
    claim_overdue = b.svc.cluster._book.claim_overdue
    failed: list[bool] = []

    async def fails_once(*args: Any, **kwargs: Any) -> Any:
        if not failed:
            failed.append(True)
            raise Escaped()
        return await claim_overdue(*args, **kwargs)

    b.svc.cluster._book.claim_overdue = fails_once  # type: ignore[method-assign]
    gid = await started_game(a)
    await a.svc.close()  # its deadline is left to b's sweep
    await a.store.close()

    async def timed_out() -> bool:
        return any(r.action.get("timeout") for r in await stored_log(b.store, gid))

    with caplog.at_level(logging.ERROR, logger="services.cluster"):
        await eventually(timed_out, "the sweep, started again, firing the deadline")
    assert failed
    assert any("mj-deadline-sweep stopped" in r.getMessage() for r in caplog.records)


async def test_a_change_heard_while_refreshing_is_not_lost(instances) -> None:
    a = await instances("a")
    b = await instances("b")
    gid = await started_game(a, humans=2)
    await b.svc.summary(gid)  # b holds the game too
    table = b.svc._games[gid]
    reload = table.reload
    gate, reloading = asyncio.Event(), asyncio.Event()

    async def slow_reload() -> None:
        await reload()
        reloading.set()
        await gate.wait()

    table.reload = slow_reload  # type: ignore[method-assign]
    for _ in range(2):  # a press, then another while b is still refreshing to the first
        held = a.held(gid)
        seat = a.svc.engine.pending_seats(held.state)[0]
        user = held.seats[seat].user_id
        view = await a.svc.private_view(gid, user)
        await a.svc.act(gid, user, simple_choice(view.hand.legal, view.hand.drawn))
        await eventually(reloading.is_set, "b refreshing")
        await asyncio.sleep(0.3)  # the second notice arrives while the first refresh is held
    gate.set()
    stored = await a.store.games.get(gid)
    assert stored is not None
    await eventually(lambda: b.held(gid).version == stored.version, "b at the newest version")
