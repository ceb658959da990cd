"""How many cores busy tables need, from what one press costs (prints figures, asserts nothing).

``python -m benchmarks.cores_model BASE.json [CHECK.json ...] [--tables 1000 10000]`` reads
JSON lines printed by the load test through the real bot (``tests/e2e/loadtest_bot.py``, its
last line). The first run is the model's base: its CPU per press (the bot's process and its
picture workers) and each table's press rate. The model is linear — cores = tables × presses
per table per second × CPU per press — and it is checked against the other runs: for each,
the cores it predicts at that run's measured press rate beside the cores the run measured.

What it prints for the sizes asked (``--tables``), at the base's pace:

- ``cores``: the bot's CPU, processes and picture workers together;
- ``loop_cores``: the part on the event loops. One process's loop holds the GIL and keeps its
  answers prompt only while it is busy less than :data:`LOOP_BUSY_MAX` of the time, so this
  says how many bot processes (shards sharing one PostgreSQL database) the tables need;
- ``requests_per_s``: Discord requests outside interaction answers (the edits and posts
  Discord's global limit counts: 50 a second for a bot unless Discord raises it), at the
  base's requests per press — an upper bound: table edits thin out as tables grow (all
  tables together are edited at most ``TABLE_EDITS_PER_SECOND`` times a second), which the
  check runs show.

>>> model = Model.from_run({"tables": 100, "presses_per_s": 30.0, "bot_cpu_ms_per_press": 20.0,
...     "bot_loop_cpu_ms_per_press": 13.0, "requests_per_press": 2.5,
...     "requests_by_route": {"POST /interactions/:id/:id/callback": 1.0}})
>>> round(model.cores(1000), 2), model.processes(1000), round(model.limited_requests(1000))
(6.0, 6, 450)
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: the busiest share of its time one bot process's event loop may spend working: above it
#: answers queue (the load test's p99 answer grows sharply past it)
LOOP_BUSY_MAX = 0.7
#: the route of interaction answers, which Discord's global limit does not count
ANSWERS = "POST /interactions/:id/:id/callback"


@dataclass(frozen=True)
class Model:
    """Linear in presses: what one press costs, and how often a table presses."""

    presses_per_table_s: float
    cpu_ms_per_press: float
    loop_ms_per_press: float
    limited_requests_per_press: float

    @classmethod
    def from_run(cls, run: dict[str, Any]) -> Model:
        routes = run.get("requests_by_route") or {}
        return cls(
            presses_per_table_s=run["presses_per_s"] / run["tables"],
            cpu_ms_per_press=run["bot_cpu_ms_per_press"],
            loop_ms_per_press=run["bot_loop_cpu_ms_per_press"],
            limited_requests_per_press=run["requests_per_press"] - routes.get(ANSWERS, 0.0),
        )

    def presses_per_s(self, tables: int) -> float:
        return tables * self.presses_per_table_s

    def cores(self, tables: int, presses_per_s: float | None = None) -> float:
        """The bot's cores (processes and picture workers) at ``tables`` (or at a press
        rate measured)."""
        rate = self.presses_per_s(tables) if presses_per_s is None else presses_per_s
        return rate * self.cpu_ms_per_press / 1000

    def loop_cores(self, tables: int) -> float:
        return self.presses_per_s(tables) * self.loop_ms_per_press / 1000

    def processes(self, tables: int) -> int:
        """Bot processes whose loops stay below :data:`LOOP_BUSY_MAX` busy."""
        return max(1, math.ceil(self.loop_cores(tables) / LOOP_BUSY_MAX))

    def limited_requests(self, tables: int) -> float:
        """Requests per second that Discord's global limit counts."""
        return self.presses_per_s(tables) * self.limited_requests_per_press


def read_run(path: Path) -> dict[str, Any]:
    """The load test's JSON line (the last line of the file that parses)."""
    for line in reversed(path.read_text().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            return json.loads(line)
    raise SystemExit(f"{path}: no JSON line of the load test")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", type=Path, help="the run whose cost per press is the model")
    parser.add_argument("checks", type=Path, nargs="*", help="runs to check the model against")
    parser.add_argument("--tables", type=int, nargs="+", default=[1000, 10000])
    args = parser.parse_args(argv)
    base = read_run(args.base)
    model = Model.from_run(base)
    print(
        f"base: {base['tables']} tables × {base.get('humans_per_table', 1)} human(s), "
        f"think {base['think_s']} s: {model.presses_per_table_s:.3f} presses/s per table, "
        f"{model.cpu_ms_per_press:.1f} ms CPU per press ({model.loop_ms_per_press:.1f} on the "
        f"loop), {model.limited_requests_per_press:.2f} limited requests per press"
    )
    for path in args.checks:
        run = read_run(path)
        predicted = model.cores(run["tables"], run["presses_per_s"])
        measured = run["bot_cpu_cores"]
        error = (predicted - measured) / measured * 100 if measured else float("nan")
        print(
            f"check {run['tables']} tables (think {run['think_s']} s, "
            f"{run['presses_per_s']} presses/s, p99 {run['p99_ms']} ms): predicted "
            f"{predicted:.2f} cores, measured {measured:.2f} ({error:+.0f} %); "
            f"{run['bot_cpu_ms_per_press']} ms per press, "
            f"{Model.from_run(run).limited_requests_per_press:.2f} limited requests per press"
        )
    for tables in args.tables:
        print(
            f"{tables} tables: {model.presses_per_s(tables):.0f} presses/s, "
            f"{model.cores(tables):.1f} cores ({model.loop_cores(tables):.1f} on loops: "
            f"≥ {model.processes(tables)} bot processes at ≤ {LOOP_BUSY_MAX:.0%} busy), "
            f"{model.limited_requests(tables):.0f} limited requests/s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
