"""上饶麻将 (RULES §3): one 宝 from a face-up indicator, classic / xingchen scoring, 叁包."""

from __future__ import annotations

from engine.variants.base import BAO, AiTuning, DeskFields, HelpFacts, Text, Variant
from engine.variants.shangrao.help import PAGES as HELP_PAGES
from engine.variants.shangrao.items import ITEMS
from engine.variants.shangrao.options import ShangraoOptions
from engine.variants.shangrao.rules import (
    FLAGS,
    keeps_drawing,
    maybe_special,
    table_rules,
    wildcards_of,
)
from engine.variants.shangrao.scoring import score_shangrao
from engine.variants.shangrao.settle import pay_win

VARIANT = Variant(
    name="shangrao",
    order=10,
    title=Text("variant.shangrao", "上饶麻将", "上饒麻將", "Shangrao"),
    short=Text("variant.shangrao.short", "上饶", "上饒", "Shangrao"),
    aliases=("上饶", "上饶麻将", "上饒", "上饒麻將", "sr"),
    wildcard=BAO,  # 宝
    options_class=ShangraoOptions,
    table_rules=table_rules,
    flags=FLAGS,
    score=score_shangrao,
    pay_win=pay_win,
    maybe_special=maybe_special,
    wildcards_of=wildcards_of,
    needs_wildcards=True,
    indicator_kongs=True,
    # 上饶 threat scale 0: a 宝吊头 hand wins on any tile and ready hands with a 宝 in use
    # are often no legal win (有宝平胡), so reading tiles saved no deal-ins in self-play
    # (``discard_win``: 20.4 % dealt in with or without defence) and only lost wins.
    ai=AiTuning(
        pace=3,
        threat_scale=0.0,
        keeps_drawing=keeps_drawing,
        pairs_value=3.5,
        pongs_value=3.5,
        flush_value=4.0,
    ),
    desk=DeskFields(wildcard=True, feeder=True, others=False),
    items=ITEMS,
    help=HelpFacts(
        title=Text("help.shangrao.title", "上饶麻将规则", "上饒麻將規則", "Shangrao rules"),
        summary=Text(
            "help.shangrao.summary",
            "宝牌、飞宝、分数表、规则选项",
            "寶牌、飛寶、分數表、規則選項",
            "宝 wildcards, 飞宝, points, options",
        ),
        pages=HELP_PAGES,
    ),
)

__all__ = ["VARIANT", "ShangraoOptions"]
