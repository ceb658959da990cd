"""南昌 hands reach the result message and the 摊牌 picture with their 精 settlement: each
seat's 精 count (正精 ×2 + 副精) and what it paid or got, itemised, zero-sum, in every language
— a won hand and a drawn hand alike — and the deltas the store records include it."""

from __future__ import annotations

import pytest

from cogs.game.session import showdown_picture
from cogs.game.session_text import showdown_lines
from engine.game.actions import Discard, Pass
from engine.game.legal import legal_actions, waiting_for
from engine.game.machine import advance, new_game
from engine.game.simulate import play_hand
from engine.game.step import step_of
from services.delivery import GameSummary
from services.gamelog import LiveGame
from services.model import HandResult, Seat
from services.real_engine import RealEngine
from services.recording import hand_input
from services.showdown import SETTLEMENT_KINDS, changes, jing_rows, pay_lines

#: a seed whose AI-played hand ends with seat 1 holding 2 正精 + 1 副精 = 5: 冲关 10 from each
CHONGGUAN_SEED = "s9"
SETTLED = set(SETTLEMENT_KINDS.values())
HEADINGS = {"zh": "精分结算", "zh-TW": "精分結算", "en": "精 settlement"}
COUNT_WORDS = {"zh": "正精2 副精1，共5精", "zh-TW": "正精2 副精1，共5精", "en": "= 5 精 points"}
CHONGGUAN = {"zh": "冲关", "zh-TW": "衝關", "en": "冲关 (精 over the bar)"}


def _game() -> GameSummary:
    return GameSummary(
        id=7,
        guild_id=1,
        channel_id=2,
        variant="nanchang",
        options={},
        seats=tuple(Seat(name=f"p{i}", user_id=100 + i) for i in range(4)),
        status="active",
        version=1,
        totals=(0, 0, 0, 0),
        hand_no=1,
        phase="over",
    )


def _won() -> HandResult:
    g = play_hand(new_game("nanchang", seed=CHONGGUAN_SEED).state, [])
    result = RealEngine().hand_result(g)
    assert result is not None and result.winners
    return result


def _drawn() -> HandResult:
    """A hand played to the draw: every seat passes every claim and throws what it drew."""
    step = step_of(new_game("nanchang", seed="a").state)
    for _ in range(500):
        g = step.state
        if g.hand.phase == "over":
            break
        seat = waiting_for(g)[0]
        legal = legal_actions(g, seat)
        if Pass() in legal:
            step = advance(step, seat, Pass())
            continue
        drawn = g.hand.seats[seat].drawn
        want = Discard(drawn >> 2) if drawn is not None else None
        pick = want if want in legal else next(a for a in legal if isinstance(a, Discard))
        step = advance(step, seat, pick)
    result = RealEngine().hand_result(step.state)
    assert result is not None and result.how == "draw"
    return result


def _check_zero_sum_and_itemised(result: HandResult) -> None:
    lines = pay_lines(result)
    assert sum(result.deltas) == 0
    assert changes(lines) == list(result.deltas)  # every point has its line
    assert all(line.kind != "other" for line in lines)
    # the settlement's own lines add up to each seat's settlement net
    settled = [line for line in lines if line.kind in SETTLED]
    assert changes(settled) == [row.net for row in jing_rows(result)]


@pytest.mark.parametrize("lang", ["zh", "zh-TW", "en"])
def test_a_won_hand_shows_each_seats_jing_and_the_chongguan_itemised(lang: str) -> None:
    result = _won()
    rows = jing_rows(result)
    assert [(r.zheng, r.fu, r.points) for r in rows][1] == (2, 1, 5)
    assert rows[1].chongguan and rows[1].amount == 10
    _check_zero_sum_and_itemised(result)
    text = "\n".join(showdown_lines(_game(), result, lang))
    assert HEADINGS[lang] in text
    jing = text.split(HEADINGS[lang], 1)[1].splitlines()[1:5]
    assert [line.split(":" if lang == "en" else "：", 1)[0] for line in jing] == [
        "p0",
        "p1",
        "p2",
        "p3",
    ]
    assert COUNT_WORDS[lang] in jing[1]
    for payer in ("p0", "p2", "p3"):
        assert f"{payer} → p1 10 · {CHONGGUAN[lang]}" in text
    for row, line in zip(rows, jing, strict=True):
        assert line.endswith(f"{row.net:+d}")


