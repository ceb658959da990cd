"""End-to-end: ``/mahjong addbot level:`` through the bot seats an AI of that level (stored
on the seat); an unknown level (a forged request) is refused and seats nobody."""

from __future__ import annotations

import pytest

from db.store import Store

from .fake_discord import FakeDiscord
from .game_driver import game_id_of, lobby_message, start_bot

pytestmark = pytest.mark.e2e


async def seat_levels(url: str, gid: int) -> list[str | None]:
    store = await Store.open(url)
    try:
        game = await store.games.get(gid)
        return [seat.get("level") for seat in game.seats]
    finally:
        await store.close()


async def test_addbot_with_a_level(fake: FakeDiscord, bot_factory) -> None:
    proc = await start_bot(bot_factory)
    alice = fake.user("alice")
    ix = await fake.slash(alice, "mahjong new", {"variant": "jiujiang"})
    assert (await ix.wait_reply(10)).ephemeral
    lobby = await fake.wait_for(lambda: lobby_message(fake), 10, what="the lobby message")
    gid = game_id_of(lobby)

    ix = await fake.slash(alice, "mahjong addbot", {"level": "advanced"})
    assert (await ix.wait_reply(10)).ephemeral
    ix = await fake.slash(alice, "mahjong addbot", {"level": "beginner"})
    assert (await ix.wait_reply(10)).ephemeral
    ix = await fake.slash(alice, "mahjong addbot")
    assert (await ix.wait_reply(10)).ephemeral
    assert await seat_levels(proc.database_url, gid) == [None, "advanced", "beginner", None]


async def test_addbot_refuses_an_unknown_level(fake: FakeDiscord, bot_factory) -> None:
    proc = await start_bot(bot_factory)
    alice = fake.user("alice")
    ix = await fake.slash(alice, "mahjong new", {"variant": "xinyu"})
    assert (await ix.wait_reply(10)).ephemeral
    lobby = await fake.wait_for(lambda: lobby_message(fake), 10, what="the lobby message")
    gid = game_id_of(lobby)
    # the Discord client offers only the three choices: a forged request is what gets here
    ix = await fake.slash(alice, "mahjong addbot", {"level": "grandmaster"}, force=True)
    reply = await ix.wait_reply(10)
    assert reply.ephemeral
    assert "grandmaster" in reply.text()
    assert await seat_levels(proc.database_url, gid) == [None]
