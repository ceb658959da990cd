"""Every line of every file in the shared scoring vectors must score as written (RULES §6)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine.scoring import context_from_dict, score, score_line


def vectors_dir() -> Path:
    env = os.environ.get("MAHJONG_VECTORS_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2].parent / "shared" / "vectors"


def load_vectors() -> list[tuple[str, dict]]:
    folder = vectors_dir()
    out: list[tuple[str, dict]] = []
    if not folder.is_dir():
        return out
    for path in sorted(folder.glob("*.jsonl")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                out.append((f"{path.name}:{n}", json.loads(line)))
    return out


VECTORS = load_vectors()


def test_vectors_folder_exists_and_has_lines() -> None:
    folder = vectors_dir()
    assert folder.is_dir(), f"scoring vectors folder missing: {folder} (set MAHJONG_VECTORS_DIR)"
    files = sorted(folder.glob("*.jsonl"))
    assert files, f"no *.jsonl in {folder}"
    assert len(VECTORS) >= len(files)


@pytest.mark.parametrize(("where", "vec"), VECTORS, ids=[v.get("id", w) for w, v in VECTORS])
def test_vector(where: str, vec: dict) -> None:
    result = score(context_from_dict(vec))
    expect = vec["expect"]
    got = (result.legal, result.points)
    assert got == (expect["legal"], expect["points"]), (
        f"{where} {vec['id']} {vec['hand']}: expected {expect}, got {got} {result.items} "
        f"{result.reason} — rule: {vec.get('rule')}"
    )
    if result.legal:
        assert result.items, "a legal result must explain its points"
    else:
        assert result.points == 0 and result.reason


@pytest.mark.parametrize(
    ("where", "vec"), VECTORS[:20], ids=[v.get("id", w) for w, v in VECTORS[:20]]
)
def test_vector_through_score_line(where: str, vec: dict) -> None:
    out = score_line(vec)
    assert out["id"] == vec["id"]
    assert (out["legal"], out["points"]) == (vec["expect"]["legal"], vec["expect"]["points"])
    assert all(set(i) == {"name", "en", "value"} for i in out["items"])
