"""Timeouts put a seat on 托管; a new service on the same database resumes everything."""

from __future__ import annotations

import asyncio

import pytest
from svc_helpers import USERS, lobby_with, settle, simple_choice

from services.model import ActionKey


async def wait_for(predicate, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not await predicate():
        assert loop.time() < end, "condition not met in time"
        await asyncio.sleep(0.02)


async def test_timeout_plays_safe_and_sets_autoplay(make_service, store, delivery):
    svc = make_service(turn_timeout=0.2, claim_timeout=0.2)
    gid = await lobby_with(svc, 1)
    await svc.start(gid, USERS[0])
    game = await svc.summary(gid)
    assert game.deadline is not None

    async def over() -> bool:
        return (await svc.summary(gid)).phase == "hand_over"

    # the human never answers: the first timeout puts them on 托管, the AI finishes the hand
    await wait_for(over)
    game = await svc.summary(gid)
    assert game.seats[0].auto
    stored = await store.games.load(gid)
    entries = [a.action for a in stored.actions if a.seat == 0]
    timeouts = [e for e in entries if e.get("timeout")]
    assert len(timeouts) == 1
    assert timeouts[0]["a"]["type"] in ("pass", "discard")
    assert {"k": "auto", "on": True} in entries
    await settle(svc)
    assert any(e.kind == "timeout" for _g, _t, evs in delivery.named("table") for e in evs)


async def test_turn_timeout_discards_the_drawn_tile(make_service, store):
    svc = make_service(turn_timeout=0.2, claim_timeout=600)
    gid = await lobby_with(svc, 1)
    await svc.start(gid, USERS[0])
    # answer claims by hand until the human has a drawn tile on their turn
    for _ in range(200):
        view = await svc.private_view(gid, USERS[0])
        if view.hand.drawn is not None:
            break
        await svc.act(gid, USERS[0], simple_choice(view.hand.legal, None))
    else:
        pytest.fail("the human never drew a tile")
    from engine.tiles import tile_str

    drawn = tile_str(view.hand.drawn)
    version = (await svc.summary(gid)).version

    async def timed_out() -> bool:
        return (await svc.summary(gid)).seats[0].auto

    await wait_for(timed_out)
    stored = await store.games.load(gid)
    first = next(a for a in stored.actions if a.seq == version + 1)
    if any(k.kind == "discard" and k.arg == drawn for k in view.hand.legal):
        tile = view.hand.drawn
        assert first.action == {"k": "act", "a": {"type": "discard", "tile": tile}, "timeout": True}


async def test_pressing_a_button_or_autoplay_off_ends_autoplay(make_service, store):
    svc = make_service(turn_timeout=600, claim_timeout=600)
    gid = await lobby_with(svc, 2)
    await svc.start(gid, USERS[0])
    await svc.set_autoplay(gid, USERS[1], True)
    assert (await svc.summary(gid)).seats[1].auto
    # a robot now decides for seat 1; only seat 0 is ever asked
    await svc.set_autoplay(gid, USERS[1], False)
    assert not (await svc.summary(gid)).seats[1].auto
    await svc.set_autoplay(gid, USERS[1], True)
    with pytest.raises(Exception):  # noqa: B017 - any refusal; the press still ends 托管
        await svc.act(gid, USERS[1], ActionKey("discard", "9z"))
    assert not (await svc.summary(gid)).seats[1].auto
    stored = await store.games.load(gid)
    autos = [a.action["on"] for a in stored.actions if a.action["k"] == "auto"]
    assert autos == [True, False, True, False]


async def test_resume_rebuilds_state_and_redelivers(make_service, store, delivery):
    svc = make_service(snapshot_every=3)
    gid = await lobby_with(svc, 2)
    await svc.start(gid, USERS[0])
    for _ in range(6):
        for uid in USERS[:2]:
            view = await svc.private_view(gid, uid)
            if view.hand.legal:
                await svc.act(gid, uid, simple_choice(view.hand.legal, None))
                break
    await svc.set_autoplay(gid, USERS[1], True)
    before = await svc.summary(gid)
    state_before = svc.engine.encode_state(svc._games[gid].live.state)
    await svc.close()
    lobby = await svc.create_game(1000, 7777, 555, "other")  # an open lobby resumes too
    assert lobby.status == "lobby"

    delivery.calls.clear()
    fresh = make_service(snapshot_every=3)
    resumed = await fresh.resume_all()
    assert {g.id for g in resumed} == {gid, lobby.id}
    after = await fresh.summary(gid)
    assert after.version == before.version
    assert after.seats[1].auto and not after.seats[0].auto
    assert fresh.engine.encode_state(fresh._games[gid].live.state) == state_before
    assert fresh.game_in_channel(before.channel_id) == gid
    await settle(fresh)
    assert any(args[0].id == gid for args in delivery.named("refresh"))
    assert {u.user_id for _g, u in delivery.named("hand")} >= {USERS[0], USERS[1]}
    assert any(args[0].id == lobby.id for args in delivery.named("lobby"))
    # a snapshot was used: the log after it is shorter than the whole log
    loaded = await store.games.load(gid)
    assert loaded.snapshot is not None and loaded.snapshot.seq > 0
    # and play goes on where it stopped
    view = await fresh.private_view(gid, USERS[0])
    if after.phase != "hand_over":
        assert view.hand.legal
        await fresh.act(gid, USERS[0], simple_choice(view.hand.legal, None))
        assert (await store.games.get(gid)).version > before.version


async def test_resume_rearms_timer_from_stored_time(make_service, store):
    svc = make_service(turn_timeout=0.3, claim_timeout=0.3)
    gid = await lobby_with(svc, 1)
    await svc.start(gid, USERS[0])
    deadline = (await svc.summary(gid)).deadline
    await svc.close()  # the bot stops before the timeout
    fresh = make_service(turn_timeout=0.3, claim_timeout=0.3)
    await fresh.resume_all()
    game = await fresh.summary(gid)
    assert game.deadline == pytest.approx(deadline, abs=0.05)

    async def auto() -> bool:
        return (await fresh.summary(gid)).seats[0].auto

    await wait_for(auto)


async def _play(svc, gid: int, users, moves: int) -> None:
    """``moves`` human actions (whoever is asked: pass claims, discard the drawn tile)."""
    for _ in range(moves):
        for uid in users:
            view = await svc.private_view(gid, uid)
            if view.hand.legal:
                from engine.tiles import tile_str

                drawn = tile_str(view.hand.drawn) if view.hand.drawn is not None else None
                await svc.act(gid, uid, simple_choice(view.hand.legal, drawn))
                break
        else:
            return


@pytest.mark.parametrize("snapshot_every", [0, 1, 7], ids=["log", "snapshot", "mixed"])
async def test_autoplay_flags_survive_a_restart(make_service, snapshot_every):
    """托管 is part of the game: after a restart every seat is on or off it as before (from
    the log alone, from a snapshot, or a snapshot and the log after it), and the AI goes on
    playing for the seats on it."""
    svc = make_service(snapshot_every=snapshot_every)
    gid = await lobby_with(svc, 3)
    await svc.start(gid, USERS[0])
    await _play(svc, gid, USERS[:3], 3)
    await svc.set_autoplay(gid, USERS[1], True)
    await _play(svc, gid, USERS[:3], 4)
    await svc.set_autoplay(gid, USERS[2], True)
    await svc.set_autoplay(gid, USERS[2], False)  # on and off again: off
    await _play(svc, gid, USERS[:3], 2)
    before = await svc.summary(gid)
    assert [s.auto for s in before.seats] == [False, True, False, False]
    await svc.close()

    fresh = make_service(snapshot_every=snapshot_every)
    await fresh.resume_all()
    after = await fresh.summary(gid)
    assert [s.auto for s in after.seats] == [False, True, False, False]
    assert after.version == before.version
    live = fresh._games[gid].live
    for _ in range(30):  # seat 1 is never asked: the AI plays it
        if fresh.engine.phase(live.state) not in ("turn", "claim"):
            break
        assert 1 not in fresh.engine.pending_seats(live.state)
        assert not (await fresh.private_view(gid, USERS[1])).hand.legal
        await _play(fresh, gid, [USERS[0], USERS[2]], 1)
