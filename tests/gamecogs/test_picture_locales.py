"""Pictures speak the reader's language (issue 16 item 5): the callers fill the picture's
``words`` from the ``picture`` catalogue — a 繁體 reader's table, hand, 摊牌 and standings
say 莊 / 聽 / 寶 / 贏家, and the shipped font draws every one of those characters."""

from __future__ import annotations

from dataclasses import astuple

import pytest
from test_session_pictures import RESULT, game

from cogs.delivery import pictures
from cogs.game.session import showdown_picture, standings_picture
from i18n import LOCALES, t
from render import fonts
from render.words import ZH_WORDS, PictureWords
from services.model import HandView, PublicSeat, TableView
from services.picture_words import picture_words
from services.session_state import SessionInfo, Standing


def _characters(words: PictureWords) -> set[str]:
    out: set[str] = set()
    for part in astuple(words):
        for word in part if isinstance(part, tuple) else (part,):
            out |= set(word.replace("{n}", "").replace("{name}", ""))
    return out


def test_the_simplified_catalogue_is_the_pictures_default() -> None:
    """A 简体 reader's pictures are the default ones (the reference pictures' pixels)."""
    assert picture_words("zh") == ZH_WORDS
    assert picture_words("zh+en") == ZH_WORDS  # a zh+en server's pictures are Chinese


def test_traditional_words_come_from_the_zh_tw_catalogue() -> None:
    tw = picture_words("zh-TW")
    assert (tw.dealer, tw.ready, tw.auto, tw.wildcard) == ("莊", "聽", "託管", "寶")
    assert tw.winds[0] == "東" and tw.honors[5] == "發" and tw.session_winner == "贏家"
    assert tw.wall_left == t("picture.wall_left", "zh-TW") == "剩餘 {n} 張"
    assert tw.claim_wait == "等待吃碰槓胡…"
    assert picture_words("en").dealer == "Dealer" and picture_words("en").winds[0] == "E"


@pytest.mark.parametrize("lang", LOCALES)
def test_the_font_draws_every_character_of_the_picture_words(lang: str) -> None:
    missing = _characters(picture_words(lang)) - fonts.covered()
    assert not missing, "rebuild with python -m render.build_font: " + "".join(sorted(missing))


def test_the_table_and_hand_pictures_take_the_readers_words() -> None:
    seats = tuple(PublicSeat(i, 13, dealer=i == 0) for i in range(4))
    table = TableView(1, "turn", 0, None, 60, seats)
    assert pictures.table_picture(game(phase="turn"), table).words == ZH_WORDS
    tw_table = pictures.table_picture(game(phase="turn"), table, "zh-TW")
    assert tw_table.words == picture_words("zh-TW") and tw_table.words.dealer == "莊"
    hand = HandView(seat=0, concealed=(27, 31, 32), drawn=None, melds=(), legal=())
    assert pictures.hand_picture(hand).words == ZH_WORDS
    assert pictures.hand_picture(hand, "zh-TW").words.honors[0] == "東"


def test_the_showdown_and_standings_pictures_take_the_readers_words() -> None:
    zh, tw = showdown_picture(game(), RESULT), showdown_picture(game(), RESULT, "zh-TW")
    assert zh.words == ZH_WORDS and tw.words == picture_words("zh-TW")
    assert tw.seats[0].wind == "東" and zh.seats[0].wind == "东"
    assert tw.title == t("session.picture.showdown_title", "zh-TW", hand=RESULT.hand_no)
    board = (Standing(2, 24, rank=1), Standing(0, -8, rank=2))
    ended = game(status="finished", session=SessionInfo(length="4", standings=board))
    assert standings_picture(ended).words == ZH_WORDS
    tw_board = standings_picture(ended, "zh-TW")
    assert tw_board.words.session_winner == "贏家"
    assert tw_board.words.standings_columns[0] == "總分"
