"""南昌麻将 (RULES §8): two 精 wildcards (正精 = the indicator's kind, 副精 = the next), honour
sequences, hand points × payer factors, 德国 +5, and the 精 settlement every hand."""

from __future__ import annotations

from engine.variants.base import AiTuning, DeskFields, HelpFacts, Text, Variant
from engine.variants.nanchang.help import PAGES as HELP_PAGES
from engine.variants.nanchang.items import ITEMS
from engine.variants.nanchang.options import NanchangOptions
from engine.variants.nanchang.rules import maybe_special, table_rules, wildcards_of
from engine.variants.nanchang.scoring import score_nanchang
from engine.variants.nanchang.settle import jing_settlement_line, pay_win, settle_hand

#: RULES §6 / §8.7 flags the 南昌 scorer reads.
FLAGS = frozenset({"heaven", "earth", "dealer", "no_jing_elsewhere"})


#: 精: Nanchang's word for its wildcards.
JING = Text("wildcard.jing", "精", "精", "Jing")


def bystander_loss(options: object) -> float:
    """What a seat that does not deal in still pays, on average, when the ready seat wins
    anyway (the AI's defence): a self-draw's share, and under ``discard_pay=three`` (the
    default) a bystander's share of a discard win too. Measured in self-play of the strong AI
    without defence: a bystander pays about 3.4 on a discard win, each loser 6.4 on a
    self-draw; the ready seat wins about 3 hands in 4 it is spared, 2 in 5 of them drawn."""
    pays_discards = not isinstance(options, NanchangOptions) or options.discard_pay == "three"
    return 3.2 if pays_discards else 1.7


VARIANT = Variant(
    name="nanchang",
    order=40,
    title=Text("variant.nanchang", "南昌麻将", "南昌麻將", "Nanchang"),
    short=Text("variant.nanchang.short", "南昌", "南昌", "Nanchang"),
    aliases=("南昌", "南昌麻将", "南昌麻將", "nc"),
    wildcard=JING,
    options_class=NanchangOptions,
    table_rules=table_rules,
    flags=FLAGS,
    score=score_nanchang,
    pay_win=pay_win,
    settle_hand=settle_hand,
    line_kinds={"jing_settlement": jing_settlement_line},
    maybe_special=maybe_special,
    wildcards_of=wildcards_of,
    needs_wildcards=True,
    ai=AiTuning(
        pace=3,
        flush_value=1.0,  # no 清一色 item in 南昌 (RULES §8.4)
        win_gain=15.7,
        deal_in_loss=5.5,
        bystander_loss=bystander_loss,
        deal_in_per_risk=0.36,
    ),
    desk=DeskFields(wildcard=True, others=True),
    items=ITEMS,
    help=HelpFacts(
        title=Text("help.nanchang.title", "南昌麻将规则", "南昌麻將規則", "Nanchang rules"),
        summary=Text(
            "help.nanchang.summary",
            "正精副精、精钓、德国、冲关、霸王精、规则选项",
            "正精副精、精釣、德國、衝關、霸王精、規則選項",
            "two 精 wildcards, 精钓, 德国, 冲关, 霸王精, options",
        ),
        pages=HELP_PAGES,
    ),
)

__all__ = ["FLAGS", "JING", "VARIANT", "NanchangOptions", "table_rules", "wildcards_of"]
