"""A failing AI (an AI seat or a seat on 托管) plays the safe default; the game goes on and
nothing committed is lost."""

from __future__ import annotations

import logging
from typing import Any

from svc_helpers import USERS, RecordingDelivery, lobby_with, settle, simple_choice

from db.store import Store
from engine.game import action_from_json
from engine.tiles import tile_str
from services.action_codec import entry_action, read_step
from services.game import GameService
from services.model import ActionKey
from services.real_engine import RealEngine, key_of


class BrokenAI(RealEngine):
    """The real engine whose AI raises: always, or on the calls listed in ``fail_on``."""

    def __init__(self, fail_on: set[int] | None = None) -> None:
        super().__init__()
        self.calls = 0
        self.failures = 0
        self.fail_on = fail_on

    def choose_action(self, state: Any, seat: int, level: str | None = None) -> ActionKey:
        self.calls += 1
        if self.fail_on is None or self.calls in self.fail_on:
            self.failures += 1
            raise RuntimeError("the AI exploded")
        return super().choose_action(state, seat, level)


def make(store: Store, engine: RealEngine, **kw: Any) -> GameService:
    return GameService(
        store,
        engine,
        kw.pop("delivery", RecordingDelivery()),
        turn_timeout=600,
        claim_timeout=600,
        new_seed=lambda: "ai-failure-seed",
        snapshot_every=0,
        **kw,
    )


async def play_to_the_end(svc: GameService, gid: int, users: tuple[int, ...]) -> list[int]:
    """Every human plays :func:`simple_choice` until the hand is over; returns the version
    each accepted action was acknowledged at. Fails if the game waits for nobody."""
    acked: list[int] = []
    while (await svc.summary(gid)).phase not in ("hand_over", "game_over"):
        for uid in users:
            view = await svc.private_view(gid, uid)
            if view.hand.legal:
                drawn = tile_str(view.hand.drawn) if view.hand.drawn is not None else None
                result = await svc.act(gid, uid, simple_choice(view.hand.legal, drawn))
                acked.append(result.game.version)
                break
        else:
            raise AssertionError("the game waits for nobody: a robot stalled it")
        assert len(acked) < 500
    return acked


def assert_safe_default(engine: RealEngine, state: Any, seat: int, key: ActionKey) -> None:
    """``key`` is what a timeout plays: pass a claim, discard the drawn tile."""
    hand = engine.hand_view(state, seat)
    assert key in hand.legal
    if engine.phase(state) == "claim":
        assert key.kind == "pass", key
    elif hand.drawn is not None and ActionKey("discard", tile_str(hand.drawn)) in hand.legal:
        assert key == ActionKey("discard", tile_str(hand.drawn)), key


async def test_a_failing_ai_plays_the_safe_default_and_the_hand_ends(store, caplog):
    engine = BrokenAI()
    svc = make(store, engine)
    gid = await lobby_with(svc, 2)
    await svc.start(gid, USERS[0])
    await svc.set_autoplay(gid, USERS[1], True)  # 托管 goes through the same AI
    with caplog.at_level(logging.WARNING):
        acked = await play_to_the_end(svc, gid, (USERS[0],))
    assert engine.failures > 0
    # every failure is logged with the game id
    failed = [r for r in caplog.records if "the AI of seat" in r.getMessage()]
    assert failed and all(f"game {gid}:" in r.getMessage() for r in failed)

    # the robots' moves are in the log, and each is the safe default of its moment
    loaded = await store.games.load(gid)
    assert loaded.game.version >= max(acked)
    plain = RealEngine()
    state = None
    robot_moves = 0
    for record in loaded.actions:
        entry = record.action
        if entry["k"] == "start":
            state, _ = plain.new_game("shangrao", loaded.game.options, entry["seed"])
            continue
        steps: list[tuple[int, Any, bool]] = []
        if entry["k"] == "act":
            steps = [(record.seat, entry_action(entry), False)]
            steps += [(*read_step(step), True) for step in entry.get("ai", [])]
        elif entry["k"] == "ai":
            steps = [(*read_step(step), True) for step in entry["acts"]]
        else:
            continue
        for seat, logged, robot in steps:
            key = key_of(action_from_json(logged), state)
            if robot and seat != 0:
                assert_safe_default(plain, state, seat, key)
                robot_moves += 1
            state, _ = plain.apply(state, seat, key)
    assert robot_moves > 0
    await svc.close()

    # a fresh service replays the same log to the same game: nothing acknowledged was lost
    fresh = make(store, RealEngine())
    await fresh.resume_all()
    again = await fresh.summary(gid)
    assert again.version == loaded.game.version
    assert again.phase in ("hand_over", "game_over")
    assert fresh.engine.encode_state(fresh._games[gid].live.state) == plain.encode_state(state)
    await fresh.close()


async def test_one_failure_mid_game_costs_one_safe_move(store, caplog):
    engine = BrokenAI(fail_on={3})
    delivery = RecordingDelivery()
    svc = make(store, engine, delivery=delivery)
    gid = await lobby_with(svc, 1)
    with caplog.at_level(logging.WARNING):
        await svc.start(gid, USERS[0])
        acked = await play_to_the_end(svc, gid, (USERS[0],))
    assert engine.failures == 1 and engine.calls > 3
    assert any(
        f"game {gid}:" in r.getMessage() and "safe default" in r.getMessage()
        for r in caplog.records
    )
    loaded = await store.games.load(gid)
    assert [v for v in acked if v > loaded.game.version] == []
    human = [a for a in loaded.actions if a.seat == 0 and a.action["k"] == "act"]
    assert len(human) == len(acked)  # every acknowledged press is in the log
    await settle(svc)
    assert delivery.named("result"), "the hand's result was delivered"
    await svc.close()


async def test_a_failing_ai_when_the_timeout_fires(store):
    """The human times out with a failing AI behind 托管: the game still reaches the end."""
    import asyncio

    engine = BrokenAI()
    svc = GameService(
        store,
        engine,
        RecordingDelivery(),
        turn_timeout=0.05,
        claim_timeout=0.05,
        new_seed=lambda: "ai-failure-timeout",
        snapshot_every=0,
    )
    gid = await lobby_with(svc, 1)
    await svc.start(gid, USERS[0])
    loop = asyncio.get_running_loop()
    end = loop.time() + 20
    while (await svc.summary(gid)).phase not in ("hand_over", "game_over"):
        assert loop.time() < end, "the game stalled"
        await asyncio.sleep(0.02)
    assert (await svc.summary(gid)).seats[0].auto
    assert engine.failures > 0
    await svc.close()
