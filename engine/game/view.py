"""What one seat may see (:func:`seat_view`) and what the channel table shows (:func:`public_view`).

Views are JSON-ready dicts built from the state. A seat's view holds its own concealed tiles
and nothing of the other seats' concealed tiles or the wall order (only counts); the public
view holds no concealed tile at all. After the hand ends, the result (revealed hands, seed and
wall) is public.
"""

from __future__ import annotations

from typing import Any

from engine.game.actions import action_to_json
from engine.game.legal import legal_actions
from engine.game.rules import live_count, rules_of
from engine.game.state import PHASE_OVER, GameState


def public_view(state: GameState) -> dict[str, Any]:
    """The table everyone sees: melds, rivers, flowers, wall count, 宝, whose turn, scores."""
    h = state.hand
    rules = rules_of(state.variant, state.options)
    seats = []
    for s in h.seats:
        seats.append(
            {
                "concealed_count": len(s.hand),
                "melds": [
                    {
                        "kind": m.kind,
                        "tiles": sorted(t >> 2 for t in m.ids),
                        "fed_by": m.fed_by,
                    }
                    for m in s.melds
                ],
                "river": [t >> 2 for t in s.river],
                "flowers": [t >> 2 for t in s.flowers],
                "flown": s.flown,
                "ready": s.ready,
            }
        )
    claim = None
    if h.claim is not None:
        claim = {
            "kind": h.claim.kind,
            "tile": h.claim.tile >> 2,
            "from_seat": h.claim.from_seat,
            # who may claim is not shown: it would tell what the others hold
        }
    out: dict[str, Any] = {
        "variant": state.variant,
        "hand": h.number,
        "dealer": h.dealer,
        "turn": h.turn,
        "phase": h.phase,
        "wall_left": live_count(h, rules.reserve),
        "indicator": h.indicator >> 2 if h.indicator is not None else None,
        "bao": h.bao,
        "seats": seats,
        "claim": claim,
        "scores": list(state.scores),
        "value_per_pao": state.value_per_pao,
        "actions": state.actions,
    }
    if h.phase == PHASE_OVER:
        out["result"] = h.result
        out["seed"] = h.seed
        out["wall"] = list(h.wall)
    return out


def seat_view(state: GameState, seat: int) -> dict[str, Any]:
    """The public table plus ``seat``'s own tiles and what it may do now."""
    h = state.hand
    s = h.seats[seat]
    out = public_view(state)
    out["seat"] = seat
    out["own"] = {
        "hand": [t >> 2 for t in s.hand],
        "drawn": s.drawn >> 2
        if s.drawn is not None and h.turn == seat and h.phase == "turn"
        else None,
        "bao_drawn": s.bao_drawn,
        "waits": list(s.waits),
        "missed_win": s.missed_win,
        "touji": s.touji,
    }
    out["legal"] = [action_to_json(a) for a in legal_actions(state, seat)]
    return out
