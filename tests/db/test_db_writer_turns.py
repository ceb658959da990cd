"""Writers of one process take turns in order on SQLite (issue 15): a write that is not a
move (a new lobby, a seat) is not starved by a stream of moves."""

from __future__ import annotations

import asyncio

from db.store import Store


async def test_many_writers_at_once_all_commit(store: Store) -> None:
    games = [await store.games.create(1, 100 + i, "shangrao") for i in range(20)]

    async def moves(game_id: int) -> int:
        version = 0
        for n in range(10):
            version = await store.games.append_action(game_id, version, 0, {"k": "act", "n": n})
        return version

    async def lobbies() -> list[int]:
        made = []
        for i in range(10):
            info = await store.games.create(1, 900 + i, "xinyu")
            await store.games.update(info.id, seats=[{"name": "p", "user_id": 5}])
            made.append(info.id)
        return made

    results = await asyncio.gather(*(moves(g.id) for g in games), lobbies())
    assert results[:-1] == [10] * len(games)
    assert len(results[-1]) == 10
    for game in games:
        loaded = await store.games.load(game.id)
        assert [a.seq for a in loaded.actions] == list(range(1, 11))
