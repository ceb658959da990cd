"""SQLite group commit (issue 15, cheaper commits): writes arriving together share one
transaction, each is durable when its call returns, and a failing one fails alone."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import update

from db.group_commit import FAIR_SHARE, answering
from db.models import Guild
from db.store import Store
from db.types import VersionConflict

GUILDS = Guild.__table__


def _committed_seqs(path: Path, game_id: int) -> list[int]:
    """The game's actions as another connection sees them (only what was committed)."""
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT seq FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
    return [seq for (seq,) in rows]


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> AsyncIterator[tuple[Store, Path]]:
    path = tmp_path / "group.db"
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    yield store, path
    await store.close()


async def test_writes_arriving_together_share_commits_and_each_is_durable_on_return(
    sqlite_store: tuple[Store, Path],
) -> None:
    store, path = sqlite_store
    games = [await store.games.create(1, 100 + i, "shangrao") for i in range(16)]
    commits, writes = store.db.commits, store.db.writes
    seen_on_return: dict[int, list[int]] = {}

    async def press(game_id: int) -> None:
        version = await store.games.append_action(game_id, 0, 0, {"k": "act"})
        # the caller's await returned: the write must already be committed
        seen_on_return[game_id] = await asyncio.to_thread(_committed_seqs, path, game_id)
        assert version == 1

    await asyncio.gather(*(press(g.id) for g in games))
    assert seen_on_return == {g.id: [1] for g in games}
    assert store.db.writes - writes == len(games)
    # presses that waited for a turn joined an open batch: fewer commits than writes
    assert store.db.commits - commits < len(games)


async def test_a_failing_write_leaves_the_others_of_its_batch_in(
    sqlite_store: tuple[Store, Path],
) -> None:
    store, path = sqlite_store
    games = [await store.games.create(1, 200 + i, "xinyu") for i in range(8)]
    stale = games[3].id
    await store.games.append_action(stale, 0, 0, {"k": "first"})
    commits = store.db.commits

    async def press(game_id: int) -> int:
        return await store.games.append_action(game_id, 0, 1, {"k": "act"})

    results = await asyncio.gather(*(press(g.id) for g in games), return_exceptions=True)
    assert isinstance(results[3], VersionConflict)
    assert [r for i, r in enumerate(results) if i != 3] == [1] * 7
    assert store.db.commits - commits < 7  # they were batched, and the batch committed
    for game in games:
        assert await asyncio.to_thread(_committed_seqs, path, game.id) == [1]
    loaded = await store.games.load(stale)
    assert [a.action for a in loaded.actions] == [{"k": "first"}]


async def test_a_write_that_raises_inside_a_batch_is_rolled_back_alone(
    sqlite_store: tuple[Store, Path],
) -> None:
    """A write block that raises after its statements ran (its savepoint is rolled back)
    while other writers share the transaction."""
    store, _ = sqlite_store
    games = [await store.games.create(1, 300 + i, "jiujiang") for i in range(6)]
    before = await store.guilds.settings(1)

    async def broken_write() -> None:
        async with store.db.write() as conn:
            await conn.execute(update(GUILDS).where(GUILDS.c.id == 1).values(language="en"))
            await asyncio.sleep(0)  # let the others queue behind this write
            raise RuntimeError("the caller's own failure")

    async def press(game_id: int) -> int:
        return await store.games.append_action(game_id, 0, 0, {"k": "act"})

    first = asyncio.create_task(press(games[0].id))
    await asyncio.sleep(0)
    results = await asyncio.gather(
        broken_write(), *(press(g.id) for g in games[1:]), return_exceptions=True
    )
    assert await first == 1
    assert isinstance(results[0], RuntimeError)
    assert results[1:] == [1] * 5
    assert (await store.guilds.settings(1)).language == before.language
    for game in games:
        assert (await store.games.get(game.id)).version == 1


async def test_a_lone_writer_commits_at_once(sqlite_store: tuple[Store, Path]) -> None:
    store, path = sqlite_store
    game = await store.games.create(1, 400, "shangrao")
    commits = store.db.commits
    for n in range(3):
        await store.games.append_action(game.id, n, 0, {"n": n})
        assert await asyncio.to_thread(_committed_seqs, path, game.id) == list(range(1, n + 2))
    assert store.db.commits - commits == 3


