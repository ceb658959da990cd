"""A slow, obviously-correct reference scorer for Shangrao (RULES §2.1, §3, §7).

Written from the rules text only, independently of ``engine.scoring``: it uses the engine for
parsing and tile helpers alone. Every *reading* of the hand is enumerated explicitly:

* each 宝 in the concealed hand stands either as itself (its face kind, a plain tile) or as a
  wildcard for any other kind (a wildcard read as the 宝's own kind is the same tiles as the
  face reading, only worse for xingchen's 清 rows, so it is left out);
* every standard decomposition (4 sets + pair, exposed melds as they are), found by
  backtracking: the lowest remaining plain tile goes into every pair, triplet or sequence it
  can, each other member a plain tile or a wildcard; wildcards left at the end form one group of
  any kind;
* every 七对 split (a kind read four times is two pairs: 豪华);
* 十三烂 / 七星十三烂 and 九幺 / 七星九幺 / 长九幺 with every wildcard assignment.

Each reading is scored straight from the tables (§3.5 classic, §3.6 xingchen), taking every row
it satisfies; the best reading is kept (legal first, then points). :func:`reference_score`
returns ``(legal, points)``.

Two points RULES leaves open are decided here (and flagged to the lead):

* a 七对 split never reads one kind six times (4 real + 2 宝): only "four identical = two
  pairs" is defined (``SEVEN_PAIRS_MAX_SAME``);
* xingchen: a drawn 宝 after 偷机 that completes a face pair or triplet of 宝 is both 宝吊宝
  and 宝吊无宝, and the larger row applies — 碰碰胡宝吊无宝 16 in an all-pongs hand (RULES §7,
  settled by vectors ``fid3-A-00/01``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations_with_replacement

from engine.notation import MeldKind
from engine.scoring.types import WinContext
from engine.tiles import successor

N = 34
HONOR_KINDS = tuple(range(27, 34))
YAOJIU = (0, 8, 9, 17, 18, 26, *HONOR_KINDS)
SEQ_STARTS = tuple(s * 9 + r for s in range(3) for r in range(7))
#: 七对 counts a kind read four times as two pairs (豪华); RULES says nothing of a kind read six
#: times (4 real + 2 宝), so such a split is not a 七对 here.
SEVEN_PAIRS_MAX_SAME = 4


def is_yaojiu(k: int) -> bool:
    return k in YAOJIU


def predecessor(k: int) -> int:
    return next(x for x in range(N) if successor(x) == k)


# ---------------------------------------------------------------------------------------------
# Readings


@dataclass(frozen=True)
class Group:
    """One concealed group of a reading: its read kinds and how many 宝 it holds."""

    kind: str  # "pair" | "trip" | "seq"
    tiles: tuple[int, ...]  # the kinds the tiles are read as
    wild: int = 0  # 宝 read as a wildcard
    face_bao: int = 0  # 宝 read as themselves
    bao_pair: bool = False  # the 宝吊 pair: the winning tile + a 宝


@dataclass(frozen=True)
class Reading:
    shape: str  # "standard" | "pairs" | "thirteen" | "orphans"
    read: tuple[int, ...]  # read kind of every tile, melds included
    wild: int  # 宝 read as wildcards
    groups: tuple[Group, ...] = ()
    concealed_read: tuple[int, ...] = ()


def _wild_kinds(bao: int) -> list[int]:
    return [k for k in range(N) if k != bao]


def _standard(
    c: list[int], w: int, bao: int, win: int, pair_done: bool, groups: list[Group]
) -> Iterator[list[Group]]:
    """Every split of the plain tiles ``c`` plus ``w`` wildcards into sets (+ one pair)."""
    k = next((x for x in range(N) if c[x]), None)
    if k is None:
        if w == 0 and pair_done:
            yield list(groups)
        elif w == 2 and not pair_done:
            for x in _wild_kinds(bao):
                yield [*groups, Group("pair", (x, x), wild=2, bao_pair=win == bao)]
        elif w == 3 and pair_done:
            for x in _wild_kinds(bao):
                yield [*groups, Group("trip", (x, x, x), wild=3)]
            for s in SEQ_STARTS:
                if bao not in (s, s + 1, s + 2):
                    yield [*groups, Group("seq", (s, s + 1, s + 2), wild=3)]
        return
    face = k == bao
    # the pair holding k
    if not pair_done:
        if c[k] >= 2:
            c[k] -= 2
            g = Group("pair", (k, k), face_bao=2 if face else 0, bao_pair=face and win == bao)
            groups.append(g)
            yield from _standard(c, w, bao, win, True, groups)
            groups.pop()
            c[k] += 2
        if w >= 1 and not face:
            c[k] -= 1
            groups.append(Group("pair", (k, k), wild=1, bao_pair=k == win))
            yield from _standard(c, w - 1, bao, win, True, groups)
            groups.pop()
            c[k] += 1
    # the triplet holding k: r plain tiles, 3 - r wildcards
    for r in (3, 2, 1):
        if r <= c[k] and 3 - r <= w and (r == 3 or not face):
            c[k] -= r
            groups.append(Group("trip", (k, k, k), wild=3 - r, face_bao=r if face else 0))
            yield from _standard(c, w - (3 - r), bao, win, pair_done, groups)
            groups.pop()
            c[k] += r
    # the sequences holding k (k is the lowest plain tile: lower members are wildcards)
    if k < 27:
        for start in (k - 2, k - 1, k):
            if start // 9 != k // 9 or start < 0 or start % 9 > 6:
                continue
            others = [x for x in (start, start + 1, start + 2) if x != k]
            choices = []
            for x in others:
                opts = []
                if x > k and c[x] > 0:
                    opts.append(True)  # a plain tile
                if x != bao:
                    opts.append(False)  # a wildcard
                choices.append(opts)
            for use in ((u0, u1) for u0 in choices[0] for u1 in choices[1]):
                cost = use.count(False)
                if cost > w:
                    continue
                c[k] -= 1
                for u, x in zip(use, others, strict=True):
                    c[x] -= u
                faces = int(face) + sum(u and x == bao for u, x in zip(use, others, strict=True))
                groups.append(
                    Group("seq", (start, start + 1, start + 2), wild=cost, face_bao=faces)
                )
                yield from _standard(c, w - cost, bao, win, pair_done, groups)
                groups.pop()
                c[k] += 1
                for u, x in zip(use, others, strict=True):
                    c[x] += u


def _pairs(c: list[int], w: int, bao: int, win: int, groups: list[Group]) -> Iterator[list[Group]]:
    """Every split of ``c`` plus ``w`` wildcards into pairs."""
    k = next((x for x in range(N) if c[x]), None)
    if k is None:
        if w % 2:
            return
        for kinds in combinations_with_replacement(_wild_kinds(bao), w // 2):
            split = [*groups, *(Group("pair", (x, x), wild=2, bao_pair=win == bao) for x in kinds)]
            read = Counter(x for g in split for x in g.tiles)
            if max(read.values()) <= SEVEN_PAIRS_MAX_SAME:
                yield split
        return
    face = k == bao
    if c[k] >= 2:
        c[k] -= 2
        groups.append(
            Group("pair", (k, k), face_bao=2 if face else 0, bao_pair=face and win == bao)
        )
        yield from _pairs(c, w, bao, win, groups)
        groups.pop()
        c[k] += 2
    if w >= 1 and not face:
        c[k] -= 1
        groups.append(Group("pair", (k, k), wild=1, bao_pair=k == win))
        yield from _pairs(c, w - 1, bao, win, groups)
        groups.pop()
        c[k] += 1


def _thirteen_ok(kinds: list[int]) -> bool:
    """All different; within a suit any two differ by 3 or more."""
    if len(set(kinds)) != len(kinds):
        return False
    for a in kinds:
        for b in kinds:
            if a < b < 27 and a // 9 == b // 9 and b - a < 3:
                return False
    return True


def _thirteen_fill(chosen: list[int], w: int, lo: int, bao: int) -> Iterator[list[int]]:
    if w == 0:
        yield list(chosen)
        return
    for x in range(lo, N):
        if x == bao or x in chosen:
            continue
        chosen.append(x)
        if _thirteen_ok(chosen):
            yield from _thirteen_fill(chosen, w - 1, x + 1, bao)
        chosen.pop()


def the_bao(ctx: WinContext) -> int:
    """The hand's one 宝 kind (上饶 has exactly one wildcard kind)."""
    (bao,) = ctx.wildcards
    return bao


