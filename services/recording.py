"""A finished hand as the store records it (totals, ratings, history)."""

from __future__ import annotations

from typing import Any

from db.types import HandInput, HandPlayer
from services.gamelog import LiveGame
from services.model import HandResult


def with_commitment(
    seed_reveal: dict[str, Any] | None, published: str | None
) -> dict[str, Any] | None:
    """The reveal, with the hash published at the hand's start beside it (``commitment``):
    the history shows that one, so a reader can check the reveal against what was
    announced rather than against a hash recomputed from the reveal itself."""
    if seed_reveal is None or not published:
        return seed_reveal
    return {**seed_reveal, "commitment": published}


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
        seed_reveal=with_commitment(result.seed_reveal, live.commitment),
        game_id=live.id,
    )