async def test_a_writer_cancelled_while_waiting_does_not_strand_the_open_batch(
    sqlite_store: tuple[Store, Path],
) -> None:
    """The batch was left open for the next writer, which is cancelled before its turn:
    the batch is still committed and its writer returns."""
    store, path = sqlite_store
    game = await store.games.create(1, 500, "shangrao")
    gate = asyncio.Event()

    async def first() -> int:
        async with store.db.write() as conn:
            await conn.execute(update(GUILDS).where(GUILDS.c.id == 1).values(language="en"))
            await gate.wait()
        return await asyncio.to_thread(lambda: len(_committed_seqs(path, game.id)))

    holder = asyncio.create_task(first())
    await asyncio.sleep(0.05)  # the first writer holds the turn, its batch open
    waiter = asyncio.create_task(store.games.append_action(game.id, 0, 0, {"k": "act"}))
    await asyncio.sleep(0.05)  # the second one waits for its turn
    assert store.db._group is not None
    turns = store.db._group._for_loop()
    release = turns.lock.release

    def release_then_cancel_the_waiter() -> None:
        release()  # the batch is left open for the waiter …
        turns.lock.release = release  # type: ignore[method-assign]
        waiter.cancel()  # … which gives up before its turn comes

    turns.lock.release = release_then_cancel_the_waiter  # type: ignore[method-assign]
    gate.set()
    assert await asyncio.wait_for(holder, timeout=30) == 0
    with pytest.raises(asyncio.CancelledError):
        await waiter
    assert (await store.guilds.settings(1)).language == "en"  # the batch was committed
    assert await store.games.append_action(game.id, 0, 0, {"k": "act"}) == 1


async def test_a_refused_write_answers_only_after_its_batch_is_committed(
    sqlite_store: tuple[Store, Path],
) -> None:
    """Two presses on one game at once, both at version 0: the first is appended, the
    second is refused (a version conflict) inside the same batch. When the refusal reaches
    its caller, the winner's write must already be committed, so a read made to answer the
    refusal (another connection) sees the game as the winner was told it is — not the
    state before (a record message redrawn from that stale read kept a spent button)."""
    store, path = sqlite_store
    game = await store.games.create(1, 100, "shangrao")
    seen_at_refusal: list[list[int]] = []

    async def press() -> None:
        try:
            await store.games.append_action(game.id, 0, 0, {"k": "act"})
        except VersionConflict:
            seen_at_refusal.append(await asyncio.to_thread(_committed_seqs, path, game.id))

    for _ in range(20):  # the two presses share a batch in most rounds; each round checks
        game = await store.games.create(1, 100, "shangrao")
        await asyncio.gather(press(), press())
    assert len(seen_at_refusal) == 20
    assert all(seqs == [1] for seqs in seen_at_refusal), seen_at_refusal


async def _hold_the_turn(store: Store, gate: asyncio.Event) -> None:
    """A write that keeps the turn until ``gate`` is set (others queue behind it)."""
    async with store.db.write() as conn:
        await conn.execute(update(GUILDS).where(GUILDS.c.id == 1).values(language="en"))
        await gate.wait()


