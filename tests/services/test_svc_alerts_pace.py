"""Issue 12 in the service: alert episodes (one alert per decision, consecutive decisions of
one turn share it), AI moves shown at a readable pace, and the start-up resume pass that
leaves games created after it began alone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from svc_helpers import USERS, lobby_with, settle, simple_choice

from engine.tiles import tile_str
from services.core import GameCore
from services.gamelog import LiveGame, track_episodes
from services.model import Seat


@dataclass(frozen=True)
class S:
    """A stub state: the phase and the seats awaited."""

    phase: str
    pending: tuple[int, ...] = ()


class StubEngine:
    def phase(self, state: S) -> str:
        return state.phase

    def pending_seats(self, state: S) -> tuple[int, ...]:
        return state.pending


def live_game(humans: int = 4) -> LiveGame:
    seats = [Seat(f"p{i}", user_id=100 + i) for i in range(humans)]
    seats += [Seat(f"ai{i}", ai=True) for i in range(4 - humans)]
    return LiveGame(1, 1, 1, "xinyu", {}, "active", 0, [0] * 4, seats)


def step(live: LiveGame, actor: int | None, state: S) -> None:
    live.version += 1
    live.state = state
    track_episodes(StubEngine(), live, actor, state)  # type: ignore[arg-type]


def test_consecutive_decisions_of_one_turn_share_an_episode() -> None:
    live = live_game()
    step(live, None, S("turn", (0,)))  # the deal: seat 0 to play
    first = live.episodes[0]
    step(live, 0, S("claim", (1,)))  # seat 0 adds a kong; seat 1 may rob it
    assert live.episodes[0] == first and 1 in live.episodes
    step(live, 1, S("turn", (0,)))  # seat 1 passes; seat 0 draws its replacement tile
    assert live.episodes[0] == first  # draw → kong → discard: one episode
    assert 1 not in live.episodes
    step(live, 0, S("claim", (1, 2)))  # seat 0 discards; seats 1 and 2 may claim
    claim1 = live.episodes[1]
    step(live, 2, S("claim", (1,)))  # seat 2 passes, seat 1 still thinking
    assert live.episodes[1] == claim1
    step(live, 1, S("turn", (1,)))  # seat 1 pongs and must discard: still one episode
    assert live.episodes[1] == claim1
    assert 0 not in live.episodes and 2 not in live.episodes  # another seat holds the turn
    step(live, 1, S("turn", (2,)))  # seat 1 discarded; seat 2's turn is a new episode
    assert live.episodes == {2: live.version}
    step(live, None, S("turn", (3,)))  # a new hand ends every episode
    assert live.episodes == {3: live.version}
    step(live, 3, S("hand_over"))
    assert live.episodes == {}


def test_a_seat_that_waited_on_the_others_gets_a_new_episode() -> None:
    """Seat 1 passed a claim and waited while seat 2 decided: its turn that follows is a
    new decision (the episode survives an unasked gap only across the seat's own press)."""
    core = GameCore(None, StubEngine())  # type: ignore[arg-type]
    live = live_game()
    table = core._new_table(live)
    step(live, 0, S("claim", (1, 2)))
    table.end_waited_episodes(0)  # shown: seats 1 and 2 asked
    step(live, 1, S("claim", (2,)))  # seat 1 passes (its own press keeps its episode)
    table.end_waited_episodes(1)
    before = live.episodes[1]
    step(live, 2, S("turn", (1,)))  # seat 2 passes: seat 1 (next in turn) draws
    assert live.episodes[1] == before  # the steps alone would keep it…
    table.end_waited_episodes(2)
    assert live.episodes[1] == live.version > before  # …but it waited: a new episode


def asked_updates(delivery: Any, uid: int) -> list[Any]:
    return [u for _g, u in delivery.named("hand") if u.user_id == uid and u.hand.legal]


async def test_every_asked_update_carries_its_episode(make_service, delivery) -> None:
    """One human with three AIs: each of the human's turns is an episode of its own (AI
    moves came in between), every update that asks carries it, none that does not."""
    svc = make_service()
    gid = await lobby_with(svc, 1, variant="xinyu")
    await svc.start(gid, USERS[0])
    for _ in range(8):
        view = await svc.private_view(gid, USERS[0])
        if not view.hand.legal:
            break
        drawn = tile_str(view.hand.drawn) if view.hand.drawn is not None else None
        await svc.act(gid, USERS[0], simple_choice(view.hand.legal, drawn))
    await settle(svc)
    updates = [u for _g, u in delivery.named("hand") if u.user_id == USERS[0]]
    asked = [u for u in updates if u.hand.legal]
    assert asked and all(u.alert > 0 and u.alert_kind in ("turn", "claim") for u in asked)
    assert all(u.alert == 0 and u.alert_kind == "" for u in updates if not u.hand.legal)
    turns = [u.alert for u in asked if u.alert_kind == "turn"]
    assert len(turns) >= 3 and len(set(turns)) == len(turns)  # a new episode every turn


async def test_ai_moves_are_shown_at_a_pace_while_a_human_sits(make_service, delivery) -> None:
    svc = make_service(ai_pace=0.01)
    gid = await lobby_with(svc, 1, variant="xinyu")
    await svc.start(gid, USERS[0])
    await settle(svc)
    view = await svc.private_view(gid, USERS[0])
    assert view.hand.legal  # xinyu: seat 0 deals
    delivery.calls.clear()
    drawn = tile_str(view.hand.drawn) if view.hand.drawn is not None else None
    result = await svc.act(gid, USERS[0], simple_choice(view.hand.legal, drawn))
    # the answer shows the hand right after the press (the others' moves follow in turn)
    assert result.hand is not None and result.hand.hand.legal == ()
    await settle(svc)
    tables = delivery.named("table")
    moments, final = tables[:-1], tables[-1]
    assert len(moments) >= 2  # her discard, then each AI discard on its own
    assert all(game.deadline is None for game, _t, _e in moments)
    shown = [e for _g, _t, events in tables for e in events]
    public = list(result.events)
    assert [id(e) for e in shown] == [id(e) for e in public]  # each public event once, in order
    assert [e.kind for _g, _t, events in moments for e in events].count("discarded") >= 2
    # the next decision (hand and alert) comes after the moments
    names = [name for name, _args in delivery.calls]
    assert names.index("hand") > names.index("table") and final[0].deadline is not None
    mine = asked_updates(delivery, USERS[0])
    assert mine and mine[-1].alert == (await svc.private_view(gid, USERS[0])).alert


async def test_no_pace_without_a_human_or_with_pace_zero(make_service, delivery) -> None:
    svc = make_service()  # ai_pace 0 (the default)
    gid = await lobby_with(svc, 1, variant="xinyu")
    await svc.start(gid, USERS[0])
    await settle(svc)
    view = await svc.private_view(gid, USERS[0])
    delivery.calls.clear()
    drawn = tile_str(view.hand.drawn) if view.hand.drawn is not None else None
    result = await svc.act(gid, USERS[0], simple_choice(view.hand.legal, drawn))
    await settle(svc)
    assert len(delivery.named("table")) == 1
    assert (
        result.hand is not None and result.hand.hand == (await svc.private_view(gid, USERS[0])).hand
    )


async def test_resume_leaves_games_created_after_it_began_alone(make_service, delivery) -> None:
    """A game started in the first seconds after connecting is not delivered a second time
    by the start-up resume pass (that would send every player a second hand DM)."""
    svc = make_service()
    gid = await lobby_with(svc, 2, variant="xinyu")
    await svc.start(gid, USERS[0])
    await settle(svc)
    hands = len(delivery.named("hand"))
    resumed = await svc.resume_all()
    await settle(svc)
    assert gid not in [g.id for g in resumed]
    assert delivery.named("refresh") == [] and len(delivery.named("hand")) == hands
    # a second process (a restart) does resume it
    other = make_service()
    resumed = await other.resume_all()
    await settle(other)
    assert gid in [g.id for g in resumed] and delivery.named("refresh")
