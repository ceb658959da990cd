"""Sessions (issue 13): a game's length, the 准备 check between hands, the 解散 vote, 再来一局,
and the 摊牌 itemisation — through the real service, store and engine."""

from __future__ import annotations

import asyncio
import time

import pytest
from svc_helpers import CHANNEL, GUILD, USERS, lobby_with, settle
from test_svc_play import play_until_over

from db.types import GameInfo, LoadedGame
from engine.game import apply, new_game
from engine.game.actions import NextHand
from engine.game.ai import choose_action
from services.errors import NotHost, NotInGame, StaleButton
from services.real_engine import RealEngine
from services.session import (
    AlreadyReady,
    AlreadyRematch,
    AlreadyVoted,
    VoteCooldown,
    VoteOpen,
)
from services.session_state import (
    LENGTHS,
    SessionState,
    apply_entry,
    complete,
    parse_length,
    progress,
    standings,
)
from services.showdown import changes, pay_lines, sanbao_payer


async def open_game(svc, humans: int, *, variant: str = "shangrao", length: str = "4") -> int:
    game = await svc.create_game(GUILD, CHANNEL, USERS[0], "host", variant, length=length)
    for uid in USERS[1:humans]:
        await svc.join(game.id, uid, f"p{uid}")
    await svc.start(game.id, USERS[0])
    return game.id


async def wait_for(cond, seconds: float = 5.0) -> None:
    end = time.monotonic() + seconds
    while not cond():
        assert time.monotonic() < end, "condition never held"
        await asyncio.sleep(0.02)


def log_kinds(loaded: LoadedGame) -> list[str]:
    return [a.action["k"] for a in loaded.actions]


# ---------------------------------------------------------------------------- length


@pytest.mark.parametrize("variant", ["shangrao", "xinyu", "jiujiang", "nanchang"])
async def test_a_four_hand_game_ends_by_itself_with_standings(
    make_service, store, delivery, variant
):
    svc = make_service()
    gid = await open_game(svc, 1, variant=variant, length="4")
    assert (await svc.summary(gid)).session.progress.hands == 4
    for hand in range(1, 5):
        game = await svc.summary(gid)
        assert game.hand_no == hand and game.session.progress.hand_no == hand
        await play_until_over(svc, gid, USERS[:1])
        game = await svc.summary(gid)
        if hand < 4:
            assert game.session.ready_open and not game.session.complete
            await svc.ready(gid, USERS[0])  # the only human: deals at once
    await wait_for(lambda: svc._games[gid].live.status == "finished")
    await settle(svc)
    game = await svc.summary(gid)
    assert game.session.ended_by == "length" and game.hand_no == 4
    [(_ended, reason)] = delivery.named("ended")
    assert reason == "finished" and _ended.session.ended_by == "length"
    board = game.session.standings
    assert [s.total for s in board] == list(game.totals) and sum(game.totals) == 0
    results = [r for _g, r, _t in delivery.named("result")]
    assert len(results) == 4
    assert sum(s.wins for s in board) == sum(len(r.winners) for r in results)
    assert sum(s.self_draws for s in board) == sum(
        len(r.winners) for r in results if r.how == "self"
    )
    for s in board:
        mine = [r.winner_points[r.winners.index(s.seat)] for r in results if s.seat in r.winners]
        assert s.biggest == max(mine, default=0)
        assert s.rank == 1 + sum(1 for o in board if o.total > s.total)
    loaded = await store.games.load(gid)
    assert log_kinds(loaded)[-1] == "end" and loaded.actions[-1].action["why"] == "length"
    assert (await store.games.get(gid)).status == "finished"
    assert len(await store.hands.of_game(gid)) == 4
    # nothing deals a fifth hand
    with pytest.raises(Exception):  # noqa: B017 - the game is over (WrongPhase)
        await svc.ready(gid, USERS[0])


def test_lengths_in_hands_and_rounds():
    assert [parse_length(x) for x in ("4", "8", "16", "1圈", "2r", " 4圈 ")] == [
        "4",
        "8",
        "16",
        "1圈",
        "2圈",
        "4圈",
    ]
    with pytest.raises(ValueError):
        parse_length("5")
    hands = [{"hand": i, "dealer": 0, "next_dealer": 0} for i in range(3)]
    assert not complete("4", hands) and complete("4", [*hands, hands[0]])
    # a round is the deal going all the way round: it stays, then moves 1, 2 (a winner
    # across takes it) and 1 more — back at the first dealer
    deal = [(0, 0), (0, 1), (1, 3), (3, 3), (3, 0)]
    history = [{"hand": i, "dealer": d, "next_dealer": n} for i, (d, n) in enumerate(deal)]
    assert not complete("1圈", history[:4]) and complete("1圈", history)
    assert not complete("2圈", history)
    assert progress("2圈", 6, history).round_no == 2
    assert progress("2圈", 5, history).round_no == 1
    assert progress("8", 3, history[:2]).hands == 8
    assert progress(None, 3, history).hands is None  # an old, open-ended game
    assert not complete(None, history * 10)


