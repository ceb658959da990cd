"""Table message ids written behind (``set_table_message(wait=False)``, issue 15): the id is
taken at once, ids of one game close together make one write of the newest, the messages
that describe the table are never stored before it, and the remembered messages of two
processes saving through :class:`cogs.delivery.places.Places` at once are all kept."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from svc_helpers import CHANNEL, GUILD, USERS

from cogs.delivery.message_ids import MessageIds
from cogs.delivery.places import Places
from cogs.delivery.preferences import Preferences
from services.game import GameService

#: the ``processes`` fixture (tests/services/conftest.py): one more service instance
Make = Callable[[], Awaitable[GameService]]


async def shown_by(svc: GameService, gid: int) -> MessageIds:
    """The message ids of a delivery that showed the game (it read the game's summary)."""
    ids = MessageIds(svc.store.games)
    game = await svc.summary(gid)
    ids.seed(game)
    ids.table_message_id(game)
    return ids


def count_table_writes(svc: GameService, monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """The ids the store is asked to write as the table message."""
    written: list[int | None] = []
    original = svc.store.games.set_table_message

    async def counted(game_id: int, message_id: int | None, *, replacing: int | None) -> Any:
        written.append(message_id)
        return await original(game_id, message_id, replacing=replacing)

    monkeypatch.setattr(svc.store.games, "set_table_message", counted)
    return written


async def test_ids_close_together_make_one_write_of_the_newest(
    processes: Make, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = await processes()
    gid = (await a.create_game(GUILD, CHANNEL, USERS[0], "host", "shangrao")).id
    ids = await shown_by(a, gid)
    written = count_table_writes(a, monkeypatch)
    assert await ids.set_table_message(gid, 101, wait=False) == 101
    await asyncio.sleep(0)
    assert written == [101]  # under way
    for message_id in (102, 103, 104):
        assert await ids.set_table_message(gid, message_id, wait=False) == message_id
        assert ids.table_message_id(await a.summary(gid)) == message_id  # taken at once
    await ids.save_messages(gid, {"table_at": [CHANNEL, 1]})  # (waits for the table id)
    assert written == [101, 104]  # the rest in one write following the one under way
    assert (await a.store.games.get(gid)).table_message_id == 104  # type: ignore[union-attr]


async def test_a_waited_write_after_ids_written_behind_replaces_the_newest(
    processes: Make,
) -> None:
    a, b = await processes(), await processes()
    gid = (await a.create_game(GUILD, CHANNEL, USERS[0], "host", "shangrao")).id
    ids_b = await shown_by(b, gid)  # b shows the game, knowing no table
    ids_a = await shown_by(a, gid)
    await ids_a.set_table_message(gid, 201, wait=False)
    await ids_a.set_table_message(gid, 202, wait=False)
    assert await ids_a.set_table_message(gid, 203) == 203  # compare-and-set on 202, written first
    assert await ids_b.set_table_message(gid, 299) == 203  # the stale process still loses


async def test_a_failed_write_behind_is_logged_and_the_next_id_is_written(
    processes: Make, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    a = await processes()
    gid = (await a.create_game(GUILD, CHANNEL, USERS[0], "host", "shangrao")).id
    ids = await shown_by(a, gid)
    original = a.store.games.set_table_message
    failures = [RuntimeError("database is locked")]

    async def flaky(game_id: int, message_id: int | None, *, replacing: int | None) -> Any:
        if failures:
            raise failures.pop()
        return await original(game_id, message_id, replacing=replacing)

    monkeypatch.setattr(a.store.games, "set_table_message", flaky)
    with caplog.at_level(logging.ERROR, logger="services.single_flight"):
        await ids.set_table_message(gid, 301, wait=False)
        await ids.save_messages(gid, {})  # (after the write behind)
    assert f"table message of game {gid}: not saved" in caplog.text
    await ids.set_table_message(gid, 302, wait=False)
    await ids.written_behind()  # (shut-down writes what is owed)
    assert (await a.store.games.get(gid)).table_message_id == 302  # type: ignore[union-attr]


async def test_two_processes_saving_at_once_keep_both_processes_messages(
    processes: Make,
) -> None:
    """Each process's saves are combined (one in flight, one following); the merge of the
    two processes (:mod:`db.message_refs`) still keeps every entry of both."""
    a, b = await processes(), await processes()
    a.shared = b.shared = True  # (as joining the cluster marks them: saves merge both ways)
    gid = (await a.create_game(GUILD, CHANNEL, USERS[0], "host", "shangrao")).id
    places_a = Places(object(), Preferences(None))  # type: ignore[arg-type]
    places_b = Places(object(), Preferences(None))  # type: ignore[arg-type]
    places_a.service, places_b.service = a, b
    places_a.ids, places_b.ids = MessageIds(a.store.games), MessageIds(b.store.games)
    game_a, game_b = await a.summary(gid), await b.summary(gid)
    alerts_a, alerts_b = places_a.held(game_a, "alerts"), places_b.held(game_b, "alerts")
    saves: list[Awaitable[None]] = []
    for episode in range(1, 6):
        alerts_a["101"] = [1, 1000 + episode, episode]
        alerts_b["102"] = [2, 2000 + episode, episode]
        saves += [places_a.save_refs(gid), places_b.save_refs(gid, wait=False)]
    await asyncio.gather(*saves)
    await places_a.saves_done()
    await places_b.saves_done()
    stored = (await a.store.games.get(gid)).messages  # type: ignore[union-attr]
    assert stored["alerts"] == {"101": [1, 1005, 5], "102": [2, 2005, 5]}
    await places_a.save_refs(gid)
    assert places_a.refs(game_a)["alerts"] == stored["alerts"]  # b's entry came back to a
    a.shared = b.shared = False  # (they never joined a cluster to leave)
