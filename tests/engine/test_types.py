"""The engine type-checks clean under ``mypy --strict`` (issue 16: a type checker in CI).

``python -m mypy engine`` is run from the repository root, so it reads ``[tool.mypy]`` from
pyproject.toml (strict for ``engine.*``). A cold run takes a couple of seconds; mypy's cache
(``.mypy_cache``, which ignores itself in git) makes the next ones faster.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_engine_is_strict_in_the_mypy_config() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    engine = [o for o in config.get("overrides", []) if o.get("module") == "engine.*"]
    assert engine and engine[0].get("strict") is True, "pyproject.toml: engine.* must be strict"


def test_mypy_engine_reports_no_errors(mypy) -> None:
    proc = mypy("engine")
    hint = (
        " (install the test extra: pip install -e '.[test]')" if "No module" in proc.stderr else ""
    )
    assert proc.returncode == 0, (
        f"mypy engine exited {proc.returncode}{hint}:\n{proc.stdout}{proc.stderr}"
    )
