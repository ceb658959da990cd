"""One open game per channel across processes: two service instances (two bot processes,
each with its own store and memory) on one database open a lobby in the same channel at
once; the database lets one through and the other gets the usual refusal (这个频道已经有一局了).
SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from svc_helpers import CHANNEL, GUILD, USERS

from services.errors import ChannelBusy
from services.game import GameService

#: the ``processes`` fixture (tests/services/conftest.py): one more service instance
Make = Callable[[], Awaitable[GameService]]


def _opened(results: list[Any]) -> tuple[list[Any], list[ChannelBusy]]:
    opened = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, ChannelBusy)]
    return opened, refused


async def test_two_processes_opening_a_lobby_in_one_channel_get_one(processes: Make) -> None:
    a, b = await processes(), await processes()
    results = await asyncio.gather(
        a.create_game(GUILD, CHANNEL, USERS[0], "p101", "shangrao"),
        b.create_game(GUILD, CHANNEL, USERS[1], "p102", "shangrao"),
        return_exceptions=True,
    )
    opened, refused = _opened(results)
    assert len(opened) == 1 and len(refused) == 1, results
    assert refused[0].params.get("game_id") == opened[0].id  # the refusal names the open game
    unfinished = await a.store.games.list_unfinished()
    assert [g.id for g in unfinished] == [opened[0].id]
    # the refused host sits nowhere and may join the open lobby through either process
    loser = USERS[1] if opened[0].seats[0].user_id == USERS[0] else USERS[0]
    joined = await b.join(opened[0].id, loser, f"p{loser}")
    assert loser in [s.user_id for s in joined.seats]


async def test_the_other_process_opens_the_next_lobby_once_the_game_ended(
    processes: Make,
) -> None:
    a, b = await processes(), await processes()
    first = await a.create_game(GUILD, CHANNEL, USERS[0], "p101", "shangrao")
    with pytest.raises(ChannelBusy):  # b does not hold the lobby: the database refuses
        await b.create_game(GUILD, CHANNEL, USERS[1], "p102", "shangrao")
    await a.leave(first.id, USERS[0])  # the last human leaves: the lobby closes
    second = await b.create_game(GUILD, CHANNEL, USERS[1], "p102", "shangrao")
    assert second.id != first.id
    with pytest.raises(ChannelBusy):  # and now a is the one refused
        await a.create_game(GUILD, CHANNEL, USERS[2], "p103", "shangrao")
