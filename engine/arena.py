"""The arena (对局场): two AI policies compared on duplicate deals (复式).

``python -m engine.arena --variant V --a POLICY --b POLICY --hands N [--seed S]
[--options JSON] [--jobs J]``

Each of the ``N`` deals is one wall (the first hand of a game from seed ``S``/deal ``i``),
played four times: the challenger ``--a`` sits in each seat in turn against three copies of
``--b``. Every wall is dealt the same way in its four plays, so the luck of the wall cancels:
the deal's figure is the mean over the four seats. As the game is zero-sum and, with ``b``
in every seat, each seat's mean over the four rotations would be exactly 0, the mean of
``a``'s points over the rotations *is* the paired difference against ``b`` on that wall.

Reported (for ``a``; ``b_`` figures for the three ``b`` seats of the same plays, per seat):
points per hand, win rate (和牌率), deal-in rate (点炮率), average hand value (mean points
won on its wins), and the paired differences ``a − b`` with a 95 % interval (normal, over
the deals). The time of one decision (p50 / p99, milliseconds) is measured for ``a`` and,
as its peer in the same run, for the ``b`` seats. The deals run in ``J`` processes (default: every core). The last line printed is one JSON
object with every figure.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from engine import variants
from engine.ai.policies import Policy, policy
from engine.game.machine import advance, new_game
from engine.game.state import PHASE_OVER
from engine.game.wall import derive_seed
from engine.options import RuleOptions, make_options, options_to_dict

#: Safety net: a hand never needs this many actions.
MAX_ACTIONS_PER_HAND = 2000
#: The two-sided 95 % normal quantile.
Z95 = 1.959964


@dataclass
class Play:
    """One play of a wall with the challenger in ``seat``: what happened to each seat."""

    seat: int
    deltas: list[int]
    winners: list[int]
    payer: int | None  # who dealt in (点炮), if a discard / robbed kong paid
    times: list[float] = field(default_factory=list)  # the challenger's decision seconds
    others: list[float] = field(default_factory=list)  # the other seats' decision seconds


def play_deal(
    variant: str,
    options: RuleOptions,
    seed: str,
    seats: Sequence[Policy],
    timed: int | None = None,
) -> Play:
    """Play the first hand of the game from ``seed`` with ``seats[i]`` in seat ``i``.

    ``timed``: the challenger's seat (its decisions timed apart from the others')."""
    step = new_game(variant, options, seed)
    times: list[float] = []
    others: list[float] = []
    for _ in range(MAX_ACTIONS_PER_HAND):
        g = step.state
        if g.hand.phase == PHASE_OVER:
            r = g.hand.result or {}
            return Play(
                timed if timed is not None else -1,
                list(g.hand.deltas),
                [w["seat"] for w in r.get("winners") or []],
                r.get("payer") if r.get("winners") else None,
                times,
                others,
            )
        seat = step.awaited[0]
        legal = step.legal_for(seat)
        t0 = time.perf_counter()
        action = seats[seat](g, seat, legal)
        (times if seat == timed else others).append(time.perf_counter() - t0)
        step = advance(step, seat, action)
    raise RuntimeError(f"hand of seed {seed} did not end")


def duplicate(variant: str, options: RuleOptions, seed: str, a: str, b: str) -> list[Play]:
    """One wall, four plays: ``a`` in seat 0, 1, 2, 3 against three ``b``."""
    pa, pb = policy(a), policy(b)
    out = []
    for seat in range(4):
        seats = [pb] * 4
        seats[seat] = pa
        out.append(play_deal(variant, options, seed, seats, timed=seat))
    return out


def deal_seed(seed: str, i: int) -> str:
    """The seed of deal ``i`` of a run seeded ``seed``."""
    return derive_seed(seed, f"arena/deal/{i}")


_Chunk = tuple[tuple[str, ...], str, dict[str, Any], str, str, str, int, int]


def _chunk(args: _Chunk) -> list[list[Play]]:
    plugins, variant, opts, seed, a, b, start, stop = args
    variants.load_modules(plugins)  # a worker process registers the plug-in variants too
    options = make_options(variant, opts)
    return [duplicate(variant, options, deal_seed(seed, i), a, b) for i in range(start, stop)]


@dataclass(frozen=True)
class Interval:
    """A mean with its 95 % normal interval."""

    mean: float
    low: float
    high: float

    def as_list(self) -> list[float]:
        return [round(self.mean, 4), round(self.low, 4), round(self.high, 4)]


def interval(xs: Sequence[float]) -> Interval:
    """Mean of ``xs`` and its 95 % interval (normal approximation, sample s.d.)."""
    n = len(xs)
    if n == 0:
        return Interval(0.0, 0.0, 0.0)
    m = sum(xs) / n
    if n == 1:
        return Interval(m, m, m)
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return Interval(m, m - half, m + half)


def percentile(xs: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0–1) of ``xs`` (nearest rank)."""
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


