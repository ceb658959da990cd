"""The Discord layer type-checks under mypy (issue 16 items 4 and 6).

``python -m mypy cogs`` runs from the repository root with ``[tool.mypy]`` of pyproject.toml
(not strict: cogs/ has no override of its own). The packages cogs/ imports are reported by
their own tests (tests/db, tests/services, tests/engine); this one holds cogs/ to no errors.
The delivery is composed of collaborators with typed constructors, so no module of cogs/
reaches another's attributes behind ``# type: ignore[attr-defined]``."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SUMMARY = re.compile(
    r"^(Success: no issues found in \d+ source files?"
    r"|Found \d+ errors? in \d+ files? \(checked \d+ source files?\))$"
)


def test_mypy_reports_no_errors_in_cogs(mypy) -> None:
    proc = mypy("cogs")
    out = proc.stdout + proc.stderr
    assert any(SUMMARY.match(line) for line in out.splitlines()), f"mypy did not finish:\n{out}"
    ours = [line for line in out.splitlines() if line.startswith("cogs/") and ": error:" in line]
    assert ours == [], "\n".join(ours)


def test_no_attribute_is_reached_past_the_checker() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted((ROOT / "cogs").rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"type:\s*ignore\[[^\]]*attr-defined", line)
    ]
    assert found == []
