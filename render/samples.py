"""Sample pictures: a busy table, a hand and a result.

Used by the benchmark and to build the shared PNG palette (``render.palette``); changing them
changes the palette, so regenerate the test references afterwards.
"""

from __future__ import annotations

from dataclasses import replace

from render.models import (
    DUIJIA,
    SHANGJIA,
    XIAJIA,
    HandPicture,
    MeldView,
    ResultPicture,
    ScoreItem,
    SeatChange,
    SeatView,
    TablePicture,
    four_seats,
)


def sample_table() -> TablePicture:
    """A busy table: long rivers, melds on every seat, the 宝 shown."""
    seats = four_seats(
        SeatView(
            name=f"玩家{i + 1} Player",
            score=(i - 2) * 7,
            concealed_count=13 - 3 * (i % 3),
            melds=tuple(MeldView("pong", (i * 7 + j,) * 3) for j in range(i % 3)),
            river=tuple((i * 5 + j * 7) % 34 for j in range(18 + i)),
            flowers=i % 2,
            dealer=i == 0,
        )
        for i in range(4)
    )
    return TablePicture(
        seats=seats,
        viewer=0,
        turn=2,
        wall_left=41,
        hand_number=5,
        round_label="上饶",
        bao_indicator=8,
        wildcards=frozenset({0}),
        last_discard=1,
        countdown="20秒",
    )


def sample_fed_table() -> TablePicture:
    """:func:`sample_table` with claimed melds on every seat: sideways tiles for each feeder
    and an added kong (补杠). Not part of the palette sample (same colours as upright tiles)."""
    table = sample_table()
    melds = (
        MeldView("chi", (0, 1, 2), fed_from=SHANGJIA, claimed=1),
        MeldView("pong", (13, 13, 13), fed_from=DUIJIA),
        MeldView("kong", (31,) * 4, fed_from=XIAJIA, added=True),
    )
    seats = four_seats(replace(s, melds=melds, concealed_count=4) for s in table.seats)
    return replace(table, seats=seats)


def sample_fed_hand() -> HandPicture:
    """:func:`sample_hand` with claimed melds (a chi, a pong from across, an added kong)."""
    return replace(
        sample_hand(),
        concealed=(0, 0, 1, 2),
        melds=sample_fed_table().seats[0].melds,
    )


def sample_hand() -> HandPicture:
    return HandPicture(
        concealed=(0, 0, 1, 2, 3, 10, 11, 12, 19, 20, 21, 27, 27),
        drawn=31,
        wildcards=frozenset({0}),
        title="玩家1 · 第5局",
        labels=True,
    )


def sample_result() -> ResultPicture:
    return ResultPicture(
        winner="玩家1",
        concealed=(0, 1, 2, 10, 11, 12, 19, 20, 21, 27),
        winning_tile=27,
        melds=(MeldView("pong", (31, 31, 31)),),
        wildcards=frozenset({0}),
        win_mode="自摸",
        items=(ScoreItem("清一色", "×4"), ScoreItem("门清", "×2"), ScoreItem("杠上开花", "×2")),
        total="16分",
        changes=tuple(
            SeatChange(f"玩家{i + 1}", 48 if i == 0 else -16, 100, winner=i == 0) for i in range(4)
        ),
    )
