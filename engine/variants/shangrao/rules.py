"""上饶麻将 table rules (RULES §3.1): the preset, the flags its scorer reads, shape-free hands,
the 宝 an indicator makes, and when the AI declines a win for 偷机."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from engine.tiles import N_KINDS, is_terminal_or_honor, successor
from engine.variants.base import RuleOptions, TableRules
from engine.variants.shangrao.options import ShangraoOptions

#: RULES §6 flags the 上饶 scorer reads.
FLAGS = frozenset({"heaven", "earth", "touji", "four_bao", "jiebao", "dealer"})


def table_rules(options: ShangraoOptions) -> TableRules:
    """上饶: 吃 allowed, 抢杠, one 跌宝牌 indicator, dice for the first dealer, 叁包."""
    return TableRules(
        "shangrao",
        tuple(range(N_KINDS)),
        chi=True,
        discard_win=options.discard_win,
        rob_kong=True,
        multi_win=False,
        reserve=0,
        indicator=True,
        flowers=(),
        missed_win=False,
        kong_after_pong=False,
        declare_ready=False,
        kong_money=False,
        dealer_dice=2,
        roll_for_first_dealer=True,
        earth_on_discard=True,
        sanbao=True,
    )


def wildcards_of(indicator: int) -> frozenset[int]:
    """The 宝 is the kind after the face-up 跌宝牌 (RULES §3.1)."""
    return frozenset({successor(indicator)})


def the_bao(wildcards: Collection[int]) -> int | None:
    """The one 宝 kind of a 上饶 hand's wildcard set (上饶 has exactly one kind, RULES §3.1);
    ``None`` when the set does not hold exactly one (no indicator turned yet).

    >>> the_bao(frozenset({8})), the_bao(frozenset())
    (8, None)
    """
    if len(wildcards) != 1:
        return None
    (kind,) = wildcards
    return kind


def maybe_special(counts: Sequence[int], wilds: int, meld_kinds: Sequence[int]) -> bool:
    """十三烂 / 九幺 candidates the standard shape test misses."""
    if not meld_kinds and max(counts) <= 1:
        return True  # 十三烂 candidate
    kinds = [k for k in range(34) if counts[k]] + list(meld_kinds)
    return all(is_terminal_or_honor(k) for k in kinds)  # 九幺 candidate


def keeps_drawing(options: RuleOptions) -> bool:
    """Under the xingchen preset 偷机 pays, so the AI may decline a 宝吊头 self-draw."""
    return isinstance(options, ShangraoOptions) and options.scoring == "xingchen"
