"""Claims stay secret: nothing the table (or anyone but the claimant) sees says who may claim a
discard or who passed — the table text and picture, ``/mahjong status``, the public lines, the
timing of table edits, a claim that times out. Private events (偷机) stay private."""

from __future__ import annotations

import asyncio
from typing import Any

from svc_helpers import USERS, lobby_with, settle

from cogs.delivery import pictures
from cogs.delivery.discord_delivery import DiscordDelivery
from cogs.game.text import hand_lines, table_lines
from engine.tiles import tile_str
from services.delivery import GameSummary
from services.game import GameService
from services.model import ActionKey, TableView


def names(game: GameSummary) -> list[str]:
    return [s.name for s in game.seats]


def human_claimants(svc: GameService, gid: int) -> list[int]:
    """Humans a claim window now waits on (the service's own view; never public)."""
    live = svc._games[gid].live
    if svc.engine.phase(live.state) != "claim":
        return []
    return [s for s in svc.engine.pending_seats(live.state) if not live.seats[s].robot]


async def play_until(svc: GameService, gid: int, humans: int, done) -> None:
    """Humans discard their drawn tile (and pass claims) until ``done()`` holds."""
    for _ in range(400):
        if done():
            return
        live = svc._games[gid].live
        if svc.engine.phase(live.state) == "hand_over":
            for uid in USERS[:humans]:  # every human presses 准备; the last one deals
                await svc.next_hand(gid, uid)
            continue
        for uid in USERS[:humans]:
            view = await svc.private_view(gid, uid)
            if not view.hand.legal:
                continue
            legal = view.hand.legal
            drawn = tile_str(view.hand.drawn) if view.hand.drawn is not None else None
            key = next((k for k in legal if k.kind == "pass"), None)
            key = key or next((k for k in legal if k.kind == "discard" and k.arg == drawn), None)
            key = key or next(k for k in legal if k.kind == "discard")
            await svc.act(gid, uid, key)
            break
    raise AssertionError("the situation never came up")


def other_names_in(lines: list[str], allowed: str, everyone: list[str]) -> list[str]:
    """Names other than ``allowed`` on lines that are not a seat's own line."""
    shown = [
        ln for ln in lines if not any(ln.lstrip("▶ ").startswith(f"**{n}**") for n in everyone)
    ]
    return [n for n in everyone if n != allowed and any(n in ln for ln in shown)]


async def test_the_table_shows_one_neutral_wait_whoever_may_claim(make_service):
    svc = make_service()
    gid = await lobby_with(svc, 4, variant="shangrao")
    await svc.start(gid, USERS[0])
    await play_until(svc, gid, 4, lambda: bool(human_claimants(svc, gid)))
    game = await svc.summary(gid)
    table = await svc.table(gid)
    claimant = human_claimants(svc, gid)[0]
    discarder, tile = table.last_discard
    everyone = names(game)
    assert table.phase == "claim" and table.turn is None and table.waiting_on == ()
    for lang, wait in (("zh", "等待吃碰杠胡…"), ("en", "Waiting for claims…")):
        lines = table_lines(table, everyone, game.totals, [False] * 4, lang, deadline=1e9)
        text = "\n".join(lines)
        assert wait in text and "▶" not in text
        # no countdown: only a window a human decides in has one (services.reveal)
        assert "决定是否" not in text and "<t:" not in text
        assert other_names_in(lines, everyone[discarder], everyone) == []
    # the picture: no seat highlighted, the same neutral words in the centre
    picture = pictures.table_picture(game, table)
    assert picture.turn is None and picture.claim_wait
    # the claimant alone reads who threw what, and where they sit
    view = await svc.private_view(gid, USERS[claimant])
    assert view.hand.claim_from == discarder
    prompt = hand_lines(view.hand, (), "zh", names=everyone)[-1]
    where = {1: "下家", 2: "对家", 3: "上家"}[(discarder - claimant) % 4]
    from cogs.game.text import tile_name

    assert prompt == f"{where} {everyone[discarder]} 打出 {tile_name(tile)}，你可以："
    en = hand_lines(view.hand, (), "en", names=everyone)[-1]
    assert en.startswith(f"{everyone[discarder]} (") and tile_name(tile, "en") in en


