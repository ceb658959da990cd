"""What a crash must not lose (issue 15, item 6), as the store keeps it: the ending a game
owes (``games.ending_owed``, set with its ``end`` entry, cleared once posted) and the
deadlines an action leads to, written in the action's own transaction."""

from __future__ import annotations

import pytest

from db.deadlines import DeadlineBook, DeadlineChange
from db.store import Store
from db.types import VersionConflict


async def _active(store: Store) -> int:
    game = await store.games.create(1, 2, "shangrao", seats=[{}, {}, {}, {}], status="active")
    await store.games.append_action(game.id, 0, None, {"k": "start", "seed": "s"})
    return game.id


async def test_an_ended_game_owes_its_ending_until_it_is_posted(store: Store) -> None:
    gid = await _active(store)
    other = await _active(store)
    assert await store.games.load_ending_owed() == []
    await store.games.append_action(
        gid, 1, None, {"k": "end", "why": "length"}, changes={"ending_owed": True}
    )
    assert await store.games.load_ending_owed() == []  # still active: resumed as such
    await store.games.update(gid, status="finished", expected_version=2)
    [owed] = await store.games.load_ending_owed()
    assert owed.game.id == gid and owed.game.status == "finished"
    assert [a.action["k"] for a in owed.actions] == ["start", "end"]  # the whole log
    await store.games.ending_posted(gid)
    assert await store.games.load_ending_owed() == []
    assert (await store.games.get(gid)).version == 2  # noting it changes no version
    await store.games.update(other, status="abandoned")
    assert await store.games.load_ending_owed() == []  # a game closed without an end entry


async def test_an_action_stores_its_deadlines_in_its_own_transaction(store: Store) -> None:
    gid = await _active(store)
    book = DeadlineBook(store)
    await store.games.append_action(
        gid, 1, 0, {"k": "act"}, deadlines=[DeadlineChange(gid, "play", 2, 100.0)], holder="p1"
    )
    [row] = await book.pending(gid)
    assert (row.kind, row.version, row.due_at) == ("play", 2, 100.0)
    # a stale writer stores nothing: neither its action nor its deadline
    with pytest.raises(VersionConflict):
        await store.games.append_action(
            gid, 1, 0, {"k": "act"}, deadlines=[DeadlineChange(gid, "play", 2, 5.0)], holder="p2"
        )
    assert [(d.version, d.due_at) for d in await book.pending(gid)] == [(2, 100.0)]
    # the next action's deadline replaces it; an older one never does
    await store.games.append_action(
        gid, 2, 0, {"k": "act"}, deadlines=[DeadlineChange(gid, "session", 3, 200.0)]
    )
    await book.write([DeadlineChange(gid, "play", 1, 1.0)], "p3")
    assert sorted((d.kind, d.version) for d in await book.pending(gid)) == [
        ("play", 2),
        ("session", 3),
    ]
