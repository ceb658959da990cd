"""The 摊牌 result and the final standings pictures render in the picture workers
(:mod:`render.pool`), never on the event loop (issue 15, item 2)."""

from __future__ import annotations

import threading

import pytest

import render.showdown as showdown_mod
from cogs.delivery import pictures
from cogs.game.session import (
    result_parts,
    showdown_picture,
    standings_parts,
    standings_picture,
)
from render import pool
from services.delivery import GameSummary
from services.model import HandResult, RevealedHand, ScoreLine, Seat
from services.session_state import SessionInfo, Standing

SEATS = (
    Seat(name="alice", user_id=101),
    Seat(name="bob", user_id=102),
    Seat(name="电脑一", ai=True),
    Seat(name="carol", user_id=103),
)


def game(**kw) -> GameSummary:
    base = {
        "id": 7,
        "guild_id": 1,
        "channel_id": 2,
        "variant": "shangrao",
        "options": {},
        "seats": SEATS,
        "status": "active",
        "version": 42,
        "totals": (-8, -8, 24, -8),
        "hand_no": 1,
        "phase": "hand_over",
    }
    base.update(kw)
    return GameSummary(**base)


RESULT = HandResult(
    1,
    "self",
    (2,),
    None,
    8,
    (ScoreLine("清一色", "Pure one suit", "×4"),),
    (-8, -8, 24, -8),
    winning_tile=4,
    payments=((0, 2, 8, "自摸"),),
    scores=(-8, -8, 24, -8),
    seed_reveal={"seed": "s33d"},
    hands=(
        RevealedHand(0, (0, 1, 2, 9, 9, 9, 18, 19, 20, 27, 27, 30, 31)),
        RevealedHand(1, (3, 3, 10, 11, 12, 21, 22, 23, 28, 28, 28, 32, 33)),
        RevealedHand(2, (0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8)),
        RevealedHand(3, (13, 14, 15, 16, 17, 24, 25, 26, 29, 29, 29, 33, 33)),
    ),
    dealer=0,
)


@pytest.fixture
def off_loop_renders(monkeypatch: pytest.MonkeyPatch):
    """The shared picture pool without worker processes (it renders in a thread), and the
    threads each showdown renderer ran on."""
    monkeypatch.setattr(pictures, "ENABLED", True)
    threads: list[tuple[str, int]] = []
    for name in ("render_showdown", "render_standings"):
        original = getattr(showdown_mod, name)

        def spy(model, _original=original, _name=name):
            threads.append((_name, threading.get_ident()))
            return _original(model)

        monkeypatch.setattr(showdown_mod, name, spy)
    monkeypatch.setattr(pool, "_shared", pool.PicturePool(0))
    yield threads
    pool._shared = None


async def test_the_result_picture_is_drawn_off_the_event_loop(off_loop_renders) -> None:
    _content, embed, _view, files = await result_parts(game(), RESULT, "zh", "c0ffee")
    assert [f.filename for f in files] == ["result.png"]
    assert embed.image.url == "attachment://result.png"
    model = showdown_picture(game(), RESULT)
    assert [name for name, _ in off_loop_renders] == ["render_showdown"]
    assert off_loop_renders[0][1] != threading.get_ident()
    assert files[0].fp.read() == showdown_mod.render_showdown(model)


async def test_the_standings_picture_is_drawn_off_the_event_loop(off_loop_renders) -> None:
    board = (
        Standing(2, 24, wins=1, self_draws=1, biggest=8, rank=1),
        Standing(0, -8, rank=2),
        Standing(1, -8, rank=2),
        Standing(3, -8, rank=2),
    )
    ended = game(status="finished", session=SessionInfo(length="4", standings=board))
    _content, embed, _view, files = await standings_parts(ended, "zh")
    assert [f.filename for f in files] == ["standings.png"]
    assert embed.image.url == "attachment://standings.png"
    assert [name for name, _ in off_loop_renders] == ["render_standings"]
    assert off_loop_renders[0][1] != threading.get_ident()
    assert files[0].fp.read() == showdown_mod.render_standings(standings_picture(ended))


async def test_a_picture_later_than_its_budget_leaves_the_text_alone(
    off_loop_renders, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pictures, "RESULT_PICTURE_BUDGET", 0.0)
    _content, embed, _view, files = await result_parts(game(), RESULT, "zh", "c0ffee")
    assert files == [] and not embed.image.url
    assert "s33d" in embed.description  # the seed reveal goes with the text
