"""Without PostgreSQL the run says once that its tests were not run (tests/conftest.py).

Each case runs pytest in a subprocess on a tiny project that uses the suite's own
``tests/conftest.py``: one PostgreSQL-marked test that fails when run, one plain test.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CONFTEST = Path(__file__).resolve().parents[1] / "conftest.py"

TESTS = """
import pytest

@pytest.mark.postgres
def test_on_postgres():
    pytest.fail("needs a server")

@pytest.mark.postgres
def test_on_postgres_too():
    pytest.fail("needs a server")

def test_plain():
    pass
"""

INI = """[pytest]
markers =
    postgres: needs PostgreSQL
addopts = -ra -p no:cacheprovider
"""


def _run(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    shutil.copy(CONFTEST, tmp_path / "conftest.py")
    (tmp_path / "test_sample.py").write_text(TESTS)
    (tmp_path / "pytest.ini").write_text(INI)
    environ = {
        k: v for k, v in os.environ.items() if k not in ("TEST_POSTGRES_URL", "REQUIRE_POSTGRES")
    }
    environ.update(env)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-v", str(tmp_path)],
        cwd=tmp_path,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_without_a_server_one_line_says_what_was_not_run(tmp_path: Path) -> None:
    run = _run(tmp_path)
    assert run.returncode == 0, run.stdout
    assert "SKIPPED" not in run.stdout
    assert "test_on_postgres" not in run.stdout
    lines = [line for line in run.stdout.splitlines() if "PostgreSQL test" in line]
    assert len(lines) == 1, run.stdout
    assert lines[0].startswith("2 PostgreSQL test(s) not run")
    assert "TEST_POSTGRES_URL" in lines[0] and ".ci/run" in lines[0]
    assert "1 passed, 2 deselected" in run.stdout


@pytest.mark.parametrize(
    "env", [{"REQUIRE_POSTGRES": "1"}, {"TEST_POSTGRES_URL": "postgresql+asyncpg://x/y"}]
)
def test_with_a_server_or_in_ci_they_are_kept(tmp_path: Path, env: dict[str, str]) -> None:
    run = _run(tmp_path, **env)
    assert run.returncode == 1, run.stdout
    assert "2 failed, 1 passed" in run.stdout
    assert "not run" not in run.stdout