async def test_an_answering_write_takes_its_turn_before_bookkeeping_writes(
    sqlite_store: tuple[Store, Path],
) -> None:
    """A press's move (its player waits for the answer) goes before writes queued earlier
    that nobody waits on, and its batch is committed without waiting for them."""
    store, path = sqlite_store
    games = [await store.games.create(1, 600 + i, "shangrao") for i in range(6)]
    gate = asyncio.Event()
    order: list[str] = []
    committed_at_move: list[int] = []

    async def bookkeeping(game_id: int) -> None:
        await store.games.update(game_id, table_message_id=game_id)
        order.append(f"book{game_id}")

    async def move(game_id: int) -> None:
        with answering():
            await store.games.append_action(game_id, 0, 0, {"k": "act"})
        order.append("move")
        committed_at_move.append(len(await asyncio.to_thread(_committed_seqs, path, game_id)))

    holder = asyncio.create_task(_hold_the_turn(store, gate))
    await asyncio.sleep(0.05)
    books = [asyncio.create_task(bookkeeping(g.id)) for g in games[:5]]
    await asyncio.sleep(0.05)  # the bookkeeping writes queue first …
    pressed = asyncio.create_task(move(games[5].id))
    await asyncio.sleep(0.05)  # … then the move
    gate.set()
    await asyncio.gather(holder, pressed, *books)
    assert order[0] == "move", order
    assert committed_at_move == [1]
    for game in games[:5]:
        assert (await store.games.get(game.id)).table_message_id == game.id


async def test_bookkeeping_writes_are_not_starved_by_a_stream_of_moves(
    sqlite_store: tuple[Store, Path],
) -> None:
    """While answering writes keep queuing, a bookkeeping write still gets a turn after at
    most FAIR_SHARE of them."""
    store, _ = sqlite_store
    gate = asyncio.Event()
    turns: list[str] = []

    async def write(name: str, urgent: bool) -> None:
        with answering() if urgent else contextlib.nullcontext():
            async with store.db.write() as conn:
                turns.append(name)
                await conn.execute(update(GUILDS).where(GUILDS.c.id == 1).values(language="en"))

    holder = asyncio.create_task(_hold_the_turn(store, gate))
    await asyncio.sleep(0.05)
    book = asyncio.create_task(write("book", False))
    await asyncio.sleep(0.01)
    moves = [asyncio.create_task(write(f"move{i}", True)) for i in range(3 * FAIR_SHARE)]
    await asyncio.sleep(0.05)
    gate.set()
    await asyncio.gather(holder, book, *moves)
    assert turns.index("book") == FAIR_SHARE, turns
    assert len(turns) == 3 * FAIR_SHARE + 1


async def test_a_batch_open_past_max_open_is_committed_though_writers_wait(
    tmp_path: Path,
) -> None:
    """``max_open=0``: every write commits in a batch of its own, however many queue."""
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'open.db'}")
    try:
        assert store.db._group is not None
        store.db._group.max_open = 0.0
        games = [await store.games.create(1, 800 + i, "shangrao") for i in range(8)]
        commits, writes = store.db.commits, store.db.writes
        await asyncio.gather(*(store.games.append_action(g.id, 0, 0, {}) for g in games))
        assert store.db.writes - writes == len(games)
        assert store.db.commits - commits == len(games)
    finally:
        await store.close()


async def test_closing_waits_for_a_write_under_way_and_keeps_it(tmp_path: Path) -> None:
    """A stop closes the store while a command that already answered still writes (its
    message id): the close waits for that write, which is committed, not cancelled."""
    path = tmp_path / "closing.db"
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    game = await store.games.create(1, 100, "shangrao")
    inside = asyncio.Event()

    async def late_write() -> int:
        async with store.db.write() as conn:
            inside.set()
            await asyncio.sleep(0.2)  # the close arrives while the block runs
            await conn.execute(update(GUILDS).values(language="en"))
            return await store.games.append_action(game.id, 0, 0, {"k": "act"})  # joins it

    writer = asyncio.create_task(late_write())
    await inside.wait()
    await store.close()
    assert writer.done() and writer.result() == 1
    assert await asyncio.to_thread(_committed_seqs, path, game.id) == [1]


async def test_a_cancelled_close_does_not_cancel_the_commit_it_waits_for(
    sqlite_store: tuple[Store, Path],
) -> None:
    store, path = sqlite_store
    game = await store.games.create(1, 100, "shangrao")
    writer = asyncio.create_task(store.games.append_action(game.id, 0, 0, {"k": "act"}))
    await asyncio.sleep(0)
    closing = asyncio.create_task(store.db._group.settle())  # type: ignore[union-attr]
    await asyncio.sleep(0)
    closing.cancel()
    assert await writer == 1
    assert await asyncio.to_thread(_committed_seqs, path, game.id) == [1]
