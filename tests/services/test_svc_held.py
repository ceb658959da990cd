"""Games held in memory (issue 15): look-ups by channel and player read an index, and
finished games leave memory (a later look loads them again from the store)."""

from __future__ import annotations

from svc_helpers import CHANNEL, GUILD, USERS, lobby_with, settle

from services.held import HeldGames


async def test_look_ups_follow_seats_threads_and_endings(make_service) -> None:
    svc = make_service()
    gid = await lobby_with(svc, 2)
    assert svc.game_in_channel(CHANNEL) == gid
    assert svc.game_of_player(GUILD, USERS[1]) == gid
    assert svc.game_of_player(GUILD + 1, USERS[1]) is None  # another server
    await svc.leave(gid, USERS[1])
    assert svc.game_of_player(GUILD, USERS[1]) is None
    await svc.join(gid, USERS[2], "p3")
    assert svc.game_of_player(GUILD, USERS[2]) == gid
    await svc.start(gid, USERS[0])
    await svc.set_thread(gid, 77_000)
    assert svc.game_in_channel(77_000) == gid  # from its thread
    assert svc.game_in_channel(CHANNEL) == gid
    await svc.abandon(gid, USERS[0], admin=True)
    await settle(svc)
    assert svc.game_in_channel(CHANNEL) is None
    assert svc.game_in_channel(77_000) is None
    assert svc.game_of_player(GUILD, USERS[0]) is None
    # the channel is free for the next game
    again = await svc.create_game(GUILD, CHANNEL, USERS[0], "host")
    assert svc.game_in_channel(CHANNEL) == again.id


async def test_finished_games_leave_memory(make_service) -> None:
    svc = make_service()
    assert isinstance(svc._games, HeldGames)
    svc._games.keep_finished = 2
    ended = []
    for i in range(6):
        game = await svc.create_game(GUILD, CHANNEL + i, 500 + i, f"h{i}")
        await svc.abandon(game.id, 500 + i)
        await settle(svc)
        ended.append(game.id)
    open_game = await svc.create_game(GUILD, CHANNEL + 99, 600, "open")
    # another game ends: the oldest finished ones go (their deliveries have all run)
    last = await svc.create_game(GUILD, CHANNEL + 98, 601, "last")
    await svc.abandon(last.id, 601)
    await settle(svc)
    held = set(svc._games)
    assert open_game.id in held
    assert len([g for g in held if g != open_game.id]) <= 3
    assert ended[0] not in held and svc._games.released >= 3
    assert svc.game_in_channel(CHANNEL) is None
    # a game let go is read again from the store when asked for
    again = await svc.summary(ended[0])
    assert again.status == "abandoned" and again.id == ended[0]
    assert svc.game_in_channel(CHANNEL + 99) == open_game.id
    assert svc.game_of_player(GUILD, 600) == open_game.id
