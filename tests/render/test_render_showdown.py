"""The 摊牌 picture (every hand laid open at a hand's end) and the final standings picture."""

from __future__ import annotations

from render.models import MeldView, ScoreItem
from render.showdown import (
    ShowdownPicture,
    ShowdownSeat,
    StandingRow,
    StandingsPicture,
    render_showdown,
    render_standings,
    showdown_image,
    standings_image,
)


def _seats() -> tuple[ShowdownSeat, ...]:
    return (
        ShowdownSeat("alice", "东", True, tuple(range(13)), delta=-8, total=-8, dealt_in=True),
        ShowdownSeat(
            "bob",
            "南",
            concealed=(9, 9, 10, 11, 12, 13, 14, 15, 16, 17),
            melds=(MeldView("pong", (30, 30, 30), fed_from=3, claimed=30),),
            winning_tile=9,
            winner=True,
            delta=8,
            total=8,
        ),
        ShowdownSeat("小明", "西", concealed=(18,) * 13, flowers=2, sanbao=True),
        ShowdownSeat("dave", "北", concealed=(27, 27, 27, 28)),
    )


def test_every_hand_is_drawn_with_its_change() -> None:
    view = ShowdownPicture(
        seats=_seats(),
        headline="bob 胡 · 点炮",
        items=(ScoreItem("清一色", "×4"),),
        total="8",
        wildcards=frozenset({18}),
        payments=("alice → bob 8 · 点炮",),
        title="第1局 · 摊牌",
    )
    img = showdown_image(view)
    assert img.width >= 760 and img.height > 4 * 60
    assert render_showdown(view).startswith(b"\x89PNG")
    # a drawn hand (nobody won) has no winning tile and still shows every hand
    drawn = ShowdownPicture(seats=_seats()[2:], headline="流局 · 荒庄")
    assert showdown_image(drawn).height < img.height


def test_standings_are_drawn_best_first() -> None:
    view = StandingsPicture(
        title="最终战绩 · 共4局",
        rows=(
            StandingRow(1, "bob", 24, 2, 1, 0, 16, winner=True),
            StandingRow(2, "alice", -8, 1, 0, 2, 8),
        ),
        footer="#7",
        stamp="解散",
    )
    img = standings_image(view)
    assert img.width >= 600 and img.height > 2 * 40
    assert render_standings(view).startswith(b"\x89PNG")