def test_the_showdown_picture_carries_the_jing_lines_and_their_payments() -> None:
    result = _won()
    picture = showdown_picture(_game(), result, "zh")
    assert len(picture.notes) == 4 and picture.notes[1].startswith("p1：正精2 副精1，共5精")
    assert "p0 → p1 10 · 冲关" in picture.payments


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_drawn_hand_is_settled_and_shown(lang: str) -> None:
    result = _drawn()
    rows = jing_rows(result)
    assert len(rows) == 4 and all(r.amount is not None for r in rows)  # jing_on_draw default
    assert any(r.points for r in rows)
    _check_zero_sum_and_itemised(result)
    text = "\n".join(showdown_lines(_game(), result, lang))
    assert HEADINGS[lang] in text
    assert any(line.kind in SETTLED for line in pay_lines(result))


def test_the_recorded_deltas_are_the_win_payments_and_the_settlement() -> None:
    result = _won()
    win = [line for line in pay_lines(result) if line.kind not in SETTLED]
    expected = [a + r.net for a, r in zip(changes(win), jing_rows(result), strict=True)]
    assert list(result.deltas) == expected
    live = LiveGame(
        id=7,
        guild_id=1,
        channel_id=2,
        variant="nanchang",
        options={},
        status="active",
        version=1,
        totals=[0, 0, 0, 0],
        seats=[Seat(name=f"p{i}", user_id=100 + i) for i in range(4)],
    )
    recorded = hand_input(live, result)
    assert [p.delta for p in recorded.players] == expected


def test_every_settlement_item_has_its_own_line_in_every_language() -> None:
    """霸王精 with 包 (seat 2 supplied the 精: it pays for all three), 杠精, 杠分 and 抄庄, as the
    engine words their payments, each shown as what it is; the lines add up to the deltas."""
    payments = (
        (2, 1, 60, "冲关 · 精 over the bar · 霸王精 · 包 (supplied the 精)"),
        (0, 1, 10, "杠精 · kong of a 精"),
        (2, 1, 10, "杠精 · kong of a 精"),
        (3, 1, 10, "杠精 · kong of a 精"),
        (1, 3, 2, "暗杠 · concealed kong"),
        (0, 3, 2, "暗杠 · concealed kong"),
        (2, 3, 2, "暗杠 · concealed kong"),
        (0, 1, 5, "抄庄 · followed"),
        (0, 2, 5, "抄庄 · followed"),
        (0, 3, 5, "抄庄 · followed"),
    )
    settlement = (
        {"zheng": 0, "fu": 0, "jing": 0, "amount": 0, "chongguan": False, "bawang": False,
         "gang_jing": 0, "liable": None, "kong_points": -2, "net": -27},
        {"zheng": 3, "fu": 1, "jing": 7, "amount": 20, "chongguan": True, "bawang": True,
         "gang_jing": 10, "liable": 2, "kong_points": -2, "net": 93},
        {"zheng": 0, "fu": 0, "jing": 0, "amount": 0, "chongguan": False, "bawang": False,
         "gang_jing": 0, "liable": None, "kong_points": -2, "net": -67},
        {"zheng": 0, "fu": 0, "jing": 0, "amount": 0, "chongguan": False, "bawang": False,
         "gang_jing": 0, "liable": None, "kong_points": 6, "net": 1},
    )  # fmt: skip
    result = HandResult(
        hand_no=3,
        how="draw",
        winners=(),
        discarder=None,
        points=0,
        items=(),
        deltas=(-27, 93, -67, 1),
        payments=payments,
        dealer=0,
        settlement=settlement,
    )
    lines = pay_lines(result)
    assert [line.kind for line in lines] == [
        "chongguan",
        *["gang_jing"] * 3,
        *["kong_points"] * 3,
        *["chaozhuang"] * 3,
    ]
    assert lines[0].marks == ("bawang", "liable")
    _check_zero_sum_and_itemised(result)
    words = {
        "zh": ("冲关 · 霸王精 · 包", "杠精", "杠分 · 暗杠", "抄庄", "p2包", "杠精每家10"),
        "zh-TW": ("衝關 · 霸王精 · 包", "槓精", "槓分 · 暗槓", "抄莊", "p2包", "槓精每家10"),
        "en": ("冲关 (精 over the bar) · 霸王精", "杠精 (kong of a 精)", "kong points · 暗杠",
               "抄庄 (everyone", "paid by p2 (包)", "杠精 10 from each"),
    }  # fmt: skip
    for lang, expected in words.items():
        text = "\n".join(showdown_lines(_game(), result, lang))
        for word in expected:
            assert word in text, (lang, word, text)
