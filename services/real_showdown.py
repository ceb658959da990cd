"""摊牌 from the engine's public view of an ended hand: the part of the adapter
(:mod:`services.real_engine`) that lays every seat's tiles open once a hand is over, with
the deal and the 九江 value per 炮.

Only :meth:`services.real_engine.RealEngine.hand_result` calls it, and only for a hand whose
phase is ``over``: nothing here is ever built while a hand is played.
"""

from __future__ import annotations

from typing import Any

from engine import variants
from services.engine_views import meld_of, primary_of, wildcards_of
from services.model import RevealedHand


def showdown_fields(public: dict[str, Any], history: tuple[dict[str, Any], ...]) -> dict[str, Any]:
    """The :class:`services.model.HandResult` fields of 摊牌 from the engine's public view of
    an ended hand (:func:`engine.game.view.public_view`, which lays every hand open then) and
    the game's hand summaries: every hand, the dealer and the next, the value per 炮 and
    what raised it."""
    result = public.get("result")
    if public["phase"] != "over" or result is None:
        return {}
    hands = tuple(
        RevealedHand(
            seat=i,
            concealed=tuple(public["revealed"][i]),
            melds=tuple(meld_of(m) for m in s["melds"]),
            flowers=tuple(s["flowers"]),
        )
        for i, s in enumerate(public["seats"])
    )
    v = variants.get(public["variant"])
    pao = v.rules(v.options_class()).pao_value  # 九江 value per 炮
    value = int(public.get("value_per_pao", 1) or 1) if pao else 1
    return {
        "hands": hands,
        "dealer": public["dealer"],
        "next_dealer": result.get("next_dealer"),
        "value_per_pao": value,
        "raised_by": raised_by(list(history), value),
        "wildcards": wildcards_of(public),
        "primary_wildcard": primary_of(public),
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
