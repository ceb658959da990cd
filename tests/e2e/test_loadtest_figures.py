"""The load test's CPU figures (``loadtest_bot.tree_cpu_s``): a process's own CPU, its
descendants' apart (the bot's loop vs its picture workers), and the time waited for a core."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .loadtest_bot import own_cpu_s, tree_cpu_s

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")

#: a child that burns this much CPU, says so, then waits (its CPU is counted while it lives)
BURN = (
    "import sys, time\n"
    "start = time.process_time()\n"
    "while time.process_time() - start < 0.3: pass\n"
    "print('burnt', flush=True)\n"
    "sys.stdin.read()\n"
)


def test_a_descendant_s_cpu_is_counted_apart_from_the_process_s() -> None:
    own_before, children_before, waited_before = tree_cpu_s(os.getpid())
    child = subprocess.Popen(
        [sys.executable, "-c", BURN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "burnt"
        own, children, waited = tree_cpu_s(os.getpid())
    finally:
        assert child.stdin is not None
        child.stdin.close()
        child.wait()
    assert children - children_before >= 0.3  # the child's burn, and not in ``own``
    assert own - own_before < 0.3
    assert own == pytest.approx(own_cpu_s(), abs=0.05)  # the test's own process, as os.times
    assert waited >= waited_before >= 0


def test_a_process_that_is_gone_counts_nothing() -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert tree_cpu_s(child.pid) == (0.0, 0.0, 0.0)
