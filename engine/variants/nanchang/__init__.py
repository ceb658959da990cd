"""南昌麻将 (RULES §8): two 精 wildcards (正精 = the indicator's kind, 副精 = the next), honour
sequences, hand points × payer factors, 德国 +5, and the 精 settlement every hand."""

from __future__ import annotations

from engine.tiles import N_KINDS, successor
from engine.variants.base import AiTuning, DeskFields, TableRules, Text, Variant
from engine.variants.nanchang.options import NanchangOptions
from engine.variants.nanchang.scoring import score_nanchang
from engine.variants.nanchang.settle import pay_win

#: RULES §6 / §8.7 flags the 南昌 scorer reads.
FLAGS = frozenset({"heaven", "earth", "dealer", "no_jing_elsewhere"})


def wildcards_of(indicator: int) -> frozenset[int]:
    """正精 is the indicator's own kind, 副精 the next (RULES §8.2)."""
    return frozenset({indicator, successor(indicator)})


def table_rules(options: NanchangOptions) -> TableRules:
    """Provisional table preset until the table flow (``rules.py``) lands: chi, discard wins,
    抢杠, one winner per discard, a face-up indicator, 34 tiles never drawn."""
    return TableRules(
        "nanchang",
        tuple(range(N_KINDS)),
        chi=True,
        discard_win=True,
        rob_kong=True,
        multi_win=False,
        reserve=34,
        indicator=True,
        flowers=(),
        missed_win=True,
        kong_after_pong=False,
        declare_ready=False,
        kong_money=False,
        dealer_dice=2,
        roll_for_first_dealer=True,
        dealer_stays_after_draw=options.draw_dealer == "stay",
    )


#: 精: Nanchang's word for its wildcards.
JING = Text("wildcard.jing", "精", "精", "Jing")

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
    wildcards_of=wildcards_of,
    needs_wildcards=True,
    ai=AiTuning(pace=3),
    desk=DeskFields(wildcard=True, others=True),
)

__all__ = ["FLAGS", "JING", "VARIANT", "NanchangOptions", "table_rules", "wildcards_of"]