def report(deals: Sequence[Sequence[Play]]) -> dict[str, Any]:
    """The figures of a run (see the module docstring) from its deals' plays."""
    a_points: list[float] = []
    diff_win: list[float] = []
    diff_deal_in: list[float] = []
    plays = a_wins = a_ins = b_wins = b_ins = 0
    a_value: list[int] = []
    b_value: list[int] = []
    b_points = 0
    times: list[float] = []
    b_times: list[float] = []
    for deal in deals:
        pts = win = ins = 0.0
        for p in deal:
            plays += 1
            times += p.times
            b_times += p.others
            pts += p.deltas[p.seat]
            others = [s for s in range(4) if s != p.seat]
            aw = p.seat in p.winners
            bw = sum(s in p.winners for s in others)
            ai = p.payer == p.seat
            bi = sum(p.payer == s for s in others)
            a_wins += aw
            b_wins += bw
            a_ins += ai
            b_ins += bi
            b_points += sum(p.deltas[s] for s in others)
            if aw:
                a_value.append(p.deltas[p.seat])
            b_value += [p.deltas[s] for s in others if s in p.winners]
            win += aw - bw / 3
            ins += ai - bi / 3
        n = len(deal)
        a_points.append(pts / n)
        diff_win.append(win / n)
        diff_deal_in.append(ins / n)
    ms = [1000 * t for t in times]
    b_ms = [1000 * t for t in b_times]
    pts_i = interval(a_points)
    return {
        "deals": len(deals),
        "plays": plays,
        "a_points_per_hand": round(sum(a_points) / len(a_points), 4) if a_points else 0.0,
        "b_points_per_hand": round(b_points / (3 * plays), 4) if plays else 0.0,
        "a_win_rate": round(a_wins / plays, 4) if plays else 0.0,
        "b_win_rate": round(b_wins / (3 * plays), 4) if plays else 0.0,
        "a_deal_in_rate": round(a_ins / plays, 4) if plays else 0.0,
        "b_deal_in_rate": round(b_ins / (3 * plays), 4) if plays else 0.0,
        "a_hand_value": round(sum(a_value) / len(a_value), 3) if a_value else 0.0,
        "b_hand_value": round(sum(b_value) / len(b_value), 3) if b_value else 0.0,
        "diff_points": pts_i.as_list(),
        "diff_points_excludes_0": pts_i.low > 0 or pts_i.high < 0,
        "diff_win_rate": interval(diff_win).as_list(),
        "diff_deal_in_rate": interval(diff_deal_in).as_list(),
        "a_decisions": len(ms),
        "a_ms_p50": round(percentile(ms, 0.5), 3),
        "a_ms_p99": round(percentile(ms, 0.99), 3),
        "a_ms_max": round(max(ms), 3) if ms else 0.0,
        "b_ms_p50": round(percentile(b_ms, 0.5), 3),
        "b_ms_p99": round(percentile(b_ms, 0.99), 3),
    }


