"""Checking a game log's fairness offline (公平性验证): ``python -m engine.verify < game.json``.

At each hand's start the bot publishes SHA-256 of (seed, wall) — the commitment — and at the
hand's end reveals the seed and the wall. For every hand of a log (:mod:`engine.logformat`)
this checks, with nothing but the log:

1. the wall the seed produces (:func:`engine.game.wall.shuffle` of the variant's tiles)
   hashes to the commitment published at the hand's start;
2. the revealed wall (``wall``) is that wall;
3. the hand dealt and drawn from it is that wall's: replaying the hand from the seed gives
   the logged deal, events and result (:func:`engine.replay.hand_states`);
4. with the game seed revealed (a finished game), each hand's seed is
   HMAC-SHA256(game seed, ``hand/<n>``) — fixed before the game began — and each hand
   starts where the one before ended (dealer, scores).

It prints one JSON line per hand ``{"game", "hand", "ok", "problems": [...]}`` and a last
line ``{"hands": n, "ok": n_ok, "failed": n_failed}``; it exits 0 when every hand passes,
1 when one does not, 2 when the log cannot be read.
"""

from __future__ import annotations

import hmac
import json
from typing import Any

from engine.game import wall as wall_
from engine.game.rules import rules_of
from engine.logformat import GameLog, LoggedGame, LoggedHand
from engine.options import make_options
from engine.replay import ReplayError, hand_states, read_log_arg


def expected_wall(variant: str, options: Any, seed: str) -> list[int]:
    """The wall (physical tile ids, in dealing order) that ``seed`` produces."""
    rules = rules_of(
        variant, make_options(variant, options) if isinstance(options, dict) else options
    )
    return wall_.shuffle(wall_.tile_ids(rules.kinds), seed)


def verify_hand(
    variant: str,
    options: Any,
    hand: LoggedHand,
    *,
    game_seed: str | None = None,
    previous: LoggedHand | None = None,
) -> list[str]:
    """Every problem found with ``hand`` (empty: it checks out)."""
    problems: list[str] = []
    wall = expected_wall(variant, options, hand.seed)
    if not wall_.verify(hand.seed, wall, hand.commitment):
        problems.append("the seed's wall does not match the commitment published at the start")
    if hand.wall is not None and list(hand.wall) != wall:
        problems.append("the revealed wall is not the one the seed produces")
    if game_seed is not None:
        want = wall_.derive_seed(game_seed, f"hand/{hand.hand - 1}")
        if not hmac.compare_digest(want, hand.seed):
            problems.append("the hand's seed is not the one the game seed derives")
    if previous is not None and previous.result is not None:
        if previous.scores_after is not None and previous.scores_after != hand.scores_before:
            problems.append("the scores at the start are not those the hand before ended with")
        if previous.result.get("next_dealer") != hand.dealer:
            problems.append("the dealer is not the one the hand before named")
    try:
        replayed = hand_states(variant, options, hand)
    except ReplayError as error:
        problems.append(f"the hand does not replay: {error}")
    else:
        if replayed.final.hand.wall != tuple(wall):
            problems.append("the hand was not dealt from the seed's wall")
        problems += replayed.problems
    return problems


def verify_log(log: GameLog) -> list[dict[str, Any]]:
    """One line per hand (see the module docstring)."""
    opts = make_options(log.variant, log.options)
    lines = []
    for game in log.games:
        lines += _verify_game(log.variant, opts, game)
    return lines


def _verify_game(variant: str, opts: Any, game: LoggedGame) -> list[dict[str, Any]]:
    lines = []
    previous: LoggedHand | None = None
    for hand in game.hands:
        chained = previous if previous is not None and previous.hand == hand.hand - 1 else None
        problems = verify_hand(variant, opts, hand, game_seed=game.seed, previous=chained)
        lines.append({"game": game.id, "hand": hand.hand, "ok": not problems, "problems": problems})
        previous = hand
    return lines


def main(argv: list[str] | None = None) -> int:
    log = read_log_arg(
        "python -m engine.verify",
        "Check every hand's revealed seed against its published commitment, and that the wall "
        "dealt is the one the seed produces (log from stdin or FILE).",
        argv,
    )
    if log is None:
        return 2
    lines = verify_log(log)
    for line in lines:
        print(json.dumps(line, ensure_ascii=False))
    good = sum(1 for line in lines if line["ok"])
    print(json.dumps({"hands": len(lines), "ok": good, "failed": len(lines) - good}))
    return 0 if good == len(lines) else 1


__all__ = ["expected_wall", "main", "verify_hand", "verify_log"]

if __name__ == "__main__":
    raise SystemExit(main())
