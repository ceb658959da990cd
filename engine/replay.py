"""Replaying logged hands (复盘回放): ``python -m engine.replay < game.json``.

Each hand of a log (:mod:`engine.logformat`) is rebuilt on its own from its revealed seed and
its start (dealer, scores, 九江 value per 炮) with the engine's state machine, action by
action; the result must be the one logged (and the events too, where the log has them).

The command prints one JSON line per hand::

    {"game": 7, "hand": 3, "how": "discard", "winners": [2], "points": 12,
     "winner_points": [12], "deltas": [0, -12, 12, 0], "scores": [...], "matches": true}

and exits 0 when every hand replays to its logged result, 1 otherwise (a hand that does not
carries ``"matches": false`` and ``"problem"``), 2 when the log cannot be read.

Library: :func:`deal_hand` (the state at a hand's start), :func:`hand_states` (the state
after each action: the frames of a step-through replay), :func:`replay_hand` (checked).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from typing import Any

from engine.game.events import Event
from engine.game.machine import IllegalAction, _start_hand, apply
from engine.game.state import PHASE_OVER, GameState, HandState, SeatState
from engine.logformat import GameLog, LogError, LoggedHand, loads
from engine.options import RuleOptions, make_options


class ReplayError(ValueError):
    """A hand that does not replay (an illegal action, or a different result)."""


def _options(variant: str, options: RuleOptions | dict[str, Any] | None) -> RuleOptions:
    if options is None or isinstance(options, dict):
        return make_options(variant, options or {})
    return options


def deal_hand(
    variant: str, options: RuleOptions | dict[str, Any] | None, hand: LoggedHand
) -> tuple[GameState, list[Event]]:
    """The state right after ``hand`` is dealt, from its seed and start, without the game
    seed (the state's ``seed`` is empty: no later hand can be dealt from it)."""
    opts = _options(variant, options)
    placeholder = HandState(
        -1, "", (), 0, -1, hand.dealer, [SeatState() for _ in range(4)], hand.dealer, PHASE_OVER
    )
    g = GameState(
        variant,
        opts,
        "",
        placeholder,
        hand.dealer,
        scores=list(hand.scores_before),
        value_per_pao=hand.value_per_pao,
        draws_in_row=hand.draws_in_row,
    )
    events: list[Event] = []
    _start_hand(g, hand.hand - 1, events, seed=hand.seed)
    return g, events


@dataclass
class HandReplay:
    """A replayed hand: the state after the deal and after every action, and the events."""

    states: list[GameState]
    events: list[list[Event]]  # events[0]: the deal; events[i]: of action i
    problems: list[str] = field(default_factory=list)

    @property
    def final(self) -> GameState:
        return self.states[-1]

    @property
    def matches(self) -> bool:
        return not self.problems


def _events_json(events: list[Event]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = json.loads(json.dumps([e.to_json() for e in events]))
    return out


def hand_states(
    variant: str, options: RuleOptions | dict[str, Any] | None, hand: LoggedHand
) -> HandReplay:
    """Replay ``hand`` (raises :class:`ReplayError` on an illegal action) and compare it with
    the log: ``problems`` lists every difference (empty: it matches)."""
    opts = _options(variant, options)
    g, deal = deal_hand(variant, opts, hand)
    out = HandReplay([g], [deal])
    if hand.events is not None and _events_json(deal) != hand.events:
        out.problems.append("the deal differs from the logged one")
    for i, logged in enumerate(hand.actions):
        if g.hand.phase == PHASE_OVER:
            raise ReplayError(f"hand {hand.hand}: action {i + 1} comes after the hand ended")
        try:
            g, events = apply(g, logged.seat, logged.action).pair()
        except IllegalAction as error:
            raise ReplayError(f"hand {hand.hand}: action {i + 1}: {error.reason}") from error
        out.states.append(g)
        out.events.append(events)
        if logged.events is not None and _events_json(events) != logged.events:
            out.problems.append(f"the events of action {i + 1} differ from the logged ones")
    h = g.hand
    if h.phase != PHASE_OVER:
        out.problems.append("the hand does not end after its last action")
    elif hand.result is not None:
        got = json.loads(json.dumps(h.result))
        if got != hand.result:
            out.problems.append("the result differs from the logged one")
        if hand.scores_after is not None and list(g.scores) != hand.scores_after:
            out.problems.append("the scores after the hand differ from the logged ones")
    return out


def replay_hand(
    variant: str, options: RuleOptions | dict[str, Any] | None, hand: LoggedHand
) -> GameState:
    """The hand's final state; raises :class:`ReplayError` unless it matches the log."""
    r = hand_states(variant, options, hand)
    if r.problems:
        raise ReplayError(f"hand {hand.hand}: " + "; ".join(r.problems))
    return r.final


def summary(state: GameState) -> dict[str, Any]:
    """The result line of a finished hand: how, winners, points, each seat's change."""
    r = state.hand.result or {}
    winners = r.get("winners", [])
    return {
        "how": r.get("how"),
        "winners": [w["seat"] for w in winners],
        "points": sum(int(w.get("points", 0)) for w in winners),
        "winner_points": [int(w.get("points", 0)) for w in winners],
        "deltas": list(r.get("deltas", [0, 0, 0, 0])),
        "scores": list(state.scores),
    }


def replay_log(log: GameLog) -> list[dict[str, Any]]:
    """One line per hand of ``log`` (see the module docstring)."""
    opts = make_options(log.variant, log.options)
    lines = []
    for game, hand in log.hands():
        line: dict[str, Any] = {"game": game.id, "hand": hand.hand}
        try:
            r = hand_states(log.variant, opts, hand)
        except ReplayError as error:
            line.update(matches=False, problem=str(error))
        else:
            if r.final.hand.phase == PHASE_OVER:
                line.update(summary(r.final))
            line["matches"] = r.matches
            if r.problems:
                line["problem"] = "; ".join(r.problems)
        lines.append(line)
    return lines


def read_log_arg(prog: str, description: str, argv: list[str] | None) -> GameLog | None:
    """The command line of a log tool: the log from ``FILE`` or standard input, or None
    after saying on stderr why it cannot be read."""
    p = argparse.ArgumentParser(prog=prog, description=description)
    p.add_argument("file", nargs="?", help="the log (default: standard input)")
    a = p.parse_args(argv)
    try:
        if a.file:
            with open(a.file, encoding="utf-8") as f:
                return loads(f.read())
        return loads(sys.stdin.read())
    except (OSError, LogError) as error:
        print(f"cannot read the log: {error}", file=sys.stderr)
        return None


def main(argv: list[str] | None = None) -> int:
    log = read_log_arg(
        "python -m engine.replay",
        "Replay every hand of a game log (read from stdin or FILE); one JSON line per hand. "
        "Exit 0: every hand matches its logged result.",
        argv,
    )
    if log is None:
        return 2
    ok = True
    for line in replay_log(log):
        ok = ok and line["matches"]
        print(json.dumps(line, ensure_ascii=False))
    return 0 if ok else 1


__all__ = [
    "HandReplay",
    "ReplayError",
    "deal_hand",
    "hand_states",
    "main",
    "replay_hand",
    "replay_log",
    "summary",
]

if __name__ == "__main__":
    raise SystemExit(main())
