"""Claimed melds show their feeder: the claimed tile lies sideways on the feeder's side
(上家 left, 对家 middle, 下家 right), an added kong (补杠) stacks its fourth tile on it, and
melds without a feeder (old saved games, concealed kongs) are drawn as before."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import ImageChops
from render_fixtures import fed_table, table_state
from tile_search import find, matches

from render import HandPicture, MeldView, ResultPicture, SeatChange, SeatView, TablePicture, tiles
from render import draw as d
from render import hand as hand_mod
from render import table as table_mod
from render.hand import hand_image
from render.models import DUIJIA, SHANGJIA, XIAJIA, feeder_offset
from render.result import result_image
from render.table import table_image

DIRECTIONS = (SHANGJIA, DUIJIA, XIAJIA)


# ----------------------------------------------------------------------------- the model


def test_feeder_offset_counts_from_the_owner() -> None:
    assert feeder_offset(0, 3) == SHANGJIA  # seat 3 plays just before seat 0
    assert feeder_offset(0, 2) == DUIJIA
    assert feeder_offset(0, 1) == XIAJIA
    assert feeder_offset(2, 1) == SHANGJIA
    assert feeder_offset(3, 0) == XIAJIA
    assert feeder_offset(1, None) is None
    assert feeder_offset(1, 1) is None


@pytest.mark.parametrize(("fed", "at"), [(SHANGJIA, 0), (DUIJIA, 1), (XIAJIA, 2)])
def test_slots_put_the_claimed_tile_on_the_feeders_side(fed: int, at: int) -> None:
    slots = d.meld_slots(MeldView("pong", (5, 5, 5), fed_from=fed))
    assert [s.sideways for s in slots] == [i == at for i in range(3)]
    kong = d.meld_slots(MeldView("kong", (5, 5, 5, 5), fed_from=fed))
    assert [i for i, s in enumerate(kong) if s.sideways] == [{0: 0, 1: 1, 2: 3}[at]]
    added = d.meld_slots(MeldView("kong", (5, 5, 5, 5), fed_from=fed, added=True))
    assert len(added) == 3
    assert [(s.sideways, s.stacked) for s in added] == [
        (True, 5) if i == at else (False, None) for i in range(3)
    ]


def test_chi_turns_the_claimed_tile_else_the_lowest() -> None:
    slots = d.meld_slots(MeldView("chi", (3, 4, 5), fed_from=SHANGJIA, claimed=5))
    assert [(s.kind, s.sideways) for s in slots] == [(5, True), (3, False), (4, False)]
    unknown = d.meld_slots(MeldView("chi", (3, 4, 5), fed_from=SHANGJIA))
    assert [(s.kind, s.sideways) for s in unknown] == [(3, True), (4, False), (5, False)]


def test_melds_without_a_feeder_stay_upright() -> None:
    for kind in ("chi", "pong", "kong"):
        slots = d.meld_slots(MeldView(kind, (7, 8, 9)))
        assert not any(s.sideways or s.back or s.stacked is not None for s in slots)
    # a concealed kong ignores a feeder: backs at both ends, faces between
    hidden = d.meld_slots(MeldView("concealed_kong", (9,) * 4, fed_from=SHANGJIA))
    assert [(s.back, s.sideways) for s in hidden] == [
        (True, False),
        (False, False),
        (False, False),
        (True, False),
    ]


def test_widths_count_the_sideways_tile() -> None:
    size = tiles.L
    side_w, _ = tiles.sideways_size(size)
    plain = d.meld_width(MeldView("pong", (5, 5, 5)), size)
    assert plain == 3 * size.w + 2
    assert (
        d.meld_width(MeldView("pong", (5, 5, 5), fed_from=DUIJIA), size) == plain - size.w + side_w
    )
    added = MeldView("kong", (5,) * 4, fed_from=XIAJIA, added=True)
    assert d.meld_width(added, size) == 2 * size.w + side_w + 2
    assert d.meld_rise(added, size) > 0
    assert d.meld_rise(MeldView("kong", (5,) * 4, fed_from=XIAJIA), size) == 0


# ----------------------------------------------------------------------------- the hand


def _meld_x() -> int:
    """Left edge of the first meld in a hand of one concealed tile."""
    return hand_mod.PAD + tiles.L.w + hand_mod.GROUP_GAP


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize(("fed", "slot"), [(SHANGJIA, 0), (DUIJIA, 1), (XIAJIA, -1)])
def test_hand_turns_the_claimed_tile_towards_the_feeder(n: int, fed: int, slot: int) -> None:
    size = tiles.L
    kind = "pong" if n == 3 else "kong"
    img = hand_image(HandPicture(concealed=(0,), melds=(MeldView(kind, (31,) * n, fed_from=fed),)))
    side_w, side_h = tiles.sideways_size(size)
    x0 = _meld_x()
    upright = [x0 + i * (size.w + 1) for i in range(n)]
    at = slot % n
    side_x = upright[at]
    top = hand_mod.PAD
    assert matches(img, tiles.sideways(31, size), side_x, top + size.h - side_h)
    ups = [x if i < at else x - size.w + side_w for i, x in enumerate(upright) if i != at]
    for x in ups:
        assert matches(img, tiles.tile(31, size), x, top)
    # and the sideways tile is found nowhere else
    found = find(img, tiles.sideways(31, size), (0, 0, img.width, img.height))
    assert found == [(side_x, top + size.h - side_h)]


def test_hand_stacks_the_added_kong_tile() -> None:
    size = tiles.L
    meld = MeldView("kong", (31,) * 4, fed_from=SHANGJIA, added=True)
    img = hand_image(HandPicture(concealed=(0,), melds=(meld,)))
    plain = hand_image(HandPicture(concealed=(0,)))
    rise = d.meld_rise(meld, size)
    assert img.height == plain.height + rise
    top = hand_mod.PAD + rise
    _, side_h = tiles.sideways_size(size)
    low = top + size.h - side_h
    side = tiles.sideways(31, size)
    # the upper tile is whole and sits right on the lower one, whose bottom shows below it
    assert find(img, side, (0, 0, img.width, img.height)) == [(_meld_x(), low - size.w)]
    bottom = (side.width // 2, side_h - 2)
    assert img.getpixel((_meld_x() + bottom[0], low + bottom[1])) == side.getpixel(bottom)[:3]
    # the other two tiles stand upright to its right
    for i in range(2):
        x = _meld_x() + side.width + 1 + i * (size.w + 1)
        assert matches(img, tiles.tile(31, size), x, top)


def test_hand_chi_turns_the_claimed_kind() -> None:
    size = tiles.L
    meld = MeldView("chi", (18, 19, 20), fed_from=SHANGJIA, claimed=20)
    img = hand_image(HandPicture(concealed=(0,), melds=(meld,)))
    _, side_h = tiles.sideways_size(size)
    assert matches(img, tiles.sideways(20, size), _meld_x(), hand_mod.PAD + size.h - side_h)
    assert not matches(img, tiles.sideways(18, size), _meld_x(), hand_mod.PAD + size.h - side_h)


def test_old_melds_render_as_before() -> None:
    """A meld with no feeder (a game saved before feeders were kept) draws all upright at the
    old width, and the picture equals the same meld drawn with no feeder fields at all."""
    melds = (MeldView("pong", (5, 5, 5)), MeldView("kong", (9,) * 4), MeldView("chi", (0, 1, 2)))
    img = hand_image(HandPicture(concealed=(27,), melds=melds))
    size = tiles.L
    assert img.height == 2 * hand_mod.PAD + size.h
    x = _meld_x()
    for meld in melds:
        for k in meld.tiles:
            assert matches(img, tiles.tile(k, size), x, hand_mod.PAD)
            x += size.w + 1
        x += d.MELD_GAP - 1
    for k in (5, 9, 0, 1, 2):
        assert not find(img, tiles.sideways(k, size), (0, 0, img.width, img.height))


# ----------------------------------------------------------------------------- the table


def _one_meld_table(owner: int, meld: MeldView, viewer: int = 0) -> TablePicture:
    seats = tuple(
        SeatView(name=f"P{i}", concealed_count=10, melds=(meld,) if i == owner else ())
        for i in range(4)
    )
    return TablePicture(seats=seats, viewer=viewer)  # type: ignore[arg-type]


@pytest.mark.parametrize("pos", [0, 1, 2, 3])
@pytest.mark.parametrize("fed", DIRECTIONS)
def test_table_turns_the_claimed_tile_for_every_seat(pos: int, fed: int) -> None:
    """Seen from seat 2, the meld's owner sits at ``pos``; its claimed tile lies on the
    feeder's side of the meld, counted from the owner (上家 left, 对家 middle, 下家 right)."""
    viewer = 2
    owner = (viewer + pos) % 4
    img = table_image(_one_meld_table(owner, MeldView("pong", (31,) * 3, fed_from=fed), viewer))
    box = table_mod.INFO_BOX[pos]
    size = table_mod.MELD_SIZE
    sideways = find(img, tiles.sideways(31, size), box)
    upright = find(img, tiles.tile(31, size), box)
    assert len(sideways) == 1 and len(upright) == 2, (sideways, upright)
    sx, sy = sideways[0]
    ux = [x for x, _ in upright]
    assert all(y == upright[0][1] for _, y in upright)
    assert sy + tiles.sideways_size(size)[1] == upright[0][1] + size.h  # same bottom line
    if fed == SHANGJIA:
        assert sx < min(ux)
    elif fed == XIAJIA:
        assert sx > max(ux)
    else:
        assert min(ux) < sx < max(ux)