def run(
    variant: str,
    a: str,
    b: str,
    hands: int,
    seed: str = "0",
    options: RuleOptions | dict[str, Any] | None = None,
    jobs: int = 1,
    plugins: Sequence[str] = (),
) -> dict[str, Any]:
    """Play ``hands`` duplicate deals of ``a`` against ``b`` and report (see the module)."""
    policy(a), policy(b)  # unknown names fail here, before any process starts
    if not isinstance(options, RuleOptions):
        options = make_options(variant, options or {})
    opts = options_to_dict(options)
    size = max(1, min(25, math.ceil(hands / max(1, jobs) / 4)))
    chunks: list[_Chunk] = [
        (tuple(plugins), variant, opts, seed, a, b, i, min(hands, i + size))
        for i in range(0, hands, size)
    ]
    t0 = time.perf_counter()
    deals: list[list[Play]] = []
    if jobs <= 1:
        for c in chunks:
            deals += _chunk(c)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for part in pool.map(_chunk, chunks):
                deals += part
    out: dict[str, Any] = {
        "variant": variant,
        "options": opts,
        "a": a,
        "b": b,
        "seed": seed,
        "jobs": jobs,
    }
    out.update(report(deals))
    out["seconds"] = round(time.perf_counter() - t0, 2)
    return out


def _table(r: dict[str, Any]) -> str:
    d = r["diff_points"]
    return "\n".join(
        [
            f"{r['variant']} {r['options']}: {r['a']} (a) vs {r['b']} (b), "
            f"{r['deals']} deals × 4 seats = {r['plays']} hands, {r['seconds']} s",
            f"  points/hand  a {r['a_points_per_hand']:+.3f}   b {r['b_points_per_hand']:+.3f}",
            f"  win rate     a {r['a_win_rate']:.3f}   b {r['b_win_rate']:.3f}",
            f"  deal-in rate a {r['a_deal_in_rate']:.3f}   b {r['b_deal_in_rate']:.3f}",
            f"  hand value   a {r['a_hand_value']:.2f}   b {r['b_hand_value']:.2f}",
            f"  a − b points/hand {d[0]:+.3f}  95 % [{d[1]:+.3f}, {d[2]:+.3f}]",
            f"  a decision ms p50 {r['a_ms_p50']}  p99 {r['a_ms_p99']}  max {r['a_ms_max']}"
            f"   (b p50 {r['b_ms_p50']}  p99 {r['b_ms_p99']})",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m engine.arena", description=__doc__.splitlines()[0])
    p.add_argument("--variant", required=True, help="a variant name (engine.variants)")
    p.add_argument(
        "--variant-module",
        action="append",
        default=[],
        metavar="MODULE",
        help=f"import MODULE to register its variant (also ${variants.ENV_VAR}, comma-separated)",
    )
    p.add_argument("--a", required=True, help="the challenger policy (engine.ai.policies)")
    p.add_argument("--b", required=True, help="the policy of the three other seats")
    p.add_argument("--hands", type=int, required=True, help="duplicate deals (each played 4×)")
    p.add_argument("--seed", default="0")
    p.add_argument("--options", default="{}", help="rule options as JSON")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    a = p.parse_args(argv)
    plugins = [*a.variant_module, *os.environ.get(variants.ENV_VAR, "").split(",")]
    try:
        variants.load_plugins(a.variant_module, os.environ)
        opts = make_options(a.variant, json.loads(a.options))
        policy(a.a), policy(a.b)
        if a.hands < 1 or a.jobs < 1:
            raise ValueError("--hands and --jobs must be at least 1")
    except (ValueError, TypeError, ImportError) as e:
        p.error(str(e))
    r = run(a.variant, a.a, a.b, a.hands, str(a.seed), opts, a.jobs, [m for m in plugins if m])
    print(_table(r), file=sys.stderr)
    print(json.dumps(r, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
