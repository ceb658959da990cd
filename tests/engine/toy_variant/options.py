"""The toy variant's house rules: the same as 新余's (RULES §4), under its own name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.variants import OptionInfo, RuleOptions, get


@dataclass(frozen=True)
class ToyJingOptions(RuleOptions):
    """新余 house rules for the toy variant."""

    variant: ClassVar[str] = "toyjing"
    discard_win: bool = False
    draw_dealer: str = "next"

    INFO: ClassVar[dict[str, OptionInfo]] = get("xinyu").options_class.INFO
