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

from engine.notation import MeldKind
from engine.scoring.types import WinContext
from engine.tiles import successor, tile_str

#: Melds made from another player's discard (the 宝 never takes part in one, RULES §2).
CLAIMED = (MeldKind.CHI, MeldKind.PONG, MeldKind.KONG)
#: Melds that draw a replacement tile from the wall (杠上开花 counts these).
REPLACED = (MeldKind.KONG, MeldKind.CONCEALED_KONG)
#: Jiujiang: 4 发 in the set.
MAX_FLOWERS = 4


def refusal(ctx: WinContext) -> str:
    """Why ``ctx`` cannot be a hand played at the table, or ``""`` when it can.

    One pass over the melds (this runs before every score, so it stays cheap)."""
    hand = ctx.hand
    bao = ctx.bao
    no_chi = ctx.variant == "xinyu" or (
        ctx.variant == "jiujiang" and not getattr(ctx.options, "chi", False)
    )
    kongs = 0
    n_bao = n_indicator = 0
    indicator = -1
    if bao is not None:
        indicator = _PREDECESSOR[bao]
        n_bao = hand.concealed.count(bao)
        n_indicator = hand.concealed.count(indicator)
    for m in hand.melds:
        kind, tiles = m.kind, m.tiles
        if kind in REPLACED:
            kongs += 1
        elif no_chi and kind is MeldKind.CHI:
            return (
                f"{_VARIANT_ZH.get(ctx.variant, ctx.variant)}不能吃：{m.text()} 是吃来的顺子 · "
                f"{ctx.variant} has no chi: {m.text()} is a claimed sequence"
            )
        if bao in tiles:
            if kind in CLAIMED:
                return (
                    f"宝牌不能碰杠：{m.text()} · "
                    f"a 宝 is never claimed (pong, kong or chi): {m.text()}"
                )
            n_bao += tiles.count(bao)
        if indicator in tiles:
            n_indicator += tiles.count(indicator)
    if ctx.kong_draws > kongs:
        return (
            f"杠上开花次数 {ctx.kong_draws} 多于手里的杠 {kongs} · "
            f"{ctx.kong_draws} kong draws but only {kongs} kong(s) in the hand"
        )
    if ctx.flowers > MAX_FLOWERS:
        return f"发最多 4 张，不是 {ctx.flowers} · there are only 4 发 flowers, not {ctx.flowers}"
    if n_indicator > 3:  # the indicator lies face up and is never drawn
        name = tile_str(indicator)
        return (
            f"{name} 已翻作跌宝牌，手里最多 3 张 · {name} is the face-up indicator: "
            f"only 3 more are in play, the hand holds {n_indicator}"
        )
    if n_bao + ctx.flown > 4:
        return (
            f"宝只有 4 张：手里 {n_bao} 张又飞宝 {ctx.flown} 张 · there are 4 宝: "
            f"{n_bao} in the hand and {ctx.flown} flown is more"
        )
    return ""


_VARIANT_ZH = {"xinyu": "新余麻将", "jiujiang": "九江麻将（未开吃）"}
#: The kind each kind follows (the indicator of a 宝, RULES §3.1).
_PREDECESSOR = {successor(k): k for k in range(34)}
