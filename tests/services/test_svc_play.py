"""Playing: legal and illegal actions, AI seats, commit before return, whole hands."""

from __future__ import annotations

import asyncio

import pytest
from svc_helpers import USERS, lobby_with, settle, simple_choice

from services.action_codec import entry_key
from services.errors import IllegalMove, NotInGame, NotYourTurn, StaleButton
from services.game import GameService
from services.model import ActionKey


async def play_until_over(svc: GameService, gid: int, users: tuple[int, ...]) -> int:
    """Drive every human with :func:`simple_choice` until the hand is over; returns steps."""
    steps = 0
    while (await svc.summary(gid)).phase not in ("hand_over", "game_over"):
        moved = False
        for uid in users:
            view = await svc.private_view(gid, uid)
            if view.hand.legal:
                drawn = None
                if view.hand.drawn is not None:
                    from engine.tiles import tile_str

                    drawn = tile_str(view.hand.drawn)
                await svc.act(gid, uid, simple_choice(view.hand.legal, drawn))
                moved = True
                steps += 1
                break
        assert moved, "the game waits for nobody"
        assert steps < 500
    return steps


async def test_act_commits_before_returning(make_service, store):
    svc = make_service()
    gid = await lobby_with(svc, 1)
    await svc.start(gid, USERS[0])
    view = await svc.private_view(gid, USERS[0])
    assert view.hand.legal, "with three AI seats the game waits for the human"
    before = (await store.games.get(gid)).version
    result = await svc.act(gid, USERS[0], simple_choice(view.hand.legal, None))
    stored = await store.games.load(gid)
    assert stored.game.version >= before + 1
    assert stored.game.version == result.game.version
    human_entries = [a for a in stored.actions if a.seat == 0 and a.action["k"] == "act"]
    assert human_entries, "the human's action is in the log"


async def test_illegal_and_out_of_turn_change_nothing(make_service, store):
    svc = make_service()
    gid = await lobby_with(svc, 2)
    await svc.start(gid, USERS[0])
    version = (await store.games.get(gid)).version
    waiting = [u for u in USERS[:2] if (await svc.private_view(gid, u)).hand.legal]
    idle = [u for u in USERS[:2] if u not in waiting]
    assert waiting
    with pytest.raises(NotInGame):
        await svc.act(gid, 999, ActionKey("pass"))
    with pytest.raises(IllegalMove):
        await svc.act(gid, waiting[0], ActionKey("discard", "9z"))  # no such tile
    with pytest.raises(IllegalMove):
        await svc.act(gid, waiting[0], ActionKey("fly"))
    for uid in idle:
        with pytest.raises(NotYourTurn):
            await svc.act(gid, uid, ActionKey("pass"))
    assert (await store.games.get(gid)).version == version


async def test_stale_button_is_refused(make_service):
    svc = make_service()
    gid = await lobby_with(svc, 1)
    await svc.start(gid, USERS[0])
    view = await svc.private_view(gid, USERS[0])
    seen = (await svc.summary(gid)).version
    await svc.act(gid, USERS[0], simple_choice(view.hand.legal, None))
    # the human is asked again (three AI seats), then presses a button drawn before
    again = await svc.private_view(gid, USERS[0])
    assert again.hand.legal
    with pytest.raises(StaleButton):
        await svc.act(gid, USERS[0], again.hand.legal[0], seen_version=seen)


