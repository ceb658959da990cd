"""The scoring desk service: reading the command's options, scoring, who pays, pointed errors."""

from __future__ import annotations

import pytest
from desk_vectors import load_vectors, option_text

from engine.scoring import score_line
from services.desk import (
    BaoInputError,
    CountInputError,
    DeskQuery,
    FlagInputError,
    HandInputError,
    OptionInputError,
    VariantInputError,
    WinInputError,
    build_context,
    locate,
    parse_bao,
    parse_flags,
    parse_option_pairs,
    parse_wildcards,
    parse_win,
    primary_wildcard,
    score_desk,
)

VECTORS = load_vectors()


def query_of(vector: dict) -> DeskQuery:
    return DeskQuery(
        hand=vector["hand"],
        variant=vector["variant"],
        win=vector.get("win"),
        bao=vector.get("bao"),
        flown=vector.get("flown") or 0,
        kong_draws=vector.get("kong_draws") or 0,
        flowers=vector.get("flowers") or 0,
        flags=tuple(vector.get("flags") or ()),
        options=option_text(vector.get("options")),
    )


def test_there_are_vectors_of_every_variant() -> None:
    assert {v["variant"] for v in VECTORS} == {"shangrao", "xinyu", "jiujiang"}


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_desk_equals_score_line_for_every_vector(vector: dict) -> None:
    expected = score_line(vector)
    assert "error" not in expected, expected
    answer = score_desk(query_of(vector))
    got = {"legal": answer.legal, "points": answer.points}
    got["items"] = [{"name": i.name, "en": i.en, "value": i.value} for i in answer.items]
    assert got == {k: expected[k] for k in ("legal", "points", "items")}
    assert answer.reason == expected.get("reason", "")
    assert (answer.points, answer.legal) == (vector["expect"]["points"], vector["expect"]["legal"])


def test_chinese_hand_reads_like_notation() -> None:
    zh = build_context(DeskQuery(hand="一二三万 456饼 789条 东东 [555条] +三万", variant="xinyu"))
    en = build_context(DeskQuery(hand="123m 456p 789s 11z [555s] +3m", variant="xinyu"))
    assert zh.hand == en.hand


def test_full_width_input_from_a_chinese_ime_reads_like_ascii() -> None:
    # a Chinese input method types full-width digits, letters, ＋ and 【】 brackets
    ime = DeskQuery(hand="１２３万 ４５６饼 ７８９条 东东 【５５５条】 ＋３万", variant="xinyu")
    ascii_ = DeskQuery(hand="123m 456p 789s 11z [555s] +3m", variant="xinyu")
    assert build_context(ime).hand == build_context(ascii_).hand
    assert parse_bao("５ｐ") == parse_bao("5p")
    assert score_desk(ime).points == score_desk(ascii_).points


@pytest.mark.parametrize(
    ("text", "bao"),
    [("5p", "5p"), ("五筒", "5p"), ("indicator:9m", "1m"), ("indicator：北", "1z"),
     ("指示:白", "5z"), ("翻4p", "5p"), ("ind: 7z", "5z"), ("东", "1z")],
)  # fmt: skip
def test_bao_as_kind_or_indicator(text: str, bao: str) -> None:
    from engine.tiles import kind_of

    assert parse_bao(text) == kind_of(bao)


def test_default_variant_and_house_rules_apply() -> None:
    hand = "123m456m789p234s99s +9s"
    ctx = build_context(
        DeskQuery(hand=hand, bao="5p"),
        default_variant="shangrao",
        house_rules={"shangrao": {"scoring": "xingchen"}},
    )
    assert ctx.variant == "shangrao" and ctx.options.scoring == "xingchen"
    ctx = build_context(
        DeskQuery(hand=hand, bao="5p", options="scoring=classic"),
        house_rules={"shangrao": {"scoring": "xingchen"}},
    )
    assert ctx.options.scoring == "classic"
    assert build_context(DeskQuery(hand=hand), default_variant="xinyu").variant == "xinyu"


def test_words_for_win_and_flags() -> None:
    assert [parse_win(w) for w in ("自摸", "点炮", "抢杠", None, "rob-kong")] == [
        "self",
        "discard",
        "rob_kong",
        "self",
        "rob_kong",
    ]
    assert parse_flags(["天胡 海底", "庄家", "ready"]) == {
        "heaven",
        "last_tile",
        "dealer",
        "ready_declared",
    }
    assert parse_option_pairs("scoring = xingchen，discard_win=true") == {
        "scoring": "xingchen",
        "discard_win": "true",
    }


def test_self_draw_each_of_three_pays() -> None:
    a = score_desk(DeskQuery(hand="123m456m789p234s99s +9s", variant="shangrao", bao="5p"))
    assert a.legal and a.points == 4
    assert [(p.role, p.amount) for p in a.payments] == [("next", 4), ("across", 4), ("prev", 4)]
    assert a.settlement is not None and a.settlement.deltas[0] == 12


def test_shangrao_rob_kong_robbed_pays_three_shares() -> None:
    a = score_desk(
        DeskQuery(hand="123m456m789p234s99s +9s", variant="shangrao", bao="5p", win="抢杠")
    )
    assert a.legal
    assert [(p.role, p.amount) for p in a.payments] == [("robbed", 3 * a.points)]


def test_xinyu_discard_win_discarder_pays_one_share() -> None:
    a = score_desk(
        DeskQuery(
            hand="123m456m789p234s99s +9s",
            variant="xinyu",
            win="点炮",
            options="discard_win=true",
        )
    )
    assert a.legal
    assert [(p.role, p.amount) for p in a.payments] == [("discarder", a.points)]


