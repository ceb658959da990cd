"""Where a replay's steps lead (回放步骤): how long the animation holds each step, and the
step viewer's jumps — the seat's next turn, the next claim or kong, the win. No Discord
types; a step is as in :mod:`services.replay` (0: the deal, ``n``: after action ``n``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from services.replay import ReplayHand

#: Claims of a discard (吃 碰 明杠) and kongs from the hand (暗杠 补杠 翻宝杠).
CLAIMS = frozenset({"chi", "pong", "kong"})
KONGS = frozenset({"kong", "concealed_kong", "added_kong", "indicator_kong"})

#: How long the animation holds a step (ms), by what it shows: the deal long enough to see
#: the hands; a discard long enough to see which tile went where (a turn at the table
#: takes a person a second or two, so under a second each still lets a whole hand play in
#: about a minute); a pass only briefly (nothing moves); a claim or kong long enough to see
#: who took which tile; the win (and any hand's end) long enough to read the result.
HOLD_MS = {
    "deal": 2000,
    "discard": 900,
    "pass": 300,
    "claim": 2200,
    "win": 6000,
}


def step_kind(rh: ReplayHand, step: int) -> str:
    """What ``step`` shows: ``deal``, ``discard`` (also 报听, 偷机), ``pass``, ``claim``
    (吃 碰 杠 of any kind) or ``win``."""
    if step <= 0:
        return "deal"
    kind = rh.logged.actions[min(step, rh.steps) - 1].action.type
    if kind in CLAIMS | KONGS:
        return "claim"
    if kind in ("win", "pass"):
        return kind
    return "discard"


def hold_ms(rh: ReplayHand, step: int) -> int:
    """How long the animation shows ``step`` (:data:`HOLD_MS` of its :func:`step_kind`); the
    hand's end, a win or a drawn hand (流局), as long as a win."""
    held = HOLD_MS[step_kind(rh, step)]
    return max(held, HOLD_MS["win"]) if step >= rh.steps else held


def next_own_turn(rh: ReplayHand, step: int, seat: int) -> int | None:
    """The first step after ``step`` where ``seat`` is to play (it has drawn or claimed,
    and must discard), or None when it never is again."""
    for s in range(step + 1, rh.steps + 1):
        h = rh.replay.states[s].hand
        if h.phase == "turn" and h.turn == seat:
            return s
    return None


def next_claim(rh: ReplayHand, step: int) -> int | None:
    """The first step after ``step`` that is a claim or a kong (吃 碰 杠), or None."""
    for s in range(step + 1, rh.steps + 1):
        if rh.logged.actions[s - 1].action.type in CLAIMS | KONGS:
            return s
    return None


def win_step(rh: ReplayHand) -> int | None:
    """The step of the (first) win (胡), or None for a drawn hand (流局)."""
    for s, logged in enumerate(rh.logged.actions, start=1):
        if logged.action.type == "win":
            return s
    return None


__all__ = [
    "CLAIMS",
    "HOLD_MS",
    "KONGS",
    "hold_ms",
    "next_claim",
    "next_own_turn",
    "step_kind",
    "win_step",
]
