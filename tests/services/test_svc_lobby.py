"""Lobby rules: one game per channel, one game per player per server, host powers, seats."""

from __future__ import annotations

import pytest
from svc_helpers import CHANNEL, GUILD, USERS, lobby_with, settle

from services.errors import (
    AlreadyPlaying,
    BadOption,
    ChannelBusy,
    LobbyFull,
    NotHost,
    NotInGame,
    WrongPhase,
)


async def test_create_join_and_lobby_delivery(make_service, delivery, store):
    svc = make_service()
    gid = await lobby_with(svc, 3)
    game = await svc.summary(gid)
    assert [s.user_id for s in game.seats] == list(USERS[:3])
    assert game.status == "lobby" and game.host_id == USERS[0]
    await settle(svc)
    lobbies = delivery.named("lobby")
    assert len(lobbies) == 3  # created + two joins
    assert len(lobbies[-1][0].seats) == 3
    stored = await store.games.get(gid)
    assert [s["user_id"] for s in stored.seats] == list(USERS[:3])


async def test_one_game_per_channel_and_per_player(make_service):
    svc = make_service()
    gid = await lobby_with(svc, 1)
    with pytest.raises(ChannelBusy):
        await svc.create_game(GUILD, CHANNEL, USERS[1], "x")
    with pytest.raises(AlreadyPlaying):
        await svc.create_game(GUILD, CHANNEL + 1, USERS[0], "host")
    other = await svc.create_game(GUILD, CHANNEL + 1, USERS[1], "p2")
    with pytest.raises(AlreadyPlaying):
        await svc.join(gid, USERS[1], "p2")
    with pytest.raises(AlreadyPlaying):
        await svc.join(gid, USERS[0], "host")  # already here
    # another server is another world
    third = await svc.create_game(GUILD + 1, CHANNEL + 5, USERS[0], "host")
    assert len({gid, other.id, third.id}) == 3


async def test_full_lobby_and_host_powers(make_service):
    svc = make_service()
    gid = await lobby_with(svc, 2)
    with pytest.raises(NotHost):
        await svc.add_bot(gid, USERS[1])
    with pytest.raises(NotHost):
        await svc.start(gid, USERS[1])
    with pytest.raises(NotInGame):
        await svc.add_bot(gid, 999)
    await svc.add_bot(gid, USERS[0])
    await svc.add_bot(gid, USERS[0])
    with pytest.raises(LobbyFull):
        await svc.add_bot(gid, USERS[0])
    with pytest.raises(LobbyFull):
        await svc.join(gid, USERS[2], "late")
    game = await svc.summary(gid)
    assert [s.ai for s in game.seats] == [False, False, True, True]


async def test_leave_moves_host_and_last_leaving_closes(make_service, delivery):
    svc = make_service()
    gid = await lobby_with(svc, 2)
    await svc.leave(gid, USERS[0])
    game = await svc.summary(gid)
    assert game.host_id == USERS[1]
    with pytest.raises(NotInGame):
        await svc.leave(gid, USERS[0])
    await svc.leave(gid, USERS[1])
    assert (await svc.summary(gid)).status == "abandoned"
    assert svc.game_in_channel(CHANNEL) is None
    await settle(svc)
    assert delivery.named("ended")[-1][1] == "abandoned"
    # the channel is free again
    again = await svc.create_game(GUILD, CHANNEL, USERS[0], "host")
    assert again.id != gid


async def test_options_from_server_defaults_and_overrides(make_service, store):
    await store.guilds.update_settings(
        GUILD, default_variant="xinyu", rule_options={"xinyu": {"draw_dealer": "stay"}}
    )
    svc = make_service()
    game = await svc.create_game(GUILD, CHANNEL, USERS[0], "host")
    assert game.variant == "xinyu"
    assert game.options["draw_dealer"] == "stay"
    await svc.abandon(game.id, USERS[0])
    game = await svc.create_game(GUILD, CHANNEL, USERS[0], "host", "xinyu", {"discard_win": "true"})
    assert game.options == {"discard_win": True, "draw_dealer": "stay"}
    await svc.abandon(game.id, USERS[0])
    with pytest.raises(BadOption):
        await svc.create_game(GUILD, CHANNEL, USERS[0], "host", "jiujiang", {"chi": "maybe"})
    with pytest.raises(BadOption):
        await svc.create_game(GUILD, CHANNEL, USERS[0], "host", "mars")


async def test_start_fills_ai_and_deals(make_service, store, delivery):
    svc = make_service()
    gid = await lobby_with(svc, 2)
    with pytest.raises(WrongPhase):
        await svc.act(gid, USERS[0], __import__("services.model").model.ActionKey("pass"))
    game = await svc.start(gid, USERS[0])
    assert game.status == "active"
    assert [s.ai for s in game.seats] == [False, False, True, True]
    assert game.phase in ("turn", "claim", "hand_over")
    stored = await store.games.load(gid)
    assert stored.game.status == "active"
    # the lobby's session (its length, by default the server's 8 hands), the seat taken
    # (a versioned ``seats`` entry), then the deal
    assert [a.action["k"] for a in stored.actions[:3]] == ["setup", "seats", "start"]
    assert stored.actions[1].action["why"] == "join"
    assert stored.actions[0].action["length"] == "8"
    assert stored.game.seed_commitment  # the fairness hash is kept
    with pytest.raises(WrongPhase):
        await svc.join(gid, USERS[2], "late")
    await settle(svc)
    # both humans got their hands; the table was shown
    hand_users = {args[1].user_id for args in delivery.named("hand")}
    assert hand_users == {USERS[0], USERS[1]}
    assert delivery.named("table")
