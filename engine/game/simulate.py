"""Self-play: four AI players, every hand checked (zero-sum settlement, replay from the log).

``python -m engine.simulate --variant V --hands N --seed S [--options JSON] [--defend MASK]``
prints one JSON object: variant, hands, wins, self_draws, discard_wins, draws, seconds (play
only), hands_per_sec, zero_sum_violations, replay_mismatches, errors (and verify_seconds).

Also, per seat (seats keep their place for a whole game; the deal moves round):
``defend`` (the mask, ``1`` = that seat's AI defends, 守牌), ``seat_wins``, ``seat_deal_ins``
(discards / robbed kongs that paid for a win: 点炮), ``seat_points`` (net score), and
``ai_ms`` (mean time of one AI decision, milliseconds). ``--defend 0111``: seat 0 plays pure
offence, seats 1–3 defend; the default ``1111`` is every seat defending.

``--each-option`` splits the hands between the default options and, one at a time, every
other listed value of each option (:func:`option_sets`), so one run sets every option at
least once; the output then also has ``option_sets`` (how many) and ``per_option`` (each
set with its hands, errors, zero-sum violations and replay mismatches).

``--log FILE`` also writes every game played as a game log (``docs/log-format.md``, the
format ``python -m engine.replay`` and ``python -m engine.verify`` read); ``--no-events``
leaves the events out of it (smaller; the replay then checks the results only).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any, NotRequired, TypedDict

from engine import variants
from engine.game.actions import Action
from engine.game.ai import choose_action
from engine.game.legal import waiting_for
from engine.game.machine import advance, apply, new_game
from engine.game.state import PHASE_OVER, GameState, state_from_json, state_to_json
from engine.game.step import step_of
from engine.game.wall import derive_seed
from engine.logformat import GameLog, LoggedGame, Recorder, dumps
from engine.options import RuleOptions, make_options, options_to_dict

#: Safety net: a hand never needs this many actions.
MAX_ACTIONS_PER_HAND = 2000


class SimulationResult(TypedDict):
    """What :func:`simulate` returns (the JSON object ``python -m engine.simulate`` prints)."""

    variant: str
    hands: int
    wins: int
    self_draws: int
    discard_wins: int
    draws: int
    seconds: float
    hands_per_sec: float
    zero_sum_violations: int
    replay_mismatches: int
    errors: int
    defend: str
    seat_wins: list[int]
    seat_deal_ins: list[int]
    seat_points: list[int]
    ai_ms: float
    verify_seconds: NotRequired[float]


def _acting_seat(g: GameState) -> int:
    return waiting_for(g)[0]


def play_hand(
    g: GameState,
    log: list[tuple[int, Action]],
    defend: tuple[bool, ...] = (True, True, True, True),
    clock: list[float] | None = None,
    recorder: Recorder | None = None,
) -> GameState:
    """Let the AI play ``g``'s current hand to its end, appending to ``log``.

    ``defend[seat]``: whether that seat's AI defends; ``clock`` (if given) gets
    ``[decisions, seconds]`` added to it; ``recorder`` (if given) records every step.
    """
    step = step_of(g)
    for _ in range(MAX_ACTIONS_PER_HAND):
        g = step.state
        if g.hand.phase == PHASE_OVER:
            return g
        seat = _acting_seat(g)
        legal = step.legal_for(seat)
        if clock is None:
            action = choose_action(g, seat, defend=defend[seat], legal=legal)
        else:
            t0 = time.perf_counter()
            action = choose_action(g, seat, defend=defend[seat], legal=legal)
            clock[0] += 1
            clock[1] += time.perf_counter() - t0
        log.append((seat, action))
        step = advance(step, seat, action)
        if recorder is not None:
            recorder.step(seat, action, step.state, list(step.events))
    raise RuntimeError("hand did not end")


def parse_defend(mask: str) -> tuple[bool, ...]:
    """``"0111"`` → ``(False, True, True, True)``; raises ``ValueError`` on anything else."""
    if len(mask) != 4 or set(mask) - {"0", "1"}:
        raise ValueError(f"--defend is four 0/1 digits, one per seat (e.g. 0111), not {mask!r}")
    return tuple(ch == "1" for ch in mask)


def simulate(
    variant: str,
    hands: int,
    seed: str,
    options: RuleOptions | dict[str, Any] | None = None,
    verify: bool = True,
    defend: tuple[bool, ...] = (True, True, True, True),
    record: list[LoggedGame] | None = None,
    record_events: bool = True,
) -> SimulationResult:
    """Play ``hands`` hands (games of up to 16 hands each) and check every one.

    ``defend[seat]``: whether that seat's AI defends (守牌). ``record`` (if given) gets
    every game appended as a :class:`engine.logformat.LoggedGame` (finished hands).
    """
    if not isinstance(options, RuleOptions):
        options = make_options(variant, options or {})
    out: SimulationResult = {
        "variant": variant,
        "hands": 0,
        "wins": 0,
        "self_draws": 0,
        "discard_wins": 0,
        "draws": 0,
        "seconds": 0.0,
        "hands_per_sec": 0.0,
        "zero_sum_violations": 0,
        "replay_mismatches": 0,
        "errors": 0,
        "defend": "".join("1" if d else "0" for d in defend),
        "seat_wins": [0, 0, 0, 0],
        "seat_deal_ins": [0, 0, 0, 0],
        "seat_points": [0, 0, 0, 0],
        "ai_ms": 0.0,
    }
    clock = [0.0, 0.0]
    play = 0.0
    check = 0.0
    game_no = 0
    while out["hands"] < hands:
        game_seed = derive_seed(seed, f"game/{game_no}")
        game_no += 1
        t0 = time.perf_counter()
        try:
            g, first = new_game(variant, options, game_seed).pair()
        except Exception:
            out["errors"] += 1
            out["hands"] += 1
            continue
        recorder = (
            Recorder(g, first, game_id=game_no - 1, with_events=record_events)
            if record is not None
            else None
        )
        log: list[tuple[int, Action]] = []
        ends: list[tuple[int, dict[str, Any]]] = []
        per_game = min(16, hands - out["hands"])
        for i in range(per_game):
            try:
                if i:
                    action = choose_action(g, g.hand.dealer)
                    log.append((g.hand.dealer, action))
                    g, events = apply(g, g.hand.dealer, action).pair()
                    if recorder is not None:
                        recorder.step(g.hand.dealer, action, g, events)
                g = play_hand(g, log, defend, clock, recorder)
            except Exception as e:
                out["errors"] += 1
                out["hands"] += 1  # the failed hand counts, so the run always ends
                print(f"error in game {game_seed} hand {i}: {e!r}", file=sys.stderr)
                break
            out["hands"] += 1
            r = g.hand.result or {}
            if r.get("winners"):
                out["wins"] += len(r["winners"])
                for w in r["winners"]:
                    out["seat_wins"][w["seat"]] += 1
                if r["how"] == "self":
                    out["self_draws"] += 1
                else:
                    out["discard_wins"] += 1
                    if r.get("payer") is not None:
                        out["seat_deal_ins"][r["payer"]] += 1
            else:
                out["draws"] += 1
            for seat in range(4):
                out["seat_points"][seat] += g.hand.deltas[seat]
            if sum(g.hand.deltas) != 0 or sum(g.scores) != 0:
                out["zero_sum_violations"] += 1
            ends.append((len(log), state_to_json(g)))
        t1 = time.perf_counter()
        play += t1 - t0
        if recorder is not None and record is not None:
            record.append(recorder.game(reveal_seed=True))  # the game is over: seed revealed
        if verify:
            out["replay_mismatches"] += _verify(variant, options, game_seed, log, ends)
        check += time.perf_counter() - t1
    out["seconds"] = round(play, 3)
    out["hands_per_sec"] = round(out["hands"] / play, 1) if play else 0.0
    out["verify_seconds"] = round(check, 3)
    out["ai_ms"] = round(1000 * clock[1] / clock[0], 4) if clock[0] else 0.0
    return out


def option_sets(variant: str) -> list[dict[str, Any]]:
    """The default options (``{}``), then each option at each of its other listed choices,
    one option at a time (a choice of ``None``, "by preset", is the default's reading)."""
    cls = variants.get(variant).options_class
    base = cls()
    out: list[dict[str, Any]] = [{}]
    for name, info in cls.INFO.items():
        for value in info.choices:
            if value is not None and value != getattr(base, name):
                out.append({name: value})
    return out


def simulate_each_option(
    variant: str,
    hands: int,
    seed: str,
    verify: bool = True,
    defend: tuple[bool, ...] = (True, True, True, True),
) -> dict[str, Any]:
    """:func:`simulate` over every set of :func:`option_sets`, ``hands`` split between them
    (each gets at least one); the totals of the runs, and ``per_option`` the checks of each."""
    sets = option_sets(variant)
    share, extra = divmod(hands, len(sets))
    totals: dict[str, Any] = {}
    per: list[dict[str, Any]] = []
    decisions = 0.0
    for i, opts in enumerate(sets):
        n = max(1, share + (i < extra))
        r = simulate(variant, n, f"{seed}/{i}", opts, verify=verify, defend=defend)
        per.append(
            {
                "options": opts,
                "hands": r["hands"],
                "errors": r["errors"],
                "zero_sum_violations": r["zero_sum_violations"],
                "replay_mismatches": r["replay_mismatches"],
            }
        )
        decisions += r["ai_ms"] * r["hands"]
        for key, value in r.items():
            if isinstance(value, bool) or key in ("hands_per_sec", "ai_ms"):
                continue
            if isinstance(value, int | float):
                totals[key] = round(totals.get(key, 0) + value, 3)
            elif isinstance(value, list):
                old = totals.get(key, [0] * len(value))
                totals[key] = [a + b for a, b in zip(old, value, strict=True)]
            else:
                totals.setdefault(key, value)
    totals["hands_per_sec"] = (
        round(totals["hands"] / totals["seconds"], 1) if totals["seconds"] else 0.0
    )
    totals["ai_ms"] = round(decisions / totals["hands"], 4) if totals["hands"] else 0.0
    totals["option_sets"] = len(sets)
    totals["per_option"] = per
    return totals


def _verify(
    variant: str,
    options: RuleOptions,
    seed: str,
    log: list[tuple[int, Action]],
    ends: list[tuple[int, dict[str, Any]]],
) -> int:
    """Replay the log from the seed; count hands whose end state differs (or fails JSON)."""
    bad = 0
    try:
        g = new_game(variant, options, seed).state
        pos = 0
        for n, want in ends:
            while pos < n:
                seat, action = log[pos]
                g = apply(g, seat, action).state
                pos += 1
            got = state_to_json(g)
            if got != want or state_to_json(state_from_json(json.loads(json.dumps(got)))) != want:
                bad += 1
    except Exception:
        bad += len(ends)
    return bad


def bench_game(hands: int = 60) -> list[tuple[str, float]]:
    """Hands per second, engine only, four AI players, per variant (no verification)."""
    out = []
    for variant in variants.names():
        r = simulate(variant, hands, "bench", None, verify=False)
        out.append((f"game: {variant} hand, 4 AI players (hands/s)", r["hands_per_sec"]))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m engine.simulate", description=__doc__.splitlines()[0]
    )
    p.add_argument("--variant", required=True, help="a variant name (engine.variants)")
    p.add_argument(
        "--variant-module",
        action="append",
        default=[],
        metavar="MODULE",
        help=f"import MODULE to register its variant (also ${variants.ENV_VAR}, comma-separated)",
    )
    p.add_argument("--hands", type=int, default=100)
    p.add_argument("--seed", default="0")
    p.add_argument(
        "--options", default="{}", help="rule options as JSON, e.g. '{\"discard_win\": true}'"
    )
    p.add_argument(
        "--defend",
        default="1111",
        help="which seats' AI defends (守牌), one 0/1 digit per seat, e.g. 0111 (default 1111)",
    )
    p.add_argument(
        "--each-option",
        action="store_true",
        help="split the hands between the defaults and every other value of each option",
    )
    p.add_argument("--log", metavar="FILE", help="also write the games as a game log (JSON)")
    p.add_argument(
        "--no-events", action="store_true", help="leave the events out of the --log file"
    )
    a = p.parse_args(argv)
    try:
        variants.load_plugins(a.variant_module, os.environ)
        opts = make_options(a.variant, json.loads(a.options))
        defend = parse_defend(a.defend)
    except (ValueError, TypeError, ImportError) as e:
        p.error(str(e))
    if a.each_option:
        if a.log or a.options != "{}":
            p.error("--each-option sets the options itself and writes no --log")
        each = simulate_each_option(a.variant, a.hands, str(a.seed), defend=defend)
        print(json.dumps(each, ensure_ascii=False))
        return 0
    games: list[LoggedGame] | None = [] if a.log else None
    r = simulate(
        a.variant,
        a.hands,
        str(a.seed),
        opts,
        defend=defend,
        record=games,
        record_events=not a.no_events,
    )
    if a.log and games is not None:
        text = dumps(GameLog(a.variant, options_to_dict(opts), games))
        with open(a.log, "w", encoding="utf-8") as f:
            f.write(text)
    print(json.dumps(r, ensure_ascii=False))
    return 0