def test_length_choices_are_the_servers():
    from db.guilds import LENGTHS as STORE_LENGTHS

    assert tuple(STORE_LENGTHS) == LENGTHS


async def test_rounds_count_the_deal_of_each_variant(make_service):
    svc = make_service()
    gid = await open_game(svc, 1, variant="xinyu", length="1圈")
    for _ in range(40):
        await play_until_over(svc, gid, USERS[:1])
        live = svc._games[gid].live
        history = svc.engine.hand_history(live.state)
        done = sum((h["next_dealer"] - h["dealer"]) % 4 for h in history) >= 4
        if done:
            break
        await svc.ready(gid, USERS[0])
    await wait_for(lambda: svc._games[gid].live.status == "finished")
    assert svc._games[gid].live.session.ended_by == "length"


async def test_an_old_game_without_a_length_goes_on(make_service, store):
    svc = make_service()
    gid = await lobby_with(svc, 1)
    # a lobby stored before sessions: no setup entry
    live = svc._games[gid].live
    live.session = SessionState()
    await svc.start(gid, USERS[0])
    assert (await svc.summary(gid)).session.progress.hands is None
    for _ in range(2):
        await play_until_over(svc, gid, USERS[:1])
        assert not (await svc.summary(gid)).session.complete
        await svc.next_hand(gid, USERS[0])
    assert svc._games[gid].live.status == "active"


# ---------------------------------------------------------------------------- 准备


async def test_ready_check_waits_for_every_human_once(make_service, store, delivery):
    svc = make_service()
    gid = await open_game(svc, 2, length="8")
    await play_until_over(svc, gid, USERS[:2])
    game = await svc.summary(gid)
    assert game.session.ready_open and game.session.ready == (False, False, True, True)
    await svc.ready(gid, USERS[0])
    with pytest.raises(AlreadyReady):
        await svc.ready(gid, USERS[0])
    with pytest.raises(NotInGame):
        await svc.ready(gid, 999)
    game = await svc.summary(gid)
    assert game.hand_no == 1 and game.session.ready == (True, False, True, True)
    await svc.ready(gid, USERS[1])
    game = await svc.summary(gid)
    assert game.hand_no == 2 and not game.session.ready_open
    # a press for hand 1 now is stale
    with pytest.raises(StaleButton):
        await svc.ready(gid, USERS[0])
    loaded = await store.games.load(gid)
    assert [(a.seat, a.action["hand"]) for a in loaded.actions if a.action["k"] == "rdy"] == [
        (0, 1),
        (1, 1),
    ]
    await settle(svc)
    shown = [args[0].session for args in delivery.named("session")]
    assert shown, "the ready state was delivered"


async def test_ready_timeout_puts_the_absent_on_autoplay(make_service, delivery):
    svc = make_service()
    svc.ready_timeout = 0.3
    gid = await open_game(svc, 2, length="8")
    await play_until_over(svc, gid, USERS[:2])
    await svc.ready(gid, USERS[0])
    await wait_for(lambda: svc._games[gid].live.hand_no == 2)
    live = svc._games[gid].live
    assert live.seats[1].auto and not live.seats[0].auto
    # back from 托管 by pressing 准备 after the next hand
    await settle(svc)


async def test_a_seat_on_autoplay_is_ready_at_once(make_service):
    svc = make_service()
    gid = await open_game(svc, 2, length="8")
    await svc.set_autoplay(gid, USERS[1], True)
    await play_until_over(svc, gid, USERS[:1])
    game = await svc.summary(gid)
    assert game.session.ready == (False, True, True, True)
    await svc.ready(gid, USERS[0])
    assert (await svc.summary(gid)).hand_no == 2


