"""南昌麻将 table rules (RULES §8.1–§8.2): the preset under the options, the honour sequences,
the 精 an indicator makes, and the shape-free hands (十三烂) the standard test misses."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from engine.tiles import N_KINDS, successor
from engine.variants.base import TableRules
from engine.variants.nanchang.options import NanchangOptions

EAST, SOUTH, WEST, NORTH, RED, GREEN, WHITE = range(27, 34)

#: 中发白: the dragon sequence, always played.
DRAGON_SEQUENCE: tuple[tuple[int, int, int], ...] = ((RED, GREEN, WHITE),)
#: Any three different winds (东南西, 东南北, 东西北, 南西北): option ``wind_sequences``.
WIND_SEQUENCES: tuple[tuple[int, int, int], ...] = (
    (EAST, SOUTH, WEST),
    (EAST, SOUTH, NORTH),
    (EAST, WEST, NORTH),
    (SOUTH, WEST, NORTH),
)

#: 34 tiles (17 stacks) are never drawn, the face-up indicator among them.
RESERVE = 34


def honour_sequences(options: NanchangOptions) -> tuple[tuple[int, int, int], ...]:
    """The honour triples that are sequences (顺子) under ``options``: 中发白, and the
    three-different-winds ones unless ``wind_sequences`` is off."""
    return DRAGON_SEQUENCE + (WIND_SEQUENCES if options.wind_sequences else ())


def table_rules(options: NanchangOptions) -> TableRules:
    """南昌: 吃 from the 上家 (the discarder's 下家 claims), 中发白 / wind sequences, kongs
    with tail replacements, wins on discards, self-draw, 抢杠 (added kongs), 杠开; one
    winner per discard by play order; 精 are plain tiles once discarded or melded; the
    indicator turned face up from the tail and 34 tiles never drawn; 弃先胡后 per kind;
    抄庄 passes the deal; the dealer stays on its win and (by default) after a draw."""
    return TableRules(
        "nanchang",
        tuple(range(N_KINDS)),
        chi=True,
        discard_win=True,
        rob_kong=True,
        multi_win=False,
        reserve=RESERVE,
        indicator=True,
        flowers=(),
        missed_win=True,
        kong_after_pong=False,
        declare_ready=False,
        kong_money=False,
        dealer_dice=2,
        roll_for_first_dealer=True,
        dealer_stays_after_draw=options.draw_dealer == "stay",
        win_passes_deal=options.next_dealer_on_win == "next",
        honour_sequences=honour_sequences(options),
        wild_melds=True,
        win_on_wild_discard=options.win_on_discarded_jing == "face",
        indicator_in_wall=True,
        take_indicator=options.indicator_reached == "take",
        touji=False,
        missed_win_kind=True,
        missed_pong_lock=options.missed_pong_lock,
        wildcard_wait_discard=options.jingdiao_discard != "forbid",
        chaozhuang=options.chaozhuang,
    )


def wildcards_of(indicator: int) -> frozenset[int]:
    """正精 is the indicator's own kind, 副精 the next (RULES §8.2: 9m → 1m, 北 → 东, 白 → 中)."""
    return frozenset({indicator, successor(indicator)})


def maybe_special(counts: Sequence[int], wilds: int, meld_kinds: Sequence[int]) -> bool:
    """十三烂 / 七星十三烂 candidates the standard test misses: no meld, no kind twice, and in
    each suit any two tiles 3 or more apart (the wildcards may fill any gap); with no
    wildcard and 14 tiles, exactly 十三烂. The scorer decides."""
    if meld_kinds or max(counts) > 1:
        return False
    for base in (0, 9, 18):
        ranks = [r for r in range(9) if counts[base + r]]
        if any(b - a < 3 for a, b in pairwise(ranks)):
            return False
    return True
