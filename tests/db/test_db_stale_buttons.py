"""The buttons still to take off the messages of ended games (``messages["stale"]``), as the
store finds them after a restart (:meth:`db.games.GameRepository.ended_with`), and crossed
out one by one without losing the others (:meth:`db.games.GameRepository.merge_messages`)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from db.store import Store

DAY = timedelta(days=1)


async def _game(store: Store, status: str, messages: dict[str, Any]) -> int:
    game = await store.games.create(1, 2, "shangrao", seats=[{}, {}, {}, {}], status="active")
    await store.games.merge_messages(game.id, None, messages)
    await store.games.update(game.id, status=status)
    return game.id


async def test_only_ended_games_with_buttons_still_to_take_off_are_found(store: Store) -> None:
    owed = {"stale": {"55": [9, 55, 0], "56": [9, 56, 3]}, "dm": {"7": [9, 50, 1]}}
    ended = await _game(store, "finished", owed)
    await _game(store, "abandoned", {"stale": {}})  # all taken off
    await _game(store, "finished", {"dm": {"7": [9, 60, 1]}})  # nothing owed
    await _game(store, "active", owed)  # resumed with its messages instead
    found = await store.games.ended_with("stale", DAY)
    assert [(g, guild) for g, guild, _m in found] == [(ended, 1)]
    assert found[0][2]["stale"] == owed["stale"]
    assert await store.games.ended_with("stale", timedelta(seconds=-60)) == []  # too old


async def test_crossing_one_out_keeps_the_others(store: Store) -> None:
    gid = await _game(store, "finished", {"stale": {"55": [9, 55, 0], "56": [9, 56, 3]}})
    stored = await store.games.merge_messages(gid, {"stale": {"55": [9, 55, 0]}}, {"stale": {}})
    assert stored["stale"] == {"56": [9, 56, 3]}
    await store.games.merge_messages(gid, {"stale": {"56": [9, 56, 3]}}, {"stale": {}})
    assert await store.games.ended_with("stale", DAY) == []
