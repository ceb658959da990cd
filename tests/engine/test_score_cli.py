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
