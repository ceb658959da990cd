"""Every line of every file in the shared scoring vectors must score as written (RULES §6)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine.scoring import context_from_dict, score, score_line
from engine.scoring.entry import pay_from_dict


def vectors_dir() -> Path:
    env = os.environ.get("MAHJONG_VECTORS_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2].parent / "shared" / "vectors"


def load_vectors(kind: str | None = None) -> list[tuple[str, dict]]:
    """Every line of ``vectors/*.jsonl`` and of ``vectors/next/*.jsonl`` (a variant's vectors
    before it is played, RULES §8.7) whose ``kind`` is ``kind`` (``None``: scoring lines)."""
    folder = vectors_dir()
    out: list[tuple[str, dict]] = []
    if not folder.is_dir():
        return out
    for path in sorted(folder.glob("*.jsonl")) + sorted(folder.glob("next/*.jsonl")):
        where = path.relative_to(folder).as_posix()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                vec = json.loads(line)
                if vec.get("kind") == kind:
                    out.append((f"{where}:{n}", vec))
    return out


VECTORS = load_vectors()
#: RULES §8.7 lines that settle the 精 of four seats instead of scoring a hand.
JING_SETTLEMENTS = load_vectors("jing_settlement")


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
    # an illegal hand has no points (RULES §7); the next/ files leave them out
    assert got == (expect["legal"], expect.get("points", 0)), (
        f"{where} {vec['id']} {vec['hand']}: expected {expect}, got {got} {result.items} "
        f"{result.reason} — rule: {vec.get('rule')}"
    )
    if result.legal:
        assert result.items, "a legal result must explain its points"
    else:
        assert result.points == 0 and result.reason
    if "pay" in expect:
        pay = pay_from_dict(vec, context_from_dict(vec), result)
        assert pay == expect["pay"], f"{where} {vec['id']}: pay {pay}, expected {expect['pay']}"


def test_next_vectors_are_loaded() -> None:
    """The vectors of a variant not yet played (``next/``) run with the others."""
    assert any(w.startswith("next/nanchang.jsonl") for w, _ in VECTORS)
    assert any(w.startswith("next/nanchang.jsonl") for w, _ in JING_SETTLEMENTS)


@pytest.mark.parametrize(
    ("where", "vec"), JING_SETTLEMENTS, ids=[v.get("id", w) for w, v in JING_SETTLEMENTS]
)
def test_jing_settlement_vector(where: str, vec: dict) -> None:
    out = score_line(vec)
    assert "error" not in out, f"{where}: {out}"
    expect = vec["expect"]
    got = {k: out[k] for k in expect}
    assert got == expect, f"{where} {vec['id']}: got {got}, expected {expect} — {vec.get('rule')}"
    assert sum(out["net"]) == 0


@pytest.mark.parametrize(
    ("where", "vec"), VECTORS[:20], ids=[v.get("id", w) for w, v in VECTORS[:20]]
)
def test_vector_through_score_line(where: str, vec: dict) -> None:
    out = score_line(vec)
    assert out["id"] == vec["id"]
    expect = vec["expect"]
    assert (out["legal"], out["points"]) == (expect["legal"], expect.get("points", 0))
    assert all(set(i) == {"name", "en", "value"} for i in out["items"])
