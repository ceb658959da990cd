"""``python -m engine.score``: JSON lines in, one JSON line out per input line."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from engine.score import main

ROOT = Path(__file__).resolve().parents[2]
GOOD = {
    "id": "a",
    "variant": "xinyu",
    "options": {},
    "hand": "11m44m77m22p88p33s66s +6s",
    "win": "self",
    "bao": None,
    "flown": 0,
    "kong_draws": 0,
    "flowers": 0,
    "flags": [],
}


def run(text: str) -> list[dict]:
    out = io.StringIO()
    assert main(io.StringIO(text), out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_good_line() -> None:
    (ans,) = run(json.dumps(GOOD) + "\n")
    assert ans["id"] == "a" and ans["legal"] is True and ans["points"] == 8
    assert {"name": "七小对", "en": "Seven pairs", "value": "×4"} in ans["items"]


def test_bad_lines_give_errors_and_the_rest_still_run() -> None:
    bad_hand = dict(GOOD, id="b", hand="11m44m77m22p88p33s6s +6s")
    bad_opt = dict(GOOD, id="c", options={"chi": True})
    bad_win = dict(GOOD, id="d", win="kong")
    sr_no_bao = dict(GOOD, id="e", variant="shangrao")
    lines = [
        json.dumps(GOOD),
        "{not json",
        json.dumps(bad_hand),
        "",
        json.dumps(bad_opt),
        json.dumps(bad_win),
        json.dumps(sr_no_bao),
        json.dumps([1, 2]),
        json.dumps(dict(GOOD, id="z")),
    ]
    answers = run("\n".join(lines) + "\n")
    assert [a.get("id") for a in answers] == ["a", None, "b", "c", "d", "e", None, "z"]
    assert [("error" in a) for a in answers] == [False, True, True, True, True, True, True, False]
    assert "13 tiles" in answers[2]["error"] and "chi" in answers[3]["error"]
    assert answers[-1]["points"] == 8


def test_module_runs_on_stdin_stdout() -> None:
    text = json.dumps(GOOD) + "\nnope\n" + json.dumps(dict(GOOD, id="x", win="discard")) + "\n"
    proc = subprocess.run(
        [sys.executable, "-m", "engine.score"],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(answers) == 3
    assert answers[0]["points"] == 8 and "error" in answers[1]
    assert (
        answers[2]
        == {"id": "x", "legal": False, "points": 0, "items": [], "reason": answers[2]["reason"]}
        and answers[2]["reason"]
    )


NANCHANG = {
    "id": "nc",
    "variant": "nanchang",
    "hand": "123456m 789s 234p 11z +2p",
    "win": "discard",
    "jing": ["5p", "6p"],
    "seat": 2,
    "from": 3,
    "flags": [],
}
JING_SETTLEMENT = {
    "id": "js",
    "variant": "nanchang",
    "kind": "jing_settlement",
    "jing": ["5p", "6p"],
    "holdings": [[2, 1, 0], [0, 1, 0], [0, 0, 0], [0, 0, 0]],
}


def test_nanchang_lines_in_a_fresh_process_give_pay_and_jing_settlements() -> None:
    """RULES §8.7 fields through the CLI: ``jing``, ``seat``, ``from``, ``no_jing_elsewhere``
    give ``pay`` as well as ``points``; ``jing_settlement`` lines give amount, 杠精 and net."""
    lines = [
        NANCHANG,
        dict(NANCHANG, id="dzd", flags=["no_jing_elsewhere"]),
        dict(NANCHANG, id="self", win="self", seat=0, flags=["dealer"], **{"from": None}),
        dict(NANCHANG, id="one", options={"discard_pay": "one"}),
        dict(NANCHANG, id="indicator", jing="5p"),  # the indicator alone names both 精
        JING_SETTLEMENT,
        dict(
            JING_SETTLEMENT,
            id="bawang10",
            options={"bawang": "plus10"},
            holdings=[[0, 1, 0]] + [[0, 0, 0]] * 3,
        ),
    ]
    proc = subprocess.run(
        [sys.executable, "-m", "engine.score"],
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    answers = {a["id"]: a for a in map(json.loads, proc.stdout.splitlines())}
    # 德国 H 2 on a discard: discarder 2×2+5, dealer bystander 2×1×2, the other 2
    assert answers["nc"]["points"] == 2 and answers["nc"]["pay"] == [4, 2, 0, 9]
    assert answers["nc"]["bonus"] == 5
    assert answers["dzd"]["points"] == 4 and answers["dzd"]["pay"] == [8, 4, 0, 13]
    # the dealer self-draws: each pays 2 × 2 × 2 + 5
    assert answers["self"]["pay"] == [0, 13, 13, 13]
    assert answers["one"]["pay"] == [0, 0, 0, 9]
    assert answers["indicator"]["pay"] == answers["nc"]["pay"]
    js = answers["js"]
    assert js["kind"] == "jing_settlement"
    assert (js["amount"], js["gang_jing"], js["net"]) == (
        [10, 1, 0, 0],
        [0, 0, 0, 0],
        [29, -7, -11, -11],
    )
    assert answers["bawang10"]["amount"] == [11, 0, 0, 0]


def test_nanchang_bad_fields_are_named() -> None:
    answers = run(
        "".join(
            json.dumps(line) + "\n"
            for line in [
                dict(NANCHANG, id="a", jing=["6p", "5p"]),  # 副精 first
                dict(NANCHANG, id="b", **{"from": 2}),  # the winner as discarder
                dict(NANCHANG, id="c", flags=["dealer"]),  # seat 2 is not the dealer
                dict(NANCHANG, id="d", bao="5p"),  # both bao and jing
                dict(JING_SETTLEMENT, id="e", holdings=[[4, 0, 0]] + [[0, 0, 0]] * 3),
                dict(JING_SETTLEMENT, id="f", kind="gang_settlement"),
                dict(GOOD, id="g", seat=1),  # any variant: pay from its own settlement
            ]
        )
    )
    errors = {a["id"]: a.get("error", "") for a in answers}
    assert "6p makes 6p、7p" in errors["a"]
    assert "'from'" in errors["b"]
    assert "flag 'dealer'" in errors["c"]
    assert "not both" in errors["d"]
    assert "at most 3 正精" in errors["e"]
    assert "no line of kind 'gang_settlement'" in errors["f"]
    assert errors["g"] == "" and answers[-1]["pay"] == [8, 0, 8, 8]
