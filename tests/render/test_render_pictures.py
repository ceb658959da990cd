"""Hand, table and result pictures: sizes, stored references, what is marked and shown."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from make_reference import REFERENCE, references
from PIL import Image, ImageChops, ImageFilter, ImageStat
from render_fixtures import hand_state, table_state

from render import (
    HandPicture,
    MeldView,
    ResultPicture,
    ScoreItem,
    SeatChange,
    SeatView,
    TablePicture,
    hand_image,
    render_hand,
    render_result,
    render_table,
    result_image,
    table_image,
    tiles,
)
from render import hand as hand_mod
from render import table as table_mod
from render.samples import sample_table


def _decode(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def _same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


# ----------------------------------------------------------------------------- references


def _blurred_diff(a: Image.Image, b: Image.Image) -> Image.Image:
    """Grey difference after a 1 px blur, so sub-pixel shifts of text between Pillow and
    FreeType versions count little while a changed tile or label still counts a lot."""
    blur = ImageFilter.GaussianBlur(1)
    return ImageChops.difference(a.filter(blur), b.filter(blur)).convert("L")


@pytest.mark.parametrize("name", sorted(references()))
def test_matches_stored_reference(name: str) -> None:
    """Fresh renders match the committed pictures: mean error < 2 (of 255), and no 24×24
    block off by 40 or more on average (a 1 px shift of every text reaches about 25, one
    changed tile about 48)."""
    fresh = _decode(references()[name])
    stored = _decode((REFERENCE / name).read_bytes())
    assert fresh.size == stored.size
    diff = _blurred_diff(fresh, stored)
    mean = ImageStat.Stat(diff).mean[0]
    assert mean < 2.0, f"{name}: mean diff {mean:.2f}; regenerate with make_reference.py"
    worst = max(diff.reduce(24).tobytes())
    assert worst < 40, f"{name}: a block differs by {worst}; regenerate with make_reference.py"


def test_reference_comparison_catches_one_changed_tile() -> None:
    base = table_state()
    seats = list(base.seats)
    seats[0] = replace(seats[0], river=(5, *seats[0].river[1:]))
    changed = _decode(render_table(replace(base, seats=tuple(seats))))
    stored = _decode((REFERENCE / "table_shangrao.png").read_bytes())
    assert max(_blurred_diff(changed, stored).reduce(24).tobytes()) >= 40


def test_reference_files_are_png() -> None:
    for name in references():
        assert (REFERENCE / name).read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


# ----------------------------------------------------------------------------- table


def test_table_has_a_fixed_size_and_is_small() -> None:
    for view in (table_state(), sample_table()):
        data = render_table(view)
        assert data.startswith(b"\x89PNG")
        assert len(data) < 150_000  # well under Discord-friendly 500 KB
        assert _decode(data).size == (table_mod.WIDTH, table_mod.HEIGHT)


def _seats(**changes) -> tuple[SeatView, ...]:
    return tuple(replace(s, **changes) if i == 1 else s for i, s in enumerate(table_state().seats))


@pytest.mark.parametrize(
    "changed",
    [
        lambda v: replace(v, last_discard=None),
        lambda v: replace(v, wildcards=frozenset()),
        lambda v: replace(v, bao_indicator=None),
        lambda v: replace(v, turn=2),
        lambda v: replace(v, wall_left=36),
        lambda v: replace(v, countdown="5秒"),
        lambda v: replace(v, seats=_seats(concealed_count=4)),
        lambda v: replace(v, seats=_seats(flowers=2)),
        lambda v: replace(v, seats=_seats(dealer=True)),
        lambda v: replace(v, seats=_seats(score=99)),
        lambda v: replace(v, seats=_seats(river=(1, 2))),
        lambda v: replace(v, seats=_seats(melds=())),
        lambda v: replace(v, viewer=1),
    ],
)
def test_every_table_field_shows(changed) -> None:
    base = table_state()
    assert not _same(table_image(base), table_image(changed(base)))


def test_table_is_deterministic() -> None:
    assert _same(table_image(table_state()), table_image(table_state()))


def test_viewer_rotates_the_seats() -> None:
    """Seat 1 seen from seat 1 sits at the bottom: its river is drawn below the centre."""
    base = table_state()
    seats = tuple(replace(s, river=()) for s in base.seats)
    seats = tuple(replace(s, river=(0,)) if i == 1 else s for i, s in enumerate(seats))
    view = replace(base, seats=seats, last_discard=None)
    empty = replace(view, seats=tuple(replace(s, river=()) for s in seats))
    for viewer, pos in ((0, 1), (1, 0), (2, 3), (3, 2)):
        box = ImageChops.difference(
            table_image(replace(view, viewer=viewer)), table_image(replace(empty, viewer=viewer))
        ).getbbox()
        rx, ry = table_mod.RIVER_XY[pos]
        assert box is not None
        assert (box[0], box[1]) == (rx, ry), (viewer, box)


def test_long_river_stays_in_its_box() -> None:
    base = table_state()
    seats = tuple(replace(s, river=tuple(i % 34 for i in range(40))) for s in base.seats)
    img = table_image(replace(base, seats=seats))
    assert img.size == (table_mod.WIDTH, table_mod.HEIGHT)
    # nothing of the bottom seat's river reaches into its info band
    band_top = table_mod.INFO_BOX[0][1]
    _, ry = table_mod.RIVER_XY[0]
    assert ry + table_mod.RIVER_H < band_top


def test_concealed_kong_differs_from_exposed_kong_on_the_table() -> None:
    base = table_state()  # seat 1 has a concealed kong
    img = table_image(base)
    without_kong = table_image(
        replace(
            base,
            seats=_seats(melds=(MeldView("chi", (3, 4, 5)), MeldView("kong", (20, 20, 20, 20)))),
        )
    )
    assert not _same(img, without_kong)  # 暗杠 drawn differently from 明杠


meld_kinds = st.sampled_from(["chi", "pong", "kong", "concealed_kong", "indicator_kong"])
kinds = st.integers(0, 33)
seat_views = st.builds(
    SeatView,
    name=st.text(max_size=40),
    score=st.integers(-10_000, 10_000),
    concealed_count=st.integers(0, 14),
    melds=st.lists(
        st.builds(
            MeldView, kind=meld_kinds, tiles=st.lists(kinds, min_size=3, max_size=4).map(tuple)
        ),
        max_size=4,
    ).map(tuple),
    river=st.lists(kinds, max_size=40).map(tuple),
    flowers=st.integers(0, 4),
    dealer=st.booleans(),
    auto=st.booleans(),
    ready=st.booleans(),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=st.tuples(seat_views, seat_views, seat_views, seat_views),
    viewer=st.integers(0, 3),
    turn=st.none() | st.integers(0, 3),
    wildcards=st.frozensets(kinds, max_size=2),
    indicator=st.none() | kinds,
    last=st.none() | st.integers(0, 3),
)
def test_any_table_renders(seats, viewer, turn, wildcards, indicator, last) -> None:
    view = TablePicture(
        seats=seats,
        viewer=viewer,
        turn=turn,
        wall_left=50,
        wildcards=wildcards,
        bao_indicator=indicator,
        last_discard=last,
        countdown="10秒",
    )
    data = render_table(view)
    assert _decode(data).size == (table_mod.WIDTH, table_mod.HEIGHT)
    assert len(data) < 500_000


# ----------------------------------------------------------------------------- hand


def test_hand_size_follows_the_tiles() -> None:
    pad, t = hand_mod.PAD, tiles.L
    plain = hand_image(HandPicture(concealed=tuple(range(13))))
    assert plain.size == (2 * pad + 13 * (t.w + 1) - 1, 2 * pad + t.h)
    one_more = hand_image(HandPicture(concealed=tuple(range(14))))
    assert one_more.width == plain.width + t.w + 1
    drawn = hand_image(HandPicture(concealed=tuple(range(13)), drawn=20))
    assert drawn.width == plain.width + hand_mod.DRAWN_GAP + t.w
    labelled = hand_image(HandPicture(concealed=tuple(range(13)), labels=True))
    assert labelled.width == plain.width and labelled.height > plain.height
    melded = hand_image(
        HandPicture(concealed=tuple(range(10)), melds=(MeldView("pong", (5, 5, 5)),))
    )
    assert melded.width == plain.width + hand_mod.GROUP_GAP - 1  # one tile gap fewer


def test_hand_is_sorted_with_bao_first() -> None:
    shuffled = HandPicture(concealed=(27, 3, 5, 0, 18, 9, 5), wildcards=frozenset({5}))
    ordered = HandPicture(concealed=(5, 5, 0, 3, 9, 18, 27), wildcards=frozenset({5}), sort=False)
    assert _same(hand_image(shuffled), hand_image(ordered))
    assert hand_mod.hand_order((27, 3, 5, 0), frozenset()) == [0, 3, 5, 27]
    # two wildcard kinds (正精/副精): both come first, in kind order
    assert hand_mod.hand_order((27, 3, 5, 0, 3), frozenset({5, 3})) == [3, 3, 5, 0, 27]


def test_hand_marks_bao_and_concealed_kong() -> None:
    base = hand_state()
    assert not _same(hand_image(base), hand_image(replace(base, wildcards=frozenset())))
    open_kong = HandPicture(concealed=(0,), melds=(MeldView("kong", (9, 9, 9, 9)),))
    hidden = HandPicture(concealed=(0,), melds=(MeldView("concealed_kong", (9, 9, 9, 9)),))
    a, b = hand_image(open_kong), hand_image(hidden)
    assert a.size == b.size and not _same(a, b)
    # the concealed kong's first tile is a back
    t = tiles.L
    x = hand_mod.PAD + t.w + hand_mod.GROUP_GAP
    crop = b.crop((x, hand_mod.PAD, x + t.w, hand_mod.PAD + t.h))
    expected = Image.new("RGB", (t.w, t.h), crop.getpixel((0, 0)))
    expected.paste(tiles.back(t), (0, 0), tiles.back(t))
    assert ImageChops.difference(crop, expected).getbbox() is None


def test_hand_png() -> None:
    data = render_hand(hand_state())
    assert data.startswith(b"\x89PNG")
    assert _decode(data).size == hand_image(hand_state()).size
    assert len(data) < 100_000


def test_hidden_concealed_kongs_do_not_show_their_kind() -> None:
    base = table_state()  # seat 1 has a concealed kong of 3s
    other = replace(
        base,
        seats=_seats(melds=(MeldView("chi", (3, 4, 5)), MeldView("concealed_kong", (21,) * 4))),
    )
    shown = (table_image(base), table_image(other))
    assert not _same(*shown)  # revealed: the kind is visible
    hidden = [table_image(replace(v, reveal_concealed_kongs=False)) for v in (base, other)]
    assert _same(*hidden)  # hidden: nothing tells 3s from 4s
    assert not _same(hidden[0], shown[0])


def test_table_never_depends_on_anything_but_public_fields() -> None:
    """The table takes counts, not concealed tiles: two seats with equal public fields draw
    identically whatever their hands (the model has no field for concealed faces)."""
    fields = set(SeatView.__dataclass_fields__)
    assert fields == {
        "name",
        "score",
        "concealed_count",
        "melds",
        "river",
        "flowers",
        "dealer",
        "auto",
        "ready",
    }


meld_views = st.builds(
    MeldView, kind=meld_kinds, tiles=st.lists(kinds, min_size=3, max_size=4).map(tuple)
)


@settings(max_examples=25, deadline=None)
@given(
    concealed=st.lists(kinds, max_size=14).map(tuple),
    drawn=st.none() | kinds,
    melds=st.lists(meld_views, max_size=4).map(tuple),
    wildcards=st.frozensets(kinds, max_size=2),
    flowers=st.integers(0, 8),
    title=st.none() | st.text(max_size=80),
    labels=st.booleans(),
)
def test_any_hand_renders(concealed, drawn, melds, wildcards, flowers, title, labels) -> None:
    view = HandPicture(concealed, drawn, melds, wildcards, flowers, title, labels)
    img = hand_image(view)
    assert img.height >= tiles.L.h + 2 * hand_mod.PAD
    assert img.width >= hand_mod.PAD * 2 + d_row(len(concealed))
    assert _decode(render_hand(view)).size == img.size


def d_row(n: int) -> int:
    return max(0, n * (tiles.L.w + 1) - 1)


@settings(max_examples=25, deadline=None)
@given(
    winner=st.none() | st.text(max_size=30),
    concealed=st.lists(kinds, max_size=14).map(tuple),
    winning=st.none() | kinds,
    melds=st.lists(meld_views, max_size=4).map(tuple),
    items=st.lists(st.builds(ScoreItem, st.text(max_size=20), st.text(max_size=10)), max_size=12),
    changes=st.lists(
        st.builds(SeatChange, st.text(max_size=30), st.integers(-(10**6), 10**6)),
        min_size=1,
        max_size=4,
    ),
)
def test_any_result_renders(winner, concealed, winning, melds, items, changes) -> None:
    view = ResultPicture(
        changes=tuple(changes),
        winner=winner,
        concealed=concealed,
        winning_tile=winning,
        melds=melds,
        items=tuple(items),
        total="16分",
    )
    img = result_image(view)
    assert img.width >= 560
    assert _decode(render_result(view)).size == img.size
