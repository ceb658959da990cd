"""Suite-wide hooks.

Without ``TEST_POSTGRES_URL`` the PostgreSQL tests (marker ``postgres``) are deselected and
the run ends with one line saying so and how to run them, instead of one ``SKIPPED`` line
each. With ``REQUIRE_POSTGRES=1`` (CI, ``.ci/run``) they are kept, so a missing server makes
them fail (the fixtures in ``tests/db/conftest.py`` and ``tests/services/test_stats.py``).
"""

from __future__ import annotations

import os

import pytest

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
