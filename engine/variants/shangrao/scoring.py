"""上饶麻将 scoring (RULES §3.3–§3.6): presets ``classic`` (points table) and ``xingchen``
(multiplier table).

Every reading of the hand (standard, 七对, with each 宝 wherever it may stand) and every
special shape (十三烂, 九幺) is scored; the legal one that pays most is kept (计大不计小),
then the wrappers apply: 天胡 / 地胡 / 接宝 / 四个宝 (a floor), 抢杠 (xingchen ×6),
杠上开花, 飞宝.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from typing import cast

from engine.decompose import (
    PAIR,
    SEQ,
    Group,
    meld_group,
    seven_pairs_flags,
    split_wilds,
    standard_flags,
    standard_readings,
)
from engine.notation import Hand
from engine.scoring.common import (
    NOT_COMPLETE,
    Best,
    Candidate,
    best,
    item_name,
    not_legal,
    result,
    times,
)
from engine.scoring.types import ScoreItem, ScoreResult, WinContext
from engine.special import QIXING_SHISANLAN, JiuYao, jiuyao, shisanlan
from engine.tiles import is_terminal_or_honor, suit_of
from engine.variants.shangrao.options import ShangraoOptions
from engine.variants.shangrao.rules import the_bao

_SUIT = tuple(suit_of(k) for k in range(34))
YAO = frozenset(k for k in range(34) if is_terminal_or_honor(k))


def _classic_wild_kinds(hand: Hand, bao: int) -> tuple[int, ...]:
    """The one kind a group of wildcards alone needs to stand for under ``classic``: only
    its suit and whether it is 幺九 matter. With one suit in the hand, its 1 (keeps 清一色 and
    九幺); otherwise an honour (keeps 字一色 and 九幺; with two suits nothing else can pay more)."""
    suits = _real_suits(hand, bao)
    return (9 * suits.pop(),) if len(suits) == 1 else (27,)


def _classic_pair_kinds(hand: Hand, bao: int) -> tuple[int, ...]:
    """The kinds a pair of wildcards alone may stand for in a classic 七对 when the one of
    :func:`_classic_wild_kinds` cannot: a kind fills at most two pairs, so it is blocked when
    the hand already holds four of it (``1111m2222m4444m`` + two 宝). Every 幺九 kind, and
    with one suit every kind of it. (A pair of wildcards on a kind the hand holds is never
    worse than on a new kind: it adds a 豪华.)"""
    suits = _real_suits(hand, bao)
    if len(suits) == 1:
        s = suits.pop()
        return tuple(sorted(YAO | set(range(9 * s, 9 * s + 9))))
    return tuple(sorted(YAO))


def _real_suits(hand: Hand, bao: int) -> set[int]:
    """The suits (0–2) of the hand's suited tiles other than the 宝."""
    return {k // 9 for k in hand.all_tiles() if k < 27 and k != bao}


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
    if the_bao(ctx.wildcards) is None:
        raise ValueError("a shangrao hand needs its 宝 kind")
    opts = cast(ShangraoOptions, ctx.options)  # score() checked they are shangrao options
    flags = ctx.flags
    jiebao = "jiebao" in flags or "four_bao" in flags
    floor_name = "天胡" if "heaven" in flags else "地胡" if "earth" in flags else ""
    if ctx.win == "discard" and not (jiebao or "earth" in flags or opts.discard_win):
        return result(False, 0, (), not_legal("shangrao_discard"))
    classic = opts.scoring == "classic"
    cands = _classic(ctx) if classic else _xingchen(ctx)
    own = best(cands)
    floored = jiebao or bool(floor_name)
    if own is None and not jiebao:
        return result(False, 0, (), NOT_COMPLETE)
    points, items = 0, []
    if own is not None:
        # 飞宝 makes a "not a legal win" cell legal; a floor makes any complete hand legal
        if not (own.legal or ctx.flown >= 1 or floored):
            return result(False, 0, own.items, own.reason)
        items = list(own.items)
        points = _kong_and_rob(ctx, classic, own.points, items)
    if floored:
        # 天胡 / 地胡 / 接宝 / 四个宝: max(floor, own incl. 杠上开花 and 抢杠), RULES §7
        if jiebao:
            name, en = ("四个宝", "Four 宝") if "four_bao" in flags else ("接宝", "Took the 4th 宝")
            floor = opts.jiebao()
        else:
            name, en = floor_name, "Heavenly hand" if floor_name == "天胡" else "Earthly hand"
            floor = 16 if classic else 10
        if points <= floor:
            points, items = floor, [_pts(name, en, floor, classic)]
        else:
            items.append(_floor_not_added(name, en, floor, classic))
    if ctx.flown >= 1:
        points *= 2**ctx.flown
        items.append(
            ScoreItem(
                f"飞宝 ×{ctx.flown}" if ctx.flown > 1 else "飞宝",
                "宝 discarded",
                times(2**ctx.flown),
            )
        )
    return result(True, points, items)


def _kong_and_rob(ctx: WinContext, classic: bool, points: int, items: list[ScoreItem]) -> int:
    """The hand's own doublings: 抢杠 (xingchen ×6) and 杠上开花 (classic ×2 once, xingchen
    ×2 per kong in a row); ``items`` gets their lines."""
    if ctx.win == "rob_kong" and not classic:
        points *= 6
        items.append(ScoreItem("抢杠", "Robbing a kong", times(6)))
    if ctx.kong_draws >= 1 and ctx.win == "self":
        factor = 2 if classic else 2**ctx.kong_draws
        points *= factor
        items.append(ScoreItem("杠上开花", "Win on a kong replacement", times(factor)))
    return points


def _pts(name: str, en: str, points: int, classic: bool) -> ScoreItem:
    return ScoreItem(name, en, f"{points}分" if classic else times(points))


#: The value of a floor (天胡 / 地胡 / 接宝 / 四个宝) that the hand's own points beat.
FLOOR_NOT_ADDED = "{floor} 未计 · not added (计大不计小)"


def _floor_not_added(name: str, en: str, floor: int, classic: bool) -> ScoreItem:
    """天胡 / 地胡 / 接宝 / 四个宝 recognised, but the hand's own points are higher, so the
    floor adds nothing (计大不计小): listed so the players see it was counted."""
    return ScoreItem(name, en, FLOOR_NOT_ADDED.format(floor=_pts(name, en, floor, classic).value))


# --- shared reading facts ----------------------------------------------------------------------
#
# Both presets ask only yes/no questions of a reading's groups, so a reading is scored from
# the OR of one bit mask per group (see engine.decompose.standard_flags): readings that differ
# only in ways the tables ignore (which 2–8 a 宝 plays inside a sequence, say) are scored once.

SEQ_SET = 1  #: some set is a sequence (so not 碰碰胡)
WILD_MID = 2  #: a wildcard stands for a 2–8 (so not 九幺)
DIAO = 4  #: 宝吊: the pair is a wildcard + the winning tile (two wildcards if it is a 宝)
IN_USE = 8  #: a wildcard stands for another kind than its own face
WILD_SUIT = 16  #: ``WILD_SUIT << s``: a wildcard stands for a tile of suit ``s`` (3 = honours)
FACE_IN_SEQ = WILD_SUIT << 4  #: a 宝 as its own face stands inside a sequence (not 宝吊无宝)


@dataclass(frozen=True, eq=False)
class _GroupFlags:
    """The mask of one group for a hand won on ``winning`` with 宝 ``bao`` (``None`` when
    outside the suit a per-suit flagger serves). One object per pair of values (see
    :func:`_flags_for`), so the per-suit caches of :mod:`engine.decompose` can key on it."""

    winning: int | None
    bao: int | None

    def __call__(self, g: Group) -> int:
        mask = SEQ_SET if g.shape == SEQ else 0
        if not g.wild:
            return mask
        for k in g.wild:
            mask |= WILD_SUIT << _SUIT[k]
            if k not in YAO:
                mask |= WILD_MID
            if k != self.bao:
                mask |= IN_USE
            elif g.shape == SEQ:
                mask |= FACE_IN_SEQ
        if g.shape == PAIR and (
            (len(g.wild) == 1 and g.kinds[0] == self.winning)
            or (len(g.wild) == 2 and self.winning is not None and self.winning == self.bao)
        ):
            mask |= DIAO
        return mask

    def for_suit(self, lo: int) -> _GroupFlags:
        """The flagger for the groups holding a real tile of one suit: the winning tile and
        the 宝 matter there only when they are of that suit (a 宝吊 pair of two wildcards
        holds no real tile)."""
        return self._per_suit[lo // 9]

    @cached_property
    def _per_suit(self) -> tuple[_GroupFlags, ...]:
        def local(k: int | None, suit: int) -> int | None:
            return k if k is not None and _SUIT[k] == suit else None

        return tuple(_flags_for(local(self.winning, s), local(self.bao, s)) for s in range(4))


@cache
def _flags_for(winning: int | None, bao: int | None) -> _GroupFlags:
    return _GroupFlags(winning, bao)


#: The suits a reading's tiles are in, as ``WILD_SUIT << suit`` bits (the mask's own).
SUIT_BITS = 15 * WILD_SUIT
HONOURS_BIT = WILD_SUIT << 3


def _suit_bits(kinds: Iterable[int]) -> int:
    """The suits of ``kinds`` as :data:`SUIT_BITS`."""
    bits = 0
    for k in kinds:
        bits |= WILD_SUIT << _SUIT[k]
    return bits


def _readings_flags(
    hand: Hand,
    bao: int,
    wild_kinds: tuple[int, ...],
    counts: list[int],
    w: int,
    wild_runs: bool = False,
    more_pair_kinds: Callable[[], tuple[int, ...]] | None = None,
) -> list[tuple[int, bool, int]]:
    """``(mask, 七对?, luxury)`` of every distinct way to read the hand (``counts``, ``w``:
    its concealed tiles as :func:`split_wilds` gives them): the standard readings first,
    then 七对 (luxury = its four-of-a-kinds), in the order of
    :func:`engine.decompose.readings` with these ``wild_kinds`` and ``wild_runs``. When no
    七对 stands with ``wild_kinds`` for the pairs of wildcards alone, ``more_pair_kinds()``
    (if given) gives the kinds to try instead."""
    flags_of = _flags_for(hand.winning, bao)
    start = 0
    for m in hand.melds:
        start |= flags_of(meld_group(m))
    out = [
        (mask, False, 0)
        for mask in standard_flags(
            counts, w, flags_of, start=start, wild_kinds=wild_kinds, wild_runs=wild_runs
        )
    ]
    if not hand.melds:
        pairs = seven_pairs_flags(counts, w, flags_of, wild_kinds=wild_kinds)
        if (
            not pairs
            and more_pair_kinds is not None
            and w >= 2
            and counts.count(1) + counts.count(3) <= w  # else no 七对 with any kinds
        ):
            pairs = seven_pairs_flags(counts, w, flags_of, wild_kinds=more_pair_kinds())
        for mask, lux in pairs:
            out.append((mask, True, lux))
    return out


def _with_melds(hand: Hand, concealed: list[int]) -> list[int]:
    """``concealed`` counts plus the tiles of the melds."""
    all_c = list(concealed)
    for m in hand.melds:
        for k in m.tiles:
            all_c[k] += 1
    return all_c


# --- classic ----------------------------------------------------------------------------------


def _classic_row(name: str, mode: str) -> tuple[int, bool]:
    row = CLASSIC[name]
    value = row[COL[mode]]
    assert value is not None
    return value, mode != "有宝" or row[3]


def _classic_cand(name: str, mode: str, extra: list[ScoreItem], mult: int) -> Candidate:
    value, legal = _classic_row(name, mode)
    items = (ScoreItem(f"{name} {mode}", f"{EN[name]}, {MODE_EN[mode]}", f"{value}分"), *extra)
    reason = "" if legal else not_legal("youbao", name=item_name(name))
    return Candidate(legal, value * mult, items, reason)


@lru_cache(maxsize=4096)
def _classic_name(
    mask: int, no_bao: bool, real_suits: int, real_yao: bool, pairs: bool
) -> tuple[str, str]:
    """The row and column of :data:`CLASSIC` a reading (its ``mask``; ``real_suits`` the
    suit bits of the real tiles) falls in: the most specific row it satisfies, which pays
    most in every column."""
    mode = "无宝" if no_bao else "宝吊" if mask & DIAO else "有宝"
    suits = real_suits | mask & SUIT_BITS
    yao = real_yao and not mask & WILD_MID
    qing = suits != 0 and suits & (suits - 1) == 0  # exactly one suit (or honours alone)
    if pairs:
        name = "七对" + ("九幺" if yao else "") + ("清一色" if qing else "")
        return {"七对清一色": "清一色七对"}.get(name, name), mode
    if not mask & SEQ_SET:
        return "碰碰胡" + ("九幺" if yao else "") + ("清一色" if qing else ""), mode
    return ("清一色平胡" if qing and suits != HONOURS_BIT else "平胡"), mode


def _classic(ctx: WinContext) -> list[Candidate]:
    hand, bao = ctx.hand, the_bao(ctx.wildcards)
    assert bao is not None
    tiles = hand.all_tiles()
    no_bao = bao not in tiles
    real = [k for k in tiles if k != bao] + [k for m in hand.melds for k in m.tiles if k == bao]
    real_suits = _suit_bits(real)
    real_yao = all(k in YAO for k in real)
    best_key: tuple[bool, int] | None = None
    rows: dict[tuple[bool, int], tuple[str, str, int]] = {}
    counts, w = split_wilds(hand, bao)
    wild_kinds = _classic_wild_kinds(hand, bao)
    for mask, pairs, lux in _readings_flags(
        hand, bao, wild_kinds, counts, w, more_pair_kinds=lambda: _classic_pair_kinds(hand, bao)
    ):
        name, mode = _classic_name(mask, no_bao, real_suits, real_yao, pairs)
        value, legal = _classic_row(name, mode)
        key = (legal, value << lux)
        if best_key is None or key > best_key:
            best_key = key
            rows[key] = (name, mode, lux)
    out: list[Candidate] = []
    if best_key is not None:
        name, mode, lux = rows[best_key]
        extra: list[ScoreItem] = (
            [ScoreItem("豪华", "Luxury (four of a kind)", times(2**lux))] if lux else []
        )
        out.append(_classic_cand(name, mode, extra, 2**lux))
    # 十三烂 / 九幺: no pair to 吊, so a 宝 in them is 有宝.
    mode = "无宝" if no_bao else "有宝"
    if not hand.melds:
        s = shisanlan(counts, w)
        if s:
            out.append(_classic_cand(s, mode, [], 1))
    jiuyao_ways = jiuyao(_with_melds(hand, counts), counts, w) if real_yao else []
    for jy in jiuyao_ways:
        name = "七星九幺" if jy.qixing else "九幺"
        extra = []
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
    hand, bao = ctx.hand, the_bao(ctx.wildcards)
    assert bao is not None
    touji = "touji" in ctx.flags
    head: bool | None = None
    out = Best(_x)
    counts, w = split_wilds(hand, bao)
    wild_kinds = _xingchen_wild_kinds(bao)
    for mask, pairs, lux in _readings_flags(hand, bao, wild_kinds, counts, w):
        in_use = bool(mask & IN_USE)
        if pairs:
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
        pph = not mask & SEQ_SET
        diao = bool(mask & DIAO)
        bao_diao_bao = diao and hand.winning == bao
        # 宝吊无宝: the drawn tile lets every 宝 end as its own face, in a pair or a triplet
        # (RULES §7; [001] (9)). A drawn 宝 that completes a face pair or triplet of 宝 is
        # both 宝吊宝 and 宝吊无宝: by 计大不计小 the larger row pays (vector fid3-A-00)
        face_only = not in_use and not mask & FACE_IN_SEQ
        if touji and (bao_diao_bao or face_only):
            if head is None:
                head = _baodiao_head_before(hand, bao)
            if head and face_only:
                out.append(
                    (
                        "碰碰胡宝吊无宝" if pph else "宝吊无宝",
                        "宝 pair-wait ended with 宝 as itself (偷机)",
                        16 if pph else 6,
                    )
                )
            if head and bao_diao_bao:  # no 碰碰胡 row of its own: the rows below may pay more
                out.append(("宝吊宝", "宝 pair-wait won on another 宝 (偷机)", 6))
        if diao:
            out.append(("碰碰胡宝吊头" if pph else "宝吊头", "宝 pair-wait", 8 if pph else 3))
        # 清 rows whenever every 宝 can be read as itself, 宝吊 or not (计大不计小, RULES §7)
        if not in_use:
            out.append(
                (
                    "清碰碰胡" if pph else "平胡自摸",
                    "All pongs, no wildcard" if pph else "Basic win, no wildcard",
                    10 if pph else 2,
                )
            )
        elif pph:
            out.append(("碰碰胡", "All pongs (宝 in use)", 4))
        elif not diao:
            out.append(
                (
                    "平胡有宝",
                    "Basic win with 宝 in use",
                    2,
                    0,
                    False,
                    not_legal("youbao", name=item_name("平胡")),
                )
            )
    natural_counts = list(counts)
    natural_counts[bao] = w  # every 宝 as its own face
    if not hand.melds:
        natural = shisanlan(natural_counts, 0)
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
    # 九幺 needs every real tile (melds included) a 1, a 9 or an honour
    real_yao = all(k in YAO for k in hand.all_tiles() if k != bao) and all(
        k in YAO for m in hand.melds for k in m.tiles
    )
    nat: list[JiuYao] = []
    if real_yao and (w == 0 or bao in YAO):
        nat = jiuyao(_with_melds(hand, natural_counts), natural_counts, 0)
    wild_jy = jiuyao(_with_melds(hand, counts), counts, w) if w and real_yao else []
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
