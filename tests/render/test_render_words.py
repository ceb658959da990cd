"""The pictures write the words they are given (``PictureWords``): 简体 by default, the
caller's 繁體 or English otherwise — and every 繁體 word can be drawn by the shipped font."""

from __future__ import annotations

from dataclasses import astuple, replace

import pytest
from render_fixtures import draw_result, result_state, table_state

from render import draw as d
from render import fonts, hand_image, result_image, table_image
from render.models import HandPicture
from render.showdown import (
    ShowdownPicture,
    ShowdownSeat,
    StandingRow,
    StandingsPicture,
    showdown_image,
    standings_image,
)
from render.words import ZH_WORDS, PictureWords

#: Made-up words in 繁體 (each one a character 简体 writes differently), so a test sees them.
TW = PictureWords(
    winds=("東", "南", "西", "北"),
    honors=("東", "南", "西", "北", "中", "發", "白"),
    dealer="莊",
    ready="聽",
    auto="託管",
    won="胡牌",
    dealt_in="點炮",
    sanbao="叁包付",
    session_winner="贏家",
    total="合計",
    wildcard="寶",
    claim_wait="等待吃碰槓胡…",
    drawn_hand="流局 · 荒莊",
    winner_line="{name} 贏了",
    points="{n}點",
    hand_number="第{n}盤",
    wall_left="剩餘 {n} 張",
    turn="輪到 {name}",
    hand_columns=("本盤", "總分"),
    standings_columns=("總分", "胡數", "自摸數", "點炮數", "最大番"),
)


def _words(value: object) -> list[str]:
    out: list[str] = []
    for part in astuple(value):  # type: ignore[arg-type]
        out.extend(part if isinstance(part, tuple) else [part])
    return out


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every string a picture draws (after ``?`` replaced what the font lacks)."""
    seen: list[str] = []
    real = d.draw_text

    def recording(draw, xy, s, font, fill=d.TEXT, anchor="la"):
        seen.append(s)
        return real(draw, xy, s, font, fill, anchor)

    monkeypatch.setattr(d, "draw_text", recording)
    return seen


def test_the_shipped_font_draws_every_character_of_these_words() -> None:
    missing = {c for word in _words(TW) + _words(ZH_WORDS) for c in word} - fonts.covered()
    assert not missing, "rebuild with python -m render.build_font: " + "".join(sorted(missing))


def test_the_table_writes_its_words(drawn: list[str]) -> None:
    base = table_state()
    seats = list(base.seats)
    seats[1] = replace(seats[1], ready=True)
    table_image(replace(base, seats=tuple(seats), words=TW))  # type: ignore[arg-type]
    text = "\n".join(drawn)
    for word in ("東", "莊", "聽", "託管", "寶", "剩餘 ", "第3盤", "+12點", "輪到 "):
        assert word in text, word
    for word in ("庄", "听", "托管", "宝", "剩余", "局", "分", "轮到"):
        assert word not in text, word
    drawn.clear()
    table_image(replace(base, turn=None, claim_wait=True, words=TW))
    assert TW.claim_wait in drawn and ZH_WORDS.claim_wait not in drawn


def test_the_default_words_are_simplified(drawn: list[str]) -> None:
    table_image(table_state())
    text = "\n".join(drawn)
    for word in ("庄", "宝", "剩余 ", "第3局", "+12分", "轮到 "):
        assert word in text, word


def test_the_result_writes_its_words(drawn: list[str]) -> None:
    state = result_state()
    result_image(replace(state, words=TW))
    assert f"{state.winner} 贏了 · {state.win_mode}" in drawn
    assert {"胡牌", "合計"} <= set(drawn) and not {"胡", "合计"} & set(drawn)
    drawn.clear()
    result_image(replace(draw_result(), words=TW))
    assert "流局 · 荒莊" in drawn


def test_the_showdown_and_standings_write_their_words(drawn: list[str]) -> None:
    seat = ShowdownSeat("amy", wind="東", dealer=True, concealed=(1, 2), winner=True)
    fed = ShowdownSeat("ben", wind="南", dealt_in=True, sanbao=True)
    showdown_image(ShowdownPicture((seat, fed), "amy", total="8", words=TW))
    assert {"莊", "胡牌", "點炮", "叁包付", "合計", "本盤", "總分"} <= set(drawn)
    assert not {"庄", "点炮", "合计", "本局"} & set(drawn)
    drawn.clear()
    rows = (StandingRow(1, "amy", 10, winner=True), StandingRow(2, "ben", -10))
    standings_image(StandingsPicture("終局", rows, words=TW))
    assert {"贏家", "胡數", "自摸數", "點炮數", "最大番"} <= set(drawn) and "赢家" not in drawn
    drawn.clear()
    standings_image(StandingsPicture("終局", rows, columns=("a", "b"), words=TW))
    assert {"a", "b"} <= set(drawn) and "胡數" not in drawn  # given columns win


def test_hand_labels_name_honors_in_the_readers_words(drawn: list[str]) -> None:
    hand_image(HandPicture(concealed=(27, 31, 32), drawn=33, labels=True, words=TW))
    assert {"東", "中", "發", "白"} <= set(drawn) and "发" not in drawn
    drawn.clear()
    hand_image(HandPicture(concealed=(27, 31, 32), labels=True))
    assert {"东", "发"} <= set(drawn)
