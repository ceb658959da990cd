"""九江麻将 house rules (RULES §5), with the defaults RULES.md gives."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.variants.base import OptionInfo, RuleOptions


@dataclass(frozen=True)
class JiujiangOptions(RuleOptions):
    """九江麻将 house rules (RULES §5)."""

    variant: ClassVar[str] = "jiujiang"
    chi: bool = False

    INFO: ClassVar[dict[str, OptionInfo]] = {
        "chi": OptionInfo(
            (False, True),
            "允许吃牌（默认不能吃，只能碰、杠）",
            "Allow chi (default: pong and kong only)",
            zh_TW="允許吃牌（預設不能吃，只能碰、槓）",
        ),
    }
