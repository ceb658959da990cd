"""南昌's two 精 in the pictures and the text: the table centre shows the indicator → 正精 and
副精 with badges of their own, a hand marks each kind with its badge, and the text (pictures
off) names the 正精 and the 副精."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cogs.delivery.pictures import hand_picture, table_picture
from cogs.game.text import hand_lines, table_lines, tile_name
from engine.game import new_game
from engine.tiles import successor
from render import tiles
from render.hand import hand_image
from render.table import table_image
from services.delivery import GameSummary
from services.model import Seat
from services.real_engine import RealEngine


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
        phase="turn",
    )


def _same(a, b) -> bool:
    return a.size == b.size and a.tobytes() == b.tobytes()


@pytest.fixture
def state():
    return new_game("nanchang", seed="jing-badges").state


def test_the_views_carry_the_zheng_jing(state) -> None:
    engine = RealEngine()
    zheng = state.hand.indicator >> 2
    assert engine.table_view(state).primary_wildcard == zheng
    assert engine.hand_view(state, 0).primary_wildcard == zheng
    assert engine.table_view(state).wildcards == {zheng, successor(zheng)}
    # 上饶's 宝 has no 正 / 副
    shangrao = new_game("shangrao", seed="a").state
    assert engine.table_view(shangrao).primary_wildcard is None


def test_zheng_and_fu_have_badges_of_their_own() -> None:
    for size in tiles.SIZES.values():
        zheng, fu, bao = (tiles.tile(4, size, bao=m) for m in ("正", "副", True))
        assert not _same(zheng, fu) and not _same(zheng, bao) and not _same(fu, bao)
    # the tile font draws each badge's word (a character it lacks is the same empty box)
    missing = tiles._bao_badge(40, "\u9fff")
    assert all(not _same(tiles._bao_badge(40, word), missing) for word in "宝正副")


def test_the_table_centre_and_a_hand_mark_each_kind_apart(state) -> None:
    engine = RealEngine()
    zheng = state.hand.indicator >> 2
    fu = successor(zheng)
    table_pic = table_picture(_game(), engine.table_view(state), "zh")
    assert table_pic.primary_wildcard == zheng and table_pic.bao_indicator == zheng
    shown = table_image(table_pic)
    # badged as 正 / 副, not both as one kind of wildcard
    assert not _same(shown, table_image(replace(table_pic, primary_wildcard=None)))
    # and which kind is the 正精 shows
    assert not _same(shown, table_image(replace(table_pic, primary_wildcard=fu)))
    hand_pic = hand_picture(engine.hand_view(state, 0), "zh")
    assert hand_pic.primary_wildcard == zheng
    both = replace(hand_pic, concealed=(zheng, fu, 27), drawn=None, melds=())
    marked = hand_image(both)
    assert not _same(marked, hand_image(replace(both, primary_wildcard=None)))
    assert not _same(marked, hand_image(replace(both, primary_wildcard=fu)))
    for kind in (zheng, fu):
        assert not _same(marked, hand_image(replace(both, wildcards=both.wildcards - {kind})))


@pytest.mark.parametrize(
    ("lang", "line"),
    [("zh", "正精{z}、副精{f}"), ("zh-TW", "正精{z}、副精{f}"), ("en", "{z} (正精), {f} (副精)")],
)
def test_the_text_names_the_zheng_and_the_fu_jing(state, lang: str, line: str) -> None:
    engine = RealEngine()
    zheng = state.hand.indicator >> 2
    want = line.format(z=tile_name(zheng, lang), f=tile_name(successor(zheng), lang))
    table = engine.table_view(state)
    text = "\n".join(
        table_lines(table, ["a", "b", "c", "d"], (0,) * 4, [False] * 4, lang, variant="nanchang")
    )
    assert want in text
    hand = "\n".join(hand_lines(engine.hand_view(state, 0), (), lang, variant="nanchang"))
    assert want in hand
