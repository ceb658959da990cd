"""Stored message ids between two processes (two service instances, one database; SQLite
and PostgreSQL), each delivery keeping its ids in its own :class:`MessageIds`: a process
that missed a newer table message cannot overwrite it, the thread is decided once, and the
remembered messages of both processes are kept."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from svc_helpers import CHANNEL, GUILD, USERS

from cogs.delivery.message_ids import MessageIds
from services.game import GameService

#: the ``processes`` fixture (tests/services/conftest.py): one more service instance
Make = Callable[[], Awaitable[GameService]]


async def _both_hold_a_lobby(a: GameService, b: GameService) -> int:
    game = await a.create_game(GUILD, CHANNEL, USERS[0], "host", "shangrao")
    await b.summary(game.id)  # b loads it (it served a press)
    return game.id


async def test_a_stale_process_cannot_overwrite_the_newer_table_message(
    processes: Make,
) -> None:
    a, b = await processes(), await processes()
    gid = await _both_hold_a_lobby(a, b)
    ids_a, ids_b = MessageIds(a.store.games), MessageIds(b.store.games)
    ids_a.table_message_id(await a.summary(gid))  # (each delivery shows the lobby first)
    ids_b.table_message_id(await b.summary(gid))
    assert await ids_a.set_table_message(gid, 111) == 111
    # b still believes the game has no table message: its own post does not replace 111
    assert await ids_b.set_table_message(gid, 222) == 111
    assert (await a.store.games.get(gid)).table_message_id == 111  # type: ignore[union-attr]
    summary = await b.summary(gid)
    assert ids_b.table_message_id(summary) == 111  # b edits the stored one from now on
    assert await ids_b.set_table_message(gid, 333) == 333  # a new table, replacing the known
    assert await ids_a.set_table_message(gid, 444) == 333  # now a is the stale one
    assert (await b.store.games.get(gid)).table_message_id == 333  # type: ignore[union-attr]
    assert ids_a.table_message_id(await a.summary(gid)) == 333


async def test_the_thread_another_process_chose_stays(processes: Make) -> None:
    a, b = await processes(), await processes()
    gid = await _both_hold_a_lobby(a, b)
    assert await a.set_thread(gid, 9001) == 9001
    assert await b.set_thread(gid, CHANNEL) == 9001
    assert b.game_in_channel(9001) == gid  # b finds the game from its thread
    assert (await a.store.games.get(gid)).thread_id == 9001  # type: ignore[union-attr]


async def test_remembered_messages_of_both_processes_are_kept(processes: Make) -> None:
    a, b = await processes(), await processes()
    gid = await _both_hold_a_lobby(a, b)
    ids_a, ids_b = MessageIds(a.store.games), MessageIds(b.store.games)
    ids_a.seed(await a.summary(gid))
    ids_b.seed(await b.summary(gid))
    await ids_a.save_messages(gid, {"dm": {"101": [1, 10, 1]}, "result": [5, 50, 1]})
    # b never saw a's save: its own entries go in, a's stay
    stored = await ids_b.save_messages(gid, {"dm": {"102": [2, 20, 1]}, "lobby": 7})
    assert stored == {
        "dm": {"101": [1, 10, 1], "102": [2, 20, 1]},
        "result": [5, 50, 1],
        "lobby": 7,
    }
    # a retires the result it posted (removes it) and posts hand 2's table: b's stay
    stored = await ids_a.save_messages(gid, {"dm": {"101": [1, 11, 2]}, "table_at": [3, 2]})
    assert stored == {
        "dm": {"101": [1, 11, 2], "102": [2, 20, 1]},
        "lobby": 7,
        "table_at": [3, 2],
    }
    # b, stale, saves hand 1's table place over hand 2's: the newer stays
    stored = await ids_b.save_messages(
        gid, {"dm": {"102": [2, 20, 1]}, "lobby": 7, "table_at": [3, 1]}
    )
    assert stored["table_at"] == [3, 2]
    assert (await a.store.games.get(gid)).messages == stored  # type: ignore[union-attr]
