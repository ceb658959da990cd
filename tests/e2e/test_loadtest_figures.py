"""The load test's CPU figures (``loadtest_bot.tree_cpu_s``): a process's own CPU, its
descendants' apart (the bot's loop vs its picture workers), and the time waited for a core."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .loadtest_bot import tree_cpu_s

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")

#: a child that burns this much CPU, says so, then waits (its CPU is counted while it lives)
BURN = (
    "import sys, time\n"
    "start = time.process_time()\n"
    "while time.process_time() - start < 0.3: pass\n"
    "print('burnt', flush=True)\n"
    "sys.stdin.read()\n"
)


#: measured in a process of its own: in the test run's process, a thread or a child left by an
#: earlier test may end between the two readings and take its CPU and waits along
MEASURE = (
    "import json, os, subprocess, sys\n"
    "from tests.e2e.loadtest_bot import own_cpu_s, tree_cpu_s\n"
    "before = tree_cpu_s(os.getpid())\n"
    "child = subprocess.Popen([sys.executable, '-c', sys.argv[1]], stdin=subprocess.PIPE,\n"
    "                         stdout=subprocess.PIPE, text=True)\n"
    "burnt = child.stdout.readline().strip()\n"
    "after = tree_cpu_s(os.getpid())\n"
    "own_now = own_cpu_s()\n"
    "child.stdin.close()\n"
    "child.wait()\n"
    "print(json.dumps({'burnt': burnt, 'before': before, 'after': after, 'own': own_now}))\n"
)


def test_a_descendant_s_cpu_is_counted_apart_from_the_process_s() -> None:
    repo = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(repo)}
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, BURN],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    assert figures["burnt"] == "burnt"
    own_before, children_before, waited_before = figures["before"]
    own, children, waited = figures["after"]
    assert children - children_before >= 0.3  # the child's burn, and not in ``own``
    assert own - own_before < 0.3
    assert own == pytest.approx(figures["own"], abs=0.05)  # the process's own, as os.times
    assert waited >= waited_before >= 0


def test_a_process_that_is_gone_counts_nothing() -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert tree_cpu_s(child.pid) == (0.0, 0.0, 0.0)
