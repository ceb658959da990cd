"""Impossible hands are refused with a reason, never scored (RULES §7, issue 17 item 7), and a
sequence meld is no hand where there is no chi (item 6)."""

from __future__ import annotations

import pytest

from engine.scoring import score
from engine.scoring.entry import context_from_dict, score_line


def _score(**fields):
    obj = {"win": "self", **fields}
    return score(context_from_dict(obj))


SHANGRAO = {"variant": "shangrao", "options": {"scoring": "classic"}}


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        # a claimed pong / kong / chi of the 宝's kind: a discarded 宝 is taken only by 接宝
        ({**SHANGRAO, "bao": "5p", "hand": "123m456m789s11z [555p] +1z"}, "宝牌不能碰杠"),
        ({**SHANGRAO, "bao": "5p", "hand": "123m456m789s11z [5555p] +1z"}, "宝牌不能碰杠"),
        ({**SHANGRAO, "bao": "5p", "hand": "123m456m789s11z [456p] +1z"}, "宝牌不能碰杠"),
        # a 5th tile of the indicator's kind (the indicator, 4p, lies face up)
        ({**SHANGRAO, "bao": "5p", "hand": "123m456m789s11z [4444p] +1z"}, "跌宝牌"),
        # more kong draws than kongs
        (
            {**SHANGRAO, "bao": "5p", "hand": "123m456m789s11z (1111s) +1z", "kong_draws": 2},
            "杠上开花",
        ),
        # 接宝 / 四个宝 with more 宝 than exist
        (
            {
                **SHANGRAO,
                "bao": "5p",
                "hand": "1m5m9m2p6p1s5s9s1z3z5p5p5p5p +5p",
                "win": "discard",
                "flags": ["jiebao"],
                "flown": 1,
            },
            "宝只有 4 张",
        ),
        (
            {
                **SHANGRAO,
                "bao": "5p",
                "hand": "123m456m789s5p5p5p11z +1z",
                "flags": ["four_bao"],
                "flown": 2,
            },
            "宝只有 4 张",
        ),
        # more than 4 发 flowers
        ({"variant": "jiujiang", "hand": "123m456m789p234s99s +9s", "flowers": 5}, "发最多 4 张"),
        # no chi: Xinyu, and Jiujiang without option chi
        ({"variant": "xinyu", "hand": "456s11z [345s] [678m] [777m] +1z"}, "不能吃"),
        ({"variant": "jiujiang", "hand": "567888m33p555s [234s] +8m"}, "不能吃"),
    ],
)
def test_impossible_hand_is_refused_with_its_reason(fields: dict, why: str) -> None:
    r = _score(**fields)
    assert (r.legal, r.points) == (False, 0)
    assert why in r.reason
    line = score_line({"id": "x", "win": "self", **fields})
    assert line["legal"] is False and why in line["reason"]


def test_the_same_hands_made_possible_are_scored() -> None:
    """Each refusal is about the impossible part only: fix it and the hand scores."""
    assert _score(**SHANGRAO, bao="6p", hand="123m456m789s11z [555p] +1z").legal
    assert _score(**SHANGRAO, bao="5p", hand="123m456m789s11z (1111s) +1z", kong_draws=1).legal
    assert _score(**SHANGRAO, bao="5p", hand="123m456m789s11z [444p] +1z").legal
    assert _score(variant="jiujiang", hand="123m456m789p234s99s +9s", flowers=4).legal
    chi = {"chi": True}
    assert _score(variant="jiujiang", options=chi, hand="567888m33p555s [234s] +8m").legal
    assert _score(variant="jiujiang", hand="567888m33p555s [222s] +8m").legal
