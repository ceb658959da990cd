"""Speed of full scoring (``engine.scoring.score``) on finished hands, for ``python -m engine.bench``
(calls per second of CPU time, so other work on the machine does not skew it).

Hands are random complete hands (standard with 0–2 exposed melds, some seven pairs), made
once from a fixed seed; the hands of a variant with wildcards (上饶 宝, 南昌 正精 and 副精)
hold them standing in for tiles about as often as real deals do (:data:`REAL_BAO`); the last
pools have every hand hold 1–3, then 1–4 wildcards (the worst cases; not warmed first, so
their per-suit caches start empty). Every call scores a different
hand from a pool of 2,000, so no cache sees the same hand twice in a row.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from engine import variants
from engine.notation import Hand, Meld, MeldKind
from engine.options import make_options
from engine.scoring.entry import score
from engine.scoring.types import WinContext, WinKind
from engine.tiles import DRAGONS

POOL = 2000


def _sets(rng: random.Random, kinds: list[int], n: int) -> list[tuple[int, ...]] | None:
    left = [4] * 34
    out: list[tuple[int, ...]] = []
    for _ in range(n):
        for _try in range(20):
            k = rng.choice(kinds)
            if k < 27 and k % 9 <= 6 and rng.random() < 0.6 and k + 2 in kinds:
                t = (k, k + 1, k + 2)
            else:
                t = (k, k, k)
            if all(left[x] >= t.count(x) for x in set(t)):
                for x in t:
                    left[x] -= 1
                out.append(t)
                break
        else:
            return None
    pair_kinds = [k for k in kinds if left[k] >= 2]
    if not pair_kinds:
        return None
    p = rng.choice(pair_kinds)
    out.append((p, p))
    return out


def random_hand(rng: random.Random, kinds: list[int], *, chi: bool = False) -> Hand:
    """A random complete 14-tile hand over ``kinds`` (standard, or 七对 one time in six)."""
    while True:
        if rng.random() < 1 / 6:
            ps = rng.sample(kinds, 7)
            concealed = sorted(k for p in ps for k in (p, p))
            return Hand(tuple(concealed), (), rng.choice(concealed))
        groups = _sets(rng, kinds, 4)
        if groups is None:
            continue
        n_melds = rng.choice((0, 0, 1, 2))
        melds: list[Meld] = []
        concealed = []
        for i, g in enumerate(groups):
            if i < n_melds and len(g) == 3 and (g[0] == g[1] or chi):
                kind = MeldKind.PONG if g[0] == g[1] else MeldKind.CHI
                melds.append(Meld(kind, g))
            else:
                concealed.extend(g)
        concealed.sort()
        return Hand(tuple(concealed), tuple(melds), rng.choice(concealed))


#: How many 宝 a finished hand holds, per 100 hands: about what a real deal gives (4 of 135
#: tiles are 宝; 14 drawn), and a wildcard-heavy mix for the worst case.
REAL_BAO = (65, 29, 5, 1)
HEAVY_BAO = (0, 20, 40, 40)
HEAVIEST_BAO = (0, 15, 30, 30, 25)


def _with_bao(rng: random.Random, hand: Hand, weights: tuple[int, ...]) -> tuple[Hand, int]:
    """Pick a 宝 kind the hand does not hold and turn 0–3 concealed tiles (never the winning
    one) into 宝, as often as ``weights`` says."""
    held = set(hand.all_tiles())
    bao = rng.choice([k for k in range(34) if k not in held])
    tiles = list(hand.concealed)
    n = rng.choices(range(len(weights)), weights)[0]
    for _ in range(n):
        spots = [i for i, k in enumerate(tiles) if k not in (bao, hand.winning)]
        if not spots:
            break
        tiles[rng.choice(spots)] = bao
    return Hand(tuple(sorted(tiles)), hand.melds, hand.winning), bao


def _with_wildcards(
    rng: random.Random,
    hand: Hand,
    weights: tuple[int, ...],
    pick: Callable[[int], frozenset[int]],
) -> tuple[Hand, frozenset[int]]:
    """:func:`_with_bao` for a variant whose indicator makes several wildcard kinds (``pick``:
    南昌 正精 and 副精): an indicator whose kinds the hand does not hold, and 0–4 concealed
    tiles (never the winning one) turned into one of them."""
    held = set(hand.all_tiles())
    wild = pick(rng.choice([k for k in range(34) if held.isdisjoint(pick(k))]))
    kinds = sorted(wild)
    tiles = list(hand.concealed)
    n = rng.choices(range(len(weights)), weights)[0]
    for _ in range(n):
        spots = [i for i, k in enumerate(tiles) if k not in wild and k != hand.winning]
        if not spots:
            break
        tiles[rng.choice(spots)] = rng.choice(kinds)
    return Hand(tuple(sorted(tiles)), hand.melds, hand.winning), wild


def contexts(
    variant: str, options: dict[str, Any], seed: int = 7, bao_weights: tuple[int, ...] = REAL_BAO
) -> list[WinContext]:
    """A pool of finished hands of one variant to score."""
    rng = random.Random(seed)
    opts = make_options(variant, options)
    v = variants.get(variant)
    rules = v.rules(opts)
    out: list[WinContext] = []
    kinds = [k for k in rules.kinds if k not in rules.flowers]  # 九江: no winds, 发 are flowers
    while len(out) < POOL:
        hand = random_hand(rng, kinds)
        wildcards: frozenset[int] = frozenset()
        if v.needs_wildcards:
            pick = v.wildcards_of
            if pick is None or len(pick(0)) == 1:  # one 宝 kind (上饶)
                hand, bao = _with_bao(rng, hand, bao_weights)
                wildcards = frozenset((bao,))
            else:
                hand, wildcards = _with_wildcards(rng, hand, bao_weights, pick)
        win: WinKind = "self" if not rules.discard_win or rng.random() < 0.5 else "discard"
        flowers = rng.randrange(3) if rules.flowers else 0
        out.append(WinContext(variant, opts, hand, win, wildcards=wildcards, flowers=flowers))
    assert all(k not in rules.flowers for c in out for k in c.hand.all_tiles())
    assert DRAGONS
    return out


def presets(variant: str) -> list[tuple[str, dict[str, Any]]]:
    """``(label, options)`` to bench a variant under: one per ``scoring`` preset it has
    (上饶 classic / xingchen), else its defaults."""
    info = variants.get(variant).options_class.INFO.get("scoring")
    if info is None:
        return [("", {})]
    return [(f" {c}", {"scoring": c}) for c in info.choices]


def _rate(ctxs: list[WinContext], seconds: float) -> float:
    n = 0
    start = time.process_time()
    while True:
        for c in ctxs:
            score(c)
        n += len(ctxs)
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return n / elapsed


def bench_scoring(seconds: float = 1.0, wild_heavy: bool = True) -> list[tuple[str, float]]:
    """``(name, calls per second)`` of full scoring for each variant and preset, overall, and
    (``wild_heavy``) on Shangrao hands holding 1–3 宝 and 1–4 宝."""
    pools = [
        (f"score {v.name}{label}", contexts(v.name, options))
        for v in variants.all()
        for label, options in presets(v.name)
    ]
    for _, ctxs in pools:  # warm the per-suit caches once, as a running bot would be
        for c in ctxs:
            score(c)
    out = [(name, _rate(ctxs, seconds)) for name, ctxs in pools]
    mixed = [c for _, ctxs in pools for c in ctxs]
    random.Random(1).shuffle(mixed)
    out.append(("score all variants (mixed)", _rate(mixed, seconds)))
    if wild_heavy:
        for v in variants.all():
            if not v.needs_wildcards:
                continue
            options = presets(v.name)[0][1]
            word = v.wildcard.zh
            heavy = contexts(v.name, options, bao_weights=HEAVY_BAO)
            out.append((f"score {v.name}, 1-3 {word} in hand", _rate(heavy, seconds)))
            heaviest = contexts(v.name, options, bao_weights=HEAVIEST_BAO)
            out.append((f"score {v.name}, 1-4 {word} in hand", _rate(heaviest, seconds)))
    return out


if __name__ == "__main__":
    for name, rate in bench_scoring():
        print(f"{name:32s} {rate:>12,.0f} / s")
