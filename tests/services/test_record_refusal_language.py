"""Every refusal of ``/mahjong record`` reaches the reader in their language: a 简体 or 繁體
reader sees no English words (only identifiers and tile notation), an English reader no
Chinese punctuation; the option at fault is named as the reader's Discord names it."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from cogs.desk.records import record_error_text
from db.store import Store
from services.desk import DeskQuery
from services.records import (
    BadReport,
    ExtraWinner,
    RecordReport,
    RecordService,
    prepare_record,
    report_why,
)

GUILD = 7100
A, B, C, D = 21, 22, 23, 24
PLAYERS = (A, B, C, D)
HAND = DeskQuery(hand="123m456m789p234s99s +9s", variant="shangrao", bao="5p")
BASE = RecordReport(guild_id=GUILD, reporter_id=A, players=PLAYERS, winner=B, how="自摸", hand=HAND)
DRAW = RecordReport(guild_id=GUILD, reporter_id=A, players=PLAYERS, winner=None, variant="xinyu")
XINYU_DISCARD = RecordReport(
    guild_id=GUILD, reporter_id=A, players=PLAYERS, winner=B, how="点炮", discarder=A,
    points=4, variant="xinyu", options="discard_win=true",
)  # fmt: skip

#: One report for each kind of refusal, and the catalogue key it must be refused with.
REFUSED: dict[str, tuple[RecordReport, str]] = {
    "four_players": (replace(BASE, players=(A, B, C)), "players"),
    "player_twice": (replace(BASE, players=(A, B, C, C)), "players"),
    "how_missing": (replace(BASE, how=None), "how"),
    "draw_how": (replace(DRAW, how="抢杠"), "how"),
    "unknown_win": (replace(BASE, how="乱胡"), "how"),
    "dealer": (replace(BASE, dealer=99), "dealer"),
    "draw_winner2": (replace(DRAW, more_winners=(ExtraWinner(C, points=2),)), "winner2"),
    "draw_discarder": (replace(DRAW, how="流局", discarder=A), "discarder"),
    "draw_hand": (replace(DRAW, points=3), "hand"),
    "draw_pays": (replace(DRAW, streak="黄庄"), "streak"),
    "winner": (replace(BASE, winner=99), "winner"),
    "winner2": (replace(BASE, more_winners=(ExtraWinner(99, points=2),)), "winner2"),
    "winner_twice": (replace(BASE, more_winners=(ExtraWinner(B, points=2),)), "winner2"),
    "self_discarder": (replace(BASE, discarder=A), "discarder"),
    "discarder_missing": (replace(BASE, how="点炮"), "discarder"),
    "discarder_player": (replace(BASE, how="点炮", discarder=99), "discarder"),
    "winner_discarder": (replace(BASE, how="点炮", discarder=B), "discarder"),
    "multi_self": (replace(BASE, more_winners=(ExtraWinner(C, points=2),)), "winner2"),
    "multi_first": (
        replace(BASE, how="点炮", discarder=A, more_winners=(ExtraWinner(C, points=2),)),
        "winner2",
    ),
    "multi_discard_win": (
        replace(XINYU_DISCARD, options=None, more_winners=(ExtraWinner(C, points=2),)),
        "winner2",
    ),
    "hand_or_points": (replace(BASE, points=4), "hand"),
    "not_legal": (
        replace(BASE, hand=replace(HAND, hand="123m456m78p5p234s99s +9s")),
        "hand",
    ),
    "points_range": (replace(BASE, hand=None, points=0), "points"),
    "feeder_player": (replace(BASE, feeder=99), "feeder"),
    "feeder_winner": (replace(BASE, feeder=B), "feeder"),
    "not_player_named": (replace(XINYU_DISCARD, others="<@99> [7777m]"), "others"),
    "winner_in_others": (replace(XINYU_DISCARD, others=f"<@{B}> [7777m]"), "others"),
    "draw_no_kong_money": (
        replace(DRAW, variant="shangrao", others=f"<@{B}> [7777m]"),
        "others",
    ),
    "draw_mentions": (replace(DRAW, others="下家 [7777m]"), "others"),
    "not_player_once": (replace(DRAW, others=f"<@{B}> [7777m]; <@{B}> [1111p]"), "others"),
    "draw_others_melds": (replace(DRAW, others=f"<@{B}> [7789m]"), "others"),
    "winner_kongs": (
        replace(
            XINYU_DISCARD,
            more_winners=(ExtraWinner(C, points=2),),
            others="下家 [7777m]",
        ),
        "others",
    ),
}

#: What a Chinese sentence may hold in Latin letters: mentions, tile notation, a rule option.
IDENTIFIERS = re.compile(r"<@\d+>|\(?\[?\d+[mpsz]\]?\)?|discard_win=true|\d+")
CHINESE_PUNCTUATION = re.compile(r"[，。：；「」（）、！？【】]")


def latin_words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z]+", IDENTIFIERS.sub(" ", text))


def refusal_of(report: RecordReport) -> BadReport:
    with pytest.raises(BadReport) as info:
        prepare_record(report)
    return info.value


@pytest.mark.parametrize("kind", sorted(REFUSED))
def test_each_refusal_in_the_readers_language(kind: str) -> None:
    report, field = REFUSED[kind]
    error = refusal_of(report)
    assert error.field == field, str(error)
    for lang in ("zh", "zh-TW"):
        text = record_error_text(error, lang)
        assert latin_words(text) == [], (lang, text)
    en = record_error_text(error, "en")
    assert not CHINESE_PUNCTUATION.search(en), en


def test_the_option_is_named_as_discord_shows_it() -> None:
    error = refusal_of(replace(BASE, more_winners=(ExtraWinner(99, points=2),)))
    assert "（赢家2）" in record_error_text(error, "zh")
    assert "（贏家2）" in record_error_text(error, "zh-TW")
    assert "(winner2)" in record_error_text(error, "en")
    error = refusal_of(replace(BASE, players=(A, B, C)))
    assert "（玩家1–玩家4）" in record_error_text(error, "zh")


def test_a_hand_that_is_no_legal_win_is_refused_in_the_readers_language() -> None:
    """The engine's reason inside the refusal is translated too, the hand's name with it:
    上饶 classic 十三烂 with the 宝 in use (vector sr-classic-032) needs 宝吊 or 飞宝."""
    error = refusal_of(replace(BASE, hand=replace(HAND, hand="147m36p5p258s12346z +6z")))
    assert record_error_text(error, "zh").endswith("：十三烂有宝需宝吊或飞宝")
    tw = record_error_text(error, "zh-TW")
    assert tw.endswith("：十三爛有寶需寶吊或飛寶") and not set(tw) & set("宝飞烂"), tw
    en = record_error_text(error, "en")
    assert en.endswith(
        ": Thirteen orphans (十三烂) with a 宝 in use is a legal win only as 宝吊 "
        "(the 宝 pairs the drawn tile) or after 飞宝 (a 宝 discarded)"
    ), en


def test_traditional_reader_gets_traditional_mahjong_terms() -> None:
    text = record_error_text(refusal_of(replace(BASE, how=None)), "zh-TW")
    assert "自摸" in text and "點炮" in text and "搶槓" in text
    assert "点炮" not in text and "抢杠" not in text


def test_a_hand_without_its_winner_is_refused_in_chinese() -> None:
    error = BadReport(
        "winner2", report_why("hand_without_winner", "a hand is given but not its winner")
    )
    assert latin_words(record_error_text(error, "zh-TW")) == []


async def test_expiry_out_of_range_is_refused_in_chinese(store: Store) -> None:
    with pytest.raises(BadReport) as info:
        await RecordService(store).set_expiry(GUILD, 24 * 365)
    text = record_error_text(info.value, "zh")
    assert latin_words(text) == [] and "小时" in text, text
    assert not CHINESE_PUNCTUATION.search(record_error_text(info.value, "en"))


@pytest.mark.parametrize(
    ("offer", "text"),
    [
        ("hand", "123m 456p"),
        ("others", "下家 [99x9m]"),
        ("others", "下家 (777m)"),
        ("streak", "黄庄 乱跟"),
    ],
)
def test_autocomplete_hints_in_the_readers_language(offer: str, text: str) -> None:
    """The ⚠ hint under a typed option says what is wrong in the reader's language."""
    from cogs.desk.choices import hand_choices, others_choices, streak_choices

    def hint(lang: str) -> str:
        if offer == "hand":
            [choice] = hand_choices(text, lang)
        elif offer == "others":
            [choice] = others_choices("jiujiang", text, lang)
        else:
            [choice] = streak_choices("jiujiang", text, lang)
        assert choice.name.startswith("⚠") and choice.value == text
        return choice.name

    for lang in ("zh", "zh-TW"):
        assert latin_words(hint(lang).replace("x", "")) == [], hint(lang)
    assert not CHINESE_PUNCTUATION.search(hint("en")), hint("en")
