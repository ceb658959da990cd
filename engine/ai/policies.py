"""AI policies by name (策略): what the arena pits against each other and the levels play.

A policy is ``policy(state, seat, legal) -> Action``: the seat's choice among its legal
actions, from what the seat may see (its own tiles and the public table, never the others'
concealed tiles or the wall order).

- ``baseline``: the AI of :mod:`engine.game.ai` as it was before levels (shanten first,
  defence by :mod:`engine.game.danger`);
- ``offence``: the same without defence (never folds);
- ``strong``: :mod:`engine.ai.strong` (discards by expected value, value-aware claims,
  defence that folds only when attacking is worth less);
- ``strong-offence``: ``strong`` with its defence off (to measure the defence, paired);
- ``novice``: 初级, today's AI without defence and without 碰 / 吃;
- ``drawn``: a rigged, weak policy — discards the tile it just drew (摸打), claims nothing,
  still declares every win; the arena's tests use it as a known loser.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.game.actions import Action, Chi, Discard, NextHand, Pass, Pong, Win
from engine.game.ai import choose_action
from engine.game.state import GameState

Policy = Callable[[GameState, int, Sequence[Action]], Action]


def baseline(state: GameState, seat: int, legal: Sequence[Action]) -> Action:
    """Today's AI (shanten first, 守牌 defence)."""
    return choose_action(state, seat, legal=legal)


def offence(state: GameState, seat: int, legal: Sequence[Action]) -> Action:
    """Today's AI without defence (pure offence)."""
    return choose_action(state, seat, defend=False, legal=legal)


def novice(state: GameState, seat: int, legal: Sequence[Action]) -> Action:
    """初级: today's AI with neither defence nor 碰 / 吃 (a beginner's game)."""
    return offence(state, seat, [a for a in legal if not isinstance(a, Pong | Chi)])


def drawn(state: GameState, seat: int, legal: Sequence[Action]) -> Action:
    """摸打: discard the drawn tile (else the first legal discard), claim nothing, win always."""
    for a in legal:
        if isinstance(a, Win | NextHand):
            return a
    discards = [a for a in legal if isinstance(a, Discard)]
    if discards:
        s = state.hand.seats[seat]
        kind = s.drawn >> 2 if s.drawn is not None else None
        return next((a for a in discards if a.tile == kind), discards[-1])
    if any(isinstance(a, Pass) for a in legal):
        return Pass()
    return legal[0]


def strong(state: GameState, seat: int, legal: Sequence[Action]) -> Action:
    """The value-based policy (高级)."""
    from engine.ai.strong import choose

    return choose(state, seat, legal)


def strong_offence(state: GameState, seat: int, legal: Sequence[Action]) -> Action:
    """The value-based policy with its defence off."""
    from engine.ai.strong import choose

    return choose(state, seat, legal, defend=False)


POLICIES: dict[str, Policy] = {
    "baseline": baseline,
    "offence": offence,
    "strong": strong,
    "strong-offence": strong_offence,
    "novice": novice,
    "drawn": drawn,
}


def policy(name: str) -> Policy:
    """The policy called ``name``; raises ``ValueError`` naming the known ones."""
    try:
        return POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown policy {name!r}: one of {', '.join(sorted(POLICIES))}") from None
