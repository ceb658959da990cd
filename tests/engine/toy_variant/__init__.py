"""A test-only fourth variant: 新余 rules with two wildcard kinds (正精 / 副精).

It shows that a variant is one folder: its options, table preset, scorer, settlement, shape
hooks and texts live here, and nothing outside it changes. A face-up indicator (as 上饶's
跌宝牌) makes two wildcard kinds: the kind after it (正精) and the one after that (副精),
as Nanchang's 精 does. Everything else is 新余麻将: no 吃, self-draw only by default, 16 tiles
stay in the wall, 杠钱, scoring by multiplied doublings.

The test registers it (``engine.variants.register(VARIANT)``); ``python -m engine.score``
finds it with ``--variant-module toy_variant`` or ``MAHJONG_VARIANTS=toy_variant`` (with
``tests/engine`` on the import path).
"""

from __future__ import annotations

from engine import variants
from engine.tiles import successor
from engine.variants import AiTuning, DeskFields, HelpFacts, TableRules, Text, Variant
from toy_variant.options import ToyJingOptions

NAME = "toyjing"

_xinyu = variants.get("xinyu")


def table_rules(options: ToyJingOptions) -> TableRules:
    """新余's table flow, plus the face-up indicator that makes the two 精."""
    from dataclasses import replace

    return replace(_xinyu.table_rules(options), variant=NAME, indicator=True)


def wildcards_of(indicator: int) -> frozenset[int]:
    """正精: the kind after the indicator; 副精: the kind after that."""
    first = successor(indicator)
    return frozenset({first, successor(first)})


VARIANT = Variant(
    name=NAME,
    order=90,
    title=Text("variant.toyjing", "玩具精麻将", "玩具精麻將", "Toy jing"),
    short=Text("variant.toyjing.short", "玩具精", "玩具精", "Toy jing"),
    aliases=("玩具精", "tj"),
    wildcard=Text("wildcard.jing", "精", "精", "Jing"),  # 正精 / 副精 are both 精
    options_class=ToyJingOptions,
    table_rules=table_rules,
    flags=_xinyu.flags,
    score=_xinyu.score,  # 新余's scorer reads its readings with the context's wildcards
    pay_win=_xinyu.pay_win,
    maybe_special=_xinyu.maybe_special,
    wildcards_of=wildcards_of,
    needs_wildcards=True,
    menqing=True,
    ai=AiTuning(pace=5),
    desk=DeskFields(wildcard=True, others=True),
    help=HelpFacts(
        title=Text("help.toyjing.title", "玩具精麻将规则", "玩具精麻將規則", "Toy jing rules"),
        summary=Text("help.toyjing.summary", "两种精", "兩種精", "Two wildcard kinds"),
    ),
)
