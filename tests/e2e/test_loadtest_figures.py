"""The load test's figures: the CPU (``loadtest_bot.tree_cpu_s``) — a process's own CPU, its
descendants' apart (the bot's loop vs its picture workers), and the time waited for a core;
the table lag (``table_shown``, ``table_lags``) — a table message read as the bot draws it,
and a move's lag running to the first table that shows it, not to the next edit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .loadtest_bot import tree_cpu_s

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")

#: a child that burns this much CPU, says so, then waits (its CPU is counted while it lives)
BURN = (
    "import sys, time\n"
    "start = time.process_time()\n"
    "while time.process_time() - start < 0.3: pass\n"
    "print('burnt', flush=True)\n"
    "sys.stdin.read()\n"
)


#: measured in a process of its own: in the test run's process, a thread or a child left by an
#: earlier test may end between the two readings and take its CPU and waits along
MEASURE = (
    "import json, os, subprocess, sys\n"
    "from tests.e2e.loadtest_bot import own_cpu_s, tree_cpu_s\n"
    "before = tree_cpu_s(os.getpid())\n"
    "child = subprocess.Popen([sys.executable, '-c', sys.argv[1]], stdin=subprocess.PIPE,\n"
    "                         stdout=subprocess.PIPE, text=True)\n"
    "burnt = child.stdout.readline().strip()\n"
    "after = tree_cpu_s(os.getpid())\n"
    "own_now = own_cpu_s()\n"
    "child.stdin.close()\n"
    "child.wait()\n"
    "print(json.dumps({'burnt': burnt, 'before': before, 'after': after, 'own': own_now}))\n"
)


def test_a_descendant_s_cpu_is_counted_apart_from_the_process_s() -> None:
    repo = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(repo)}
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, BURN],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    assert figures["burnt"] == "burnt"
    own_before, children_before, waited_before = figures["before"]
    own, children, waited = figures["after"]
    assert children - children_before >= 0.3  # the child's burn, and not in ``own``
    assert own - own_before < 0.3
    assert own == pytest.approx(figures["own"], abs=0.05)  # the process's own, as os.times
    assert waited >= waited_before >= 0


def test_a_process_that_is_gone_counts_nothing() -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert tree_cpu_s(child.pid) == (0.0, 0.0, 0.0)


# ---------------------------------------------------------------------------- table lag


def _table_version(lang: str, *, hand: int = 2, phase: str = "turn", river: int = 3) -> dict:
    """A table message as the bot draws it (:func:`cogs.game.views.table_message`), as the fake
    stores a version of it: the human ``me`` (seat 1) has discarded ``river`` tiles still in
    their river, and two more claimed — a pong by seat 2, a kong by seat 3 — while seat 3
    ponged seat 2's discard, seat 0 chied seat 3's and holds a concealed kong."""
    from cogs.game.views import table_message
    from services.delivery import GameSummary
    from services.model import MeldInfo, PublicSeat, Seat, TableView

    seats = (
        Seat("ai0", ai=True),
        Seat("me", user_id=5),
        Seat("ai2", ai=True),
        Seat("ai3", ai=True),
    )
    game = GameSummary(
        id=7,
        guild_id=1,
        channel_id=2,
        variant="shangrao",
        options={},
        seats=seats,
        status="active",
        version=40,
        totals=(0, 0, 0, 0),
        hand_no=hand,
        phase=phase,
        deadline=None,
    )
    melds = {
        0: (MeldInfo("chi", (1, 2, 3), from_seat=3), MeldInfo("concealed_kong", (9, 9, 9, 9))),
        1: (),
        2: (MeldInfo("pong", (5, 5, 5), from_seat=1),),
        3: (MeldInfo("kong", (7, 7, 7, 7), from_seat=1), MeldInfo("pong", (8, 8, 8), from_seat=2)),
    }
    public = tuple(
        PublicSeat(
            seat=i,
            concealed_count=10,
            melds=melds[i],
            river=(11, 12, 13, 14)[: river if i == 1 else 2],
            dealer=i == 0,
        )
        for i in range(4)
    )
    table = TableView(hand_no=hand, phase=phase, dealer=0, turn=2, wall_left=50, seats=public)  # type: ignore[arg-type]
    embed, _view = table_message(game, table, lang)
    return {"embeds": [embed.to_dict()], "components": []}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_table_is_read_as_the_bot_draws_it(lang: str) -> None:
    from .loadtest_bot import table_shown

    shown = table_shown(_table_version(lang))
    assert shown is not None and shown.hand == 2 and not shown.over
    assert [name for name, _river, _fed in shown.seats] == ["ai0", "me", "ai2", "ai3"]
    assert shown.discards("me") == 3 + 2  # the river, and the pong's and the kong's tiles
    assert shown.discards("ai3") == 2 + 1  # its river, and the tile seat 0 chied
    assert shown.discards("ai2") == 2 + 1  # its river, and the tile seat 3 ponged
    assert shown.discards("ai0") == 2
    over = table_shown(_table_version(lang, phase="hand_over"))
    assert over is not None and over.over
    assert table_shown({"embeds": [{"title": "lobby"}]}) is None


def test_the_table_lag_runs_to_the_first_table_that_shows_the_move() -> None:
    """An edit that still shows the older table (a deadline, a seat's mark) is not the move
    shown; a discard taken into another seat's meld still counts; a win shows as the hand
    over; a move no table showed counts the time to the end."""
    from .loadtest_bot import Move, table_lags, table_shown

    def shown(**kw: Any) -> Any:
        table = table_shown(_table_version("zh", **kw))
        assert table is not None
        return table

    versions = {
        7: [
            (0.0, shown(river=2)),  # 4 discards shown (2 in the river, 2 claimed)
            (2.0, shown(river=2)),  # edited, the same game
            (3.5, shown(river=3)),  # the 5th discard
            (9.0, shown(phase="hand_over", river=3)),
            (12.0, shown(hand=3, river=0)),
        ]
    }
    moves = [
        Move(7, "me", 2, "discard", 4, 0.5),  # shown before it was answered: no lag
        Move(7, "me", 2, "discard", 5, 1.0),
        Move(7, "me", 2, "discard", 6, 4.0),  # the hand ended before it showed
        Move(7, "me", 2, "win", 6, 8.0),
        Move(7, "me", 3, "discard", 3, 11.0),  # never shown (hand 3 shows 2)
        Move(8, "me", 1, "discard", 1, 11.0),  # a game without a table
    ]
    lags, unshown = table_lags(moves, versions, 20.0)
    assert lags == [0.0, 2.5, 5.0, 1.0, 9.0, 9.0]
    assert unshown == 2


def test_each_human_s_discards_are_numbered_on_their_own() -> None:
    """At a table of several humans (``--humans``), a move's number is the count of that
    human's discards in the hand (what the table shows in their river), not the table's; a
    refused press (answered with a follow-up) is not a move."""
    from types import SimpleNamespace

    from .loadtest_bot import Load

    load = Load(None, None, None)  # type: ignore[arg-type]
    table = SimpleNamespace(gid=7)
    east, south = SimpleNamespace(id=1, name="east"), SimpleNamespace(id=2, name="south")

    def press(at: float, refused: bool = False) -> Any:
        return SimpleNamespace(followups=["stale"] if refused else [], acked_at=at)

    load.plays = [
        (table, east, 1, "discard", press(1.0)),
        (table, south, 1, "discard", press(2.0)),
        (table, south, 1, "discard", press(2.5, refused=True)),
        (table, east, 1, "discard", press(3.0)),
        (table, south, 2, "discard", press(4.0)),
    ]
    made = [(m.name, m.hand, m.nth) for m in load.moves_made(0.0, 10.0)]
    assert made == [("east", 1, 1), ("south", 1, 1), ("east", 1, 2), ("south", 2, 1)]
