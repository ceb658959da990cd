"""新余麻将 house rules (RULES §4), with the defaults RULES.md gives."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.variants.base import OptionInfo, RuleOptions


@dataclass(frozen=True)
class XinyuOptions(RuleOptions):
    """新余麻将 house rules (RULES §4)."""

    variant: ClassVar[str] = "xinyu"
    discard_win: bool = False
    draw_dealer: str = "next"

    INFO: ClassVar[dict[str, OptionInfo]] = {
        "discard_win": OptionInfo(
            (False, True),
            "允许点胡（可一炮多响；默认只能自摸）",
            "Allow winning on discards, several winners at once (default: self-draw only)",
            zh_TW="允許點胡（可一炮多響；預設只能自摸）",
        ),
        "draw_dealer": OptionInfo(
            ("next", "stay"),
            "流局后坐庄：`next` 下家坐庄，`stay` 连庄",
            "Dealer after a drawn hand: `next` (the dealer's 下家) or `stay` (连庄)",
            zh_TW="流局後坐莊：`next` 下家坐莊，`stay` 連莊",
        ),
    }
