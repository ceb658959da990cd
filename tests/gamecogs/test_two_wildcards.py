"""Two wildcard kinds (正精 / 副精 of the test-only toy variant, tests/engine/toy_variant/) go
through the bot's whole path — the engine's views → the service's views → the pictures'
models and pixels → the text — and both kinds are marked and named everywhere."""

from __future__ import annotations

import importlib
from dataclasses import replace
from pathlib import Path

import pytest

from cogs.delivery.pictures import hand_picture, table_picture
from cogs.desk.answer import hand_picture as desk_hand_picture
from cogs.desk.text import context_lines, tile_label
from cogs.game.session_text import hand_notation, showdown_lines
from cogs.game.text import hand_lines, table_lines, tile_name
from engine import variants
from engine.game import new_game
from engine.tiles import tile_str
from render.hand import hand_image
from render.table import table_image
from services.delivery import GameSummary
from services.desk import BaoInputError, DeskQuery, score_desk
from services.model import HandResult, RevealedHand, Seat
from services.real_engine import RealEngine

ENGINE_TESTS = Path(__file__).resolve().parents[1] / "engine"


@pytest.fixture
def toy_state(monkeypatch):
    """A dealt hand of the toy variant (registered for the test and removed after it)."""
    monkeypatch.syspath_prepend(str(ENGINE_TESTS))
    toy = importlib.import_module("toy_variant")
    variants.register(toy.VARIANT, replace=True)
    try:
        yield new_game(toy.NAME, seed="toy-deal").state
    finally:
        variants.unregister(toy.NAME)


def _game() -> GameSummary:
    seats = tuple(Seat(name=f"p{i}", user_id=100 + i) for i in range(4))
    return GameSummary(
        id=7,
        guild_id=1,
        channel_id=2,
        variant="toyjing",
        options={},
        seats=seats,
        status="active",
        version=1,
        totals=(0, 0, 0, 0),
        hand_no=1,
        phase="turn",
    )


def _same(a, b) -> bool:
    return a.size == b.size and a.tobytes() == b.tobytes()


def test_two_wildcard_kinds_reach_the_views_pictures_and_text(toy_state) -> None:
    wilds = toy_state.hand.wildcards
    assert len(wilds) == 2
    first, second = sorted(wilds)
    engine = RealEngine()
    table = engine.table_view(toy_state)
    hand = engine.hand_view(toy_state, 0)
    # the service's views carry the set, not one kind
    assert table.wildcards == wilds and hand.wildcards == wilds
    assert table.bao_indicator == toy_state.hand.indicator >> 2

    # the pictures' models carry both kinds
    table_pic = table_picture(_game(), table, "zh")
    hand_pic = hand_picture(hand, "zh")
    assert table_pic.wildcards == wilds and hand_pic.wildcards == wilds
    # ... and the pixels mark both: the centre shows each kind, a hand marks each kind's tiles
    shown = table_image(table_pic)
    for kind in wilds:
        assert not _same(shown, table_image(replace(table_pic, wildcards=wilds - {kind})))
    both = replace(hand_pic, concealed=(first, first, second, 27), drawn=None, melds=())
    marked = hand_image(both)
    for kind in wilds:
        assert not _same(marked, hand_image(replace(both, wildcards=wilds - {kind})))

    # the text names both kinds, with the variant's own word (精): the private hand, the
    # table's wildcard line and the 摊牌 notation (its mark is the variant's word; 宝 by default)
    hand_text = "\n".join(hand_lines(hand, (), "zh", variant="toyjing"))
    assert f"精：{tile_name(first, 'zh')}、{tile_name(second, 'zh')}" in hand_text
    table_text = "\n".join(
        table_lines(table, ["a", "b", "c", "d"], (0,) * 4, [False] * 4, "zh", variant="toyjing")
    )
    indicator = tile_name(table.bao_indicator, "zh")
    pair = f"{tile_name(first, 'zh')}、{tile_name(second, 'zh')}"
    assert f"精牌指示 {indicator} → 精 {pair}" in table_text
    notation = hand_notation((first, first, second, 27), wilds, variant="toyjing")
    assert notation == f"1z 精{tile_str(first)}×2 精{tile_str(second)}×1"
    assert hand_notation((first, 27), wilds) == f"1z 宝{tile_str(first)}×1"


