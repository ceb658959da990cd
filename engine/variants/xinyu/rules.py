"""新余麻将 table rules (RULES §4.1): the preset, the flags its scorer reads, shape-free hands."""

from __future__ import annotations

from collections.abc import Sequence

from engine.tiles import N_KINDS
from engine.variants.base import TableRules
from engine.variants.xinyu.options import XinyuOptions

#: RULES §6 flags the 新余 scorer reads.
FLAGS = frozenset({"dealer"})


def table_rules(options: XinyuOptions) -> TableRules:
    """新余: no 吃, 16 tiles stay in the wall, 杠钱, 一炮多响 when discards may be won."""
    return TableRules(
        "xinyu",
        tuple(range(N_KINDS)),
        chi=False,
        discard_win=options.discard_win,
        rob_kong=options.discard_win,
        multi_win=True,
        reserve=16,
        indicator=False,
        flowers=(),
        missed_win=False,
        kong_after_pong=False,
        declare_ready=False,
        kong_money=True,
        dealer_dice=2,
        dealer_stays_after_draw=options.draw_dealer == "stay",
    )


def maybe_special(counts: Sequence[int], wilds: int, meld_kinds: Sequence[int]) -> bool:
    """全风向: an all-honours hand wins whatever its shape."""
    return not any(counts[:27]) and all(k >= 27 for k in meld_kinds)
