"""Openskill (Plackett-Luce) ratings from a finished hand's score changes; pure functions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
MU = MODEL.mu
SIGMA = MODEL.sigma


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating shown on leaderboards (openskill's ordinal, mu - 3 sigma)."""
    return mu - 3.0 * sigma


def ranks_from_deltas(deltas: Sequence[int]) -> list[int]:
    """Competition ranks (1 = best) from score changes; equal changes share a rank.

    >>> ranks_from_deltas([-8, 24, -8, -8])
    [2, 1, 2, 2]
    """
    return [1 + sum(1 for other in deltas if other > d) for d in deltas]


def rate_hand(skills: Sequence[Skill], deltas: Sequence[int]) -> list[Skill] | None:
    """New skills of the hand's players, ranked by their deltas; None when every delta is
    equal (a drawn hand without payments says nothing about skill)."""
    if len(skills) != len(deltas):
        raise ValueError("one delta per player")
    if len(skills) < 2 or len(set(deltas)) == 1:
        return None
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks_from_deltas(deltas)])
    return [Skill(mu=team[0].mu, sigma=team[0].sigma) for team in rated]
