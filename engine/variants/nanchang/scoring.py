"""南昌麻将 hand points (RULES §8.3–§8.4) — being written; refuses every hand until then."""

from __future__ import annotations

from engine.scoring.types import ScoreResult, WinContext, illegal


def score_nanchang(ctx: WinContext) -> ScoreResult:
    """Score a 南昌 win (not written yet: refuses)."""
    return illegal("南昌 scoring is not available yet")
