"""Real table and hand pictures of a whole hand played by four AI players (牌局画面).

Each step of the hand — a draw, a discard, a claim window, a claim — gives the table picture
and the acting seat's hand picture exactly as the bot builds them (:mod:`services.pictures`
from the engine's public and seat views), so benchmarks and tests draw what players see
rather than a hand-made sample.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine.game.ai import choose_action
from engine.game.legal import waiting_for
from engine.game.machine import advance, new_game
from engine.game.state import PHASE_OVER
from engine.game.view import public_view, seat_view
from render.models import HandPicture, TablePicture
from services.delivery import GameSummary
from services.engine_views import hand_of, table_of
from services.model import Seat
from services.pictures import hand_picture, table_picture

#: safety net: a hand never needs this many actions
MAX_STEPS = 2000


@dataclass(frozen=True)
class PictureStep:
    """One step of a hand: the public table and the acting seat's own hand."""

    table: TablePicture
    hand: HandPicture
    discards: int  # tiles in all rivers (how late in the hand this is)


def _summary(variant: str, game_id: int) -> GameSummary:
    seats = tuple(
        Seat(name=name, user_id=None if i else 1000 + game_id, ai=i > 0)
        for i, name in enumerate(("阿明 Ming", "Bob", "王小二", "carol_the_great"))
    )
    return GameSummary(
        id=game_id,
        guild_id=1,
        channel_id=10 + game_id,
        variant=variant,
        options={},
        seats=seats,
        status="active",
        version=1,
        totals=(12, -4, 0, -8),
        hand_no=1,
        phase="turn",
    )


def hand_steps(variant: str, seed: str, game_id: int = 1) -> Iterator[PictureStep]:
    """Every step of one hand of ``variant`` dealt from ``seed``, AI on all seats."""
    game = _summary(variant, game_id)
    step = new_game(variant, None, seed)
    for _ in range(MAX_STEPS):
        state = step.state
        if state.hand.phase == PHASE_OVER:
            return
        seat = waiting_for(state)[0]
        legal = step.legal_for(seat)
        table = table_of(public_view(state), None)
        hand = hand_of(seat_view(state, seat, legal), ())
        yield PictureStep(
            table_picture(game, table),
            hand_picture(hand),
            sum(len(s.river) for s in table.seats),
        )
        step = advance(step, seat, choose_action(state, seat, legal=legal))
    raise RuntimeError("hand did not end")


def long_hand(variant: str, seed: str = "bench", tries: int = 12) -> list[PictureStep]:
    """The steps of the longest of ``tries`` hands (seeds ``seed-0``, ``seed-1``, …): late
    pictures then have long rivers, as most hands that end in a draw or a late win do."""
    hands = (list(hand_steps(variant, f"{seed}-{i}")) for i in range(tries))
    return max(hands, key=lambda steps: steps[-1].discards)


def mid_and_late(variant: str, seed: str = "bench") -> tuple[PictureStep, PictureStep]:
    """A mid-hand step (about half the discards of :func:`long_hand`) and its last step."""
    steps = long_hand(variant, seed)
    most = steps[-1].discards
    mid = next(s for s in steps if s.discards >= most // 2)
    return mid, steps[-1]