@pytest.mark.parametrize("variant", ["shangrao", "xinyu", "jiujiang", "nanchang"])
async def test_whole_hand_with_three_ai(make_service, store, delivery, variant):
    svc = make_service()
    gid = await lobby_with(svc, 1, variant=variant)
    await svc.start(gid, USERS[0])
    await play_until_over(svc, gid, USERS[:1])
    await settle(svc)
    results = delivery.named("result")
    assert len(results) == 1
    game, result, _table = results[0]
    assert sum(result.deltas) == 0
    assert result.seed_reveal and result.seed_reveal["seed"]
    if result.how != "draw":
        assert result.items and result.points > 0
    stored = await store.games.get(gid)
    assert list(stored.totals) == list(result.deltas)
    # the next hand is dealt on request, then the game can be ended between hands
    with pytest.raises(NotInGame):
        await svc.next_hand(gid, 999)
    await svc.next_hand(gid, USERS[0])
    assert (await svc.summary(gid)).hand_no == 2
    await play_until_over(svc, gid, USERS[:1])
    await svc.end_game(gid, USERS[0])
    assert (await store.games.get(gid)).status == "finished"
    assert svc.game_of_player(game.guild_id, USERS[0]) is None


async def test_four_humans_play_a_hand(make_service, delivery):
    svc = make_service()
    gid = await lobby_with(svc, 4)
    await svc.start(gid, USERS[0])
    await play_until_over(svc, gid, USERS)
    await settle(svc)
    assert len(delivery.named("result")) == 1
    # no private update ever went to a seat other than its owner
    for _game, update in delivery.named("hand"):
        assert update.user_id == USERS[update.seat]
        for event in update.events:
            assert event.visible_to == update.seat
    # public table deliveries carry only public events
    for _game, _table, events in delivery.named("table"):
        assert all(e.visible_to is None for e in events)


async def test_double_click_applies_once(make_service, store):
    svc = make_service()
    gid = await lobby_with(svc, 1)
    await svc.start(gid, USERS[0])
    view = await svc.private_view(gid, USERS[0])
    key = simple_choice(view.hand.legal, None)
    version = (await store.games.get(gid)).version
    outcomes = await asyncio.gather(
        svc.act(gid, USERS[0], key), svc.act(gid, USERS[0], key), return_exceptions=True
    )
    ok = [o for o in outcomes if not isinstance(o, BaseException)]
    errors = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(ok) == 1, outcomes
    # the second click found the decision gone (or, rarely, a new identical one: then
    # it must have been a legal action of the new turn, not a repeat of the old)
    assert all(isinstance(e, NotYourTurn | IllegalMove | StaleButton) for e in errors)
    stored = await store.games.load(gid)
    mine = [a for a in stored.actions if a.seq > version and a.seat == 0 and a.action["k"] == "act"]
    assert len(mine) == 1


async def test_two_processes_one_database_exactly_once(make_service, store, delivery):
    """Two service instances (two shards) on one database: one click wins, once."""
    first = make_service()
    gid = await lobby_with(first, 1)
    await first.start(gid, USERS[0])
    second = make_service()
    await second.resume_all()
    view = await first.private_view(gid, USERS[0])
    key = simple_choice(view.hand.legal, None)
    version = (await store.games.get(gid)).version
    outcomes = await asyncio.gather(
        first.act(gid, USERS[0], key), second.act(gid, USERS[0], key), return_exceptions=True
    )
    ok = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(ok) >= 1
    stored = await store.games.load(gid)
    mine = [a for a in stored.actions if a.seq > version and a.seat == 0]
    # the same button pressed through both processes is applied once (the loser reloads and
    # finds the decision taken)
    assert (
        len(
            [
                a
                for a in mine
                if a.action.get("k") == "act"
                and entry_key(a.action) == key
                and a.seq == version + 1
            ]
        )
        == 1
    )
    seqs = [a.seq for a in stored.actions]
    assert seqs == sorted(set(seqs))


async def test_delivery_failure_keeps_the_action(make_service, store, delivery):
    svc = make_service()
    gid = await lobby_with(svc, 1)
    await svc.start(gid, USERS[0])
    delivery.fail = True
    view = await svc.private_view(gid, USERS[0])
    result = await svc.act(gid, USERS[0], simple_choice(view.hand.legal, None))
    await settle(svc)
    assert (await store.games.get(gid)).version == result.game.version
    delivery.fail = False
