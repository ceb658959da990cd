"""Who fed each meld travels from the engine (``Meld.fed_by``) through the service views
(``MeldInfo.from_seat``, ``added``) into the pictures (``MeldView.fed_from``)."""

from __future__ import annotations

import io

from PIL import Image
from tile_search import find

from cogs.delivery import pictures
from engine.game.state import MeldRec
from render import DUIJIA, SHANGJIA, XIAJIA, SeatView, TablePicture, tiles
from render import table as table_mod
from render.table import table_image
from services.delivery import GameSummary
from services.model import MeldInfo, Seat
from services.pictures import meld_views
from services.real_engine import RealEngine, meld_info


def test_meld_info_carries_the_feeder_and_tells_an_added_kong() -> None:
    pong = meld_info(MeldRec("pong", (20, 21, 23), 2))
    assert (pong.kind, pong.tiles, pong.from_seat, pong.added) == ("pong", (5, 5, 5), 2, False)
    claimed_kong = meld_info(MeldRec("kong", (20, 21, 22, 23), 3))
    assert claimed_kong.from_seat == 3 and not claimed_kong.added
    added = meld_info(MeldRec("kong", (20, 22, 23, 21), 1))  # the 补杠 tile appended last
    assert added.tiles == (5, 5, 5, 5) and added.from_seat == 1 and added.added
    hidden = meld_info(MeldRec("concealed_kong", (23, 20, 21, 22), None))
    assert hidden.from_seat is None and not hidden.added


def test_meld_info_uses_the_engines_claimed_tile_and_added_flag() -> None:
    chi = meld_info(MeldRec("chi", (4, 8, 12), 3, claimed=8))  # 2m 3m 4m, 3m claimed
    assert (chi.tiles, chi.claimed, chi.added) == ((1, 2, 3), 2, False)
    # an added kong whose 4th tile sorts last: the flag, not the order, tells it
    added = meld_info(MeldRec("kong", (20, 21, 22, 23), 1, claimed=21, added=True))
    assert added.added and added.claimed == 5
    view = meld_views((chi,), owner=0)[0]
    assert view.claimed == 2 and view.fed_from == SHANGJIA


def test_pictures_turn_seat_numbers_into_directions() -> None:
    melds = (
        MeldInfo("pong", (5, 5, 5), 3),
        MeldInfo("chi", (0, 1, 2), 1),
        MeldInfo("kong", (9,) * 4, 2, added=True),
        MeldInfo("pong", (7, 7, 7)),  # an old saved game: no feeder
    )
    views = meld_views(melds, owner=2)
    assert [v.fed_from for v in views] == [XIAJIA, SHANGJIA, None, None]
    assert views[2].added  # fed by itself: nonsense, drawn upright
    views = meld_views(melds, owner=0)
    assert [v.fed_from for v in views] == [SHANGJIA, XIAJIA, DUIJIA, None]
    assert [v.fed_from for v in meld_views(melds)] == [None] * 4  # no owner known


def _claim_something(engine: RealEngine, seed: str):
    """Play a hand with a simple policy (claim whenever possible, else discard or pass) until
    a pong, kong or chi is made; return the state and the ``claimed`` event."""
    state, _ = engine.new_game("shangrao", {}, seed)
    for _ in range(300):
        if engine.phase(state) != "turn" and engine.phase(state) != "claim":
            return state, None
        seat = engine.pending_seats(state)[0]
        keys = engine.legal_actions(state, seat)
        key = next(
            (k for kind in ("pong", "chi", "discard", "pass") for k in keys if k.kind == kind),
            keys[0],
        )
        state, events = engine.apply(state, seat, key)
        claimed = [e for e in events if e.kind == "claimed"]
        if claimed:
            return state, claimed[0]
    return state, None


def test_a_real_claim_reaches_the_table_picture() -> None:
    engine = RealEngine()
    for seed in ("fed-a", "fed-b", "fed-c", "fed-d"):
        state, event = _claim_something(engine, seed)
        if event is not None:
            break
    assert event is not None, "no claim in four hands of always-claim play"
    owner, feeder = event.data["seat"], event.data["from"]
    table = engine.table_view(state)
    meld = table.seats[owner].melds[-1]
    assert meld.from_seat == feeder
    assert engine.hand_view(state, owner).melds[-1].from_seat == feeder
    # the picture: the claimed tile lies sideways in the owner's panel, on the feeder's side
    game = GameSummary(
        id=1,
        guild_id=1,
        channel_id=1,
        variant="shangrao",
        options={},
        seats=tuple(Seat(f"P{i}") for i in range(4)),
        status="active",
        version=1,
        totals=(0, 0, 0, 0),
    )
    files = pictures.table_files(game, table)
    assert files and files[0].filename == "table.png"
    sent = Image.open(io.BytesIO(files[0].fp.read())).convert("RGB")
    assert sent.size == (table_mod.WIDTH, table_mod.HEIGHT)
    # the same seats drawn without the 宝 mark: the claimed tile lies sideways in the
    # owner's panel (seen from seat 0); its exact place is tested in test_render_fed.py
    seats = tuple(
        SeatView(name=f"P{i}", concealed_count=ps.concealed_count, melds=meld_views(ps.melds, i))
        for i, ps in enumerate(table.seats)
    )
    view_meld = seats[owner].melds[-1]
    assert view_meld.fed_from == (feeder - owner) % 4
    img = table_image(TablePicture(seats=seats))  # type: ignore[arg-type]
    size = table_mod.MELD_SIZE
    assert find(img, tiles.sideways(view_meld.tiles[0], size), table_mod.INFO_BOX[owner])
    plain = TablePicture(
        seats=tuple(  # type: ignore[arg-type]
            SeatView(name=s.name, concealed_count=s.concealed_count, melds=meld_views(ps.melds))
            for s, ps in zip(seats, table.seats, strict=True)
        )
    )
    assert not find(
        table_image(plain), tiles.sideways(view_meld.tiles[0], size), table_mod.INFO_BOX[owner]
    )


def test_text_names_the_feeder_briefly() -> None:
    from cogs.game.text import meld_text

    pong = MeldInfo("pong", (4, 4, 4), 3)
    assert meld_text(pong, "zh", owner=0) == "碰[5m5m5m]（上家）"
    assert meld_text(pong, "en", owner=0) == "pong[5m5m5m] (from left)"
    assert meld_text(pong, "zh+en", owner=2) == "碰[5m5m5m]（下家）"
    assert (
        meld_text(MeldInfo("kong", (9,) * 4, 1, added=True), "zh", owner=3)
        == "补杠[1p1p1p1p]（对家）"
    )
    # no owner, no feeder (old saved games) or a concealed kong: as before
    assert meld_text(pong, "zh") == "碰[5m5m5m]"
    assert meld_text(MeldInfo("pong", (4, 4, 4)), "zh", owner=0) == "碰[5m5m5m]"
    assert meld_text(MeldInfo("concealed_kong", (9,) * 4), "zh", owner=0) == "暗杠[一筒×4]"
