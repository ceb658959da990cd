"""The log stores the engine's own action JSON; logs written before (button keys) still load.

A game is played, then its stored log is rewritten into the older button form
(``{"k": "act", "kind": "discard", "arg": "5m", "ai": [[seat, kind, arg], ...]}``): a fresh
service resumes it into the same state, and the replay service rebuilds it."""

from __future__ import annotations

from typing import Any

from sqlalchemy import update
from svc_helpers import USERS, lobby_with, settle, simple_choice

from engine.game import action_from_json
from engine.tiles import tile_str
from services.real_engine import RealEngine, key_of
from services.replay import ReplayService


def _old_form(engine: RealEngine, state: Any, seat: int, logged: dict[str, Any]) -> list[Any]:
    """``[kind, arg]`` of a logged engine action, as the button form wrote it."""
    key = key_of(action_from_json(logged), state)
    return [key.kind, key.arg]


def rewrite_in_button_form(
    records: list[Any], variant: str, options: dict[str, Any]
) -> dict[int, dict[str, Any]]:
    """seq → the entry as a log written before the engine's action JSON holds it."""
    engine = RealEngine()
    state = None
    out: dict[int, dict[str, Any]] = {}
    for record in records:
        entry = dict(record.action)
        if entry["k"] == "start":
            state, _ = engine.new_game(variant, options, entry["seed"])
        elif entry["k"] == "next":
            state, _ = engine.next_hand(state, entry["seed"])
        elif entry["k"] in ("act", "ai"):
            steps = []
            if entry["k"] == "act":
                logged = entry.pop("a")
                kind, arg = _old_form(engine, state, record.seat, logged)
                entry.update(kind=kind, arg=arg)
                state, _ = engine.apply_logged(state, record.seat, logged)
            name = "ai" if entry["k"] == "act" else "acts"
            for seat, logged in entry.get(name, []):
                steps.append([seat, *_old_form(engine, state, seat, logged)])
                state, _ = engine.apply_logged(state, seat, logged)
            if name in entry:
                entry[name] = steps
            out[record.seq] = entry
    return out


async def test_a_log_in_the_button_form_still_loads(make_service, store) -> None:
    svc = make_service()
    gid = await lobby_with(svc, 1)
    await svc.start(gid, USERS[0])
    await settle(svc)
    presses = 0
    for _ in range(10):
        view = await svc.private_view(gid, USERS[0])
        if not view.hand.legal:
            break
        drawn = tile_str(view.hand.drawn) if view.hand.drawn is not None else None
        await svc.act(gid, USERS[0], simple_choice(view.hand.legal, drawn))
        await settle(svc)
        presses += 1
    assert presses >= 3
    engine = RealEngine()
    want_state = engine.encode_state(svc._games[gid].live.state)
    want_view = await svc.private_view(gid, USERS[0])

    loaded = await store.games.load(gid)
    assert all("kind" not in r.action for r in loaded.actions)  # the new form is written
    old = rewrite_in_button_form(loaded.actions, loaded.game.variant, dict(loaded.game.options))
    assert any("kind" in e for e in old.values()) and any(e.get("ai") for e in old.values())
    from db.models import Action

    table = Action.__table__
    async with store.db.write() as conn:
        for seq, entry in old.items():
            await conn.execute(
                update(table).where(table.c.game_id == gid, table.c.seq == seq).values(action=entry)
            )
    assert any("kind" in r.action for r in (await store.games.load(gid)).actions)

    fresh = make_service()
    view = await fresh.private_view(gid, USERS[0])  # loaded from the old-form log
    assert engine.encode_state(fresh._games[gid].live.state) == want_state
    assert view.hand == want_view.hand
    built = await ReplayService(store).built(gid)
    assert built is not None and built.broken is None
