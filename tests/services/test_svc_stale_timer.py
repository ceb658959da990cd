"""A timer armed for an older version of the game does nothing when it fires: the decision it
was timing was answered (a press won the race for the game's lock), and the new decision has
its own deadline. Firing anyway would play a 托管 move for a player who is still in time."""

from __future__ import annotations

from svc_helpers import USERS, lobby_with, settle, simple_choice

from engine.tiles import tile_str


async def test_a_timer_of_an_older_version_changes_nothing(make_service, store):
    svc = make_service(turn_timeout=600, claim_timeout=600)
    gid = await lobby_with(svc, 1)
    await svc.start(gid, USERS[0])
    live = svc._games[gid].live
    armed_at = live.version  # the version the timer running now was armed for
    view = await svc.private_view(gid, USERS[0])
    assert view.hand.legal, "the human is asked first"
    drawn = None
    if view.hand.drawn is not None:
        drawn = tile_str(view.hand.drawn)
    await svc.act(gid, USERS[0], simple_choice(view.hand.legal, drawn))
    await settle(svc)
    after = await svc.summary(gid)
    assert after.version > armed_at
    log_before = [a.action for a in (await store.games.load(gid)).actions]

    # the old timer fires now (its sleep ended as the press was being committed)
    await svc._deadlines.on_expiry(live, armed_at)
    await settle(svc)

    now = await svc.summary(gid)
    assert now.version == after.version
    assert not now.seats[0].auto
    assert now.deadline == after.deadline
    assert [a.action for a in (await store.games.load(gid)).actions] == log_before
