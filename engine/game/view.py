"""What one seat may see (:func:`seat_view`) and what the channel table shows (:func:`public_view`).

Views are JSON-ready dicts built from the state. A seat's view holds its own concealed tiles
and nothing of the other seats' concealed tiles or the wall order (only counts); the public
view holds no concealed tile at all. After the hand ends, the result (revealed hands, seed and
wall) is public.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.game.actions import Action, action_to_json
from engine.game.legal import legal_actions
from engine.game.rules import live_count, rules_of, waits_of
from engine.game.state import PHASE_OVER, GameState, MeldRec


def public_view(state: GameState) -> dict[str, Any]:
    """The table everyone sees: melds, rivers, flowers, wall count, 宝, whose turn, scores."""
    h = state.hand
    rules = rules_of(state.variant, state.options)
    seats = []
    for s in h.seats:
        seats.append(
            {
                "concealed_count": len(s.hand),
                "melds": [meld_view(m) for m in s.melds],
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
        "wildcards": sorted(h.wildcards),
        "seats": seats,
        "claim": claim,
        "scores": list(state.scores),
        "value_per_pao": state.value_per_pao,
        "actions": state.actions,
    }
    if h.indicator is not None and h.indicator >> 2 in h.wildcards:
        out["primary"] = h.indicator >> 2  # 南昌 正精 (the other wildcard kind is 副精)
    if rules.indicator_in_wall and h.indicator is not None and h.indicator_pos is None:
        out["indicator_taken"] = True  # a replacement took it: no longer face up
    if h.phase == PHASE_OVER:
        out["result"] = h.result
        out["seed"] = h.seed
        out["wall"] = list(h.wall)
        # 摊牌: every seat's concealed tiles are laid open once the hand is over
        out["revealed"] = [sorted(t >> 2 for t in s.hand) for s in h.seats]
    return out


def meld_view(m: MeldRec) -> dict[str, Any]:
    """A meld as everyone sees it: kinds sorted, who fed it, the claimed tile's kind and
    whether it is an added kong (补杠).

    States saved before melds kept ``claimed``/``added``: the machine appended a 补杠's
    fourth tile to the pong's sorted ids, so ids out of order still tell most added kongs."""
    if m.claimed is None:
        added = m.kind == "kong" and m.fed_by is not None and list(m.ids) != sorted(m.ids)
    else:
        added = m.added
    return {
        "kind": m.kind,
        "tiles": sorted(t >> 2 for t in m.ids),
        "fed_by": m.fed_by,
        "claimed": None if m.claimed is None else m.claimed >> 2,
        "added": added,
    }


def seat_view(state: GameState, seat: int, legal: Sequence[Action] | None = None) -> dict[str, Any]:
    """The public table plus ``seat``'s own tiles and what it may do now (``legal``: the
    seat's legal actions when the caller holds them, e.g. from a
    :class:`~engine.game.step.Step`; else they are worked out).

    ``own.waits`` are the waits locked by 报听; ``own.tenpai`` the kinds that would complete
    the hand now (听牌, while it holds 3n+1 tiles); ``own.in_claim`` whether the open claim
    window offered this seat a claim."""
    h = state.hand
    s = h.seats[seat]
    out = public_view(state)
    out["seat"] = seat
    tenpai: tuple[int, ...] = ()
    if len(s.hand) % 3 == 1 and h.phase != PHASE_OVER:
        counts = [0] * 34
        for t in s.hand:
            counts[t >> 2] += 1
        tenpai = waits_of(
            counts, h.wildcards, rules_of(state.variant, state.options).honour_sequences
        )
    out["own"] = {
        "hand": [t >> 2 for t in s.hand],
        "drawn": s.drawn >> 2
        if s.drawn is not None and h.turn == seat and h.phase == "turn"
        else None,
        "bao_drawn": s.bao_drawn,
        "waits": list(s.waits),
        "missed_win": s.missed_win,
        "touji": s.touji,
        "tenpai": list(tenpai),
        "in_claim": h.claim is not None and h.claim.options[seat] is not None,
    }
    if rules_of(state.variant, state.options).missed_win_kind:
        out["own"]["missed_kinds"] = list(s.missed_kinds)  # 南昌 弃先胡后: barred kinds
    if legal is None:
        legal = legal_actions(state, seat)
    out["legal"] = [action_to_json(a) for a in legal]
    return out
