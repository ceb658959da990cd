"""上饶麻将 house rules (RULES §3), with the defaults RULES.md gives."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.variants.base import OptionInfo, RuleOptions


@dataclass(frozen=True)
class ShangraoOptions(RuleOptions):
    """上饶麻将 house rules (RULES §3)."""

    variant: ClassVar[str] = "shangrao"
    scoring: str = "classic"
    discard_win: bool = False
    jiebao_points: int | None = None

    INFO: ClassVar[dict[str, OptionInfo]] = {
        "scoring": OptionInfo(
            ("classic", "xingchen"),
            "计分方式：`classic` 为百科分数表，`xingchen` 为星辰麻将番数表",
            "Scoring preset: classic (the encyclopedia points table) or xingchen (the multiplier table)",
            zh_TW="計分方式：`classic` 為百科分數表，`xingchen` 為星辰麻將番數表",
        ),
        "discard_win": OptionInfo(
            (False, True),
            "允许点炮胡（默认只能自摸、地胡、抢杠、接宝）",
            "Allow winning on any discard (default: only self-draw, 地胡, robbing a kong, 接宝)",
            zh_TW="允許點炮胡（預設只能自摸、地胡、搶槓、接寶）",
        ),
        "jiebao_points": OptionInfo(
            (None,),
            "接宝 / 四个宝 的分数（空 = 按计分方式：`classic` 16，`xingchen` 10）",
            "Points for 接宝 / 四个宝 (empty = by preset: `classic` 16, `xingchen` 10)",
            zh_TW="接寶 / 四個寶 的分數（空 = 按計分方式：`classic` 16，`xingchen` 10）",
            int_range=(1, 1000),
        ),
    }

    def jiebao(self) -> int:
        """Points of 接宝 / 四个宝 under this preset."""
        if self.jiebao_points is not None:
            return self.jiebao_points
        return 16 if self.scoring == "classic" else 10
