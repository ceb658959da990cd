"""Fixed pictures used by the tests and by ``make_reference.py`` (the stored references)."""

from __future__ import annotations

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
)


def table_state() -> TablePicture:
    """A Shangrao table mid-hand: melds of every kind, long and short rivers, the 宝."""
    return TablePicture(
        seats=(
            SeatView(
                name="小明",
                score=12,
                concealed_count=10,
                melds=(MeldView("pong", (31, 31, 31)),),
                river=(27, 33, 8, 17, 18, 0, 26, 30, 9, 14, 22),
                dealer=True,
            ),
            SeatView(
                name="Alice ✨ the 🀄 queen",
                score=-4,
                concealed_count=7,
                melds=(MeldView("chi", (3, 4, 5)), MeldView("concealed_kong", (20, 20, 20, 20))),
                river=(28, 29, 16, 1, 2, 23, 24, 12, 6, 5),
                auto=True,
            ),
            SeatView(
                name="Бот 2",
                score=0,
                concealed_count=13,
                river=(32, 31, 11, 25, 7, 13, 19, 21, 10, 15, 3, 4, 27),
            ),
            SeatView(
                name="王老五",
                score=-8,
                concealed_count=11,
                melds=(MeldView("kong", (9, 9, 9, 9)),),
                river=(
                    30,
                    29,
                    28,
                    27,
                    0,
                    8,
                    9,
                    17,
                    18,
                    26,
                    33,
                    32,
                    31,
                    6,
                    14,
                    15,
                    16,
                    2,
                    3,
                    21,
                    22,
                    23,
                    24,
                    25,
                    11,
                    12,
                ),
                ready=True,
            ),
        ),
        viewer=0,
        turn=1,
        wall_left=37,
        hand_number=3,
        round_label="上饶",
        bao_indicator=4,
        wildcards=frozenset({5}),
        last_discard=0,
        countdown="25秒",
    )


def jiujiang_table() -> TablePicture:
    """A Jiujiang table (no 宝, 发 laid open), seen from seat 2."""
    seats = tuple(
        SeatView(
            name=f"玩家{i + 1}",
            score=i * 3 - 4,
            concealed_count=13 - 3 * (i % 2),
            melds=((MeldView("pong", (i, i, i)),) if i % 2 else ()),
            river=tuple(range(i, 27, 3))[: 4 + i * 2],
            flowers=i,
            dealer=i == 3,
        )
        for i in range(4)
    )
    return TablePicture(
        seats=seats,
        viewer=2,
        turn=3,
        wall_left=60,
        hand_number=7,
        round_label="九江",
        last_discard=2,
        countdown="12秒",
    )


def hand_state() -> HandPicture:
    return HandPicture(
        concealed=(0, 1, 2, 10, 11, 12, 20, 20, 5, 27, 31, 5, 14),
        drawn=14,
        wildcards=frozenset({5}),
        title="小明 · 第3局",
        labels=True,
    )


def result_state() -> ResultPicture:
    return ResultPicture(
        winner="小明",
        concealed=(0, 1, 2, 9, 10, 11, 19, 20, 21, 5, 33),
        winning_tile=33,
        melds=(MeldView("pong", (31, 31, 31)),),
        items=(
            ScoreItem("碰碰胡", "12"),
            ScoreItem("宝吊", "×1"),
            ScoreItem("飞宝", "×2"),
            ScoreItem("杠上开花", "×2"),
        ),
        total="48分",
        win_mode="自摸",
        wildcards=frozenset({5}),
        changes=(
            SeatChange("小明", 144, 156, winner=True, dealer=True),
            SeatChange("Alice", -48, -52),
            SeatChange("Бот 2", -48, -48),
            SeatChange("王老五", -48, -56),
        ),
        title="第3局 · 上饶",
    )


def draw_result() -> ResultPicture:
    return ResultPicture(
        changes=tuple(
            SeatChange(n, 0, t) for n, t in (("小明", 12), ("A", -4), ("B", 0), ("C", -8))
        ),
        title="第4局 · 上饶",
    )


def fed_table() -> TablePicture:
    """Claimed melds on every seat, each turned towards its feeder (from the owner's seat):
    上家 left, 对家 middle, 下家 right, an added kong (补杠) stacked, a concealed kong."""
    return TablePicture(
        seats=(
            SeatView(
                name="小明",
                score=12,
                concealed_count=7,
                melds=(
                    MeldView("chi", (3, 4, 5), fed_from=SHANGJIA, claimed=4),
                    MeldView("pong", (31, 31, 31), fed_from=DUIJIA),
                ),
                river=(27, 33, 8, 17, 18),
                dealer=True,
            ),
            SeatView(
                name="Alice",
                score=-4,
                concealed_count=7,
                melds=(
                    MeldView("pong", (12, 12, 12), fed_from=XIAJIA),
                    MeldView("kong", (20, 20, 20, 20), fed_from=SHANGJIA, added=True),
                ),
                river=(28, 29, 16, 1),
            ),
            SeatView(
                name="Бот 2",
                score=0,
                concealed_count=8,
                melds=(
                    MeldView("kong", (9, 9, 9, 9), fed_from=DUIJIA, added=True),
                    MeldView("concealed_kong", (30, 30, 30, 30)),
                ),
                river=(32, 31, 11, 25, 7),
            ),
            SeatView(
                name="王老五",
                score=-8,
                concealed_count=10,
                melds=(MeldView("kong", (22, 22, 22, 22), fed_from=XIAJIA),),
                river=(30, 29, 28, 27, 0, 8),
                ready=True,
            ),
        ),
        viewer=0,
        turn=1,
        wall_left=37,
        hand_number=3,
        round_label="上饶",
        bao_indicator=4,
        wildcards=frozenset({5}),
        last_discard=0,
        countdown="25秒",
    )


def fed_hand() -> HandPicture:
    """A hand with a chi from the 上家, a pong from the 对家 and an added kong (补杠) fed by
    the 下家; the 宝 (5p) is in the pong."""
    return HandPicture(
        concealed=(0, 1, 2, 5, 27),
        drawn=27,
        melds=(
            MeldView("chi", (19, 20, 21), fed_from=SHANGJIA, claimed=21),
            MeldView("pong", (13, 13, 13), fed_from=DUIJIA),
            MeldView("kong", (31, 31, 31, 31), fed_from=XIAJIA, added=True),
        ),
        wildcards=frozenset({13}),
        title="小明 · 第3局",
    )


def fed_result() -> ResultPicture:
    """A won hand with a kong from the 对家 and a pong from the 下家."""
    return ResultPicture(
        winner="小明",
        concealed=(0, 1, 2, 9, 33),
        winning_tile=33,
        melds=(
            MeldView("kong", (31, 31, 31, 31), fed_from=DUIJIA),
            MeldView("pong", (25, 25, 25), fed_from=XIAJIA),
            MeldView("kong", (27, 27, 27, 27), fed_from=SHANGJIA, added=True),
        ),
        items=(ScoreItem("碰碰胡", "12"),),
        total="12分",
        win_mode="点炮 · Alice",
        changes=(
            SeatChange("小明", 12, 24, winner=True),
            SeatChange("Alice", -12, -16),
            SeatChange("Бот 2", 0, 0),
            SeatChange("王老五", 0, -8),
        ),
        title="第3局 · 上饶",
    )
