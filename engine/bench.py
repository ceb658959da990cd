"""Engine benchmarks: ``python -m engine.bench`` prints calls per second.

Targets (DESIGN.md): ``is_complete`` >= 300,000/s on near-miss hands with up to 4 wildcards
and >= 1.2 x the ``mahjong`` package's ``Agari.is_agari`` on the same hands;
``winning_tiles`` >= 20,000/s on 13-tile hands; ``shanten`` >= 20,000/s on 14-tile hands;
the win check with 南昌's two wildcard kinds (and honour sequences) at least as fast as with
上饶's one, on the same hands; full scoring >= 20,000 hands/s per variant.
Figures are printed, never asserted: calls per second of CPU time (best of 5 rounds). Hands
are generated from ``--seed``, so two runs measure the same hands.

Each section is a function taking a :class:`Bench` and printing its lines; add new ones to
``SECTIONS``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.agari import is_complete, winning_tiles
from engine.shanten import clear_caches, shanten

Counts = list[int]


@dataclass
class Bench:
    """Shared settings of a run: the seed, hands per set, and the time per figure."""

    seed: int = 2024
    hands: int = 2000
    min_time: float = 0.5

    def rng(self, name: str) -> random.Random:
        """A generator of its own for each hand set, so sections don't disturb each other."""
        return random.Random(f"{self.seed}:{name}")

    def rate(self, fn: Callable[..., object], calls: Sequence[tuple[Any, ...]]) -> float:
        """Calls per second of ``fn(*args)`` over ``calls``: the best of 5 rounds of
        ``min_time / 5`` each (the best round is the least disturbed by other processes)."""
        return self.rates([(fn, calls)])[0]

    def rates(
        self, runs: Sequence[tuple[Callable[..., object], Sequence[tuple[Any, ...]]]]
    ) -> list[float]:
        """Like :meth:`rate` for several functions, their rounds interleaved, so that a
        ratio between them is measured under the same conditions. Time is this process's CPU
        time, so other work on a shared machine does not count against a round."""
        best = [0.0] * len(runs)
        for _ in range(5):
            for i, (fn, calls) in enumerate(runs):
                done = 0
                start = time.process_time()
                while True:
                    for args in calls:
                        fn(*args)
                    done += len(calls)
                    elapsed = time.process_time() - start
                    if elapsed >= self.min_time / 5:
                        break
                best[i] = max(best[i], done / elapsed)
        return best


def line(label: str, per_second: float, note: str = "") -> None:
    print(f"  {label:<52} {per_second:>12,.0f} /s  {note}")


# --- hand sets ---------------------------------------------------------------------------


def random_complete(rng: random.Random, sets: int = 4) -> Counts:
    """A random standard-shape hand: ``sets`` sets (about 60 % sequences) and a pair."""
    while True:
        counts = [0] * 34
        for _ in range(sets):
            if rng.random() < 0.6:
                first = 9 * rng.randrange(3) + rng.randrange(7)
                for k in (first, first + 1, first + 2):
                    counts[k] += 1
            else:
                counts[rng.randrange(34)] += 3
        counts[rng.randrange(34)] += 2
        if max(counts) <= 4:
            return counts


def take_wilds(rng: random.Random, counts: Counts, wilds: int) -> Counts:
    """Remove ``wilds`` random tiles (they become 宝 standing for themselves)."""
    counts = counts[:]
    for _ in range(wilds):
        k = rng.choice([k for k in range(34) if counts[k]])
        counts[k] -= 1
    return counts


def replace_one(rng: random.Random, counts: Counts) -> Counts:
    """Swap one tile for a tile of another kind (at most 4 of a kind)."""
    while True:
        out = counts[:]
        old = rng.choice([k for k in range(34) if out[k]])
        new = rng.randrange(34)
        if new != old and out[new] < 4:
            out[old] -= 1
            out[new] += 1
            return out


def complete_hands(b: Bench, wilds: int) -> list[tuple[Counts, int]]:
    rng = b.rng(f"complete{wilds}")
    return [(take_wilds(rng, random_complete(rng), wilds), wilds) for _ in range(b.hands)]


def near_miss_hands(b: Bench, wilds: int) -> list[tuple[Counts, int]]:
    """Complete hands with one tile replaced, kept only when no longer complete."""
    rng = b.rng(f"near{wilds}")
    out: list[tuple[Counts, int]] = []
    while len(out) < b.hands:
        counts = replace_one(rng, take_wilds(rng, random_complete(rng), wilds))
        if not is_complete(counts, wilds):
            out.append((counts, wilds))
    return out


