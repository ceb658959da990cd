"""The garbage collector tuned for the long-running bot (:mod:`botcore.gc_tuning`)."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest

from botcore.gc_tuning import THRESHOLDS, tune_gc
from botcore.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def test_tuning_raises_the_thresholds_and_freezes_what_lives() -> None:
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    try:
        kept = [[i] for i in range(1000)]  # alive at start-up: frozen, never walked again
        assert tune_gc() == THRESHOLDS
        assert gc.get_threshold() == THRESHOLDS and THRESHOLDS[0] > before[0]
        assert gc.get_freeze_count() >= frozen + len(kept)
        cycle: list[object] = []
        cycle.append(cycle)  # cycles are still collected
        del cycle
        assert gc.collect() >= 1
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_the_setting_turns_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings(_env_file=None).gc_tuning is True  # type: ignore[call-arg]
    monkeypatch.setenv("GC_TUNING", "false")
    assert Settings(_env_file=None).gc_tuning is False  # type: ignore[call-arg]


def test_the_bot_entry_point_tunes_it() -> None:
    """``bot.py``'s ``main`` tunes the collector before it runs the bot (here it stops at
    once: the token is refused by a loop that never starts)."""
    probe = (
        "import gc, bot, botcore.event_loop as el\n"
        "seen = {}\n"
        "def fake_run(coro, **kw):\n"
        "    coro.close(); seen['t'] = gc.get_threshold(); return 0\n"
        "bot.run = fake_run\n"
        "print(bot.main(), seen['t'])\n"
    )
    env = {**os.environ, "DISCORD_TOKEN": "x" * 59, "DATABASE_URL": "sqlite+aiosqlite://"}
    env.pop("GC_TUNING", None)
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split(maxsplit=1)[1].strip() == str(THRESHOLDS)