async def test_a_restart_keeps_the_ready_check_and_its_deadline(make_service, store):
    svc = make_service()
    gid = await open_game(svc, 2, length="8")
    await play_until_over(svc, gid, USERS[:2])
    await svc.ready(gid, USERS[1])
    before = (await svc.summary(gid)).session
    await svc.close()
    fresh = make_service()
    await fresh.resume_all()
    after = (await fresh.summary(gid)).session
    assert after.ready_open and after.ready == before.ready
    assert abs(after.ready_deadline - before.ready_deadline) < 0.5
    with pytest.raises(AlreadyReady):  # applied once, also across the restart
        await fresh.ready(gid, USERS[1])
    await fresh.ready(gid, USERS[0])
    assert (await fresh.summary(gid)).hand_no == 2


# ---------------------------------------------------------------------------- 解散


async def test_dissolve_refused_then_agreed(make_service, store, delivery):
    now = [1_000_000.0]
    svc = make_service(clock=lambda: now[0])
    gid = await open_game(svc, 3, length="8")
    await svc.propose_dissolve(gid, USERS[0])
    game = await svc.summary(gid)
    vote = game.session.vote
    assert vote.by == 0 and vote.voters == (1, 2) and vote.result is None
    assert vote.answers == (True, None, None, True)  # the proposer and the AI agree
    with pytest.raises(VoteOpen):
        await svc.propose_dissolve(gid, USERS[0])
    with pytest.raises(AlreadyVoted):
        await svc.answer_dissolve(gid, USERS[0], True)
    await svc.answer_dissolve(gid, USERS[1], True, vote.no)
    with pytest.raises(AlreadyVoted):
        await svc.answer_dissolve(gid, USERS[1], False, vote.no)
    await svc.answer_dissolve(gid, USERS[2], False, vote.no)  # one refusal: the game goes on
    game = await svc.summary(gid)
    assert game.status == "active" and game.session.vote.result == "refused"
    with pytest.raises(StaleButton):
        await svc.answer_dissolve(gid, USERS[1], True, vote.no)
    # the proposer waits two minutes; someone else may propose at once
    with pytest.raises(VoteCooldown):
        await svc.propose_dissolve(gid, USERS[0])
    await svc.propose_dissolve(gid, USERS[1])
    second = (await svc.summary(gid)).session.vote
    assert second.no == vote.no + 1
    # proposing while a vote is open agrees to it
    await svc.propose_dissolve(gid, USERS[0])
    await svc.answer_dissolve(gid, USERS[2], True, second.no)
    game = await svc.summary(gid)
    assert game.status in ("finished", "abandoned") and game.session.ended_by == "vote"
    await settle(svc)
    [(ended, _reason)] = delivery.named("ended")
    assert ended.session.ended_by == "vote"
    loaded = await store.games.load(gid)
    votes = [(a.seat, a.action["op"]) for a in loaded.actions if a.action["k"] == "vote"]
    assert votes == [
        (0, "propose"),
        (1, "yes"),
        (2, "no"),
        (1, "propose"),
        (0, "yes"),
        (2, "yes"),
    ]
    assert loaded.actions[-1].action == {"k": "end", "why": "vote", "no": second.no}
    now[0] += 121
    await svc.close()


async def test_dissolve_cooldown_ends_after_two_minutes(make_service):
    now = [1_000_000.0]
    svc = make_service(clock=lambda: now[0])
    gid = await open_game(svc, 2, length="8")
    await svc.propose_dissolve(gid, USERS[0])
    await svc.answer_dissolve(gid, USERS[1], False)
    now[0] += 119
    with pytest.raises(VoteCooldown):
        await svc.propose_dissolve(gid, USERS[0])
    now[0] += 2
    await svc.propose_dissolve(gid, USERS[0])
    assert (await svc.summary(gid)).session.vote.no == 2


async def test_silence_agrees_when_the_vote_times_out(make_service, store):
    svc = make_service()
    svc.vote_timeout = 0.3
    gid = await open_game(svc, 2, length="8")
    await svc.propose_dissolve(gid, USERS[1])
    await wait_for(lambda: svc._games[gid].live.status != "active")
    loaded = await store.games.load(gid)
    assert loaded.actions[-1].action["why"] == "vote" and loaded.actions[-1].action["expired"]


async def test_alone_with_ai_a_proposal_ends_the_game(make_service):
    svc = make_service()
    gid = await open_game(svc, 1, length="8")
    await play_until_over(svc, gid, USERS[:1])
    game = await svc.end_game(gid, USERS[0])  # the old 结束对局: a vote nobody else answers
    assert game.status == "finished" and game.session.ended_by == "vote"


