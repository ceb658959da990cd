"""报听 (declare ready, 九江) through the service: the picker's keys apply like any other, and
the declared hand is locked (never offered a pong or a chi)."""

from __future__ import annotations

import pytest
from svc_helpers import USERS, lobby_with, settle

from cogs.game.views import hand_message, picker_message
from services.action_codec import entry_key
from services.autoplay import run_robots
from services.model import ActionKey, Seat
from services.real_engine import RealEngine


def seed_with_ready(variant: str = "jiujiang") -> str:
    """A seed whose dealer (seat 0 in 九江) may 报听 with the first discard."""
    engine = RealEngine()
    for i in range(5000):
        state, _ = engine.new_game(variant, {}, f"ready-{i}")
        pending = engine.pending_seats(state)
        if pending == (0,) and any(k.kind == "ready" for k in engine.legal_actions(state, 0)):
            return f"ready-{i}"
    raise AssertionError("no seed with a 报听 opening found")


async def test_declare_ready_from_the_picker(make_service, store, delivery):
    seed = seed_with_ready()
    svc = make_service(new_seed=lambda: seed)
    gid = await lobby_with(svc, 1, variant="jiujiang")
    await svc.start(gid, USERS[0])
    update = await svc.private_view(gid, USERS[0])
    game = await svc.summary(gid)
    # the hand shows one 报听 button, which opens a picker with one button per tile
    _embed, view = hand_message(game, update, "zh")
    assert f"mj:{gid}:ready" in [item.custom_id for item in view.children]
    _text, picker = picker_message(game, update, "ready", "zh")
    keys = [k for k in update.hand.legal if k.kind == "ready"]
    assert [item.custom_id for item in picker.children] == [k.custom_id(gid) for k in keys]
    result = await svc.act(gid, USERS[0], keys[0])
    assert any(e.kind == "ready" for e in result.events)
    await settle(svc)
    table = await svc.table(gid)
    assert table.seats[0].ready
    log = (await store.games.load(gid)).actions
    acts = [a.action for a in log if a.action.get("k") == "act"]
    assert any(entry_key(entry) == keys[0] for entry in acts)


def _seat0_counts(engine: RealEngine, state) -> list[int]:
    view = engine.hand_view(state, 0)
    counts = [0] * 34
    for k in (*view.concealed, *(() if view.drawn is None else (view.drawn,))):
        counts[k] += 1
    return counts


def _locked_player(legal) -> ActionKey:
    """The human with a locked hand: pass a claim, else discard (the drawn tile)."""
    for kind in ("pass", "discard"):
        for key in legal:
            if key.kind == kind:
                return key
    return legal[0]


def seed_with_a_locked_chance(options: dict, limit: int = 3000) -> str:
    """A 九江 seed whose dealer (seat 0, the human) declares ready with the first discard,
    after which another seat discards a tile seat 0 holds two of (or, with chi, a tile its
    上家 throws into one of its shapes): a claim an unlocked hand would be offered."""
    engine = RealEngine()
    seats = [Seat("human", user_id=1)] + [Seat(f"ai{i}", ai=True) for i in range(3)]
    for i in range(limit):
        seed = f"locked-{i}"
        state, _ = engine.new_game("jiujiang", options, seed)
        if engine.pending_seats(state) != (0,):
            continue
        ready = [k for k in engine.legal_actions(state, 0) if k.kind == "ready"]
        if not ready:
            continue
        state, _ = engine.apply(state, 0, ready[0])
        counts = _seat0_counts(engine, state)
        for _ in range(200):
            run = run_robots(engine, seats, state, 0)
            for seat, logged in run.steps:  # [seat, the engine's action JSON]
                state, _ = engine.apply_logged(state, seat, logged)
            if any(_a_chance(e, counts, options) for e in run.events):
                return seed
            if engine.phase(state) not in ("turn", "claim") or 0 not in engine.pending_seats(state):
                break
            state, _ = engine.apply(state, 0, _locked_player(engine.legal_actions(state, 0)))
    raise AssertionError("no seed with a claim chance after 报听 found")


def _a_chance(event, counts: list[int], options: dict) -> bool:
    if event.kind != "discarded" or event.data.get("seat") == 0:
        return False
    k = event.data["tile"]
    if counts[k] >= 2:
        return True
    if options.get("chi") and event.data.get("seat") == 3 and k < 27:
        r = k % 9
        shapes = [(k - 2, k - 1), (k - 1, k + 1), (k + 1, k + 2)]
        return any(k - r <= a and b < k - r + 9 and counts[a] and counts[b] for a, b in shapes)
    return False


@pytest.mark.parametrize("options", [{}, {"chi": "true"}], ids=["pong", "chi"])
async def test_a_locked_hand_is_never_offered_a_pong_or_chi(make_service, delivery, options):
    """After 报听 the hand is locked: a discard it could pong (or chi) brings no claim
    buttons; it is asked only to win or pass."""
    seed = seed_with_a_locked_chance({k: v == "true" for k, v in options.items()})
    svc = make_service(new_seed=lambda: seed)
    gid = await lobby_with(svc, 1, variant="jiujiang", **options)
    await svc.start(gid, USERS[0])
    update = await svc.private_view(gid, USERS[0])
    ready = [k for k in update.hand.legal if k.kind == "ready"]
    await svc.act(gid, USERS[0], ready[0])
    counts = _seat0_counts(svc.engine, svc._games[gid].live.state)
    asked = 0
    for _ in range(200):
        game = await svc.summary(gid)
        if game.phase != "turn" and game.phase != "claim":
            break
        update = await svc.private_view(gid, USERS[0])
        if not update.hand.legal:
            break
        kinds = {k.kind for k in update.hand.legal}
        assert not kinds & {"pong", "chi", "kong"} or update.hand.claim_tile is None, kinds
        _embed, view = hand_message(game, update, "zh")
        labels = [item.label for item in view.children] if view else []
        assert not [x for x in labels if x.startswith(("碰", "吃"))], labels
        asked += update.hand.claim_tile is not None
        await svc.act(gid, USERS[0], _locked_player(update.hand.legal))
    await settle(svc)
    public = [e for _g, _t, events in delivery.named("table") for e in events]
    assert any(_a_chance(e, counts, {"chi": bool(options)}) for e in public), "no chance came"
    assert not [e for e in public if e.kind == "claimed" and e.data.get("seat") == 0]
