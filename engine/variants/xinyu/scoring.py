"""新余麻将 scoring (RULES §4.2–§4.3): doublings multiplied together, one item per exclusive
group (pairs: 七小对 / 豪华七小对; colour: 混一色 / 清一色 / 全风向)."""

from __future__ import annotations

from typing import cast

from engine.decompose import readings
from engine.notation import MeldKind
from engine.refusal import Reason
from engine.scoring.common import NOT_COMPLETE, Candidate, best, colour, not_legal, result, times
from engine.scoring.types import ScoreItem, ScoreResult, WinContext
from engine.variants.xinyu.options import XinyuOptions


def score_xinyu(ctx: WinContext) -> ScoreResult:
    """Score a 新余 hand: 1 × the product of its items' multipliers."""
    hand = ctx.hand
    # score() checked that the options are xinyu's
    if ctx.win != "self" and not cast(XinyuOptions, ctx.options).discard_win:
        # the win kind in the bot's words for it (点炮 / 抢杠), in the reader's language
        how = "rob_kong" if ctx.win == "rob_kong" else "discard"
        what = Reason(
            f"common.how.{how}", "robbing a kong" if how == "rob_kong" else "on a discard"
        )
        return result(False, 0, (), not_legal("xinyu_self_draw_only", what=what))
    tiles = hand.all_tiles()
    col = colour(tiles)
    rs = readings(hand, ctx.wildcards)
    # 全风向: a concealed all-honours hand wins whatever its shape (§4.2).
    free_shape = col == "honours" and not hand.melds
    if not rs and not free_shape:
        return result(False, 0, (), NOT_COMPLETE)
    common: list[tuple[str, str, int]] = []
    if not hand.melds and ctx.win == "self":
        common.append(("门清", "Concealed self-draw", 2))
    if any(m.is_kong for m in hand.melds):
        common.append(("开杠", "Declared a kong", 2))
    if col == "honours":
        common.append(("全风向", "All honours", 8))
    elif col == "pure":
        common.append(("清一色", "Pure one suit", 4))
    elif col == "mixed":
        common.append(("混一色", "One suit with honours", 2))
    if ctx.kong_draws >= 1 and ctx.win == "self":
        common.append(("杠上开花", "Win on a kong replacement", 2))
    exposed = [m for m in hand.melds if m.kind in (MeldKind.PONG, MeldKind.KONG)]
    cands: list[Candidate] = []
    for r in rs or (None,):
        own: list[tuple[str, str, int]] = []
        if r is not None and r.form == "pairs":
            if r.luxury():
                own.append(("豪华七小对", "Luxury seven pairs", 8))
            else:
                own.append(("七小对", "Seven pairs", 4))
        elif r is not None:
            if all(g.is_triplet_like for g in r.sets):
                own.append(("碰碰胡", "All pongs", 2))
            if len(exposed) == 4:
                own.append(("飞起来", "Four exposed sets, single wait", 4))
        parts = own + common
        points = 1
        for _, _, x in parts:
            points *= x
        items = tuple(ScoreItem(n, en, times(x)) for n, en, x in parts)
        if not items:
            items = (ScoreItem("平胡", "Basic win", "1分"),)
        cands.append(Candidate(True, points, items))
    top = best(cands)
    assert top is not None
    return result(True, top.points, top.items)
