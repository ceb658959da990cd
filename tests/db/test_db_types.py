"""The store type-checks clean under mypy with the flags of ``--strict`` (issue 16: a type
checker in CI). ``python -m mypy db`` runs from the repository root, reading ``[tool.mypy]``
from pyproject.toml (the ``db.*`` override lists the strict flags one by one)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STRICT_FLAGS = (
    "disallow_untyped_defs",
    "disallow_incomplete_defs",
    "disallow_any_generics",
    "check_untyped_defs",
    "warn_return_any",
    "no_implicit_reexport",
    "strict_equality",
)


def test_db_has_the_strict_flags_in_the_mypy_config() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    db = [o for o in config.get("overrides", []) if o.get("module") == "db.*"]
    assert db, "pyproject.toml: no [[tool.mypy.overrides]] for db.*"
    assert "strict" not in db[0], "list the flags one by one (python/mypy#11401)"
    assert {flag: db[0].get(flag) for flag in STRICT_FLAGS} == dict.fromkeys(STRICT_FLAGS, True)


def test_mypy_db_reports_no_errors(mypy) -> None:
    proc = mypy("db")
    assert proc.returncode == 0, f"mypy db exited {proc.returncode}:\n{proc.stdout}{proc.stderr}"


def test_the_db_flags_catch_an_untyped_function(tmp_path: Path, mypy) -> None:
    """The override bites: a ``db`` module with an untyped function fails the same run."""
    package = tmp_path / "db"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "probe.py").write_text("def untyped(x):\n    return x\n")
    proc = mypy("--config-file", str(ROOT / "pyproject.toml"), "db", cwd=tmp_path)
    assert proc.returncode == 1
    assert "missing a type annotation" in proc.stdout