async def test_a_restart_in_the_middle_of_a_vote(make_service, store):
    svc = make_service()
    gid = await open_game(svc, 3, length="8")
    await svc.propose_dissolve(gid, USERS[2])
    await svc.answer_dissolve(gid, USERS[0], True)
    before = (await svc.summary(gid)).session.vote
    await svc.close()
    fresh = make_service()
    fresh.vote_timeout = 60
    await fresh.resume_all()
    after = (await fresh.summary(gid)).session.vote
    assert after == before  # same answers, same deadline
    with pytest.raises(AlreadyVoted):
        await fresh.answer_dissolve(gid, USERS[0], True)
    await fresh.answer_dissolve(gid, USERS[1], True, before.no)
    assert (await fresh.summary(gid)).status != "active"


async def test_a_manager_ends_at_once_the_host_asks_for_a_vote(make_service, store):
    svc = make_service()
    gid = await open_game(svc, 2, length="8")
    with pytest.raises(NotHost):
        await svc.abandon(gid, USERS[1])
    game = await svc.abandon(gid, USERS[0])  # the host: a 解散 proposal
    assert game.status == "active" and game.session.vote.by == 0
    game = await svc.abandon(gid, 555, admin=True)
    assert game.status == "abandoned" and game.session.ended_by == "admin"
    loaded = await store.games.load(gid)
    assert loaded.actions[-1].action == {"k": "end", "why": "admin", "by": 555}


# ---------------------------------------------------------------------------- 再来一局


async def test_rematch_reopens_the_same_table(make_service, store):
    svc = make_service()
    gid = await svc.create_game(
        GUILD, CHANNEL, USERS[0], "host", "xinyu", {"discard_win": True}, length="1圈"
    )
    await svc.join(gid.id, USERS[1], "p2")
    await svc.start(gid.id, USERS[0])
    await svc.propose_dissolve(gid.id, USERS[0])
    await svc.answer_dissolve(gid.id, USERS[1], True)
    old = await svc.summary(gid.id)
    assert old.status != "active"
    with pytest.raises(NotInGame):
        await svc.rematch(gid.id, 999, "x")
    new = await svc.rematch(gid.id, USERS[1], "p2")
    assert new.status == "lobby" and new.variant == "xinyu"
    assert new.options["discard_win"] is True and new.session.length == "1圈"
    assert new.session.rematch_of == gid.id and new.host_id == USERS[1]
    with pytest.raises(AlreadyRematch):
        await svc.rematch(gid.id, USERS[1], "p2")
    new = await svc.rematch(gid.id, USERS[0], "host")  # everyone is in: it starts
    assert new.status == "active" and {s.user_id for s in new.seats if not s.ai} == {
        USERS[0],
        USERS[1],
    }
    old = await svc.summary(gid.id)
    assert old.session.rematch_game == new.id and old.session.rematch_closed
    assert old.session.rematch_users == (USERS[1], USERS[0])


async def test_the_rematch_host_starts_with_whoever_pressed(make_service):
    svc = make_service()
    gid = await open_game(svc, 2, length="8")
    await svc.abandon(gid, 1, admin=True)
    new = await svc.rematch(gid, USERS[1], "p2")
    started = await svc.start(new.id, USERS[1])
    assert started.status == "active" and sum(1 for s in started.seats if s.ai) == 3
    from services.session import RematchClosed

    with pytest.raises(RematchClosed):
        await svc.rematch(gid, USERS[0], "host")


# ---------------------------------------------------------------------------- 摊牌


def test_every_payment_is_itemised_and_adds_up():
    engine = RealEngine()
    seen: set[str] = set()
    cases = [("shangrao", {}), ("xinyu", {}), ("jiujiang", {}), ("shangrao", {"discard_win": True})]
    for variant, options in cases:
        for g in range(6):
            state, _ = new_game(variant, options, f"showdown-{variant}-{g}")
            for _hand in range(5):
                while state.hand.phase != "over":
                    h = state.hand
                    if h.phase == "turn":
                        seat = h.turn
                    else:
                        c = h.claim
                        seat = next(
                            s
                            for s in range(4)
                            if c.options[s] is not None and c.responses[s] is None
                        )
                    state, _ = apply(state, seat, choose_action(state, seat))
                result = engine.hand_result(state)
                lines = pay_lines(result)
                assert changes(lines) == list(result.deltas), (variant, result)
                assert all(line.kind != "other" for line in lines)
                seen |= {line.kind for line in lines}
                # every seat's tiles are laid open, and they are the engine's
                assert [h.seat for h in result.hands] == [0, 1, 2, 3]
                for hand, seat in zip(result.hands, state.hand.seats, strict=True):
                    assert sorted(hand.concealed) == sorted(t >> 2 for t in seat.hand)
                    assert len(hand.melds) == len(seat.melds)
                if sanbao_payer(result) is not None:
                    assert result.how != "draw"
                state, _ = apply(state, 0, NextHand())
    assert {"hand", "kong", "xing"} <= seen


