"""Regenerate the stored reference pictures: ``python tests/render/make_reference.py``.

Run it only after a deliberate change of the art or layout, look at the new PNGs, and commit
them with the change. ``test_render_pictures.py`` compares fresh renders with these files.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REFERENCE = HERE / "reference"


def references() -> dict[str, bytes]:
    """File name → PNG bytes of every reference picture, rendered now."""
    from render_fixtures import (
        draw_result,
        fed_hand,
        fed_result,
        fed_table,
        hand_state,
        jiujiang_table,
        result_state,
        table_state,
    )

    from render import render_hand, render_result, render_table

    return {
        "table_shangrao.png": render_table(table_state()),
        "table_jiujiang.png": render_table(jiujiang_table()),
        "hand.png": render_hand(hand_state()),
        "result.png": render_result(result_state()),
        "result_draw.png": render_result(draw_result()),
        "table_fed.png": render_table(fed_table()),
        "hand_fed.png": render_hand(fed_hand()),
        "result_fed.png": render_result(fed_result()),
    }


def main() -> None:
    REFERENCE.mkdir(exist_ok=True)
    for name, data in references().items():
        (REFERENCE / name).write_bytes(data)
        print(f"{name}: {len(data) / 1024:.1f} KiB")


if __name__ == "__main__":
    sys.path[:0] = [str(HERE), str(HERE.parent.parent)]
    main()
