"""The service layer type-checks clean under mypy (issue 16 item 6: a type checker in CI).

``python -m mypy services i18n`` runs from the repository root, reading ``[tool.mypy]`` from
pyproject.toml: the ``services.*``/``i18n.*`` override lists the flags ``--strict`` stands for
one by one (python/mypy#11401: an override's ``strict`` would apply to every module), with
``no_implicit_optional`` spelled out. Pictures and Discord code (render/, cogs/) are followed
for their types only (``follow_imports = "silent"``)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SERVICE_FLAGS = (
    "disallow_any_generics",
    "disallow_untyped_calls",
    "disallow_untyped_defs",
    "disallow_incomplete_defs",
    "check_untyped_defs",
    "no_implicit_optional",
    "warn_unused_ignores",
    "warn_return_any",
    "no_implicit_reexport",
    "strict_equality",
)


def _config() -> dict[str, Any]:
    mypy: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "tool"
    ]["mypy"]
    return mypy


def _patterns(module: str | list[str] | None) -> list[str]:
    """An override's ``module``: one pattern or a list of them."""
    if module is None:
        return []
    return [module] if isinstance(module, str) else list(module)


def _services_override(config: dict[str, Any]) -> dict[str, Any]:
    found = [
        o
        for o in config.get("overrides", [])
        if {"services.*", "i18n.*"} <= set(_patterns(o.get("module")))
    ]
    assert len(found) == 1, "pyproject.toml: one [[tool.mypy.overrides]] for services.* and i18n.*"
    return found[0]


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value)  # a string or a list of strings reads the same in TOML


def test_services_have_the_strict_flags_in_the_mypy_config() -> None:
    override = _services_override(_config())
    assert "strict" not in override, "list the flags one by one (python/mypy#11401)"
    assert {flag: override.get(flag) for flag in SERVICE_FLAGS} == dict.fromkeys(
        SERVICE_FLAGS, True
    )


def test_mypy_services_reports_no_errors(mypy) -> None:
    proc = mypy("services", "i18n")
    assert proc.returncode == 0, (
        f"mypy services i18n exited {proc.returncode}:\n{proc.stdout}{proc.stderr}"
    )


def test_mypy_engine_db_services_together_report_no_errors(mypy) -> None:
    """One run over every checked package, as CI runs it (each package's flags apply to it)."""
    proc = mypy("engine", "db", "services", "i18n")
    assert proc.returncode == 0, (
        f"mypy engine db services i18n exited {proc.returncode}:\n{proc.stdout}{proc.stderr}"
    )


def test_the_services_flags_bite_on_their_own(tmp_path: Path, mypy) -> None:
    """The override alone catches what it should: the probe's config is pyproject.toml's
    ``[tool.mypy]`` with only the services override (engine's ``strict``, which mypy applies
    everywhere, left out), over a ``services`` and an ``i18n`` package with typing faults."""
    config = _config()
    override = _services_override(config)
    lines = ["[tool.mypy]"]
    lines += [f"{k} = {_toml_value(v)}" for k, v in config.items() if k != "overrides"]
    lines += ["", "[[tool.mypy.overrides]]"]
    lines += [f"{k} = {_toml_value(v)}" for k, v in override.items()]
    (tmp_path / "pyproject.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    faults = (
        "from typing import Any\n\n\n"
        "def untyped(x):\n    return x\n\n\n"
        "def bare(x: list) -> None:\n    pass\n\n\n"
        "def implicit(x: int = None) -> None:\n    pass\n\n\n"
        "def leaks(x: Any) -> int:\n    return x.count\n"
    )
    for package in ("services", "i18n"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
        (tmp_path / package / "probe.py").write_text(faults)
    proc = mypy("services", "i18n", cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    for package in ("services", "i18n"):
        found = {
            line.rsplit("[", 1)[-1].rstrip("]")
            for line in proc.stdout.splitlines()
            if line.startswith(f"{package}/probe.py:") and "error:" in line
        }
        assert found == {"no-untyped-def", "type-arg", "assignment", "no-any-return"}, proc.stdout
