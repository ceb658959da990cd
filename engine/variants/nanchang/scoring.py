"""南昌麻将 hand points (RULES §8.3–§8.4, readings §8.8): the hand value H, product of its items.

A hand is read two ways: with every concealed 精 free to stand for any tile (or itself), and
with every 精 as itself (德国, 无精). Each shape the hand makes either way is a candidate:
平胡 ×1, 小七对 ×2, 大七对 ×``big_pairs``, 十三烂 ×2, 七星十三烂 ×4 (all 7 honours as real tiles;
a 精 never stands for a missing one), times 德国 ×2 (德中德 ×4, flag ``no_jing_elsewhere``)
when that shape is made with every 精 as itself. 精钓 (×2) belongs to the wait, not to a
reading: without its winning tile the hand is complete but for one single 精 (sets, or six
pairs), so it multiplies whichever reading is kept. 杠开 ×2 on a self-draw after a kong.

Of the candidates the one that pays most is kept (计大不计小): the largest ``2 × H + bonus``
(what a non-dealer pays for a self-draw, and a non-dealer discarder for a discard win), then
the largest H. 德国 and 德中德 carry the flat +5 (:attr:`ScoreResult.bonus`). 天胡 / 地胡 are a
flat 20 (40 with 精钓) from each of the three, nothing else (:attr:`ScoreResult.flat`).

A 精 taken from a discard or a robbed kong (the winning tile included), or in a claimed meld,
is only its face value. A 精钓 hand may not win on a discard (地胡 aside) unless the discard
completes a 德国 reading, and 精钓 then does not count (``jingdiao_discard = forbid``); with
``no_bonus`` it may, without the 精钓 ×2.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from engine.agari import is_sets, is_standard
from engine.honour_sequences import honour_table
from engine.notation import MeldKind
from engine.scoring.common import NOT_COMPLETE, not_legal, result, times
from engine.scoring.types import ScoreItem, ScoreResult, WinContext, illegal
from engine.special import shisanlan
from engine.tiles import HONORS
from engine.variants.catalogue import NAMES
from engine.variants.nanchang.options import NanchangOptions
from engine.variants.nanchang.rules import honour_sequences

PINGHU, XIAO_QIDUI, DA_QIDUI = "平胡", "小七对", "大七对"
SHISANLAN, QIXING = "十三烂", "七星十三烂"
JINGDIAO, DEGUO, DEZHONGDE, GANGKAI = "精钓", "德国", "德中德", "杠开"
HEAVEN, EARTH = "天胡", "地胡"

#: The flat bonus of 德国 / 德中德 each payer adds (§8.4), never multiplied.
DEGUO_BONUS = 5
#: 天胡 / 地胡: flat from each of the three; doubled by 精钓.
HEAVEN_POINTS = 20


def shape_factor(shape: str, options: NanchangOptions) -> int:
    """The × of a shape (§8.4)."""
    if shape == DA_QIDUI:
        return options.big_pairs
    return {PINGHU: 1, XIAO_QIDUI: 2, SHISANLAN: 2, QIXING: 4}[shape]


def _all_triplets(counts: Sequence[int], wilds: int) -> bool:
    """大七对 (碰碰胡): the concealed tiles plus ``wilds`` are triplets and one pair."""
    need = 0
    pair = 2  # a pair of two wildcards
    for c in counts:
        if c:
            t = -c % 3
            need += t
            d = (2 - c) % 3 - t
            if d < pair:
                pair = d
    return need + pair <= wilds


def _pairs(counts: Sequence[int], wilds: int, n: int = 14) -> bool:
    """小七对 of ``n`` tiles (four equal tiles are two pairs; each odd count takes a 精)."""
    return sum(counts) + wilds == n and sum(c & 1 for c in counts) <= wilds


def _thirteen(counts: Sequence[int], wilds: int, jing: Sequence[int]) -> str:
    """十三烂 / 七星十三烂 of 14 concealed tiles (``counts`` real, ``wilds`` 精 free, ``jing`` the
    kind of each free 精), or ``""``. A 精 may also be read as itself, once per kind (a real
    tile for 七星)."""
    found = ""
    choices: list[list[int]] = [[]]
    for j in sorted(set(jing)):
        if not counts[j]:
            choices += [[*c, j] for c in choices]
    for as_self in choices:
        real = list(counts)
        for j in as_self:
            real[j] += 1
        got = shisanlan(real, wilds - len(as_self))
        if got is None:
            continue
        if all(real[k] for k in HONORS):
            return QIXING
        found = SHISANLAN
    return found


def shapes(
    counts: Sequence[int],
    wilds: int,
    melds: Sequence[MeldKind],
    options: NanchangOptions,
    jing: Sequence[int] = (),
) -> frozenset[str]:
    """The shapes (§8.3) ``counts`` (the real concealed tiles, winning tile included) make with
    ``wilds`` 精 free to stand for anything, beside the ``melds`` on the table; ``jing``: the
    kind of each free 精 (one may be read as itself in 十三烂)."""
    out = set()
    honours = honour_table(honour_sequences(options))
    if is_standard(counts, wilds, honours):
        out.add(PINGHU)
        if MeldKind.CHI not in melds and _all_triplets(counts, wilds):
            out.add(DA_QIDUI)
    if not melds and sum(counts) + wilds == 14:
        if _pairs(counts, wilds):
            out.add(XIAO_QIDUI)
        if max(counts) <= 1:
            kind = _thirteen(counts, wilds, jing)
            if kind:
                out.add(kind)
    return frozenset(out)


def jingdiao(
    counts: Sequence[int], jing: frozenset[int], winning: int, melds: int, options: NanchangOptions
) -> bool:
    """精钓 (§8.3, §8.8): without the winning tile, the concealed tiles (``counts``, every tile
    as itself, the winning tile included) are complete but for one single 精 — sets only, or
    (no melds) six pairs — the hand's other 精 free to stand for anything."""
    base = list(counts)
    base[winning] -= 1
    free = 0
    for j in jing:
        free += base[j]
        base[j] = 0
    if free < 1:
        return False
    rest = free - 1
    honours = honour_table(honour_sequences(options))
    if is_sets(base, rest, honours):
        return True
    return not melds and _pairs(base, rest, 12)


