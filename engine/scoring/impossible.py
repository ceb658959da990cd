"""Hands that cannot have happened at the table, refused before scoring (RULES §7).

A hand typed into the calculator (or a record) may describe something no game can produce;
scoring it would only print a confident number for a hand that never was. Each check names
what is impossible, in Chinese and English, and the hand is then not a legal win.

>>> from engine.scoring.entry import context_from_dict
>>> refusal(context_from_dict({"variant": "xinyu", "hand": "456s11z [345s] [678m] [777m] +1z"}))
'新余麻将不能吃：[345s] 是吃来的顺子 · xinyu has no chi: [345s] is a claimed sequence'
>>> ctx = context_from_dict({"variant": "shangrao", "bao": "5p",
...     "hand": "123m456m789s11z [555p] +1z"})
>>> refusal(ctx)
'宝牌不能碰杠：[555p] · a 宝 is never claimed (pong, kong or chi): [555p]'
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from engine import variants
from engine.notation import MeldKind
from engine.refusal import Reason
from engine.refusal_texts import REFUSALS
from engine.scoring.types import WinContext
from engine.tiles import successor, tile_str
from engine.variants import Variant

__all__ = ["CLAIMED", "MAX_FLOWERS", "REFUSALS", "REPLACED", "refusal"]

#: Melds made from another player's discard (the 宝 never takes part in one, RULES §2).
CLAIMED = (MeldKind.CHI, MeldKind.PONG, MeldKind.KONG)
#: Melds that draw a replacement tile from the wall (杠上开花 counts these).
REPLACED = (MeldKind.KONG, MeldKind.CONCEALED_KONG)
#: Jiujiang: 4 发 in the set.
MAX_FLOWERS = 4


def refusal(ctx: WinContext, variant: Variant | None = None) -> str:
    """Why ``ctx`` cannot be a hand played at the table, or ``""`` when it can (``variant``:
    the context's, when the caller has it already).

    One pass over the melds (this runs before every score, so it stays cheap)."""
    hand = ctx.hand
    if variant is None:
        variant = variants.get(ctx.variant)
    wild = ctx.wildcards
    kongs = 0
    n_bao = n_indicator = 0
    indicator = -1
    wild_melds = variant.rules(ctx.options).wild_melds  # 南昌 精: plain tiles in melds
    if wild:
        indicator = _indicator_of(variant, wild)
        n_bao = sum(hand.concealed.count(k) for k in wild)
        if indicator >= 0:
            n_indicator = hand.concealed.count(indicator)
    for m in hand.melds:
        kind, tiles = m.kind, m.tiles
        if kind in REPLACED:
            kongs += 1
        elif kind is MeldKind.CHI and not variant.rules(ctx.options).chi:
            no_chi = "chi" in variant.options_class.INFO  # 吃 is a house option left off
            return _why(
                "no_chi",
                variant=ctx.variant,
                variant_zh=variant.title.zh + ("（未开吃）" if no_chi else ""),
                variant_zh_tw=variant.title.zh_TW + ("（未開吃）" if no_chi else ""),
                meld=m.text(),
            )
        if not wild.isdisjoint(tiles):
            if kind in CLAIMED and not wild_melds:
                return _why("wildcard_claimed", meld=m.text())
            n_bao += sum(tiles.count(k) for k in wild)
        if indicator in tiles:
            n_indicator += tiles.count(indicator)
    if ctx.kong_draws > kongs:
        return _why("kong_draws", draws=ctx.kong_draws, kongs=kongs)
    if ctx.flowers > MAX_FLOWERS:
        return _why("flowers", flowers=ctx.flowers)
    if n_indicator > 3:  # the indicator lies face up and is never drawn
        return _why("indicator", tile=tile_str(indicator), n=n_indicator)
    if n_bao + ctx.flown > 4 * len(wild):
        return _why("wildcards", limit=4 * len(wild), n=n_bao, flown=ctx.flown)
    return ""


def _why(name: str, **params: Any) -> Reason:
    """The refusal ``name`` with ``params``: ``简体 · English`` as text, translatable by its
    key (``engine.refusal.<name>``, the engine text of :data:`REFUSALS`)."""
    text = REFUSALS[name]
    return Reason(f"engine.{text.id}", f"{text.zh} · {text.en}", **params)


def _indicator_of(variant: Variant, wildcards: frozenset[int]) -> int:
    """The kind whose face-up indicator makes ``wildcards`` (RULES §3.1), or -1 if none."""
    return _indicator_for(variant.wildcards_of or _follower, wildcards)


@lru_cache(maxsize=256)
def _indicator_for(pick: Callable[[int], frozenset[int]], wildcards: frozenset[int]) -> int:
    for k in range(34):
        if pick(k) == wildcards:
            return k
    return -1


def _follower(k: int) -> frozenset[int]:
    return frozenset((successor(k),))