async def test_a_turn_shows_the_arrow_on_the_player_to_move(make_service):
    svc = make_service()
    gid = await lobby_with(svc, 1, variant="xinyu")
    await svc.start(gid, USERS[0])
    live = svc._games[gid].live
    await play_until(svc, gid, 1, lambda: svc.engine.phase(live.state) == "turn")
    game = await svc.summary(gid)
    table = await svc.table(gid)
    text = table_lines(table, names(game), game.totals, [False] * 4, "zh")
    arrows = [ln for ln in text if ln.startswith("▶")]
    assert arrows == [ln for ln in text if ln.startswith(f"▶ **{names(game)[table.turn]}**")]
    assert len(arrows) == 1 and pictures.table_picture(game, table).turn == table.turn


async def test_a_claim_that_times_out_passes_quietly(make_service, store, delivery):
    """No public timeout line, no 托管 (its mark would tell who could claim), no table edit
    that only the pass caused."""
    svc = make_service(turn_timeout=600, claim_timeout=0.3)
    gid = await lobby_with(svc, 1, variant="shangrao")
    await svc.start(gid, USERS[0])
    await play_until(svc, gid, 1, lambda: bool(human_claimants(svc, gid)))
    before = (await svc.summary(gid)).version
    await settle(svc)
    delivery.calls.clear()
    loop = asyncio.get_running_loop()
    end = loop.time() + 10
    while (await svc.summary(gid)).version == before:
        assert loop.time() < end, "the claim window never timed out"
        await asyncio.sleep(0.05)
    await settle(svc)
    game = await svc.summary(gid)
    assert not game.seats[0].auto  # a claim timeout does not put the seat on 托管
    entries = [a.action for a in (await store.games.load(gid)).actions if a.seq > before]
    # the log holds the engine's own action JSON
    assert entries[0] == {"k": "act", "a": {"type": "pass"}, "timeout": True}
    assert {"k": "auto", "on": True} not in entries
    public = [e for _g, _t, evs in delivery.named("table") for e in evs]
    assert not [e for e in public if e.kind in ("timeout", "auto")]
    # the player alone hears of it
    private = [e for _g, u in delivery.named("hand") for e in u.events]
    assert any(e.kind == "timeout" and e.visible_to == 0 for e in private)
    lines = public_lines(game, public)
    assert not [ln for ln in lines if "host" in ln and ("过" in ln or "pass" in ln)]


def public_lines(game: GameSummary, events: list[Any]) -> list[str]:
    delivery = DiscordDelivery(None)  # type: ignore[arg-type]
    out = []
    for lang in ("zh", "en"):
        for event in events:
            line = delivery.event_line(game, event, events, lang)
            if line:
                out.append(line)
    return out


async def test_a_pass_that_leaves_the_window_open_does_not_touch_the_table(make_service, delivery):
    svc = make_service()
    gid = await lobby_with(svc, 4, variant="shangrao")
    await svc.start(gid, USERS[0])
    await play_until(svc, gid, 4, lambda: len(human_claimants(svc, gid)) >= 2)
    await settle(svc)
    first, second = human_claimants(svc, gid)[:2]
    tables = len(delivery.named("table"))
    await svc.act(gid, USERS[first], ActionKey("pass"))
    await settle(svc)
    assert human_claimants(svc, gid)  # still open for the other one
    assert len(delivery.named("table")) == tables  # nothing public moved
    assert [u.user_id for _g, u in delivery.named("hand")][-1:] == [USERS[first]]
    await svc.act(gid, USERS[second], ActionKey("pass"))
    await settle(svc)
    assert len(delivery.named("table")) > tables


async def test_the_table_at_hand_end_shows_the_wall_left(make_service):
    svc = make_service()
    gid = await lobby_with(svc, 1, variant="shangrao")
    await svc.start(gid, USERS[0])
    live = svc._games[gid].live
    await svc.set_autoplay(gid, USERS[0], True)  # the AI plays the hand out
    assert svc.engine.phase(live.state) == "hand_over"
    from engine.game.rules import live_count, rules_of

    h = live.state.hand
    left = live_count(h, rules_of(live.state.variant, live.state.options).reserve)
    table: TableView = await svc.table(gid)
    assert table.wall_left == left
    result = svc.engine.hand_result(live.state)
    if result.winners:  # a won hand leaves tiles in the wall (a drawn one none)
        assert left > 0
    game = await svc.summary(gid)
    text = "\n".join(table_lines(table, names(game), game.totals, [False] * 4, "zh"))
    assert f"余牌 {left}" in text
