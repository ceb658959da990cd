"""九江麻将 (RULES §5): no winds, 发 flowers, 炮 with a 2 炮 minimum, 跟庄 / 黄庄, 吃兴家."""

from __future__ import annotations

from engine.variants.base import AiTuning, DeskFields, HelpFacts, Text, Variant
from engine.variants.jiujiang.help import PAGES as HELP_PAGES
from engine.variants.jiujiang.items import ITEMS
from engine.variants.jiujiang.options import JiujiangOptions
from engine.variants.jiujiang.rules import FLAGS, table_rules
from engine.variants.jiujiang.scoring import score_jiujiang
from engine.variants.jiujiang.settle import eaten_extras, pay_win

VARIANT = Variant(
    name="jiujiang",
    order=30,
    title=Text("variant.jiujiang", "九江麻将", "九江麻將", "Jiujiang"),
    short=Text("variant.jiujiang.short", "九江", "九江", "Jiujiang"),
    aliases=("九江", "九江麻将", "九江麻將", "jj"),
    options_class=JiujiangOptions,
    table_rules=table_rules,
    flags=FLAGS,
    score=score_jiujiang,
    pay_win=pay_win,
    loser_extras=eaten_extras,
    menqing=True,
    unit=Text("unit.pao", "炮", "炮", "pao"),
    ai=AiTuning(
        pace=3,
        pairs_value=2.5,
        pongs_value=2.0,
        flush_value=2.0,
        half_flush_value=2.0,
        concealed_value=1.3,
        win_gain=6.5,
        deal_in_loss=4.8,
        # only self-draws cost a seat that does not deal in (7.4 each, 1 win in 3)
        bystander_loss=lambda _o: 2.7,
        deal_in_per_risk=0.15,
        open_plain_needs_extra=True,
    ),
    desk=DeskFields(
        others=True,
        streak=True,
        flowers=True,
        others_example=(
            "下家 发2 [7777m]; 对家 (5555p) [中中中]",
            "对家 发 [白白白]",
            "上家 [5555s]",
        ),
    ),
    items=ITEMS,
    help=HelpFacts(
        title=Text("help.jiujiang.title", "九江麻将规则", "九江麻將規則", "Jiujiang rules"),
        summary=Text(
            "help.jiujiang.summary",
            "兴家、二炮起胡、花牌、吃兴家",
            "興家、二炮起胡、花牌、吃興家",
            "发 flowers, 2 pao (炮) minimum, big hands",
        ),
        pages=HELP_PAGES,
    ),
)

__all__ = ["VARIANT", "JiujiangOptions"]