def test_jiujiang_discard_payer_alone() -> None:
    a = score_desk(DeskQuery(hand="234m567m345p678s11s +8s", variant="jiujiang", win="discard"))
    assert (a.legal, a.points) == (True, 2)
    assert [(p.role, p.amount) for p in a.payments] == [("discarder", 2)]
    assert a.unit == ("炮", "pao")


def test_not_a_legal_win_says_why_and_nobody_pays() -> None:
    a = score_desk(DeskQuery(hand="123m456m78p5p234s99s +9s", variant="shangrao", bao="5p"))
    assert not a.legal and a.points == 0 and a.payments == ()
    assert "宝吊" in a.reason and "飞宝" in a.reason
    b = score_desk(DeskQuery(hand="[222m] 567m 345p 678s 11s +8s", variant="九江", win="点炮"))
    assert not b.legal and "2" in b.reason


@pytest.mark.parametrize(
    ("hand", "bad"),
    [
        ("123m 45x6p 789s 11z 555s +3m", "45x"),
        ("123m 456p 789s 11z [556s] +3m", "[556s]"),
        ("123m 456p 789s 11z 555s +3q", "3q"),
        ("123m 456p 789s 11z 55s +3m", ""),  # wrong count: the whole hand
        ("123万 456饼 789条 东东 [555条] +6万", "6m"),  # winning tile not in the hand
    ],
)
def test_bad_hand_points_at_the_bad_part(hand: str, bad: str) -> None:
    with pytest.raises(HandInputError) as info:
        build_context(DeskQuery(hand=hand, variant="xinyu"))
    err = info.value
    assert err.field == "hand"
    assert err.bad == bad
    assert err.examples and any("+3m" in e for e in err.examples)
    assert err.problem in str(err)
    if bad and bad in "".join(hand.split()):
        start, end = locate(hand, bad)
        assert "".join(hand[start:end].split()) == bad


@pytest.mark.parametrize(
    ("query", "error", "field", "bad"),
    [
        (DeskQuery(hand="123m456m789p234s99s +9s", variant="guangdong"), VariantInputError,
         "variant", "guangdong"),
        (DeskQuery(hand="123m456m789p234s99s +9s", variant="xinyu", win="碰"), WinInputError,
         "win", "碰"),
        (DeskQuery(hand="123m456m789p234s99s +9s", variant="shangrao", bao="0p"), BaoInputError,
         "bao", "0p"),
        (DeskQuery(hand="123m456m789p234s99s +9s", variant="shangrao"), BaoInputError, "bao", ""),
        (DeskQuery(hand="123m456m789p234s99s +9s", variant="xinyu", bao="5p"), BaoInputError,
         "bao", "5p"),
        (DeskQuery(hand="123m456m789p234s99s +9s", variant="xinyu", options="scoring"),
         OptionInputError, "options", "scoring"),
        (DeskQuery(hand="123m456m789p234s99s +9s", variant="xinyu", options="scoring=classic"),
         OptionInputError, "options", "scoring=classic"),
        (DeskQuery(hand="123m456m789p234s99s +9s", variant="xinyu", flags=("飞起来",)),
         FlagInputError, "flags", "飞起来"),
        (DeskQuery(hand="123m456m789p234s99s +9s", variant="xinyu", flown=99), CountInputError,
         "flown", "99"),
    ],
)  # fmt: skip
def test_bad_options_are_typed_and_pointed(query, error, field, bad) -> None:
    with pytest.raises(error) as info:
        build_context(query)
    assert info.value.field == field
    assert info.value.bad == bad


def test_bad_option_value_names_the_choices() -> None:
    with pytest.raises(OptionInputError) as info:
        build_context(DeskQuery(hand="123m456m789p234s99s +9s", bao="5p", options="scoring=fancy"))
    assert "classic" in info.value.problem and "xingchen" in info.value.problem
    assert info.value.bad == "scoring=fancy"


def test_impossible_hands_are_refused_with_the_reason_and_pay_nothing() -> None:
    """RULES §7: the calculator says why a hand cannot have happened (issue 17 items 6–7)."""
    a = score_desk(DeskQuery(hand="456s11z [345s] [678m] [777m] +1z", variant="xinyu"))
    assert not a.legal and "不能吃" in a.reason and not a.payments
    a = score_desk(DeskQuery(hand="123m456m789s11z [555p] +1z", variant="shangrao", bao="5p"))
    assert not a.legal and "宝牌不能碰杠" in a.reason and not a.payments


NANCHANG_HAND = "123m456m789s11z569p +9p"  # 5p and 6p stand in for 9p: 999p


@pytest.mark.parametrize("given", [{"jing": "5p"}, {"jing": "indicator:5p"}, {"bao": "5p"}])
def test_nanchang_reads_both_jing_from_the_zheng_jing_or_the_indicator(given) -> None:
    answer = score_desk(DeskQuery(hand=NANCHANG_HAND, variant="nanchang", win="self", **given))
    assert answer.context.wildcards == {13, 14}  # 正精 5p, 副精 6p
    assert primary_wildcard("nanchang", answer.context.wildcards) == 13
    line = score_line({"variant": "nanchang", "hand": NANCHANG_HAND, "jing": "5p", "win": "self"})
    assert answer.legal and answer.points == line["points"]
    assert answer.settlement is not None and sum(answer.settlement.deltas) == 0


def test_one_tile_is_one_wildcard_where_the_indicator_is_not_one() -> None:
    assert parse_wildcards("5p", "shangrao") == {13}
    assert primary_wildcard("shangrao", frozenset({13})) is None


def test_bao_and_jing_together_are_refused() -> None:
    with pytest.raises(BaoInputError) as error:
        score_desk(DeskQuery(hand=NANCHANG_HAND, variant="nanchang", bao="5p", jing="6p"))
    assert error.value.field == "bao" and "bao or jing" in str(error.value.problem)
