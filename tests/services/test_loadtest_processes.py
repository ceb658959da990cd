"""The several-process load test (``python -m benchmarks.loadtest --processes 2``) on
PostgreSQL: two worker processes share the tables and one database, and every acknowledged
press is in the stored log exactly once (it prints figures; this checks the bookkeeping)."""

from __future__ import annotations

import pytest
from svc_postgres import fresh_postgres

from benchmarks.loadtest import main_async, parse_args

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


async def test_two_processes_lose_nothing_and_apply_nothing_twice() -> None:
    async for url in fresh_postgres():
        args = parse_args(
            [
                "--processes", "2", "--games", "6", "--seconds", "4", "--think", "0.2",
                "--afk", "0.2", "--turn-timeout", "1", "--no-pictures", "--db", url,
            ]
        )  # fmt: skip
        out = await main_async(args)
        assert out["processes"] == 2 and out["games"] == 6
        assert out["games_opened"] >= 6
        assert out["presses"] > 0 and out["errors"] == 0
        assert out["double_applied"] == 0
        assert out["lost_actions"] == 0
        assert out["database"] == "postgresql"
