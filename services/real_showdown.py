"""摊牌 from the engine's state: the part of the adapter (:mod:`services.real_engine`) that
lays every seat's tiles open once a hand is over, with the deal and the 九江 value per 炮.

Only :meth:`services.real_engine.RealEngine.hand_result` calls it, and only for a hand whose
phase is ``over``: nothing here is ever built while a hand is played.
"""

from __future__ import annotations

from typing import Any

from services.model import RevealedHand


def showdown_fields(state: Any) -> dict[str, Any]:
    """The :class:`services.model.HandResult` fields of 摊牌 for the ended hand of ``state``
    (an ``engine.game`` state): every hand, the dealer and the next, the value per 炮 and
    what raised it."""
    from services.real_engine import meld_info

    h = state.hand
    if h.phase != "over" or h.result is None:
        return {}
    hands = tuple(
        RevealedHand(
            seat=i,
            concealed=tuple(sorted(t >> 2 for t in s.hand)),
            melds=tuple(meld_info(m) for m in s.melds),
            flowers=tuple(t >> 2 for t in s.flowers),
        )
        for i, s in enumerate(h.seats)
    )
    value = int(getattr(state, "value_per_pao", 1) or 1) if state.variant == "jiujiang" else 1
    return {
        "hands": hands,
        "dealer": h.dealer,
        "next_dealer": h.result.get("next_dealer"),
        "value_per_pao": value,
        "raised_by": raised_by(list(getattr(state, "history", [])), value),
        "bao": h.bao,
    }


def raised_by(history: list[dict[str, Any]], value: int) -> tuple[str, ...]:
    """九江: what raised the value per 炮 of the hand that ended last in ``history`` (RULES
    §5.1), oldest first: each earlier hand's 黄庄 or 跟庄, back to the last time the deal
    passed (a raise stays only while the same dealer keeps the deal)."""
    if value <= 1 or len(history) < 2:
        return ()
    causes: list[str] = []
    for earlier in reversed(history[:-1]):
        drawn = earlier.get("how") == "draw"
        mine = []
        if earlier.get("followed"):
            mine.append("跟庄")
        if drawn:
            mine.append("黄庄")
        causes[:0] = mine
        kept = drawn or (
            earlier.get("dealer") is not None
            and earlier.get("dealer") == earlier.get("next_dealer")
        )
        if not kept:
            break
    return tuple(causes)
