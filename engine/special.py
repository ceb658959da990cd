"""Special winning shapes (特殊牌型): 十三烂 / 七星十三烂, 九幺 / 七星九幺 / 长九幺, 全风向,
七仙女, 一条龙, 红旗飘飘 — with wildcards (宝) where RULES allows them.

Counts are 34-count vectors; ``wilds`` wildcards are passed apart and may stand for any kind.

>>> from engine.tiles import counts_of
>>> from engine.notation import parse_hand
>>> shisanlan(parse_hand("147m369p258s12346z +6z").counts())
'十三烂'
>>> shisanlan(parse_hand("147m39p28s1234567z +7z").counts())
'七星十三烂'
>>> qixiannu(parse_hand("11223344556677s +7s").counts())
True
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from engine.decompose import SEQ, Reading
from engine.tiles import HONORS, RED, WHITE, is_terminal_or_honor

SHISANLAN, QIXING_SHISANLAN = "十三烂", "七星十三烂"


@cache
def _room(mask: int) -> int:
    """十三烂 in one suit: the most ranks that can be added to ``mask`` (bit r = rank r+1)
    keeping every two ranks 3 or more apart; -1 when ``mask`` itself breaks the rule."""
    ranks = [r for r in range(9) if mask >> r & 1]
    if any(b - a < 3 for a, b in itertools.pairwise(ranks)):
        return -1
    best = 0
    for r in range(9):
        if not mask >> r & 1 and all(abs(r - x) >= 3 for x in ranks):
            best = max(best, 1 + _room(mask | 1 << r))
    return best


def shisanlan(counts: Sequence[int], wilds: int = 0) -> str | None:
    """十三烂 (十三浪): 14 concealed tiles all different; within a suit any two ranks differ by
    3 or more; honours all different. ``'七星十三烂'`` when all 7 honours can be present
    (wildcards fill missing ones), ``'十三烂'``, or ``None``. The caller makes sure the hand
    has no melds."""
    if sum(counts) + wilds != 14 or any(n > 1 for n in counts):
        return None
    room = 0
    for s in range(3):
        mask = sum(1 << r for r in range(9) if counts[9 * s + r])
        extra = _room(mask)
        if extra < 0:
            return None
        room += extra
    missing_honours = sum(1 for k in HONORS if not counts[k])
    if wilds > room + missing_honours:
        return None
    if missing_honours <= wilds and wilds - missing_honours <= room:
        return QIXING_SHISANLAN
    return SHISANLAN


@dataclass(frozen=True)
class JiuYao:
    """A way to read a hand as 九幺: ``qixing`` (all 7 honours), ``luxury`` (a four of a kind
    among the concealed tiles, 豪华长九幺)."""

    qixing: bool
    luxury: bool


def jiuyao(all_counts: Sequence[int], concealed: Sequence[int], wilds: int = 0) -> list[JiuYao]:
    """九幺 (幺九): every tile, melds included, a 1, a 9 or an honour; no shape needed.

    ``all_counts`` counts every real tile (melds included), ``concealed`` the real concealed
    tiles; wildcards may stand for any terminal or honour. Returns the ways it can be read
    (七星 needs every honour present; 豪华 a concealed four of a kind, which may be completed
    by wildcards); an empty list when the hand is not 九幺.
    """
    if any(n and not is_terminal_or_honor(k) for k, n in enumerate(all_counts)):
        return []
    missing = [k for k in HONORS if not all_counts[k]]
    out: list[JiuYao] = []
    lux_plain = any(is_terminal_or_honor(k) and 4 - concealed[k] <= wilds for k in range(34))
    out.append(JiuYao(False, lux_plain))
    if len(missing) <= wilds:
        left = wilds - len(missing)
        lux = any(
            is_terminal_or_honor(k) and max(0, 4 - concealed[k] - (k in missing)) <= left
            for k in range(34)
        )
        out.append(JiuYao(True, lux))
    return out


def all_honours(counts: Sequence[int], wilds: int = 0) -> bool:
    """全风向 / 字一色: every real tile is an honour (wildcards can stand for honours)."""
    return sum(counts) + wilds > 0 and not any(counts[:27])


def qixiannu(counts: Sequence[int]) -> bool:
    """七仙女 (九江): seven pairs running 1–7, 2–8 or 3–9 in one suit, nothing else."""
    if sum(counts) != 14:
        return False
    for s in range(3):
        for start in range(3):
            lo = 9 * s + start
            if all(counts[k] == 2 for k in range(lo, lo + 7)):
                return True
    return False


def yitiaolong(reading: Reading) -> bool:
    """一条龙: the sequences 123, 456 and 789 of one suit among a standard reading's sets."""
    if reading.form != "standard":
        return False
    starts = {g.kinds[0] for g in reading.sets if g.shape == SEQ}
    return any({9 * s, 9 * s + 3, 9 * s + 6} <= starts for s in range(3))


def hongqi(reading: Reading) -> bool:
    """红旗飘飘 (九江): triplets or kongs of both 中 and 白, exposed or concealed."""
    if reading.form != "standard":
        return False
    trip = {g.kinds[0] for g in reading.sets if g.is_triplet_like}
    return RED in trip and WHITE in trip