def test_a_hand_in_play_has_no_showdown():
    engine = RealEngine()
    state, _ = new_game("shangrao", {}, "no-showdown")
    assert engine.hand_result(state) is None


def test_standings_count_wins_self_draws_and_discards():
    history = [
        {"how": "self", "winners": [1], "points": [8], "payer": None},
        {"how": "discard", "winners": [2], "points": [5], "payer": 1},
        {"how": "draw", "winners": [], "points": [], "payer": None},
        {"how": "discard", "winners": [1, 3], "points": [3, 12], "payer": 0},
    ]
    board = standings([-10, 20, 5, -15], history)
    assert [(s.wins, s.self_draws, s.dealt_in, s.biggest) for s in board] == [
        (0, 0, 1, 0),
        (2, 1, 1, 8),
        (1, 0, 0, 5),
        (1, 0, 0, 12),
    ]
    assert [s.rank for s in board] == [3, 1, 2, 4]


def test_session_entries_replay_exactly_once():
    s = SessionState()
    apply_entry(s, None, {"k": "setup", "length": "2圈", "vote_timeout": 30}, 0.0)
    assert s.length == "2圈" and s.vote_timeout == 30.0 and s.ready_timeout is None
    s.ready_hand = 3
    apply_entry(s, 1, {"k": "rdy", "hand": 3}, 1.0)
    apply_entry(s, 2, {"k": "rdy", "hand": 2}, 1.0)  # an earlier hand's press
    assert s.ready == {1}
    apply_entry(s, 0, {"k": "vote", "op": "propose", "no": 1, "at": 5.0}, 6.0)
    apply_entry(s, 1, {"k": "vote", "op": "no", "no": 1}, 7.0)
    apply_entry(s, 2, {"k": "vote", "op": "yes", "no": 1}, 8.0)  # after the refusal
    assert s.vote.at == 5.0 and s.vote.result == "refused" and 2 not in s.vote.answers
    again = SessionState.from_json(s.to_json())
    assert again == s


def test_an_info_without_a_store_row():
    # a LiveGame made from a row without messages or session still has a session
    from datetime import UTC, datetime

    from services.gamelog import LiveGame

    info = GameInfo(
        id=1,
        guild_id=1,
        channel_id=1,
        variant="shangrao",
        options={},
        seats=[],
        status="lobby",
        seed_commitment=None,
        totals=[],
        version=0,
        table_message_id=None,
        created_at=datetime.now(UTC),
        updated_at=datetime.now(UTC),
    )
    assert LiveGame.from_info(info).session == SessionState()


async def test_the_server_chooses_the_default_length_and_timeouts(make_service, store):
    settings = await store.guilds.update_settings(
        GUILD, length="2圈", ready_timeout=30, vote_timeout=60
    )
    assert (settings.length, settings.ready_timeout, settings.vote_timeout) == ("2圈", 30, 60)
    for bad in ({"length": "5"}, {"ready_timeout": 0}, {"vote_timeout": 99999}):
        with pytest.raises(ValueError):
            await store.guilds.update_settings(GUILD, **bad)
    svc = make_service()
    game = await svc.create_game(GUILD, CHANNEL, USERS[0], "host", "jiujiang")
    assert game.session.length == "2圈"
    loaded = await store.games.load(game.id)
    # the server's own 准备 timeout is kept; its vote timeout is the built-in one (the bot's)
    assert loaded.actions[0].action == {"k": "setup", "length": "2圈", "ready_timeout": 30}
    with pytest.raises(Exception, match="length"):
        await svc.create_game(GUILD, CHANNEL + 1, USERS[1], "x", "xinyu", length="7")


async def test_a_snapshot_taken_as_the_hand_ends_keeps_the_ready_check(make_service, store):
    svc = make_service(snapshot_every=1)
    gid = await open_game(svc, 2, length="8")
    await play_until_over(svc, gid, USERS[:2])
    before = (await svc.summary(gid)).session
    assert before.ready_open
    await svc.close()
    fresh = make_service(snapshot_every=1)
    await fresh.resume_all()
    after = (await fresh.summary(gid)).session
    assert after.ready_open and after.ready_hand == 1
    assert abs(after.ready_deadline - before.ready_deadline) < 0.5
    await fresh.ready(gid, USERS[0])
    await fresh.ready(gid, USERS[1])
    assert (await fresh.summary(gid)).hand_no == 2
