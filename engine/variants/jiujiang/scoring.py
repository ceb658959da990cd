"""九江麻将 scoring in 炮 (RULES §5.2–§5.3): small hands add 1–2 炮 items and must reach 2 炮
(二炮起胡); each big hand (花牌) adds 10 炮, and then 自摸 / 门清 / 独听 are worth 5 each."""

from __future__ import annotations

from engine.agari import winning_tiles
from engine.decompose import Reading, readings
from engine.notation import Hand, MeldKind
from engine.scoring.common import NOT_COMPLETE, Candidate, best, colour, not_legal, result
from engine.scoring.types import ScoreItem, ScoreResult, WinContext
from engine.special import hongqi, qixiannu, yitiaolong
from engine.tiles import GREEN, RED, WHITE, WINDS, zh_name

#: Kinds in a Jiujiang wall: the three suits, 中 and 白 (发 are 兴家, set aside).
JIUJIANG_KINDS = (*range(27), RED, WHITE)


def waits(hand: Hand) -> set[int]:
    """The kinds that completed the 13 tiles before the winning tile (standard or 七对);
    a kind whose 4 tiles are all in the hand is not a wait (RULES §7)."""
    counts = hand.counts()
    if hand.winning is not None:
        counts[hand.winning] -= 1
    held = [0] * 34
    for k in hand.all_tiles():
        held[k] += 1
    if hand.winning is not None:
        held[hand.winning] -= 1
    allowed = set(JIUJIANG_KINDS)
    return {k for k in winning_tiles(counts) if k in allowed and held[k] < 4}


def _p(name: str, en: str, n: int) -> ScoreItem:
    return ScoreItem(name, en, f"+{n}炮")


def score_jiujiang(ctx: WinContext) -> ScoreResult:
    """Score a 九江 hand: the winner's 炮 (before 吃兴家 and the value per 炮)."""
    hand = ctx.hand
    tiles = hand.all_tiles()
    if any(k in WINDS or k == GREEN for k in tiles):
        return result(False, 0, (), not_legal("jiujiang_winds"))
    rs = readings(hand)
    if not rs:
        return result(False, 0, (), NOT_COMPLETE)
    self_drawn = ctx.win in ("self", "rob_kong")
    menqing = not any(m.kind in (MeldKind.CHI, MeldKind.PONG, MeldKind.KONG) for m in hand.melds)
    dutin = len(waits(hand)) == 1
    # items that keep their small-hand value in a big hand
    fixed: list[ScoreItem] = []
    if ctx.flowers:
        fixed.append(_p(f"兴家 ×{ctx.flowers}", "发 laid open", ctx.flowers))
    for m in hand.melds:
        k = m.tiles[0]
        dragon = k in (RED, WHITE)
        if m.kind is MeldKind.KONG:
            fixed.append(_p(f"{zh_name(k)}明杠", "Exposed kong", 3 if dragon else 1))
        elif m.kind is MeldKind.CONCEALED_KONG:
            fixed.append(_p(f"{zh_name(k)}暗杠", "Concealed kong", 4 if dragon else 2))
        elif m.kind is MeldKind.PONG and dragon:
            fixed.append(_p(f"{zh_name(k)}碰", "Dragon pong", 1))
    col = colour(tiles)
    flag_bigs: list[ScoreItem] = []
    for flag, name, en in (
        ("heaven", "天胡", "Heavenly hand"),
        ("earth", "地胡", "Earthly hand"),
        ("ready_declared", "报听", "Declared ready"),
    ):
        if flag in ctx.flags:
            flag_bigs.append(_p(name, en, 10))
    if ctx.kong_draws >= 1 and ctx.win == "self":
        flag_bigs.append(_p("杠上开花", "Win on a kong replacement", 10))
    if "last_tile" in ctx.flags and ctx.win == "self":
        flag_bigs.append(_p("海底捞针", "Win on the last tile", 10))
    if col == "pure":
        flag_bigs.append(_p("清一色", "Pure one suit", 10))
    elif col == "mixed":
        flag_bigs.append(_p("混一色", "One suit with 中/白", 10))
    cands = [
        _reading(ctx, r, flag_bigs, fixed, self_drawn=self_drawn, menqing=menqing, dutin=dutin)
        for r in rs
    ]
    top = best(cands)
    assert top is not None
    return result(top.legal, top.points, top.items, top.reason)


def _reading(
    ctx: WinContext,
    r: Reading,
    flag_bigs: list[ScoreItem],
    fixed: list[ScoreItem],
    *,
    self_drawn: bool,
    menqing: bool,
    dutin: bool,
) -> Candidate:
    hand = ctx.hand
    bigs = list(flag_bigs)
    items_fixed = list(fixed)
    if r.form == "pairs":
        bigs.append(_p("七对", "Seven pairs", 10))
        lux = r.luxury()
        if lux:
            bigs.append(
                _p("豪华七对" + (f" ×{lux}" if lux > 1 else ""), "Luxury seven pairs", 10 * lux)
            )
        if qixiannu(hand.counts()):
            bigs.append(_p("七仙女", "Seven fairies (七仙女)", 10))
    else:
        if all(g.is_triplet_like for g in r.sets):
            bigs.append(_p("碰碰胡", "All pongs", 10))
        if yitiaolong(r):
            bigs.append(_p("一条龙", "Pure straight", 10))
        if ctx.win == "discard" and sum(1 for g in r.sets if g.exposed) == 4:
            bigs.append(_p("全求人", "All sets exposed, won on a discard", 10))
        if hongqi(r):
            bigs.append(_p("红旗飘飘", "Pongs of 中 and 白", 10))
        for g in r.sets:
            k = g.kinds[0]
            if g.meld is None and g.shape == "triplet" and k in (RED, WHITE):
                if ctx.win != "self" and hand.winning == k:
                    items_fixed.append(
                        _p(f"{zh_name(k)}碰", "Dragon triplet on the winning discard", 1)
                    )
                else:
                    items_fixed.append(_p(f"{zh_name(k)}暗刻", "Concealed dragon triplet", 2))
    small = not bigs
    base: list[ScoreItem] = []
    unit = 1 if small else 5
    if self_drawn:
        base.append(
            _p(
                "自摸" if ctx.win == "self" else "抢杠",
                "Self-draw" if ctx.win == "self" else "Robbing a kong (as self-draw)",
                2 if small else 5,
            )
        )
    elif small:
        base.append(_p("点炮", "Won on a discard", 1))
    if menqing:
        base.append(_p("门清", "Concealed hand", unit))
    if dutin:
        base.append(_p("独听", "Single wait", unit))
    items = bigs + base + items_fixed
    points = sum(int(i.value[1:-1]) for i in items)
    if small and points < 2:
        return Candidate(
            False,
            points,
            tuple(items),
            not_legal("jiujiang_two_pao", points=points),
        )
    return Candidate(True, points, tuple(items))
