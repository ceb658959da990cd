"""Two wildcard kinds (正精 / 副精 of the test-only toy variant, tests/engine/toy_variant/) go
through the bot's whole path — the engine's views → the service's views → the pictures'
models and pixels → the text — and both kinds are marked and named everywhere."""

from __future__ import annotations

import importlib
from dataclasses import replace
from pathlib import Path

import pytest

from cogs.desk_answer import hand_picture as desk_hand_picture
from cogs.desk_text import context_lines, tile_label
from cogs.pictures import hand_picture, table_picture
from cogs.session_text import hand_notation
from cogs.text import hand_lines, table_lines, tile_name
from engine import variants
from engine.game import new_game
from engine.tiles import tile_str
from render.hand import hand_image
from render.table import table_image
from services.delivery import GameSummary
from services.desk import BaoInputError, DeskQuery, score_desk
from services.model import Seat
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

    # the text names both kinds: the private hand, the table's 宝 line and the 摊牌 notation
    hand_text = "\n".join(hand_lines(hand, (), "zh"))
    assert f"宝：{tile_name(first, 'zh')}、{tile_name(second, 'zh')}" in hand_text
    table_text = "\n".join(table_lines(table, ["a", "b", "c", "d"], (0,) * 4, [False] * 4, "zh"))
    indicator = tile_name(table.bao_indicator, "zh")
    pair = f"{tile_name(first, 'zh')}、{tile_name(second, 'zh')}"
    assert f"宝牌指示 {indicator} → 宝 {pair}" in table_text
    notation = hand_notation((first, first, second, 27), wilds)
    assert notation == f"1z 宝{tile_str(first)}×2 宝{tile_str(second)}×1"


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
    assert f"宝：{tile_label(13, 'zh')}、{tile_label(14, 'zh')}" in text
    # a tile the desk cannot read among several is named; an indicator's error stays its own
    with pytest.raises(BaoInputError) as bad_tile:
        score_desk(DeskQuery(hand=hand, variant="toyjing", bao="5p 0p"))
    assert bad_tile.value.field == "bao" and bad_tile.value.bad == "0p"
    with pytest.raises(BaoInputError) as bad_indicator:
        score_desk(DeskQuery(hand=hand, variant="toyjing", bao="indicator: 0p"))
    assert bad_indicator.value.bad == "0p"