def readings(ctx: WinContext) -> Iterator[Reading]:
    """Every reading of the hand as a winning shape."""
    bao = the_bao(ctx)
    win = ctx.hand.winning
    assert win is not None
    plain = [k for k in ctx.hand.concealed if k != bao]
    b = len(ctx.hand.concealed) - len(plain)
    meld_tiles = [k for m in ctx.hand.melds for k in m.tiles]
    melds_are_sets = [
        Group("seq" if m.kind is MeldKind.CHI else "trip", m.tiles) for m in ctx.hand.melds
    ]
    for f in range(b + 1):  # f 宝 read as themselves, the rest as wildcards
        w = b - f
        base = [0] * N
        for k in plain:
            base[k] += 1
        base[bao] += f

        # standard shape: 4 sets + pair with the melds as they are
        for groups in _standard(list(base), w, bao, win, False, []):
            conc = tuple(x for g in groups for x in g.tiles)
            yield Reading(
                "standard",
                conc + tuple(meld_tiles),
                w,
                tuple(groups) + tuple(melds_are_sets),
                conc,
            )

        if not ctx.hand.melds:
            # 七对
            for groups in _pairs(list(base), w, bao, win, []):
                conc = tuple(x for g in groups for x in g.tiles)
                yield Reading("pairs", conc, w, tuple(groups), conc)
            # 十三烂
            fixed = [*plain, *([bao] * f)]
            if _thirteen_ok(fixed):
                for extra in _thirteen_fill(list(fixed), w, 0, bao):
                    t = tuple(sorted(extra))
                    yield Reading("thirteen", t, w, (), t)

        # 九幺: every tile a 1, a 9 or an honour, any shape
        fixed = [*plain, *([bao] * f)]
        if all(is_yaojiu(k) for k in fixed + meld_tiles):
            for extra in combinations_with_replacement([k for k in YAOJIU if k != bao], w):
                conc = tuple(sorted(fixed + list(extra)))
                yield Reading("orphans", conc + tuple(meld_tiles), w, (), conc)


