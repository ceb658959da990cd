"""Scoring of finished hands for every variant (RULES §3.3–§3.6, §4.3, §5.3).

:func:`score` is the one entry point (game, calculator, tests); :func:`score_line` reads and
answers one RULES §6 JSON object (the ``python -m engine.score`` CLI).
"""

from __future__ import annotations

from engine.scoring.entry import context_from_dict, score, score_line
from engine.scoring.types import FLAGS, WIN_KINDS, ScoreItem, ScoreResult, WinContext, WinKind

__all__ = [
    "FLAGS",
    "WIN_KINDS",
    "ScoreItem",
    "ScoreResult",
    "WinContext",
    "WinKind",
    "context_from_dict",
    "score",
    "score_line",
]
