"""End-to-end: the table shows the claim wait (等待吃碰杠胡…) for discards nobody human may
claim too, so a wait no longer tells the channel that a human could claim (the claim hold,
:mod:`services.reveal`). Two people and two AI play a hand of 上饶 through the real bot."""

from __future__ import annotations

import re
from typing import Any

import pytest

from services.gamelog import LiveGame, replay_entry
from services.model import Seat
from services.real_engine import RealEngine

from .fake_discord import FakeDiscord
from .game_driver import (
    _game_row,
    _log_with_times,
    check_claim_privacy,
    check_privacy,
    game_env,
    open_game,
    play_hand,
    players_of,
    table_messages,
)
from .privacy import _version_lines

pytestmark = pytest.mark.e2e

WAIT = re.compile(r"^等待吃碰杠胡… · (?P<who>.+) 的 \S+$")
WALL = re.compile(r"余牌 (?P<n>\d+)")


class _Watching(RealEngine):
    """The real engine, noting every state the log's replay passes through."""

    def __init__(self) -> None:
        super().__init__()
        self.states: list[Any] = []

    def apply_logged(self, state: Any, seat: int, logged: Any, *, events: bool = True) -> Any:
        out = super().apply_logged(state, seat, logged, events=events)
        self.states.append(out[0])
        return out


def human_windows(proc: Any, gid: int) -> set[tuple[int, int]]:
    """``(discarder seat, wall left)`` of every discard a human could claim, from the log."""
    engine = _Watching()
    variant, options, seats = _game_row(proc, gid)
    live = LiveGame(gid, 0, 0, variant, options, "active", 0, [0] * 4, [])
    live.seats = [Seat.from_json(s) for s in seats]
    for seq, seat, entry, at in _log_with_times(proc, gid):
        live.version = seq
        replay_entry(engine, live, seat, entry, at)
    out = set()
    for state in engine.states:
        if engine.phase(state) != "claim":
            continue
        if any(not live.seats[s].robot for s in engine.pending_seats(state)):
            table = engine.table_view(state)
            assert table.last_discard is not None
            out.add((table.last_discard[0], table.wall_left))
    return out


async def test_discards_nobody_human_may_claim_show_the_wait_too(
    fake: FakeDiscord, bot_factory
) -> None:
    proc = bot_factory(env=game_env(CLAIM_HOLD_SECONDS="0.3"))
    await proc.start_ready()
    alice, bob = fake.user("alice"), fake.user("bob")
    gid, _lobby = await open_game(fake, alice, [bob], variant="shangrao")
    await play_hand(fake, [alice, bob], gid, timeout=240)

    seat_of = {p.name: i for i, p in enumerate(players_of(proc, gid))}
    shown: set[tuple[int, int]] = set()
    for msg in table_messages(fake, gid):
        for version in msg.versions():
            lines = _version_lines(version)
            waits = [m for line in lines if (m := WAIT.match(line))]
            walls = [m for line in lines if (m := WALL.search(line))]
            if waits and walls:
                shown.add((seat_of[waits[0]["who"]], int(walls[0]["n"])))
    humans = human_windows(proc, gid)
    assert shown, "the table never showed a claim wait"
    # the wait was shown for discards no human could claim (without the hold, AI answer at
    # once and those discards never show one)
    assert shown - humans, (sorted(shown), sorted(humans))
    # and still nothing public tells who could claim or who passed
    check_claim_privacy(fake, proc, gid)
    check_privacy(fake)