# ---------------------------------------------------------------------------------------------
# Tables


def _one_suit(read: tuple[int, ...], *, honours_count: bool) -> bool:
    suits = {k // 9 if k < 27 else 3 for k in read}
    return len(suits) == 1 and (honours_count or 3 not in suits)


def _seven_stars(read: tuple[int, ...]) -> bool:
    return all(h in read for h in HONOR_KINDS)


def _luxury(conc: tuple[int, ...]) -> int:
    return sum(n // 4 for n in Counter(conc).values())


Row = tuple[bool, int]  # (legal, points)


def classic_rows(r: Reading, ctx: WinContext, b: int) -> list[Row]:
    """RULES §3.5: the rows this reading satisfies, with the shape's own doublings."""
    bd = any(g.bao_pair for g in r.groups)
    col = 0 if bd else (1 if b == 0 else 2)  # 宝吊 / 无宝 / 有宝
    qing = _one_suit(r.read, honours_count=True)
    yj = all(is_yaojiu(k) for k in r.read)
    rows: list[Row] = []
    if r.shape == "standard":
        rows.append((col != 2, (4, 4, 2)[col]))  # 平胡; 有宝 is not a legal win
        if _one_suit(r.read, honours_count=False):
            rows.append((True, (16, 16, 8)[col]))  # 清一色平胡
        if all(g.kind != "seq" for g in r.groups):
            table = {
                (False, False): (12, 16, 8),
                (True, False): (24, 32, 8),
                (False, True): (24, 32, 8),
                (True, True): (48, 64, 16),
            }
            rows.append((True, table[qing, yj][col]))  # 碰碰胡 (清一色 / 九幺)
    elif r.shape == "pairs":
        table = {
            (False, False): (12, 16, 8),
            (True, False): (24, 32, 8),
            (False, True): (24, 32, 8),
            (True, True): (48, 64, 16),
        }
        rows.append((True, table[qing, yj][col] * 2 ** _luxury(r.concealed_read)))
    elif r.shape == "thirteen":
        if _seven_stars(r.read):
            rows.append((True, 8 if b == 0 else 4))
        else:
            rows.append((b == 0, 4 if b == 0 else 2))
    elif r.shape == "orphans":
        if _seven_stars(r.read):
            legal, pts = True, (8 if b == 0 else 4)
        else:
            legal, pts = b == 0, (4 if b == 0 else 2)
        if not ctx.hand.melds:  # 长九幺: no pong / kong declared
            pts *= 2
            if _luxury(r.concealed_read):  # 豪华长九幺
                pts *= 2
        rows.append((legal, pts))
    return rows


def xingchen_rows(r: Reading, ctx: WinContext, b: int) -> list[Row]:
    """RULES §3.6: the rows this reading satisfies."""
    wild = r.wild > 0
    win = ctx.hand.winning
    touji = "touji" in ctx.flags
    rows: list[Row] = []
    if r.shape == "standard":
        all_trip = all(g.kind != "seq" for g in r.groups)
        bd = any(g.bao_pair for g in r.groups)
        if not wild:
            rows.append((True, 10 if all_trip else 2))  # 清碰碰胡 / 平胡自摸
        elif not bd:
            rows.append((True, 4) if all_trip else (False, 2))  # 碰碰胡 / 平胡 with a wildcard
        if bd:
            rows.append((True, 8 if all_trip else 3))  # (碰碰胡)宝吊头
            if touji and win == the_bao(ctx):
                rows.append((True, 6))  # 宝吊宝 (碰碰胡宝吊宝: no row, the largest above)
        if (
            touji
            and not wild
            and b >= 2
            and not any(g.kind == "seq" and g.face_bao for g in r.groups)
        ):
            rows.append((True, 16 if all_trip else 6))  # (碰碰胡)宝吊无宝
    elif r.shape == "pairs":
        rows.append((True, (4 if wild else 10) * 2 ** _luxury(r.concealed_read)))
    elif r.shape in ("thirteen", "orphans"):
        base = 4 if _seven_stars(r.read) else 2
        rows.append((True, base if wild else base * 2))
    return rows


def refused(ctx: WinContext) -> bool:
    """RULES §7: hands no table can produce."""
    bao = the_bao(ctx)
    b = ctx.hand.concealed.count(bao)
    if any(bao in m.tiles for m in ctx.hand.melds if m.kind is not MeldKind.CHI):
        return True
    indicator = predecessor(bao)
    if ctx.hand.all_tiles().count(indicator) > 3:
        return True
    kongs = sum(1 for m in ctx.hand.melds if len(m.tiles) == 4)
    if ctx.kong_draws > kongs:
        return True
    return bool(ctx.flags & {"jiebao", "four_bao"}) and b + ctx.flown > 4


def reference_score(ctx: WinContext) -> tuple[bool, int]:
    """(legal, points) of a Shangrao hand by brute force over every reading."""
    assert ctx.variant == "shangrao"
    opts = ctx.options
    classic = opts.scoring == "classic"
    if refused(ctx):
        return False, 0
    flags = ctx.flags
    if ctx.win == "discard" and not (opts.discard_win or flags & {"earth", "jiebao"}):
        return False, 0
    b = ctx.hand.concealed.count(the_bao(ctx))

    # the hand's own doublings: 杠上开花 / 杠开, 抢杠
    if classic:
        own_mult = 2 if ctx.kong_draws >= 1 else 1
    else:
        own_mult = 2**ctx.kong_draws * (6 if ctx.win == "rob_kong" else 1)

    best_legal = best_any = None
    for r in readings(ctx):
        rows = classic_rows(r, ctx, b) if classic else xingchen_rows(r, ctx, b)
        for legal, pts in rows:
            pts *= own_mult
            best_any = pts if best_any is None else max(best_any, pts)
            if legal:
                best_legal = pts if best_legal is None else max(best_legal, pts)

    fly = 2**ctx.flown
    floor = 0
    if best_any is not None and flags & {"heaven", "earth"}:
        floor = 16 if classic else 10
    if flags & {"jiebao", "four_bao"}:
        floor = max(floor, opts.jiebao())
    if floor:
        return True, max(floor, best_any or 0) * fly
    if ctx.flown >= 1 and best_any is not None:  # 飞宝 makes any complete hand legal
        return True, best_any * fly
    if best_legal is None:
        return False, 0
    return True, best_legal * fly
