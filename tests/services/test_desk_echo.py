"""The desk echoes a typed hand as the user grouped it (full-width folded, spaces made one),
in ``/mahjong score``'s answer and in a ``/mahjong record`` message."""

from __future__ import annotations

import pytest

from cogs.desk.text import context_lines, record_lines
from services.desk import DeskQuery, score_desk
from services.records import RecordReport, prepare_record

TYPED = [
    ("123m 456m 789p 234s 99s +9s", "123m 456m 789p 234s 99s +9s"),
    ("123m456m 789p234s 99s +9s", "123m456m 789p234s 99s +9s"),
    ("99s 234s [555s] 123m  456m +9s", "99s 234s [555s] 123m 456m +9s"),
    ("１２３ｍ　４５６ｍ ７８９ｐ ２３４ｓ ９９ｓ ＋９ｓ", "123m 456m 789p 234s 99s +9s"),
]


@pytest.mark.parametrize(("typed", "echoed"), TYPED)
def test_score_echoes_the_hand_as_typed(typed: str, echoed: str) -> None:
    answer = score_desk(DeskQuery(hand=typed, variant="shangrao", bao="5p"))
    assert answer.legal
    for lang in ("zh", "zh-TW", "en"):
        assert context_lines(answer, lang)[0] == f"`{echoed}`"


@pytest.mark.parametrize(("typed", "echoed"), TYPED)
def test_record_echoes_the_hand_as_typed(typed: str, echoed: str) -> None:
    report = RecordReport(
        guild_id=1, reporter_id=1, players=(1, 2, 3, 4), winner=2, how="自摸",
        hand=DeskQuery(hand=typed, variant="shangrao", bao="5p"),
    )  # fmt: skip
    prepared = prepare_record(report)
    lines = record_lines(prepared.hand, prepared.details, "zh")
    assert any(f"`{echoed}`" in line for line in lines), lines
