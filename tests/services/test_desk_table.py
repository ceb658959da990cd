"""The rest of the table on ``/mahjong score``: discarder, 叁包 feeder, the others' melds
(九江 吃兴家, 新余 杠钱) and 跟庄 / 黄庄 — reading, pointed errors, and the full payment per
seat (RULES §3.4, §4.3, §5.1, §5.3)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.desk.answer import answer_embed
from cogs.desk.choices import others_choices, streak_choices
from cogs.desk.text import input_error_text, payment_lines, raise_names
from engine.notation import MeldKind
from engine.settle import PAO_RAISES
from i18n import LOCALES
from services.desk import DeskQuery, TableInputError, score_desk
from services.desk_table import parse_others, parse_seat, parse_streak

JJ_HAND = "234m567m345p678s11s +8s"  # 九江 自摸 2 + 门清 1 = 3 炮 (two-sided wait)
XY_HAND = "123m456m789p234s99s +9s"  # 新余 门清 ×2


def deltas(answer) -> tuple[int, ...]:
    assert answer.settlement is not None
    return answer.settlement.deltas


# --- reading ----------------------------------------------------------------------------------


def test_others_read_seats_melds_and_fa() -> None:
    got = parse_others("下家 发2 [9999m]；对家：(1111p) [中中中] 上家 2发 发")
    assert sorted(got) == [1, 2, 3]
    assert got[1].flowers == 2 and [m.kind for m in got[1].melds] == [MeldKind.KONG]
    assert [m.kind for m in got[2].melds] == [MeldKind.CONCEALED_KONG, MeldKind.PONG]
    assert got[2].melds[1].tiles == (31, 31, 31) and got[2].flowers == 0
    assert got[3].flowers == 3 and got[3].melds == ()
    english = parse_others("next: F×2 [9999m]; across (1111p) [555z]")
    assert english[1].flowers == 2 and english[2].melds == got[2].melds
    assert parse_others("") == {} and parse_others(None) == {}
    assert parse_others("下家 无")[1].melds == ()


@pytest.mark.parametrize(
    ("text", "bad", "problem"),
    [
        ("[7777m]", "[7777m]", "whose"),
        ("下家 [7777m] 下家 [1111s]", "下家", "twice"),
        ("下家 [77x7m]", "77x", "cannot read"),
        ("下家 (777m)", "(777m)", "concealed kong"),
        ("下家 [7789m]", "[7789m]", "not a meld"),
        ("对家 [7777m", "[7777m", "never closed"),
        ("上家 hello", "hello", "cannot read"),
    ],
)
def test_bad_others_point_at_the_bad_part(text: str, bad: str, problem: str) -> None:
    with pytest.raises(TableInputError) as info:
        parse_others(text)
    assert info.value.field == "others"
    assert info.value.bad == bad and problem in info.value.problem
    assert info.value.examples  # shows what works
    shown = input_error_text(info.value, text, "en")
    assert f"【{bad}】" in shown and "`others`" in shown


@pytest.mark.parametrize(
    ("text", "value", "raises"),
    [
        ("黄庄", 2, ("draw",)),
        ("黄庄 黄庄", 4, ("draw", "draw")),
        ("黄庄×2", 4, ("draw", "draw")),
        ("黄庄, 跟庄", 4, ("draw", "follow")),
        ("跟庄中", 4, ("follow_dragon",)),
        ("双跟", 4, ("follow_twice",)),
        ("draw follow_twice", 8, ("draw", "follow_twice")),
        ("2", 4, ()),
        ("0", 1, ()),
        ("×8", 8, ()),
        ("x2", 2, ()),
        ("4倍", 4, ()),
    ],
)
def test_streak_reads_raises_counts_and_values(text: str, value: int, raises: tuple) -> None:
    assert parse_streak(text) == (value, raises)


@pytest.mark.parametrize(
    ("text", "bad"), [("×3", "×3"), ("黄庄 跟风", "跟风"), ("11", "11"), ("×2048", "×2048")]
)
def test_bad_streak_is_pointed(text: str, bad: str) -> None:
    with pytest.raises(TableInputError) as info:
        parse_streak(text)
    assert info.value.field == "streak" and info.value.bad == bad


def test_seat_words() -> None:
    assert [parse_seat(w, "feeder") for w in ("下家", "across", "上家", "prev", None)] == [
        1,
        2,
        3,
        3,
        None,
    ]
    with pytest.raises(TableInputError) as info:
        parse_seat("东家", "feeder")
    assert info.value.field == "feeder" and info.value.bad == "东家"


# --- only where the variant has the rule ---------------------------------------------------


@pytest.mark.parametrize(
    ("query", "field"),
    [
        (DeskQuery(hand=XY_HAND, variant="xinyu", feeder="上家"), "feeder"),
        (DeskQuery(hand=JJ_HAND, variant="jiujiang", feeder="上家"), "feeder"),
        (DeskQuery(hand=XY_HAND, variant="xinyu", streak="黄庄"), "streak"),
        (DeskQuery(hand=XY_HAND, variant="shangrao", bao="5p", streak="黄庄"), "streak"),
        (DeskQuery(hand=XY_HAND, variant="shangrao", bao="5p", others="下家 [1111s]"), "others"),
    ],
)
def test_rules_of_other_variants_are_refused(query: DeskQuery, field: str) -> None:
    with pytest.raises(TableInputError) as info:
        score_desk(query)
    assert info.value.field == field
    assert "is not a rule of" in info.value.problem


def test_xinyu_has_no_fa_laid_open_and_jiujiang_no_winds() -> None:
    with pytest.raises(TableInputError) as info:
        score_desk(DeskQuery(hand=XY_HAND, variant="xinyu", others="下家 发2"))
    assert info.value.bad == "发2" and "Jiujiang" in info.value.problem
    with pytest.raises(TableInputError) as info:
        score_desk(DeskQuery(hand=JJ_HAND, variant="jiujiang", others="下家 [东东东]"))
    assert info.value.bad == "[111z]" and "winds" in info.value.problem
    with pytest.raises(TableInputError) as info:
        score_desk(DeskQuery(hand=JJ_HAND, variant="jiujiang", others="下家 [发发发]"))
    assert "发N" in info.value.problem


def test_more_copies_than_exist_are_refused() -> None:
    with pytest.raises(TableInputError) as info:
        score_desk(DeskQuery(hand=JJ_HAND, variant="jiujiang", others="下家 [7777m]"))
    assert info.value.bad == "7m" and "only 4" in info.value.problem
    with pytest.raises(TableInputError) as info:
        score_desk(DeskQuery(hand=JJ_HAND, variant="jiujiang", flowers=3, others="下家 发2"))
    assert "发" in info.value.problem


def test_feeder_needs_three_exposed_melds() -> None:
    with pytest.raises(TableInputError) as info:
        score_desk(DeskQuery(hand=XY_HAND, variant="shangrao", bao="5p", feeder="上家"))
    assert info.value.field == "feeder" and "0 exposed" in info.value.problem


def test_discarder_only_for_a_discard_and_needed_with_others() -> None:
    with pytest.raises(TableInputError) as info:
        score_desk(DeskQuery(hand=JJ_HAND, variant="jiujiang", discarder="下家"))
    assert info.value.field == "discarder" and "self-drawn" in info.value.problem
    with pytest.raises(TableInputError) as info:
        score_desk(DeskQuery(hand=JJ_HAND, variant="jiujiang", win="点炮", others="下家 发"))
    assert info.value.field == "discarder" and info.value.examples


# --- paying -----------------------------------------------------------------------------------


def test_jiujiang_self_draw_eats_each_payers_extras_times_the_value() -> None:
    a = score_desk(
        DeskQuery(
            hand=JJ_HAND,
            variant="jiujiang",
            others="下家 发2 [9999m]; 对家 (1111p) [中中中]",
            streak="黄庄 跟庄",
        )
    )
    assert a.points == 3 and a.table.pao_value == 4
    # 下家: 发2 + suit kong 1 = 3; 对家: concealed suit kong 2 + 中 pong 1 = 3; 上家: 0
    assert [(p.role, p.amount, p.eaten) for p in a.payments] == [
        ("next", (3 + 3) * 4, 3),
        ("across", (3 + 3) * 4, 3),
        ("prev", 3 * 4, 0),
    ]
    assert deltas(a) == (60, -24, -24, -12)
    assert a.notes == ()  # both payment rules were given
    lines = payment_lines(a, "zh")
    assert lines[0] == "下家 付 24分（胡 3炮 + 吃兴家 3炮，每炮 ×4）"
    assert lines[-1] == "赢家共得 60分"


def test_jiujiang_discard_only_the_discarder_pays_with_their_own_extras() -> None:
    a = score_desk(
        DeskQuery(
            hand=JJ_HAND,
            variant="jiujiang",
            win="点炮",
            discarder="上家",
            others="上家 发 [白白白]; 下家 (9999m)",
            streak="2",
        )
    )
    assert a.points == 2  # 点炮 1 + 门清 1
    assert deltas(a) == ((2 + 2) * 4, 0, 0, -(2 + 2) * 4)  # 上家 eaten: 发 1 + 白 pong 1
    en = payment_lines(a, "en")
    assert en[0] == "next player pays nothing"
    assert en[2].startswith("previous player pays 16 points (discarded the winning tile;")


def test_jiujiang_without_table_keeps_one_point_per_pao_and_says_what_is_missing() -> None:
    a = score_desk(DeskQuery(hand=JJ_HAND, variant="jiujiang"))
    assert deltas(a) == (9, -3, -3, -3)
    assert a.notes == ("loser_extras", "pao_streak")


def test_xinyu_kong_money_of_the_winner_and_the_others() -> None:
    a = score_desk(DeskQuery(hand=XY_HAND, variant="xinyu", others="对家 (5555p); 上家 [1111s]"))
    # win 2 each; 对家 暗杠 2 from each, 上家 明杠 1 from each
    assert deltas(a) == (6 - 2 - 1, -2 - 2 - 1, -2 + 6 - 1, -2 - 2 + 3)
    assert [(p.role, p.amount, p.kong) for p in a.payments] == [
        ("next", 5, 3),
        ("across", -3, -5),
        ("prev", 1, -1),
    ]
    assert payment_lines(a, "zh")[1] == "对家 得 3分（胡牌 2，杠钱 得 5）"
    own = score_desk(DeskQuery(hand="(1111m)456m789p234s99s +9s", variant="xinyu"))
    assert own.points == 2 and deltas(own) == (3 * (2 + 2), -4, -4, -4)  # 开杠 + 暗杠 2 each


def test_xinyu_winner_paying_more_kong_money_than_the_win() -> None:
    a = score_desk(
        DeskQuery(
            hand=XY_HAND,
            variant="xinyu",
            win="点炮",
            options="discard_win=true",
            discarder="下家",
            others="对家 (5555p); 上家 (1111s)",
        )
    )
    assert a.points == 1 and deltas(a)[0] == 1 - 2 - 2
    assert payment_lines(a, "en")[-1].startswith("the winner pays 3 points in all")


def test_shangrao_feeder_pays_everything() -> None:
    hand = "[123m] [555p] [777s] 99s 5z5z5z +5z"
    a = score_desk(DeskQuery(hand=hand, variant="shangrao", bao="1s", feeder="上家"))
    assert deltas(a) == (3 * a.points, 0, 0, -3 * a.points)
    assert [p.feeder for p in a.payments] == [False, False, True]
    assert "sanbao" not in a.notes
    assert "叁包" in payment_lines(a, "zh")[2]
    rob = score_desk(DeskQuery(hand=hand, variant="shangrao", bao="1s", feeder="对家", win="抢杠"))
    assert deltas(rob) == (3 * rob.points, 0, -3 * rob.points, 0)


def test_without_the_table_the_answer_is_as_before() -> None:
    a = score_desk(DeskQuery(hand=XY_HAND, variant="shangrao", bao="5p", win="抢杠"))
    assert [(p.role, p.amount) for p in a.payments] == [("robbed", 12)]
    assert "sanbao" in a.notes


def test_embed_shows_the_table() -> None:
    a = score_desk(
        DeskQuery(hand=JJ_HAND, variant="jiujiang", others="下家 发2 [9999m]", streak="黄庄")
    )
    embed = answer_embed(a, "en")
    assert "Others: next player 发×2 [9999m]" in (embed.description or "")
    assert "Value per pao ×2 (drawn hand)" in (embed.description or "")


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from(["xinyu", "jiujiang"]),
    win=st.sampled_from(["自摸", "点炮", "抢杠"]),
    discarder=st.sampled_from(["下家", "对家", "上家"]),
    parts=st.lists(
        st.tuples(
            st.integers(0, 2),
            st.sampled_from(["[1111p]", "(5555s)", "[中中中]", "(白白白白)", "[6666p]", ""]),
        ),
        max_size=3,
        unique_by=lambda p: p[1] or str(p[0]),
    ),
    streak=st.sampled_from(["", "黄庄", "跟庄中 黄庄"]),
)
def test_every_table_settles_to_zero(variant, win, discarder, parts, streak) -> None:
    seats = ("下家", "对家", "上家")
    by_seat: dict[int, str] = {}
    for s, meld in parts:
        fa = "发 " if variant == "jiujiang" and s not in by_seat else ""
        by_seat[s] = by_seat.get(s, "") + " " + fa + meld
    text = "; ".join(f"{seats[s]} {m}" for s, m in by_seat.items())
    hand = "234m567m345p678s99s +8s" if variant == "jiujiang" else XY_HAND
    options = "discard_win=true" if variant == "xinyu" else None
    a = score_desk(
        DeskQuery(
            hand=hand,
            variant=variant,
            win=win,
            discarder=None if win == "自摸" else discarder,
            others=text,
            streak=streak if variant == "jiujiang" else None,
            options=options,
        )
    )
    if not a.legal:
        return
    assert sum(deltas(a)) == 0
    assert [p.amount for p in a.payments] == [-d for d in deltas(a)[1:]]
    assert [p.win + p.kong for p in a.payments] == [p.amount for p in a.payments]


# --- autocomplete ---------------------------------------------------------------------------


def test_others_and_streak_autocomplete() -> None:
    [ok] = others_choices("jiujiang", "下家 发2 [9999m]; 对家 (1111p)")
    assert ok.name == "✓ 下家 发2 [9999m] · 对家 (1111p)"
    assert ok.value == "下家 发2 [9999m]; 对家 (1111p)"
    [bad] = others_choices("九江", "下家 [99x9m]")
    assert bad.name.startswith("⚠") and "99x" in bad.name
    assert others_choices("shangrao", "") == []
    [refused] = others_choices("上饶", "下家 [1111m]")
    assert refused.name.startswith("⚠") and "Shangrao" in refused.name
    examples = others_choices("xinyu", "")
    assert examples and all(parse_others(c.value) for c in examples)
    offered = streak_choices("jiujiang", "")
    assert [parse_streak(c.value)[0] for c in offered] == [
        int(c.name.split("×")[1].split()[0]) for c in offered
    ]
    [read] = streak_choices("jiujiang", "黄庄 跟庄")
    assert read.name.startswith("✓ 每炮 ×4")
    [refused] = streak_choices("xinyu", "黄庄")
    assert refused.name.startswith("⚠") and "Jiujiang" in refused.name


def test_every_raise_of_the_value_per_pao_is_named_in_every_locale() -> None:
    """跟庄 / 黄庄 raises (:data:`engine.settle.PAO_RAISES`) as the answers name them."""
    for code in PAO_RAISES:
        names = [raise_names([code], lang) for lang in LOCALES]
        assert all(names) and len(set(names)) == len(names), (code, names)
    assert raise_names(["draw", "follow"], "zh") == "黄庄, 跟庄"
    assert raise_names(["draw", "follow"], "zh-TW") == "黃莊, 跟莊"
    assert raise_names(["draw", "follow"], "en") == "drawn hand, followed"
