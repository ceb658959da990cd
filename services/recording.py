"""A finished hand as the store records it (totals, ratings, history)."""

from __future__ import annotations

from db.types import HandInput, HandPlayer
from services.gamelog import LiveGame
from services.model import HandResult


def hand_input(live: LiveGame, result: HandResult) -> HandInput:
    """The store's record of the hand ``live`` just finished with ``result``.

    AI seats (and seats without a user) are stored as AI players with a placeholder id.
    """
    players = [
        HandPlayer(
            seat=i,
            user_id=(i + 1) if s.ai or s.user_id is None else s.user_id,
            delta=result.deltas[i] if i < len(result.deltas) else 0,
            is_ai=s.ai or s.user_id is None,
        )
        for i, s in enumerate(live.seats)
    ]
    return HandInput(
        guild_id=live.guild_id,
        variant=live.variant,
        hand_no=live.hand_no,
        players=players,
        how=result.how,  # type: ignore[arg-type]
        winners=list(result.winners),
        discarder=result.discarder if result.how in ("discard", "rob_kong") else None,
        points=result.points,
        winner_points=tuple(result.winner_points),
        items=[{"name": i.name, "en": i.en, "value": i.value} for i in result.items],
        seed_reveal=result.seed_reveal,
        game_id=live.id,
    )
