"""AI levels (电脑难度) a host picks per AI seat: 初级, 中级, 高级.

- ``beginner`` (初级): :func:`engine.ai.policies.novice` — today's AI without defence and
  without 碰 / 吃, for players learning the game;
- ``intermediate`` (中级): :func:`engine.ai.policies.baseline` — the AI the game had before
  levels (an AI seat that names no level plays this);
- ``advanced`` (高级): :mod:`engine.ai.strong`, the value-based policy; 托管 (auto-play for
  a human away) plays at this level.

The arena (:mod:`engine.arena`) measures them against each other on duplicate deals. Points
per hand, challenger − the others, 95 % interval (December 2026):

- 初级 against 中级, 1,000 deals each: 九江 −0.45 [−0.66, −0.24], 新余 −0.45 [−0.54, −0.36],
  上饶 −0.32 [−0.57, −0.06]; 南昌 (2,000 deals, seed 0) −0.68 [−0.81, −0.54];
- 高级 against 中级, 4,000 deals each: 上饶 +0.19 [+0.06, +0.33], 九江 +0.12 [−0.00, +0.23];
  seed 0: 新余 +0.07 [+0.02, +0.12] (it was +0.01 [−0.04, +0.06] before it weighed 杠钱),
  南昌 +0.55 [+0.44, +0.66] (it was −0.21 [−0.32, −0.11] before it read the honour
  sequences as sets).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ai.policies import Policy, policy
from engine.game.actions import Action
from engine.game.legal import legal_actions
from engine.game.state import GameState

#: Level name → the policy it plays.
LEVEL_POLICIES: dict[str, str] = {
    "beginner": "novice",
    "intermediate": "baseline",
    "advanced": "strong",
}
#: Level name → its Chinese name (初级 / 中级 / 高级).
LEVEL_ZH: dict[str, str] = {"beginner": "初级", "intermediate": "中级", "advanced": "高级"}
LEVELS: tuple[str, ...] = tuple(LEVEL_POLICIES)
#: The level of an AI seat that names none (the AI of games saved before levels).
DEFAULT_LEVEL = "intermediate"
#: The level 托管 (auto-play for a human) plays at.
AUTOPLAY_LEVEL = "advanced"


def level_of(text: str) -> str:
    """The level called ``text`` (``advanced``, ``高级``, any case); raises ``ValueError``."""
    t = text.strip().lower()
    for name, zh in LEVEL_ZH.items():
        if t in (name, zh):
            return name
    raise ValueError(
        f"unknown AI level {text!r}: one of "
        + ", ".join(f"{name} ({zh})" for name, zh in LEVEL_ZH.items())
    )


def level_policy(level: str) -> Policy:
    """The policy of ``level``; raises ``ValueError`` for an unknown level."""
    return policy(LEVEL_POLICIES[level_of(level)])


def choose_at(
    state: GameState, seat: int, level: str, legal: Sequence[Action] | None = None
) -> Action:
    """The choice of an AI of ``level`` for ``seat`` now (``legal``: the seat's legal
    actions when the caller holds them). Raises ``ValueError`` for an unknown level or a
    seat with nothing to do."""
    play = level_policy(level)
    acts = list(legal_actions(state, seat) if legal is None else legal)
    if not acts:
        raise ValueError(f"seat {seat} has nothing to do now")
    return play(state, seat, acts)