def ready_hands(b: Bench, wilds: int) -> list[tuple[Counts, int]]:
    """13-tile hands: a complete hand minus one tile (mostly 听牌)."""
    rng = b.rng(f"ready{wilds}")
    return [(take_wilds(rng, random_complete(rng), wilds + 1), wilds) for _ in range(b.hands)]


def dealt_hands(b: Bench, size: int, wilds: int) -> list[tuple[Counts, int]]:
    """Random hands of ``size`` tiles from a full wall, ``wilds`` of them wildcards."""
    rng = b.rng(f"dealt{size}:{wilds}")
    wall = [k for k in range(34) for _ in range(4)]
    out = []
    for _ in range(b.hands):
        counts = [0] * 34
        for k in rng.sample(wall, size - wilds):
            counts[k] += 1
        out.append((counts, wilds))
    return out


# --- sections ----------------------------------------------------------------------------


def _mahjong_is_agari() -> Callable[[Counts], bool] | None:
    """``Agari().is_agari`` of the ``mahjong`` package (2.x API), if installed."""
    try:
        from mahjong.agari import Agari
    except ImportError:  # pragma: no cover - the package is a test extra
        return None
    return Agari().is_agari


def _mahjong_shanten() -> Callable[[Counts], int] | None:
    """``Shanten.calculate_shanten`` of the ``mahjong`` package, if installed (for scale)."""
    try:
        from mahjong.shanten import Shanten
    except ImportError:  # pragma: no cover
        return None
    return Shanten.calculate_shanten


def section_agari(b: Bench) -> None:
    """``is_complete`` (和牌 check), and ``mahjong``'s ``Agari.is_agari`` on the same hands."""
    print("is_complete (14-tile hands; 宝 = wildcards)")
    their_agari = _mahjong_is_agari()
    for wilds in range(5):
        for kind, hands in (
            ("complete", complete_hands(b, wilds)),
            ("near-miss", near_miss_hands(b, wilds)),
        ):
            if wilds == 0 and their_agari is not None:
                ours, theirs = b.rates(
                    [(is_complete, hands), (their_agari, [(c,) for c, _ in hands])]
                )
                line(f"is_complete, {kind}, {wilds} 宝", ours)
                line(
                    f"mahjong Agari().is_agari, {kind}",
                    theirs,
                    f"ours/theirs = {ours / theirs:.2f}",
                )
            else:
                line(f"is_complete, {kind}, {wilds} 宝", b.rate(is_complete, hands))


def section_waits(b: Bench) -> None:
    """``winning_tiles`` (听牌 waits) on 13-tile hands."""
    print("winning_tiles (13-tile hands)")
    for wilds in range(3):
        line(
            f"winning_tiles, complete minus one, {wilds} 宝",
            b.rate(winning_tiles, ready_hands(b, wilds)),
        )
        line(
            f"winning_tiles, random from the wall, {wilds} 宝",
            b.rate(winning_tiles, dealt_hands(b, 13, wilds)),
        )


def section_shanten(b: Bench) -> None:
    """``shanten`` (向听数) on random 14-tile hands: first pass (cold caches), then warm."""
    print("shanten (random 14-tile hands from the wall)")
    for wilds in range(3):
        hands = dealt_hands(b, 14, wilds)
        clear_caches()
        start = time.process_time()
        for args in hands:
            shanten(*args)
        cold = len(hands) / (time.process_time() - start)
        line(f"shanten, {wilds} 宝, first pass (empty caches)", cold)
        line(f"shanten, {wilds} 宝, repeated", b.rate(shanten, hands))
        theirs = _mahjong_shanten()
        if wilds == 0 and theirs is not None:
            line(
                "mahjong Shanten.calculate_shanten (no 宝)",
                b.rate(theirs, [(c,) for c, _ in hands]),
            )


def _set_apart(counts: Counts, wild: frozenset[int]) -> tuple[Counts, int]:
    """The counts without the wildcard tiles (every kind of ``wild``), and how many there are."""
    plain = counts[:]
    w = 0
    for k in wild:
        w += plain[k]
        plain[k] = 0
    return plain, w