@pytest.mark.parametrize("pos", [0, 1, 2, 3])
def test_table_stacks_an_added_kong(pos: int) -> None:
    size = table_mod.MELD_SIZE
    meld = MeldView("kong", (20,) * 4, fed_from=XIAJIA, added=True)
    img = table_image(_one_meld_table(pos, meld))
    box = table_mod.INFO_BOX[pos]
    side = tiles.sideways(20, size)
    found = find(img, side, box)
    # the upper one is whole; the lower one's face is partly under it, so look for the
    # upper one only and check the lower one's visible bottom below it
    assert len(found) == 1
    sx, sy = found[0]
    upright = find(img, tiles.tile(20, size), box)
    assert len(upright) == 2 and sx > max(x for x, _ in upright)  # from the 下家: right
    low = sy + size.w
    assert low + side.height == upright[0][1] + size.h
    assert (
        img.getpixel((sx + side.width // 2, low + side.height - 2))
        == side.getpixel((side.width // 2, side.height - 2))[:3]
    )
    assert sy >= box[1]  # stays inside its panel


def test_table_reference_fixture_shows_every_direction() -> None:
    view = fed_table()
    fed = {m.fed_from for s in view.seats for m in s.melds}
    assert {SHANGJIA, DUIJIA, XIAJIA} <= fed
    assert any(m.added for s in view.seats for m in s.melds)
    img = table_image(view)
    assert img.size == (table_mod.WIDTH, table_mod.HEIGHT)


def test_table_without_feeders_is_unchanged_by_the_new_fields() -> None:
    """Old saved games carry no feeder: explicit None/False equals the plain meld."""
    base = table_state()
    spelled = replace(
        base,
        seats=tuple(
            replace(
                s,
                melds=tuple(
                    MeldView(m.kind, m.tiles, fed_from=None, claimed=None, added=False)
                    for m in s.melds
                ),
            )
            for s in base.seats
        ),
    )
    assert ImageChops.difference(table_image(base), table_image(spelled)).getbbox() is None
    with_feeders = replace(
        base,
        seats=tuple(
            replace(s, melds=tuple(replace(m, fed_from=SHANGJIA) for m in s.melds))
            for s in base.seats
        ),
    )
    assert ImageChops.difference(table_image(base), table_image(with_feeders)).getbbox()


# ----------------------------------------------------------------------------- the result


@pytest.mark.parametrize("fed", DIRECTIONS)
def test_result_turns_the_claimed_tile(fed: int) -> None:
    size = tiles.L
    view = ResultPicture(
        changes=(SeatChange("a", 1),),
        winner="a",
        concealed=(0, 1),
        winning_tile=2,
        melds=(MeldView("pong", (31,) * 3, fed_from=fed),),
    )
    img = result_image(view)
    sideways = find(img, tiles.sideways(31, size), (0, 0, img.width, img.height))
    upright = find(img, tiles.tile(31, size), (0, 0, img.width, img.height))
    assert len(sideways) == 1 and len(upright) == 2
    sx = sideways[0][0]
    ux = sorted(x for x, _ in upright)
    assert {SHANGJIA: sx < ux[0], DUIJIA: ux[0] < sx < ux[1], XIAJIA: sx > ux[1]}[fed]


def test_result_makes_room_for_a_stacked_tile() -> None:
    base = ResultPicture(
        changes=(SeatChange("a", 1),),
        winner="a",
        concealed=(0, 1),
        winning_tile=2,
        melds=(MeldView("kong", (31,) * 4, fed_from=DUIJIA),),
    )
    added = replace(base, melds=(replace(base.melds[0], added=True),))
    a, b = result_image(base), result_image(added)
    assert b.height > a.height
    side = tiles.sideways(31, tiles.L)
    found = find(b, side, (0, 0, b.width, b.height))
    assert len(found) == 1 and found[0][1] >= 0


@pytest.mark.parametrize("pos", [0, 2])
def test_wide_seat_name_stops_before_a_stacked_tile(pos: int) -> None:
    """An added kong's stacked tile reaches into the header line of the top and bottom
    seats; a long name is cut short before it instead of running under it."""
    meld = MeldView("kong", (20,) * 4, fed_from=SHANGJIA, added=True)
    base = _one_meld_table(pos, meld)
    long_name = replace(
        base,
        seats=tuple(replace(s, name="W" * 40) if i == pos else s for i, s in enumerate(base.seats)),
    )
    no_name = replace(
        base, seats=tuple(replace(s, name="") if i == pos else s for i, s in enumerate(base.seats))
    )
    img = table_image(long_name)
    box = table_mod.INFO_BOX[pos]
    found = find(img, tiles.sideways(20, table_mod.MELD_SIZE), box)
    assert len(found) == 1
    sx, sy = found[0]
    assert sy < box[1] + 27  # it does reach above the meld row, into the header line
    name_box = ImageChops.difference(img, table_image(no_name)).getbbox()
    assert name_box is not None and name_box[1] < sy + 10
    assert name_box[2] <= sx - 4


fed_melds = st.builds(
    MeldView,
    kind=st.sampled_from(["chi", "pong", "kong", "concealed_kong", "indicator_kong"]),
    tiles=st.lists(st.integers(0, 33), min_size=3, max_size=4).map(tuple),
    fed_from=st.none() | st.sampled_from(DIRECTIONS) | st.integers(-2, 6),
    claimed=st.none() | st.integers(0, 33),
    added=st.booleans(),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    melds=st.lists(st.lists(fed_melds, max_size=4).map(tuple), min_size=4, max_size=4),
    wildcards=st.frozensets(st.integers(0, 33), max_size=2),
)
def test_any_fed_melds_render(melds, wildcards) -> None:
    """Any feeder, claimed kind (even one not in the meld) and added flag draws; stacked
    tiles stay inside the hand picture and the table keeps its size."""
    seats = tuple(SeatView(name="x", concealed_count=5, melds=m) for m in melds)
    table = table_image(TablePicture(seats=seats, wildcards=wildcards))  # type: ignore[arg-type]
    assert table.size == (table_mod.WIDTH, table_mod.HEIGHT)
    hand = hand_image(HandPicture(concealed=(1, 2), melds=melds[0], wildcards=wildcards))
    rise = d.melds_rise(melds[0], tiles.L)
    assert hand.height == 2 * hand_mod.PAD + tiles.L.h + rise
    width = 2 * hand_mod.PAD + 2 * tiles.L.w + 1
    if melds[0]:
        width += hand_mod.GROUP_GAP + d.melds_width(melds[0], tiles.L)
    assert hand.width == width
    result = result_image(
        ResultPicture(changes=(SeatChange("a", 1),), winner="a", concealed=(1,), melds=melds[0])
    )
    assert result.width >= 560