def test_the_scoring_desk_takes_and_shows_both_wildcard_kinds(toy_state) -> None:
    # 5p and 6p are the two 精 of the indicator 4p: with 9p they make 999p
    hand = "123m456m789s11z569p +9p"
    by_indicator = score_desk(DeskQuery(hand=hand, variant="toyjing", bao="indicator:4p"))
    by_tiles = score_desk(DeskQuery(hand=hand, variant="toyjing", bao="5p 6p"))
    assert by_indicator.context.wildcards == by_tiles.context.wildcards == {13, 14}
    assert by_indicator.legal and by_tiles.legal
    # one kind only: 5p with 6p 9p makes no set
    assert not score_desk(DeskQuery(hand=hand, variant="toyjing", bao="5p")).legal
    assert desk_hand_picture(by_tiles).wildcards == {13, 14}
    text = "\n".join(context_lines(by_tiles, "zh"))
    assert f"精：{tile_label(13, 'zh')}、{tile_label(14, 'zh')}" in text
    assert "宝" not in text
    # a tile the desk cannot read among several is named; an indicator's error stays its own
    with pytest.raises(BaoInputError) as bad_tile:
        score_desk(DeskQuery(hand=hand, variant="toyjing", bao="5p 0p"))
    assert bad_tile.value.field == "bao" and bad_tile.value.bad == "0p"
    with pytest.raises(BaoInputError) as bad_indicator:
        score_desk(DeskQuery(hand=hand, variant="toyjing", bao="indicator: 0p"))
    assert bad_indicator.value.bad == "0p"


def test_the_wildcard_word_is_the_variants_own(toy_state) -> None:
    """The toy variant names its wildcard 精 (its registry field): the table picture writes
    精 beside the indicator, and the table and hand texts say 精 in every locale; 上饶 says
    宝 / 寶 / Bao."""
    engine = RealEngine()
    table = engine.table_view(toy_state)
    hand = engine.hand_view(toy_state, 0)
    toy_pic = table_picture(_game(), table, "zh")
    assert toy_pic.words.wildcard == "精"
    shangrao_pic = table_picture(replace(_game(), variant="shangrao"), table, "zh")
    assert shangrao_pic.words.wildcard == "宝"
    # the pixels: the same table with 上饶's word draws differently, and 精 is drawn
    assert not _same(table_image(toy_pic), table_image(shangrao_pic))
    assert _same(
        table_image(toy_pic),
        table_image(replace(shangrao_pic, words=replace(shangrao_pic.words, wildcard="精"))),
    )
    names = ["a", "b", "c", "d"]
    for lang, toy_word, bao in (("zh", "精", "宝"), ("zh-TW", "精", "寶"), ("en", "Jing", "Bao")):
        toy_lines = table_lines(table, names, (0,) * 4, [False] * 4, lang, variant="toyjing")
        bao_lines = table_lines(table, names, (0,) * 4, [False] * 4, lang, variant="shangrao")
        (toy_line,) = [line for line in toy_lines if toy_word in line]
        (bao_line,) = [line for line in bao_lines if bao in line]
        assert toy_line.replace(toy_word, bao) == bao_line
        toy_hand = hand_lines(hand, (), lang, variant="toyjing")
        assert any(toy_word in line for line in toy_hand)
        assert not any(bao in line for line in toy_hand)


def test_the_showdown_and_the_desk_use_the_variants_wildcard_word(toy_state) -> None:
    """摊牌 (the wildcard line, each laid-open hand's notation mark, the winning tile's mark)
    and the scoring desk's read-back name the wildcards with the variant's own word in every
    locale: the toy's 精 where 上饶 says 宝 / 寶 / Bao (the notation mark stays Chinese)."""
    wilds = frozenset({13, 14})  # 5p, 6p
    result = HandResult(
        hand_no=1,
        how="self",
        winners=(0,),
        discarder=None,
        points=8,
        items=(),
        deltas=(24, -8, -8, -8),
        winning_tile=13,
        hands=(
            RevealedHand(0, (0, 1, 2, 3, 4, 5, 18, 19, 20, 27, 27, 13, 14, 13)),
            RevealedHand(1, (9, 10, 11, 14, 14, 30)),
        ),
        dealer=0,
        wildcards=wilds,
    )
    words = {"zh": ("宝", "宝"), "zh-TW": ("寶", "寶"), "en": ("Bao", "宝")}
    for lang, (bao_word, bao_mark) in words.items():
        toy = "\n".join(showdown_lines(_game(), result, lang))
        shangrao = "\n".join(showdown_lines(replace(_game(), variant="shangrao"), result, lang))
        toy_word = "Jing" if lang == "en" else "精"
        # the winner's 5p is shown apart, marked; seat 1 holds two 6p
        assert "`123456m 123s 11z 精5p×1 精6p×1`" in toy and "精6p×2" in toy and "5p精" in toy
        assert toy_word in toy.replace("精5p", "").replace("精6p", "").replace("5p精", "")
        assert bao_word not in toy and bao_mark not in toy
        as_shangrao = toy.replace(toy_word, bao_word).replace("精", bao_mark)
        assert as_shangrao == shangrao
        # the desk: the same hand scored with both 精 named in the read-back
        answer = score_desk(
            DeskQuery(hand="123m456m789s11z569p +9p", variant="toyjing", bao="5p 6p")
        )
        read_back = "\n".join(context_lines(answer, lang))
        assert toy_word in read_back and bao_word not in read_back
        bao_desk = score_desk(
            DeskQuery(hand="123m456m789s11z569p +9p", variant="shangrao", bao="5p")
        )
        assert bao_word in "\n".join(context_lines(bao_desk, lang))
