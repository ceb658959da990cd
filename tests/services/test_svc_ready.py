"""报听 (declare ready, 九江) through the service: the picker's keys apply like any other."""

from __future__ import annotations

from svc_helpers import USERS, lobby_with, settle

from cogs.views import hand_message, picker_message
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
    log = (await store.load_game(gid)).actions
    assert any(a.action.get("kind") == "ready" and a.action.get("arg") == keys[0].arg for a in log)
