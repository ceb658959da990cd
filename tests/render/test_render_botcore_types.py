"""The pictures (render/) and the bot's core (botcore/) type-check clean under mypy (issue 16
item 6, extended past engine/, db/, services/ and cogs/).

``python -m mypy render botcore`` runs from the repository root with ``[tool.mypy]`` of
pyproject.toml (render.* and botcore.* have no strict override of their own). The probes show
the check can fail: a misuse of render's and botcore's own types is reported, so their
annotations are real types, not ``Any``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from render.models import SeatView, four_seats

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("render", "botcore")
#: A ``# type: ignore`` that names no error code silences everything on its line.
BLANKET_IGNORE = re.compile(r"#\s*type:\s*ignore(?!\[)")


def test_mypy_reports_no_errors_in_render_and_botcore(mypy) -> None:
    proc = mypy(*PACKAGES)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"mypy {' '.join(PACKAGES)} exited {proc.returncode}:\n{out}"
    assert out.startswith("Success: no issues found"), out


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        (  # a table has four seats, typed as such
            "from render.models import SeatView, TablePicture\n"
            "TablePicture(seats=(SeatView('a'), SeatView('b')))\n",
            "tuple[SeatView, SeatView, SeatView, SeatView]",
        ),
        (  # a colour is a tuple of channels
            "from PIL import Image, ImageDraw\n"
            "from render.draw import badge\n"
            "badge(ImageDraw.Draw(Image.new('RGB', (9, 9))), 0, 0, 'x', 9, fill='gold')\n",
            '"fill" to "badge" has incompatible type "str"',
        ),
        (  # the translator takes discord.py's translation contexts
            "from discord.app_commands import locale_str\n"
            "from botcore.translator import command_key\n"
            "command_key(locale_str('new'), 'command_name')\n",
            'Argument 2 to "command_key" has incompatible type "str"',
        ),
    ],
)
def test_the_checker_sees_their_types(program: str, expected: str, mypy) -> None:
    proc = mypy("-c", program)
    assert proc.returncode == 1 and expected in proc.stdout, proc.stdout + proc.stderr


def test_no_blanket_type_ignore() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if BLANKET_IGNORE.search(line)
    ]
    assert found == []


def test_four_seats_are_a_tables_seats_in_order() -> None:
    seats = [SeatView(name) for name in "abcd"]
    assert four_seats(iter(seats)) == tuple(seats)
    with pytest.raises(ValueError):
        four_seats(seats[:3])
    with pytest.raises(ValueError):
        four_seats([*seats, SeatView("e")])
