"""Shared helpers for the scoring tests: build a context and score it in one call."""

from __future__ import annotations

from typing import Any

from engine.notation import parse_hand
from engine.options import make_options
from engine.refusal import Reason
from engine.scoring import ScoreResult, WinContext, score
from engine.tiles import kind_of


def make_ctx(
    variant: str,
    hand: str,
    win: str = "self",
    *,
    options: dict | None = None,
    bao: str | None = None,
    flags: tuple[str, ...] = (),
    **kw: Any,
) -> WinContext:
    return WinContext(
        variant=variant,
        options=make_options(variant, options or {}),
        hand=parse_hand(hand, finished=True),
        win=win,  # type: ignore[arg-type]
        wildcards=frozenset() if bao is None else frozenset({kind_of(bao)}),
        flags=frozenset(flags),
        **kw,
    )


def sc(variant: str, hand: str, win: str = "self", **kw: Any) -> ScoreResult:
    return score(make_ctx(variant, hand, win, **kw))


def names(result: ScoreResult) -> list[str]:
    return [i.name for i in result.items]


def values(result: ScoreResult) -> dict[str, str]:
    return {i.name: i.value for i in result.items}


def why(result: ScoreResult) -> tuple[str, dict[str, Any]]:
    """Why ``result`` is not a legal win, as the bot translates it: the reason's catalogue key
    and its arguments (a nested reason, such as a hand's name, by its own key)."""
    reason = result.reason
    assert isinstance(reason, Reason), repr(reason)
    params = {k: v.key if isinstance(v, Reason) else v for k, v in reason.params.items()}
    return reason.key, params
