"""偷机 (KeepDrawing: declining a 宝吊头 self-draw) tells the hand, so it is private: the seat
that keeps drawing is never announced to the table (only the hand's result may list it)."""

from __future__ import annotations

from svc_helpers import USERS, lobby_with, settle

from cogs.delivery.discord_delivery import DiscordDelivery
from engine.options import make_options, options_to_dict
from services.action_codec import read_step
from services.autoplay import run_robots
from services.model import Seat
from services.real_engine import RealEngine

OPTIONS = {"scoring": "xingchen"}  # 上饶 星辰: the AI keeps drawing on a 宝吊头


def touji_seed(limit: int = 3000) -> str:
    """A 上饶 seed whose dealer is seat 0 (asked first, before anyone acted) and where the
    AI, playing every seat, keeps drawing (偷机) in the first hand."""
    engine = RealEngine()
    options = options_to_dict(make_options("shangrao", OPTIONS))
    robots = [Seat(f"ai{i}", ai=True) for i in range(4)]
    for i in range(limit):
        seed = f"touji-{i}"
        state, _ = engine.new_game("shangrao", options, seed)
        if engine.pending_seats(state) != (0,) or engine.phase(state) != "turn":
            continue
        if any(e.kind == "touji" for e in run_robots(engine, robots, state, 0).events):
            return seed
    raise AssertionError("no seed with a 偷机 found")


async def test_keep_drawing_is_never_announced(make_service, store, delivery):
    seed = touji_seed()
    svc = make_service(new_seed=lambda: seed)
    gid = await lobby_with(svc, 1, variant="shangrao", **OPTIONS)
    await svc.start(gid, USERS[0])
    await svc.set_autoplay(gid, USERS[0], True)  # the AI plays every seat: the 偷机 comes
    await settle(svc)
    log = [a.action for a in (await store.games.load(gid)).actions]
    steps = [step for entry in log for step in entry.get("acts", entry.get("ai", []))]
    played = [read_step(step)[1] for step in steps]
    assert any(action["type"] == "keep_drawing" for action in played), "the seed played no 偷机"
    game = await svc.summary(gid)
    public = [e for _g, _t, events in delivery.named("table") for e in events]
    assert public and not [e for e in public if e.kind == "touji"]
    lines = DiscordDelivery(None)  # type: ignore[arg-type]
    said = [
        line
        for lang in ("zh", "en", "zh+en")
        for e in public
        if (line := lines.event_line(game, e, public, lang))
    ]
    assert said and not [s for s in said if "偷机" in s or "keep" in s.lower()]
