"""Helpers shared by the variant scorers: colour of a hand, candidates, results, and why a
hand is not a legal win (不能胡) in words the bot can translate.

>>> why = not_legal("youbao", name=item_name("七对"))
>>> str(why), why.key, why.params["name"].key
('Seven pairs with a 宝 in use is a legal win only as 宝吊 (the 宝 pairs the drawn tile) or after 飞宝 (a 宝 discarded)', 'engine.not_legal.youbao', 'engine.item.qidui')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.not_legal_texts import NOT_LEGAL
from engine.refusal import Reason
from engine.scoring.types import ScoreItem, ScoreResult
from engine.tiles import suit_of
from engine.variants.catalogue import NAMES

_SUIT = tuple(suit_of(k) for k in range(34))


def not_legal(name: str, /, **params: Any) -> Reason:
    """Why a hand is not a legal win (不能胡): the reason ``name`` of
    :data:`~engine.not_legal_texts.NOT_LEGAL`, its English as text, its key the engine text's
    so the bot says it in the reader's language."""
    text = NOT_LEGAL[name]
    return Reason(f"engine.{text.id}", text.en, **params)


def item_name(zh: str) -> Reason:
    """A scoring item's name (``七对``) inside a reason: English as text, translated by the bot
    through its catalogue entry (the reader's 七对 / 七對 / Seven pairs)."""
    text = NAMES[zh]
    return Reason(f"engine.{text.id}", text.en)


#: 不成胡: no reading makes the hand complete.
NOT_COMPLETE = not_legal("not_complete")


def colour(kinds: Iterable[int]) -> str:
    """``"pure"`` 清一色 (one suit, no honours), ``"mixed"`` 混一色 (one suit + honours),
    ``"honours"`` 字一色, or ``""``."""
    suits = {_SUIT[k] for k in kinds}
    honours = 3 in suits
    suits.discard(3)
    if not suits:
        return "honours" if honours else ""
    if len(suits) > 1:
        return ""
    return "mixed" if honours else "pure"


@dataclass(frozen=True)
class Candidate:
    """One way to score a hand (a reading or a special shape): legal or not, points, items."""

    legal: bool
    points: int
    items: tuple[ScoreItem, ...]
    reason: str = ""

    def key(self) -> tuple[bool, int]:
        return (self.legal, self.points)


class Best:
    """Keeps only the best of many ways to score, building its :class:`Candidate` once.

    ``append(args)`` offers ``build(*args)`` where ``args`` is ``(name, en, value[, lux[,
    legal[, reason]]])``: its key is ``(legal, value × 2^lux)``.
    """

    def __init__(self, build: Callable[..., Candidate]) -> None:
        self.build = build
        self.key: tuple[bool, int] | None = None
        self.args: tuple[Any, ...] = ()

    def append(self, args: tuple[Any, ...]) -> None:
        lux = args[3] if len(args) > 3 else 0
        legal = args[4] if len(args) > 4 else True
        key = (legal, args[2] << lux)
        if self.key is None or key > self.key:
            self.key, self.args = key, args

    def candidates(self) -> list[Candidate]:
        return [] if self.key is None else [self.build(*self.args)]


def best(cands: Sequence[Candidate]) -> Candidate | None:
    """计大不计小: the legal candidate that pays most (an illegal one only if none is legal)."""
    if not cands:
        return None
    return max(cands, key=Candidate.key)


def times(n: int) -> str:
    return f"×{n}"


def result(legal: bool, points: int, items: Sequence[ScoreItem], reason: str = "") -> ScoreResult:
    """A :class:`ScoreResult`; an illegal one carries no points (RULES §7)."""
    return ScoreResult(legal, points if legal else 0, tuple(items), "" if legal else reason)
