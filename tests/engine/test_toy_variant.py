"""A fourth variant is one folder: the test-only toy variant (新余 rules with two wildcard
kinds, tests/engine/toy_variant/) registers, plays simulated hands and scores through
``python -m engine.score`` without any change outside its folder and this test."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import toy_variant

from engine import variants
from engine.game import new_game
from engine.game.simulate import simulate
from engine.game.view import seat_view
from engine.scoring import context_from_dict, score

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


@pytest.fixture
def toy():
    """The toy variant, registered for the test and removed after it."""
    variants.register(toy_variant.VARIANT, replace=True)
    try:
        yield toy_variant.VARIANT
    finally:
        variants.unregister(toy_variant.NAME)


def test_registry_knows_the_toy_only_while_registered(toy) -> None:
    assert variants.get("toyjing") is toy
    assert variants.names()[:3] == ("shangrao", "xinyu", "jiujiang")
    assert variants.names()[-1] == "toyjing"
    variants.unregister("toyjing")
    assert "toyjing" not in variants.names()
    with pytest.raises(variants.UnknownVariant, match="toyjing"):
        variants.get("toyjing")


def test_two_wildcard_kinds_at_the_table(toy) -> None:
    g = new_game("toyjing", seed="toy-deal").state
    h = g.hand
    assert h.indicator is not None
    ind = h.indicator >> 2
    assert h.wildcards == toy_variant.wildcards_of(ind) and len(h.wildcards) == 2
    assert seat_view(g, 0)["wildcards"] == sorted(h.wildcards)  # both kinds are shown
    for s in h.seats:  # every 精 drawn is counted, of both kinds
        assert s.bao_drawn == sum(1 for t in s.hand if t >> 2 in h.wildcards)


def test_simulated_hands_play_to_the_end_and_check_out(toy) -> None:
    r = simulate("toyjing", 24, "toy", None, verify=True)
    assert r["hands"] == 24
    assert r["zero_sum_violations"] == 0
    assert r["replay_mismatches"] == 0
    assert r["errors"] == 0
    assert r["wins"] + r["draws"] == 24
    assert r["wins"] > 0


def test_both_wildcard_kinds_complete_a_hand(toy) -> None:
    # 5p and 6p are the two 精 (indicator 4p): with 9p they make 999p
    hand = "123m456m789s11z569p +9p"
    ctx = context_from_dict({"variant": "toyjing", "hand": hand, "bao": ["5p", "6p"]})
    assert ctx.wildcards == {13, 14}
    assert score(ctx).legal
    # the same tiles, the wildcards as plain tiles: 5p 6p are no set
    plain = context_from_dict({"variant": "xinyu", "hand": hand})
    assert not score(plain).legal
    # one wildcard kind is not enough: 5p with 6p 9p makes no set
    one = context_from_dict({"variant": "toyjing", "hand": hand, "bao": "5p"})
    assert not score(one).legal


def _cli(lines: list[dict], *args: str, env_modules: str = "") -> list[dict]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), env.get("PYTHONPATH", "")]))
    env.pop(variants.ENV_VAR, None)
    if env_modules:
        env[variants.ENV_VAR] = env_modules
    proc = subprocess.run(
        [sys.executable, "-m", "engine.score", *args],
        input="".join(json.dumps(x) + "\n" for x in lines),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return [json.loads(x) for x in proc.stdout.splitlines()]


REQUESTS = [
    {"id": "two", "variant": "toyjing", "hand": "123m456m789s11z569p +9p", "bao": ["5p", "6p"]},
    {"id": "plain", "variant": "toyjing", "hand": "123m456m789p234s99s +9s", "bao": ["5z", "6z"]},
    {"id": "no-jing", "variant": "toyjing", "hand": "123m456m789p234s99s +9s"},
]


@pytest.mark.parametrize("how", ["--variant-module", "MAHJONG_VARIANTS"])
def test_score_cli_finds_the_toy(how: str) -> None:
    if how == "--variant-module":
        out = _cli(REQUESTS, "--variant-module", "toy_variant")
    else:
        out = _cli(REQUESTS, env_modules="toy_variant")
    by_id = {o["id"]: o for o in out}
    assert by_id["two"]["legal"] is True
    assert by_id["two"]["points"] == 2  # 门清 (concealed self-draw) ×2
    assert by_id["plain"]["legal"] is True
    assert "bao" in by_id["no-jing"]["error"]  # the toy, like 上饶, needs its wildcards named


def test_score_cli_without_the_module_does_not_know_the_toy() -> None:
    (out,) = _cli(REQUESTS[:1])
    assert "unknown variant 'toyjing'" in out["error"]
