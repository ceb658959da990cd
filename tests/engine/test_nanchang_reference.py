"""The 南昌 scorer against a slow reading-enumerator written from RULES §8 alone.

``nanchang_reference.reference_score`` tries every free 精 as itself and as each kind, every
decomposition (honour sequences included) and 十三烂, and keeps the best-paying reading. It is
first checked against every scoring line of the 南昌 vectors, then compared with
``engine.scoring.score`` (points and the +5 bonus) on random finished — and some unfinished —
hands with 0–3 free 精 under random options.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nanchang_reference import WIND_SEQS, reference_score
from test_vectors import load_vectors

from engine.notation import format_tiles
from engine.scoring import context_from_dict, score
from engine.scoring.impossible import refusal
from engine.tiles import successor

VECTORS = [v for _, v in load_vectors() if v["variant"] == "nanchang"]


def test_reference_matches_vectors() -> None:
    assert len(VECTORS) >= 30, "expected the 南昌 vectors (vectors/next/nanchang.jsonl)"
    wrong = []
    for vec in VECTORS:
        legal, points, _ = reference_score(context_from_dict(vec))
        want = (vec["expect"]["legal"], vec["expect"].get("points", 0))
        if (legal, points) != want:
            wrong.append(f"{vec['id']} {vec['hand']}: {(legal, points)} ≠ {want}")
    assert not wrong, "\n".join(wrong)


def test_reference_finds_what_the_rules_name() -> None:
    """The reference is no echo of the scorer: hand-made cases from §8 with known answers."""
    cases = [
        # 东南西 + 中发白 sequences, 德国 平胡
        ("123z 567z 123m 456p 99s +9s", "self", ["8m", "9m"], {}, (True, 2, 5)),
        # the same without wind sequences: not complete
        (
            "123z 567z 123m 456p 99s +9s",
            "self",
            ["8m", "9m"],
            {"wind_sequences": False},
            (False, 0, 0),
        ),
        # 大七对 with big_pairs 4 and 德国: 4 × 2
        ("111m 222p 333s 444z 55z +5z", "self", ["8m", "9m"], {"big_pairs": 4}, (True, 8, 5)),
        # 精钓 on a discard, no 德国 reading: refused; with no_bonus: 平胡 H 1
        ("123456m 789s 111z 5p 7z +7z", "discard", ["5p", "6p"], {}, (False, 0, 0)),
        (
            "123456m 789s 111z 5p 7z +7z",
            "discard",
            ["5p", "6p"],
            {"jingdiao_discard": "no_bonus"},
            (True, 1, 0),
        ),
    ]
    for hand, win, jing, options, want in cases:
        line = {"variant": "nanchang", "hand": hand, "win": win, "jing": jing, "options": options}
        ctx = context_from_dict(line)
        assert reference_score(ctx) == want, (hand, options)
        got = score(ctx)
        assert (got.legal, got.points, got.bonus) == want, (hand, options, got)


# ---------------------------------------------------------------------------------------------
# random 南昌 hands


class Builder:
    """Tiles of one hand under the table's limits (4 a kind, 3 of 正精: the indicator)."""

    def __init__(self, zheng: int) -> None:
        self.limit = [4] * 34
        self.limit[zheng] = 3
        self.count = [0] * 34
        self.concealed: list[int] = []
        self.melds: list[str] = []
        self.chi = False
        self.kongs = 0
        self.meld_kinds: set[int] = set()

    def fits(self, kinds: list[int]) -> bool:
        return all(self.count[k] + kinds.count(k) <= self.limit[k] for k in set(kinds))

    def add(self, kinds: list[int], meld: str = "") -> None:
        for k in kinds:
            self.count[k] += 1
        if not meld:
            self.concealed.extend(kinds)
            return
        body = format_tiles(kinds)
        self.melds.append(f"({body})" if meld == "concealed_kong" else f"[{body}]")
        self.meld_kinds.update(kinds)
        self.chi |= meld == "chi"
        self.kongs += len(kinds) == 4


def _set(rng: random.Random, kinds: list[int], honours_seq: bool) -> tuple[list[int], bool]:
    k = rng.choice(kinds)
    if k < 27 and k % 9 <= 6 and rng.random() < 0.5:
        return [k, k + 1, k + 2], True
    if k >= 27 and honours_seq and rng.random() < 0.4:
        run = rng.choice([(31, 32, 33), *WIND_SEQS])
        return list(run), True
    return [k, k, k], False


def build_standard(rng: random.Random, b: Builder, kinds: list[int]) -> bool:
    n_melds = rng.choice([0, 0, 0, 1, 1, 2, 3])
    for i in range(4):
        for _ in range(40):
            tiles, seq = _set(rng, kinds, True)
            meld = ""
            if i < n_melds:
                meld = "chi" if seq else rng.choice(["pong", "pong", "kong", "concealed_kong"])
                if meld in ("kong", "concealed_kong"):
                    tiles = tiles + tiles[:1]
            if b.fits(tiles):
                b.add(tiles, meld)
                break
        else:
            return False
    for _ in range(40):
        k = rng.choice(kinds)
        if b.fits([k, k]):
            b.add([k, k])
            return True
    return False


