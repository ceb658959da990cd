"""新余麻将 (RULES §4): self-draw only by default, doublings multiplied, 杠钱, no 吃."""

from __future__ import annotations

from engine.variants.base import AiTuning, DeskFields, HelpFacts, Text, Variant
from engine.variants.xinyu.help import PAGES as HELP_PAGES
from engine.variants.xinyu.items import ITEMS
from engine.variants.xinyu.options import XinyuOptions
from engine.variants.xinyu.rules import FLAGS, maybe_special, table_rules
from engine.variants.xinyu.scoring import score_xinyu
from engine.variants.xinyu.settle import pay_win

VARIANT = Variant(
    name="xinyu",
    order=20,
    title=Text("variant.xinyu", "新余麻将", "新餘麻將", "Xinyu"),
    short=Text("variant.xinyu.short", "新余", "新餘", "Xinyu"),
    aliases=("新余", "新余麻将", "新餘", "新餘麻將", "xy"),
    options_class=XinyuOptions,
    table_rules=table_rules,
    flags=FLAGS,
    score=score_xinyu,
    pay_win=pay_win,
    maybe_special=maybe_special,
    menqing=True,
    # 新余 hands are slower: 16 tiles stay in the wall
    ai=AiTuning(
        pace=5,
        pairs_value=3.0,
        pongs_value=1.2,
        flush_value=2.0,
        half_flush_value=1.5,
        concealed_value=2.0,
        kong_value=2.0,  # 暗杠 2 from each of three, a plain self-draw 1 from each
    ),
    desk=DeskFields(others=True, others_example=("对家 (5555p); 上家 [1111s]", "下家 [7777m]")),
    items=ITEMS,
    help=HelpFacts(
        title=Text("help.xinyu.title", "新余麻将规则", "新餘麻將規則", "Xinyu rules"),
        summary=Text(
            "help.xinyu.summary",
            "只能自摸、番数、杠钱、规则选项",
            "只能自摸、番數、槓錢、規則選項",
            "Self-draw only, doublings, kong money",
        ),
        pages=HELP_PAGES,
    ),
)

__all__ = ["VARIANT", "XinyuOptions"]
