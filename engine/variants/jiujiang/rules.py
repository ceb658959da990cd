"""九江麻将 table rules (RULES §5.1): the preset and the flags its scorer reads."""

from __future__ import annotations

from engine.tiles import GREEN, N_KINDS, WINDS
from engine.variants.base import TableRules
from engine.variants.jiujiang.options import JiujiangOptions

#: RULES §6 flags the 九江 scorer reads.
FLAGS = frozenset({"heaven", "earth", "last_tile", "ready_declared", "dealer"})


def table_rules(options: JiujiangOptions) -> TableRules:
    """九江: no winds, 发 are flowers, 报听, 漏胡, 跟庄 / 黄庄 raise the value per 炮."""
    return TableRules(
        "jiujiang",
        tuple(k for k in range(N_KINDS) if k not in WINDS),
        chi=options.chi,
        discard_win=True,
        rob_kong=True,
        multi_win=False,
        reserve=0,
        indicator=False,
        flowers=(GREEN,),
        missed_win=True,
        kong_after_pong=True,
        declare_ready=True,
        kong_money=False,
        dealer_dice=1,
        last_tile_discard=True,
        earth_self_draw=True,
        pao_value=True,
        dealer_stays_after_draw=True,
    )