def score_nanchang(ctx: WinContext) -> ScoreResult:
    """Score a 南昌 win: H (天胡 / 地胡 a flat 20 or 40), the items behind it, the +5 bonus."""
    opts = cast(NanchangOptions, ctx.options)  # score() checked they are nanchang options
    jing = ctx.wildcards
    if len(jing) != 2:
        raise ValueError("a nanchang hand needs its two 精 kinds (正精 and 副精)")
    hand = ctx.hand
    winning = hand.winning
    assert winning is not None  # score() checked it
    flags = ctx.flags
    taken = ctx.win != "self"  # the winning tile came from another seat: its face value only
    if ctx.win == "discard" and winning in jing and opts.win_on_discarded_jing == "no":
        return illegal(not_legal("discarded_jing"))
    counts = hand.counts()
    real = list(counts)
    for j in jing:
        real[j] = 0
    if taken and winning in jing:
        real[winning] = 1
    free_kinds = [j for j in sorted(jing) for _ in range(counts[j] - real[j])]
    free = len(free_kinds)
    meld_kinds = tuple(m.kind for m in hand.melds)
    wild = shapes(real, free, meld_kinds, opts, free_kinds)
    if not wild:
        return result(False, 0, (), NOT_COMPLETE)
    natural = shapes(counts, 0, meld_kinds, opts) if free else wild
    diao = jingdiao(counts, jing, winning, len(hand.melds), opts)
    heaven, earth = "heaven" in flags, "earth" in flags
    if heaven or earth:
        name = HEAVEN if heaven else EARTH
        items = [_item(name, f"{HEAVEN_POINTS}分")]
        points = HEAVEN_POINTS
        if diao:
            items.append(_item(JINGDIAO, times(2)))
            points *= 2
        return ScoreResult(True, points, tuple(items), flat=True)
    diao_counts = diao
    allowed = wild
    if diao and ctx.win == "discard":
        diao_counts = False
        if opts.jingdiao_discard == "forbid":
            allowed = natural
            if not allowed:
                return illegal(not_legal("jingdiao_discard"))
    gangkai = ctx.kong_draws >= 1 and ctx.win == "self"
    both = (2 if diao_counts else 1) * (2 if gangkai else 1)  # ×2 each, whatever the reading
    deguo = 4 if "no_jing_elsewhere" in flags else 2
    best: tuple[int, int, str, bool] | None = None
    for shape in sorted(allowed):
        is_deguo = shape in natural
        h = shape_factor(shape, opts) * (deguo if is_deguo else 1) * both
        bonus = DEGUO_BONUS if is_deguo else 0
        key = (2 * h + bonus, h, shape, is_deguo)
        if best is None or key[:2] > best[:2]:
            best = key
    assert best is not None
    _, h, shape, is_deguo = best
    items = [_item(shape, times(shape_factor(shape, opts)))]
    if diao_counts:
        items.append(_item(JINGDIAO, times(2)))
    if is_deguo:
        name = DEZHONGDE if deguo == 4 else DEGUO
        items.append(_item(name, f"{times(deguo)} +{DEGUO_BONUS}"))
    if gangkai:
        items.append(_item(GANGKAI, times(2)))
    return ScoreResult(True, h, tuple(items), bonus=DEGUO_BONUS if is_deguo else 0)


def _item(name: str, value: str) -> ScoreItem:
    """A scored line named by the catalogue (its English too)."""
    return ScoreItem(name, NAMES[name].en, value)
