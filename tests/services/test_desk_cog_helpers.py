"""The desk cog's Discord-free helpers: autocomplete, the hand picture, the answer embed."""

from __future__ import annotations

import pytest

from cogs.desk.commands import (
    answer_embed,
    flag_choices,
    hand_choices,
    hand_picture,
    option_choices,
    variant_choices,
)
from cogs.desk.text import input_error_text, item_line
from engine.options import make_options
from i18n import LOCALES, t
from services.desk import DeskInputError, DeskQuery, parse_flags, parse_option_pairs, score_desk


def test_variant_autocomplete_matches_chinese_and_english() -> None:
    assert [c.value for c in variant_choices("")] == ["shangrao", "xinyu", "jiujiang", "nanchang"]
    assert [c.value for c in variant_choices("九江")] == ["jiujiang"]
    assert [c.value for c in variant_choices("南昌")] == ["nanchang"]
    assert [c.value for c in variant_choices("nanch")] == ["nanchang"]
    assert [c.value for c in variant_choices("xin")] == ["xinyu"]
    assert variant_choices("nothing") == []


def test_option_autocomplete_completes_valid_pairs() -> None:
    got = [c.value for c in option_choices("shangrao", "")]
    assert "scoring=xingchen" in got and "discard_win=true" in got
    for value in got:  # every suggestion is accepted by the engine
        make_options("shangrao", parse_option_pairs(value))
    got = [c.value for c in option_choices("上饶", "scoring=classic disc")]
    assert got == ["scoring=classic discard_win=false", "scoring=classic discard_win=true"]
    assert all(len(c.name) <= 100 and len(c.value) <= 100 for c in option_choices(None, "x" * 300))
    assert [c.value for c in option_choices("jiujiang", "chi=t")] == ["chi=true"]


def test_flag_autocomplete_values_parse() -> None:
    choices = flag_choices("天胡 海")
    assert [c.value for c in choices] == ["天胡 海底"]
    assert parse_flags([choices[0].value]) == {"heaven", "last_tile"}
    assert len(flag_choices("")) == 8


def test_hand_picture_sets_the_winning_tile_apart() -> None:
    answer = score_desk(DeskQuery(hand="123m 789p 234s 9s 5p [555z] +9s", bao="5p"))
    picture = hand_picture(answer)
    assert picture.drawn == answer.context.hand.winning
    assert len(picture.concealed) == len(answer.context.hand.concealed) - 1
    assert [m.kind for m in picture.melds] == ["pong"]
    assert picture.wildcards == answer.context.wildcards == frozenset({13})


def test_answer_embed_lists_items_total_and_payments() -> None:
    answer = score_desk(DeskQuery(hand="11m44m77m22p88p33s66s +6s", variant="xinyu"))
    embed = answer_embed(answer, "zh")
    fields = {f.name: f.value for f in embed.fields}
    assert fields["计分项"].split("\n") == [item_line(i) for i in answer.items]
    assert fields["合计"] == f"**{answer.points}** 分"
    assert fields["谁付多少"].count(f"付 {answer.points}分") == 3


def test_a_taiwan_reader_gets_the_answer_in_traditional_chinese() -> None:
    answer = score_desk(DeskQuery(hand="11m44m77m22p88p33s66s +6s", variant="xinyu"))
    embed = answer_embed(answer, "zh-TW")
    assert embed.title.startswith("新餘麻將 · 胡牌")
    fields = {f.name: f.value for f in embed.fields}
    assert set(fields) == {"計分項", "合計", "誰付多少"}
    assert fields["誰付多少"].count(f"付 {answer.points}分") == 3
    assert "下家" in fields["誰付多少"] and "對家" in fields["誰付多少"]
    assert "胡法：自摸" in (embed.description or "")


#: 上饶 classic 十三烂 with the 宝 standing for 9p: complete, but without 宝吊 or 飞宝 not a
#: legal win (vector sr-classic-032)
NOT_A_WIN = DeskQuery(hand="147m36p5p258s12346z +6z", variant="shangrao", bao="5p")


def test_why_a_hand_is_no_win_is_said_in_the_readers_language_only() -> None:
    answer = score_desk(NOT_A_WIN)
    assert not answer.legal
    why = {
        lang: {f.name: f.value for f in answer_embed(answer, lang).fields}[t("desk.why", lang)]
        for lang in LOCALES
    }
    assert why["zh"] == "十三烂有宝需宝吊或飞宝"
    assert why["zh-TW"] == "十三爛有寶需寶吊或飛寶"  # the hand's name in 繁體 too
    assert why["en"] == (
        "Thirteen orphans (十三烂) with a 宝 in use is a legal win only as 宝吊 "
        "(the 宝 pairs the drawn tile) or after 飞宝 (a 宝 discarded)"
    )


def test_error_text_marks_the_bad_part() -> None:
    text = "123万 45x6饼 789条 东东 [555条] +3万"
    with pytest.raises(DeskInputError) as info:
        score_desk(DeskQuery(hand=text, variant="xinyu"))
    shown = input_error_text(info.value, text, "en")
    assert "【45x】" in shown and "Examples" in shown and "`hand`" in shown


def test_hand_autocomplete_checks_the_hand_as_typed() -> None:
    assert len(hand_choices("")) == 2
    [ok] = hand_choices("123万 456饼 789条 东东 [555条] +3万")
    assert ok.name == "✓ 123m456p789s11z [555s] +3m" and ok.value.startswith("123万")
    [bad] = hand_choices("123m 456p")
    assert bad.name.startswith("⚠") and "winning tile" in bad.name and bad.value == "123m 456p"
