"""Shared scoring types: the context of a win and the scored result (the contract).

The game state machine, the ``/mahjong score`` calculator and the tests all build a
:class:`WinContext` (the fields of RULES §6) and call :func:`engine.scoring.score`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from engine.notation import Hand
from engine.rule_options import RuleOptions

WinKind = Literal["self", "discard", "rob_kong"]
WIN_KINDS: tuple[str, ...] = ("self", "discard", "rob_kong")

#: Flags of RULES §6: 天胡, 地胡, 海底, 偷机, 报听, 四个宝, 接宝, winner is the dealer.
FLAGS: frozenset[str] = frozenset(
    {"heaven", "earth", "last_tile", "touji", "ready_declared", "four_bao", "jiebao", "dealer"}
)


@dataclass(frozen=True)
class WinContext:
    """A finished hand and how it was won (RULES §6)."""

    variant: str  # a registered variant's name (engine.variants)
    options: RuleOptions  # from engine.options.make_options
    hand: Hand  # finished hand, winning tile included
    win: WinKind
    wildcards: frozenset[int] = frozenset()  # wildcard kinds (上饶 宝, not the indicator)
    flown: int = 0  # 飞宝: 宝 the winner discarded this hand
    kong_draws: int = 0  # kongs declared in a row right before the winning draw
    flowers: int = 0  # Jiujiang 发 laid open by the winner
    flags: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True)
class ScoreItem:
    """One line of the explanation: ``清一色`` · ``Pure one suit`` · ``×4``."""

    name: str
    en: str
    value: str


@dataclass(frozen=True)
class ScoreResult:
    """Whether the hand is a legal win, its points (0 when not) and the items behind them."""

    legal: bool
    points: int
    items: tuple[ScoreItem, ...]
    reason: str = ""
    #: a flat amount each payer adds after the payer factors, never multiplied (南昌 德国 +5)
    bonus: int = 0
    #: ``points`` is a flat amount from each payer: no payer factor, no bonus (南昌 天胡 / 地胡)
    flat: bool = False

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (without id): ``{"legal", "points", "items": [...]}``, with
        ``bonus`` / ``flat`` when set."""
        out: dict[str, Any] = {
            "legal": self.legal,
            "points": self.points,
            "items": [{"name": i.name, "en": i.en, "value": i.value} for i in self.items],
        }
        if self.reason:
            out["reason"] = self.reason
        if self.bonus:
            out["bonus"] = self.bonus
        if self.flat:
            out["flat"] = True
        return out


def illegal(reason: str, items: tuple[ScoreItem, ...] = ()) -> ScoreResult:
    """A hand that may not be declared a win (RULES §7: no points)."""
    return ScoreResult(False, 0, items, reason)