def build_pairs(rng: random.Random, b: Builder, kinds: list[int]) -> bool:
    for _ in range(7):
        for _ in range(40):
            k = rng.choice(b.concealed) if b.concealed and rng.random() < 0.2 else rng.choice(kinds)
            if b.fits([k, k]):
                b.add([k, k])
                break
        else:
            return False
    return True


def build_thirteen(rng: random.Random, b: Builder) -> bool:
    honours = rng.choice([5, 6, 7, 7])
    tiles = rng.sample(range(27, 34), honours)
    sizes = [0, 0, 0]
    for _ in range(14 - honours):  # at most 3 tiles a suit, 3 or more apart
        sizes[rng.choice([s for s in range(3) if sizes[s] < 3])] += 1
    spaced = {
        0: [()],
        1: [(r,) for r in range(9)],
        2: [(a, b) for a in range(9) for b in range(a + 3, 9)],
        3: [(0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 3, 7), (0, 4, 8), (1, 5, 8), (0, 3, 8), (0, 4, 7)],
    }
    for s, n in enumerate(sizes):
        tiles += [9 * s + r for r in rng.choice(spaced[n])]
    if not b.fits(tiles):
        return False
    b.add(tiles)
    return True


def build_case(rng: random.Random) -> dict[str, Any] | None:
    """One RULES §8.7 object for a 南昌 hand a table can produce, or None."""
    zheng = rng.randrange(34)
    fu = successor(zheng)
    jing = (zheng, fu)
    suit = rng.randrange(3)
    kinds = rng.choice(
        [list(range(34)), list(range(34)), [*range(9 * suit, 9 * suit + 9), *range(27, 34)]]
    )
    b = Builder(zheng)
    shape = rng.choices(["standard", "pairs", "thirteen"], weights=[65, 20, 15])[0]
    built = {
        "standard": lambda: build_standard(rng, b, kinds),
        "pairs": lambda: build_pairs(rng, b, kinds),
        "thirteen": lambda: build_thirteen(rng, b),
    }[shape]()
    if not built:
        return None
    conc = b.concealed
    # Some tiles become 精 (wildcards in the intended reading); some are 精 already.
    for i in rng.sample(range(len(conc)), rng.choice([0, 0, 1, 1, 1, 2, 2, 3])):
        conc[i] = rng.choice(jing)
    if rng.random() < 0.1:  # an unfinished hand
        conc[rng.randrange(len(conc))] = rng.randrange(34)
    if sum(1 for k in conc if k in jing) > 3:
        return None
    win = rng.choice(conc)
    how = rng.choices(["self", "discard", "rob_kong"], weights=[55, 35, 10])[0]
    flags: set[str] = set()
    if how == "rob_kong" and (win in b.meld_kinds or conc.count(win) != 1):
        how = "self"
    kong_draws = 0
    if how == "self" and b.kongs and rng.random() < 0.5:
        kong_draws = 1
    if not b.melds and kong_draws == 0 and rng.random() < 0.05:
        if how == "self":
            flags |= {"heaven", "dealer"}
        elif how == "discard":
            flags.add("earth")
    if rng.random() < 0.2:
        flags.add("no_jing_elsewhere")
    options: dict[str, Any] = {}
    for name, values in (
        ("big_pairs", (2, 4)),
        ("jingdiao_discard", ("forbid", "no_bonus")),
        ("wind_sequences", (True, False)),
        ("win_on_discarded_jing", ("face", "no")),
    ):
        if rng.random() < 0.25:
            options[name] = rng.choice(values)
    return {
        "variant": "nanchang",
        "options": options,
        "hand": " ".join([format_tiles(conc), *b.melds, f"+{format_tiles([win])}"]),
        "win": how,
        "jing": [format_tiles([zheng]), format_tiles([fu])],
        "kong_draws": kong_draws,
        "flags": sorted(flags),
    }


def random_case(rng: random.Random) -> dict[str, Any]:
    while True:
        case = build_case(rng)
        if case is None:
            continue
        try:
            ctx = context_from_dict(case)
        except ValueError:  # more than 4 of a kind after the 精 went in: no hand
            continue
        tiles = ctx.hand.all_tiles()
        if any(tiles.count(k) > 4 for k in set(tiles)) or refusal(ctx):
            continue
        return case


def compare(case: dict[str, Any]) -> None:
    ctx = context_from_dict(case)
    result = score(ctx)
    got = (result.legal, result.points, result.bonus)
    want = reference_score(ctx)
    assert got == want, (
        f"scorer {got} ≠ reference {want} for {json.dumps(case, ensure_ascii=False)} "
        f"— scorer says {[(i.name, i.value) for i in result.items]} {result.reason}"
    )


def test_random_cases_cover_the_shapes() -> None:
    """The generator reaches every shape and both sides of each rule the reference checks."""
    rng = random.Random(7)
    seen: set[str] = set()
    for _ in range(600):
        ctx = context_from_dict(random_case(rng))
        r = score(ctx)
        seen |= {i.name for i in r.items}
        seen.add("legal" if r.legal else "illegal")
    assert {"平胡", "小七对", "大七对", "十三烂", "精钓", "德国", "legal", "illegal"} <= seen, seen


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, derandomize=True)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_scorer_agrees_with_reference(seed: int) -> None:
    # A seed, not drawn tiles: the hand builder retries until the table's limits hold, which
    # Hypothesis's own draws cannot shrink well; the message prints the whole case instead.
    compare(random_case(random.Random(seed)))
