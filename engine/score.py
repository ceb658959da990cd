"""``python -m engine.score``: score hands given as RULES §6 JSON lines.

Reads one JSON object a line on stdin and writes one JSON line per input:
``{"id", "legal", "points", "items": [{"name", "en", "value"}]}``, or ``{"id", "error"}`` for a
line it cannot read (the other lines still run). Blank lines are skipped.

    echo '{"id": "a", "variant": "xinyu", "hand": "123m456m789p234s99s +9s", "win": "self"}' \\
        | python -m engine.score

A line naming the winner's ``seat`` (0–3; ``from``: the discarder's or robbed seat;
``dealer``: seat 0 unless given) is also answered with ``pay``, what seats 0–3 pay the winner.
南昌 lines (RULES §8.7) give the two 精 as ``"jing": ["5p", "6p"]`` (正精, then 副精) and may
flag ``no_jing_elsewhere``; a ``"kind": "jing_settlement"`` line with ``holdings`` per seat
(``[正精, 副精, 精 kongs]``) is answered with ``amount``, ``gang_jing`` and ``net``.

A variant outside ``engine/variants/`` (a test's toy variant, a plug-in) is registered by
naming its module: ``--variant-module tests.engine.toy_variant`` (repeatable), or the
``MAHJONG_VARIANTS`` environment variable (comma-separated module names). The module exposes
``VARIANT`` (an :class:`engine.variants.Variant`) or calls :func:`engine.variants.register`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from engine import variants
from engine.scoring import score_line


def score_lines(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """One answer per non-blank input line (an ``error`` answer for a line that is no JSON)."""
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            yield {"id": None, "error": f"line {n} is not JSON: {e.msg} (column {e.colno})"}
            continue
        try:
            yield score_line(obj)
        except Exception as e:
            ident = obj.get("id") if isinstance(obj, dict) else None
            yield {"id": ident, "error": f"internal error: {type(e).__name__}: {e}"}


def main(
    stdin: TextIO | None = None, stdout: TextIO | None = None, argv: list[str] | None = None
) -> int:
    """Run the CLI; returns the exit status (0, even when some lines had errors; 2 when a
    ``--variant-module`` cannot be imported)."""
    p = argparse.ArgumentParser(prog="python -m engine.score", description=__doc__.splitlines()[0])
    p.add_argument(
        "--variant-module",
        action="append",
        default=[],
        metavar="MODULE",
        help=f"import MODULE to register its variant (also ${variants.ENV_VAR}, comma-separated)",
    )
    a = p.parse_args([] if argv is None and stdin is not None else argv)
    try:
        variants.load_plugins(a.variant_module, os.environ)
    except ImportError as e:
        p.error(f"cannot import a variant module: {e}")
    src = sys.stdin if stdin is None else stdin
    dst = sys.stdout if stdout is None else stdout
    for answer in score_lines(src):
        dst.write(json.dumps(answer, ensure_ascii=False) + "\n")
        dst.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
