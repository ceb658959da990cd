"""Suite-wide hooks.

Without ``TEST_POSTGRES_URL`` the PostgreSQL tests (marker ``postgres``) are deselected and
the run ends with one line saying so and how to run them, instead of one ``SKIPPED`` line
each. With ``REQUIRE_POSTGRES=1`` (CI, ``.ci/run``) they are kept, so a missing server makes
them fail (the fixtures in ``tests/db/conftest.py``, ``tests/services/svc_postgres.py`` and
``tests/e2e/backends.py``). The services and end-to-end tests run on both databases: their
``[postgres]`` variants carry the marker and are counted in that line.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: ``mypy(*args, cwd=ROOT)``: one ``python -m mypy`` run (pyproject.toml's ``[tool.mypy]`` from
#: ``cwd``), as the type tests of every package run it
RunMypy = Callable[..., "subprocess.CompletedProcess[str]"]

_NOT_RUN = pytest.StashKey[int]()

HOW_TO_RUN = (
    "set TEST_POSTGRES_URL (e.g. postgresql+asyncpg://postgres:postgres@127.0.0.1:5432/"
    "mahjong_test), or run .ci/run, which starts a PostgreSQL server"
)


def postgres_tests_wanted() -> bool:
    """Whether the PostgreSQL tests stay in the run (a server is given, or CI demands them)."""
    return bool(os.environ.get("TEST_POSTGRES_URL")) or os.environ.get("REQUIRE_POSTGRES") == "1"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if postgres_tests_wanted():
        return
    kept = [item for item in items if item.get_closest_marker("postgres") is None]
    dropped = [item for item in items if item.get_closest_marker("postgres") is not None]
    if not dropped:
        return
    config.hook.pytest_deselected(items=dropped)
    items[:] = kept
    config.stash[_NOT_RUN] = len(dropped)


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    count = config.stash.get(_NOT_RUN, 0)
    if count:
        terminalreporter.write_line(
            f"{count} PostgreSQL test(s) not run: TEST_POSTGRES_URL is not set; to run them, "
            f"{HOW_TO_RUN}.",
            yellow=True,
        )


@pytest.fixture(scope="session")
def mypy() -> RunMypy:
    """Run mypy as CI does (``python -m mypy …`` from the repository root unless ``cwd``)."""

    def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "mypy", *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=600,
        )

    return run
