"""The documented engine entry points work in a fresh interpreter (issue 12, item 11).

``engine/__init__.py`` loads its exports lazily; a lazy hook that imports a submodule named
like an exported function used to recurse forever. Each case runs in a new ``python`` so no
earlier import in the test process can hide the problem.
"""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CASES = {
    "documented": (
        "from engine import is_complete, winning_tiles\n"
        "assert is_complete([2] * 7 + [0] * 27)\n"
        "assert winning_tiles([3, 1, 1, 1, 1, 1, 1, 1, 3] + [0] * 25) == set(range(9))\n"
    ),
    "attribute": (
        "import engine\n"
        "from engine.agari import is_complete\n"
        "assert engine.is_complete is is_complete and engine.winning_tiles\n"
    ),
    "star": "from engine import *\nassert callable(is_complete) and callable(winning_tiles)\n",
    "after the submodules": (
        "import engine.shanten, engine.agari\n"
        "from engine import is_complete, winning_tiles, shanten\n"
        "assert shanten.shanten([1] * 9 + [0] * 25 , 5) <= 0\n"
    ),
    "shanten module": "from engine import shanten\nassert callable(shanten.shanten)\n",
    "unknown name": (
        "try:\n"
        "    from engine import no_such_name\n"
        "except ImportError as e:\n"
        "    assert 'no_such_name' in str(e)\n"
        "else:\n"
        "    raise SystemExit('imported a name that does not exist')\n"
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_engine_imports_in_a_fresh_interpreter(name: str) -> None:
    run = subprocess.run(
        [sys.executable, "-c", CASES[name]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, f"{name}: {run.stderr[-2000:]}"


def test_no_export_is_named_like_a_submodule() -> None:
    import engine

    submodules = {m.name for m in pkgutil.iter_modules(engine.__path__)}
    assert not set(engine.__all__) & submodules
