"""Draws docs/screens/leaderboard-names-*.png: a leaderboard of real-world names in three scripts.

``PYTHONPATH=. python docs/screens/leaderboard_names.py OUT.png`` — run in this tree for the
"after" picture and in a checkout of 41415c5^ (the font subset before it) for "before".
"""

import sys
from pathlib import Path

from render.leaderboard import BoardPicture, BoardRow, render_leaderboard

names = [
    "周杰伦",
    "陈奕迅",
    "蔡依林",
    "張學友",
    "김민준",
    "손흥민",
    "Łukasz 🔥",
    "🐼熊猫",
    "王小明",
    "喆堃",
]
rows = tuple(
    BoardRow(
        i + 1,
        n,
        f"{(30 - 7 * i):+d} 分",
        f"{12 - i} 局 · 胜率 {50 - 3 * i}%",
        1 if 30 - 7 * i > 0 else -1,
    )
    for i, n in enumerate(names)
)
Path(sys.argv[1]).write_bytes(
    render_leaderboard(
        BoardPicture(title="排行榜 · 积分", rows=rows, subtitle="本服 · 全部", footer="第 1/1 页")
    )
)
