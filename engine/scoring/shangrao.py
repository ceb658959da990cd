"""上饶麻将 scoring (RULES §3.3–§3.6): presets ``classic`` (points table) and ``xingchen``
(multiplier table).

Every reading of the hand (standard, 七对, with each 宝 wherever it may stand) and every
special shape (十三烂, 九幺) is scored; the legal one that pays most is kept (计大不计小),
then the wrappers apply: 天胡 / 地胡 / 接宝 / 四个宝 (a floor), 抢杠 (xingchen ×6),
杠上开花, 飞宝.
"""

from __future__ import annotations

from engine.decompose import Reading, readings, split_wilds, standard_readings
from engine.notation import Hand
from engine.scoring.common import NOT_COMPLETE, Best, Candidate, best, result, times
from engine.scoring.types import ScoreItem, ScoreResult, WinContext
from engine.special import QIXING_SHISANLAN, jiuyao, shisanlan
from engine.tiles import is_terminal_or_honor, suit_of

_SUIT = tuple(suit_of(k) for k in range(34))
YAO = frozenset(k for k in range(34) if is_terminal_or_honor(k))


def _classic_wild_kinds(hand: Hand, bao: int) -> tuple[int, ...]:
    """The one kind a group of wildcards alone needs to stand for under ``classic``: only
    its suit and whether it is 幺九 matter. With one suit in the hand, its 1 (keeps 清一色 and
    九幺); otherwise an honour (keeps 字一色 and 九幺; with two suits nothing else can pay more)."""
    suits = {k // 9 for k in hand.all_tiles() if k < 27 and k != bao}
    return (9 * suits.pop(),) if len(suits) == 1 else (27,)


def _xingchen_wild_kinds(bao: int) -> tuple[int, ...]:
    """Under ``xingchen`` only whether a wildcard is in use matters (colour pays nothing), and
    a wildcard as its own face never pays less: groups of wildcards alone are the 宝 itself."""
    return (bao,)


# --- classic (§3.5): (宝吊, 无宝, 有宝, 有宝 is a legal win) ------------------------------------
CLASSIC: dict[str, tuple[int | None, int, int, bool]] = {
    "平胡": (4, 4, 2, False),
    "清一色平胡": (16, 16, 8, True),
    "七对": (12, 16, 8, True),
    "清一色七对": (24, 32, 8, True),
    "七对九幺": (24, 32, 8, True),
    "七对九幺清一色": (48, 64, 16, True),
    "碰碰胡": (12, 16, 8, True),
    "碰碰胡清一色": (24, 32, 8, True),
    "碰碰胡九幺": (24, 32, 8, True),
    "碰碰胡九幺清一色": (48, 64, 16, True),
    "十三烂": (None, 4, 2, False),
    "七星十三烂": (None, 8, 4, True),
    "九幺": (None, 4, 2, False),
    "七星九幺": (None, 8, 4, True),
}
EN = {
    "平胡": "Basic win",
    "清一色平胡": "Pure one suit",
    "七对": "Seven pairs",
    "清一色七对": "Pure seven pairs",
    "七对九幺": "Seven pairs of terminals & honours",
    "七对九幺清一色": "Pure seven pairs of terminals & honours",
    "碰碰胡": "All pongs",
    "碰碰胡清一色": "Pure all pongs",
    "碰碰胡九幺": "All pongs of terminals & honours",
    "碰碰胡九幺清一色": "Pure all pongs of terminals & honours",
    "十三烂": "Thirteen orphans (十三烂)",
    "七星十三烂": "Seven-star 十三烂",
    "九幺": "Terminals & honours (九幺)",
    "七星九幺": "Seven-star 九幺",
}
MODE_EN = {"宝吊": "宝 pairs the drawn tile", "无宝": "no 宝", "有宝": "宝 in use"}
COL = {"宝吊": 0, "无宝": 1, "有宝": 2}


def score_shangrao(ctx: WinContext) -> ScoreResult:
    """Score a 上饶 hand under the ``classic`` or ``xingchen`` preset."""
    if ctx.bao is None:
        raise ValueError("a shangrao hand needs its 宝 kind")
    flags = ctx.flags
    jiebao = "jiebao" in flags or "four_bao" in flags
    floor_name = "天胡" if "heaven" in flags else "地胡" if "earth" in flags else ""
    if ctx.win == "discard" and not (jiebao or "earth" in flags or ctx.options.discard_win):
        return result(
            False,
            0,
            (),
            "点炮不能胡：只有地胡、抢杠、接宝可胡别人的牌 · "
            "a discard is won only by 地胡, robbing a kong or 接宝 (discard_win is off)",
        )
    classic = ctx.options.scoring == "classic"
    cands = _classic(ctx) if classic else _xingchen(ctx)
    own = best(cands)
    items: list[ScoreItem] = []
    if jiebao:
        floor = ctx.options.jiebao()
        name, en = ("四个宝", "Four 宝") if "four_bao" in flags else ("接宝", "Took the 4th 宝")
        legal = True
        if own is None or own.points <= floor:
            points, items = floor, [_pts(name, en, floor, classic)]
        else:
            points, items = own.points, list(own.items)
    elif floor_name:
        if own is None:
            return result(False, 0, (), NOT_COMPLETE)
        floor = 16 if classic else 10
        legal = True
        en = "Heavenly hand" if floor_name == "天胡" else "Earthly hand"
        if own.points <= floor:
            points, items = floor, [_pts(floor_name, en, floor, classic)]
        else:
            points, items = own.points, list(own.items)
    else:
        if own is None:
            return result(False, 0, (), NOT_COMPLETE)
        legal, points, items = own.legal, own.points, list(own.items)
        if not legal and ctx.flown >= 1:
            legal = True  # 飞宝 makes a "not a legal win" cell legal
        if not legal:
            return result(False, 0, items, own.reason)
    if ctx.win == "rob_kong" and not classic:
        points *= 6
        items.append(ScoreItem("抢杠", "Robbing a kong", times(6)))
    if ctx.kong_draws >= 1 and ctx.win == "self":
        factor = 2 if classic else 2**ctx.kong_draws
        points *= factor
        items.append(ScoreItem("杠上开花", "Win on a kong replacement", times(factor)))
    if ctx.flown >= 1:
        points *= 2**ctx.flown
        items.append(
            ScoreItem(
                f"飞宝 ×{ctx.flown}" if ctx.flown > 1 else "飞宝",
                "宝 discarded",
                times(2**ctx.flown),
            )
        )
    return result(legal, points, items)


def _pts(name: str, en: str, points: int, classic: bool) -> ScoreItem:
    return ScoreItem(name, en, f"{points}分" if classic else times(points))


# --- shared reading facts ----------------------------------------------------------------------


def _baodiao(r: Reading, winning: int | None, bao: int) -> bool:
    """宝吊: a pair made of a wildcard and the winning tile (or two wildcards when the drawn
    tile is itself a 宝)."""
    pairs = (r.pair,) if r.form == "standard" else r.pairs
    for g in pairs:
        if g is None or not g.wild:
            continue
        if len(g.wild) == 1 and g.kinds[0] == winning:
            return True
        if len(g.wild) == 2 and winning == bao:
            return True
    return False


def _in_use(r: Reading, bao: int) -> bool:
    """A wildcard stands for another kind than its own face."""
    return any(k != bao for g in r.groups for k in g.wild)


def _all_counts(hand: Hand) -> list[int]:
    c = [0] * 34
    for k in hand.all_tiles():
        c[k] += 1
    return c


def _jiuyao_counts(hand: Hand, bao: int) -> tuple[list[int], list[int], int]:
    concealed, w = split_wilds(hand, bao)
    all_c = list(concealed)
    for m in hand.melds:
        for k in m.tiles:
            all_c[k] += 1
    return all_c, concealed, w


# --- classic ----------------------------------------------------------------------------------


def _classic_row(name: str, mode: str) -> tuple[int, bool]:
    row = CLASSIC[name]
    value = row[COL[mode]]
    assert value is not None
    return value, mode != "有宝" or row[3]


def _classic_cand(name: str, mode: str, extra: list[ScoreItem], mult: int) -> Candidate:
    value, legal = _classic_row(name, mode)
    items = (ScoreItem(f"{name} {mode}", f"{EN[name]}, {MODE_EN[mode]}", f"{value}分"), *extra)
    reason = (
        ""
        if legal
        else (
            f"{name}有宝需宝吊或飞宝 · {EN[name]} with 宝 in use needs 宝吊 or 飞宝 to be a legal win"
        )
    )
    return Candidate(legal, value * mult, items, reason)


def _classic(ctx: WinContext) -> list[Candidate]:
    hand, bao = ctx.hand, ctx.bao
    assert bao is not None
    tiles = hand.all_tiles()
    no_bao = bao not in tiles
    real = [k for k in tiles if k != bao] + [k for m in hand.melds for k in m.tiles if k == bao]
    real_suits = {_SUIT[k] for k in real}
    real_yao = all(k in YAO for k in real)
    best_key: tuple[bool, int] | None = None
    rows: dict[tuple[bool, int], tuple[str, str, int]] = {}
    for r in readings(hand, bao, wild_kinds=_classic_wild_kinds(hand, bao), wild_runs=False):
        mode = "无宝" if no_bao else "宝吊" if _baodiao(r, hand.winning, bao) else "有宝"
        wild = r.wild_as()
        suits = real_suits | {_SUIT[k] for k in wild} if wild else real_suits
        yao = real_yao and all(k in YAO for k in wild)
        pure = len(suits) == 1 and 3 not in suits
        qing = len(suits) == 1
        # The most specific row a reading satisfies pays most in every column.
        lux = 0
        if r.form == "pairs":
            name = "七对" + ("九幺" if yao else "") + ("清一色" if qing else "")
            name = {"七对清一色": "清一色七对"}.get(name, name)
            lux = r.luxury()
        elif all(g.is_triplet_like for g in r.sets):
            name = "碰碰胡" + ("九幺" if yao else "") + ("清一色" if qing else "")
        else:
            name = "清一色平胡" if pure else "平胡"
        value, legal = _classic_row(name, mode)
        key = (legal, value << lux)
        if best_key is None or key > best_key:
            best_key = key
            rows[key] = (name, mode, lux)
    out: list[Candidate] = []
    if best_key is not None:
        name, mode, lux = rows[best_key]
        extra = [ScoreItem("豪华", "Luxury (four of a kind)", times(2**lux))] if lux else []
        out.append(_classic_cand(name, mode, extra, 2**lux))
    # 十三烂 / 九幺: no pair to 吊, so a 宝 in them is 有宝.
    mode = "无宝" if no_bao else "有宝"
    if not hand.melds:
        counts, w = split_wilds(hand, bao)
        s = shisanlan(counts, w)
        if s:
            out.append(_classic_cand(s, mode, [], 1))
    all_c, concealed, w = _jiuyao_counts(hand, bao)
    for jy in jiuyao(all_c, concealed, w):
        name = "七星九幺" if jy.qixing else "九幺"
        extra: list[ScoreItem] = []
        mult = 1
        if not hand.melds:
            extra.append(ScoreItem("长九幺", "九幺 with no pong or kong", times(2)))
            mult = 2
            if jy.luxury:
                extra.append(ScoreItem("豪华长九幺", "长九幺 holding four of a kind", times(2)))
                mult = 4
        out.append(_classic_cand(name, mode, extra, mult))
    return out


# --- xingchen ---------------------------------------------------------------------------------


def _baodiao_head_before(hand: Hand, bao: int) -> bool:
    """The 13 tiles before the winning draw were 宝吊头: without one 宝 they are all sets."""
    if hand.winning is None:
        return False
    counts, w = split_wilds(hand, bao)
    if hand.winning == bao:
        w -= 1
    else:
        counts[hand.winning] -= 1
    if w < 1:
        return False
    return bool(standard_readings(counts, w - 1, pair=False, wild_kinds=(bao,), wild_runs=False))


def _x(
    name: str, en: str, value: int, lux: int = 0, legal: bool = True, reason: str = ""
) -> Candidate:
    items = [ScoreItem(name, en, times(value))]
    if lux:
        items.append(ScoreItem("豪华", "Luxury (four of a kind)", times(2**lux)))
    return Candidate(legal, value * 2**lux, tuple(items), reason)


def _xingchen(ctx: WinContext) -> list[Candidate]:
    hand, bao = ctx.hand, ctx.bao
    assert bao is not None
    touji = "touji" in ctx.flags
    head: bool | None = None
    out = Best(_x)
    for r in readings(hand, bao, wild_kinds=_xingchen_wild_kinds(bao), wild_runs=False):
        in_use = _in_use(r, bao)
        if r.form == "pairs":
            lux = r.luxury()
            name = (
                ("豪华七对" if lux else "七对") if in_use else ("清豪华七对" if lux else "清七对")
            )
            out.append(
                (
                    name,
                    "Seven pairs" if in_use else "Seven pairs, no wildcard",
                    4 if in_use else 10,
                    lux,
                )
            )
            continue
        pph = all(g.is_triplet_like for g in r.sets)
        diao = _baodiao(r, hand.winning, bao)
        if touji and ((diao and hand.winning == bao) or not in_use):
            if head is None:
                head = _baodiao_head_before(hand, bao)
            if head:
                if diao and hand.winning == bao:
                    name, en = "宝吊宝", "宝 pair-wait won on another 宝 (偷机)"
                else:
                    name, en = "宝吊无宝", "宝 pair-wait ended with 宝 as itself (偷机)"
                out.append((("碰碰胡" if pph else "") + name, en, 16 if pph else 6))
        if diao:
            out.append(("碰碰胡宝吊头" if pph else "宝吊头", "宝 pair-wait", 8 if pph else 3))
        elif not in_use:
            out.append(
                (
                    "清碰碰胡" if pph else "平胡自摸",
                    "All pongs, no wildcard" if pph else "Basic win, no wildcard",
                    10 if pph else 2,
                )
            )
        elif pph:
            out.append(("碰碰胡", "All pongs (宝 in use)", 4))
        else:
            out.append(
                (
                    "平胡有宝",
                    "Basic win with 宝 in use",
                    2,
                    0,
                    False,
                    "平胡有宝需宝吊或飞宝 · 平胡 with 宝 in use needs 宝吊 or 飞宝",
                )
            )
    if not hand.melds:
        counts, w = split_wilds(hand, bao)
        natural = shisanlan(hand.counts(), 0)
        wild = shisanlan(counts, w) if w else None
        for s, plain in ((natural, True), (wild, False)):
            if s:
                q = s == QIXING_SHISANLAN
                name = ("七星十三浪" if q else "十三浪") + ("" if plain else "有宝")
                out.append(
                    (
                        name,
                        "十三浪" + (", no wildcard" if plain else ", 宝 in use"),
                        (8 if q else 4) if plain else (4 if q else 2),
                    )
                )
    all_nat = _all_counts(hand)
    nat = jiuyao(all_nat, hand.counts(), 0)
    all_c, concealed, w = _jiuyao_counts(hand, bao)
    wild_jy = jiuyao(all_c, concealed, w) if w else []
    for group, plain in ((nat, True), (wild_jy, False)):
        for jy in group:
            name = ("七星九幺" if jy.qixing else "九幺") + ("" if plain else "有宝")
            out.append(
                (
                    name,
                    "九幺" + (", no wildcard" if plain else ", 宝 in use"),
                    (8 if jy.qixing else 4) if plain else (4 if jy.qixing else 2),
                )
            )
    return out.candidates()