def _wild_win_check(counts: Counts, wild: frozenset[int], honours: bytes | None) -> bool:
    """The game's win check: the wildcards set apart, then :func:`is_complete` with the
    variant's honour table."""
    plain, w = _set_apart(counts, wild)
    return is_complete(plain, w, honours)


def _wild_waits(counts: Counts, wild: frozenset[int], honours: bytes | None) -> set[int]:
    """The game's waits: :func:`winning_tiles` of a 13-tile hand, wildcards set apart."""
    plain, w = _set_apart(counts, wild)
    return winning_tiles(plain, w, honours)


def wildcard_hands(
    b: Bench, size: int = 14
) -> dict[str, list[tuple[Counts, frozenset[int], bytes | None]]]:
    """The same hands for every variant with wildcards: complete (or, half of them, one tile
    off) hands with 0–3 tiles turned into wildcards of one indicator's kinds — 上饶 the one 宝
    after it, 南昌 the indicator's own kind and the next — checked with the variant's own
    honour sequences. ``size`` 13: one tile taken out (the waits)."""
    from engine import variants
    from engine.honour_sequences import honour_table

    wild_variants = [v for v in variants.all() if v.needs_wildcards and v.wildcards_of]
    rng = b.rng(f"wildcards{size}")
    out: dict[str, list[tuple[Counts, frozenset[int], bytes | None]]] = {
        v.name: [] for v in wild_variants
    }
    for _ in range(b.hands):
        base = random_complete(rng)
        if rng.random() < 0.5:
            base = replace_one(rng, base)
        if size == 13:
            base = take_wilds(rng, base, 1)
        indicator = rng.randrange(34)
        turned = [rng.random() for _ in range(rng.choice((0, 1, 1, 2, 2, 3)))]
        for v in wild_variants:
            rules = v.rules(v.options_class())
            honours = honour_table(rules.honour_sequences) if rules.honour_sequences else None
            assert v.wildcards_of is not None
            wild = v.wildcards_of(indicator)
            kinds = sorted(wild)
            counts = base[:]
            pick = random.Random(indicator)
            for x in turned:
                k = pick.choice([k for k in range(34) if counts[k] and k not in wild])
                w = kinds[int(x * len(kinds))]
                if counts[w] < 4:
                    counts[k] -= 1
                    counts[w] += 1
            out[v.name].append((counts, wild, honours))
    return out


def section_wildcards(b: Bench) -> None:
    """The win check and the waits per variant with wildcards, on the same hands: 南昌's two
    精 kinds and honour sequences against 上饶's one 宝 (measured interleaved)."""
    print("win check with the variant's wildcards (same hands; 上饶 one 宝, 南昌 two 精)")
    for label, fn, size in (
        ("win check (is_complete), 14 tiles", _wild_win_check, 14),
        ("waits (winning_tiles), 13 tiles", _wild_waits, 13),
    ):
        hands = wildcard_hands(b, size)
        names = list(hands)
        rates = b.rates([(fn, hands[n]) for n in names])
        first = rates[0]
        for name, rate in zip(names, rates, strict=True):
            note = "" if name == names[0] else f"{name}/{names[0]} = {rate / first:.2f}"
            line(f"{label}, {name}", rate, note)


def section_scoring(b: Bench) -> None:
    """Full scoring of finished hands (all readings, the best one), per variant."""
    from engine.scoring.bench import bench_scoring

    print("score (full scoring of a finished hand; target >= 20,000/s)")
    for name, per_second in bench_scoring(seconds=b.min_time):
        line(name, per_second)


def section_game(b: Bench) -> None:
    """Whole hands played by four AI players, engine only."""
    from engine.game.simulate import bench_game

    print("game (a whole hand, four AI players; target >= 50 hands/s)")
    for name, per_second in bench_game():
        line(name, per_second)


SECTIONS: list[Callable[[Bench], None]] = [
    section_agari,
    section_waits,
    section_shanten,
    section_wildcards,
    section_scoring,
    section_game,
]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=Bench.seed)
    parser.add_argument("--hands", type=int, default=Bench.hands, help="hands per set")
    parser.add_argument("--min-time", type=float, default=Bench.min_time, help="seconds per figure")
    args = parser.parse_args(argv)
    bench = Bench(seed=args.seed, hands=args.hands, min_time=args.min_time)
    print(f"engine benchmarks — seed {bench.seed}, {bench.hands} hands per set, one core")
    for section in SECTIONS:
        section(bench)


if __name__ == "__main__":
    main()
