"""Replay and review benchmark: ``python -m benchmarks.replay_bench [--hands 30]``.

Plays AI hands of each variant (``engine.simulate``, logged), then prints, per variant:

- replay: rebuilding one hand from its log (:func:`engine.replay.hand_states`), ms per hand;
- review: :func:`engine.review.review_states` of one seat, ms per hand (mean, p95, max) and
  of all four seats — the target is under a second per hand on one core;
- frame: one replay picture (:func:`render.replay.render_frame`), one seat's hand shown and
  all four open, ms (mean, p95) and PNG size;
- animation: the whole hand as a GIF (:func:`render.replay.render_animation`) from one seat
  and with all four open, seconds to draw, MiB (Discord's upload limit is 10 MiB) and how
  long it plays (paced per step, :mod:`services.replay_steps`).

Figures only; never run as a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from engine import variants
from engine.game.simulate import simulate
from engine.logformat import GameLog, LoggedGame
from engine.replay import hand_states
from engine.review import review_states


def _stats(times: list[float]) -> tuple[float, float, float]:
    times = sorted(times)
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    return statistics.fmean(times), p95, times[-1]


def bench(variant: str, hands: int, frames: int) -> list[str]:
    from render.replay import frame_durations, render_animation, render_frame
    from services.replay import ALL, ReplayHand, animation_frames, frame

    games: list[LoggedGame] = []
    simulate(variant, hands, "replay-bench", None, verify=False, record=games)
    log = GameLog(variant, {}, games)
    replay_ms, review_ms, review4_ms = [], [], []
    replays = []
    for _game, hand in log.hands():
        t0 = time.perf_counter()
        r = hand_states(variant, log.options, hand)
        replay_ms.append((time.perf_counter() - t0) * 1000)
        replays.append((hand, r))
        actions = [(a.seat, a.action) for a in hand.actions]
        t0 = time.perf_counter()
        for seat in range(4):
            t1 = time.perf_counter()
            review_states(r.states, actions, seat)
            review_ms.append((time.perf_counter() - t1) * 1000)
        review4_ms.append((time.perf_counter() - t0) * 1000)
    out = [f"{variant}: {len(replays)} hands"]
    m, p, x = _stats(replay_ms)
    out.append(f"  replay a hand from its log    {m:7.1f} ms mean  {p:7.1f} p95  {x:7.1f} max")
    m, p, x = _stats(review_ms)
    out.append(f"  review one seat of a hand     {m:7.1f} ms mean  {p:7.1f} p95  {x:7.1f} max")
    m, p, x = _stats(review4_ms)
    out.append(f"  review all four seats         {m:7.1f} ms mean  {p:7.1f} p95  {x:7.1f} max")
    hand, r = max(replays, key=lambda hr: len(hr[0].actions))
    rh = ReplayHand(
        code="#0-0",
        game_id=0,
        hand_no=hand.hand,
        guild_id=0,
        variant=variant,
        names=["alice", "bob", "carol", "小明"],
        logged=hand,
        replay=r,
        record=None,  # type: ignore[arg-type]
    )
    for view, label in ((0, "one seat"), (ALL, "all four open")):
        steps = [round(i * rh.steps / max(frames - 1, 1)) for i in range(frames)]
        render_frame(frame(rh, steps[0], view))  # warm caches
        times, size = [], 0
        for s in steps:
            t0 = time.perf_counter()
            size = len(render_frame(frame(rh, s, view)))
            times.append((time.perf_counter() - t0) * 1000)
        m, p, _x = _stats(times)
        out.append(
            f"  frame ({label:13})          {m:7.1f} ms mean  {p:7.1f} p95  {size / 1024:6.0f} KiB"
        )
    for label, view in (("seat 0", 0), ("all four", ALL)):
        frames = animation_frames(rh, view)
        t0 = time.perf_counter()
        gif = render_animation(frames)
        dt = time.perf_counter() - t0
        plays = sum(frame_durations(frames)) / 1000
        out.append(
            f"  animation {label:8} ({rh.steps + 1} frames) {dt:7.2f} s  "
            f"{len(gif) / 2**20:6.2f} MiB  plays {plays:5.1f} s"
        )
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.replay_bench", description=__doc__)
    p.add_argument("--hands", type=int, default=30, help="hands per variant (default 30)")
    p.add_argument("--frames", type=int, default=20, help="frames timed per view (default 20)")
    p.add_argument("--variant", choices=variants.names(), action="append")
    a = p.parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"replay / review benchmark — {a.hands} AI hands per variant, one core, load {load:.2f}")
    for variant in a.variant or variants.names():
        for line in bench(variant, a.hands, a.frames):
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
