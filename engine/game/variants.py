"""Per-variant table-flow rules as data (RULES §3.1, §4.1, §5.1)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.options import JiujiangOptions, RuleOptions, ShangraoOptions, XinyuOptions
from engine.tiles import GREEN, N_KINDS, WINDS


@dataclass(frozen=True)
class TableRules:
    """What the table flow of one variant (with its options) allows."""

    variant: str
    kinds: tuple[int, ...]  # tile kinds in the set (four copies each)
    chi: bool  # 吃 allowed (下家 only)
    discard_win: bool  # any discard may be won (else only the variant's special cases)
    rob_kong: bool  # 抢杠
    multi_win: bool  # 一炮多响: every claimer wins (else first in play order from discarder)
    reserve: int  # tiles that stay in the wall at the live-wall end (新余 16)
    indicator: bool  # 上饶 跌宝牌 / 宝
    flowers: tuple[int, ...]  # kinds laid open and replaced (九江 发)
    missed_win: bool  # 九江 rule 3: passing a winnable discard blocks discard wins until next draw
    kong_after_pong: bool  # 九江 rule 1: the drawn 4th tile of a pong must be konged (or won)
    declare_ready: bool  # 九江 报听
    kong_money: bool  # 新余 杠钱 at declaration
    dealer_dice: int  # dice the dealer rolls to start the deal (narrated)
    last_tile_discard: bool = (
        False  # 九江 海底放炮: who draws the last tile and can't win discards it
    )
    earth_self_draw: bool = False  # 九江 地胡 also on a non-dealer's self-draw at its first draw


def table_rules(variant: str, options: RuleOptions) -> TableRules:
    """The table rules of ``variant`` under ``options``."""
    all_kinds = tuple(range(N_KINDS))
    if variant == "shangrao":
        assert isinstance(options, ShangraoOptions)
        return TableRules(
            variant,
            all_kinds,
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
        )
    if variant == "xinyu":
        assert isinstance(options, XinyuOptions)
        return TableRules(
            variant,
            all_kinds,
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
        )
    if variant == "jiujiang":
        assert isinstance(options, JiujiangOptions)
        return TableRules(
            variant,
            tuple(k for k in all_kinds if k not in WINDS),
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
        )
    raise ValueError(f"unknown variant {variant!r}")
