"""What a hand is worth (牌值): the expected value of a concealed hand, by route.

A hand can go for several winning routes; for each this module counts its 向听 (shanten) on
that route and its 进张 (the unseen tiles that bring it a step closer), turns them into a
chance of completing the route before the wall runs out, and weighs that by what the route
pays (the variant's :class:`~engine.variants.base.AiTuning`, as multiples of a plain win):

- 平胡 (standard shape), × ``concealed_value`` while the hand has no open meld (门清);
- 七对 (seven pairs), only with no meld at all;
- 碰碰胡 (all triplets), while no meld is a sequence;
- 清一色 (one suit) and 混一色 (one suit with honours), for the suit the hand holds most of,
  while every meld is of that suit (or an honour).

A 宝 / 精 (wildcard) is a wildcard on every route and is never counted as a tile to throw;
drawing one counts as 进张 for every route.

The chance of completing a route ``s`` steps from ready in ``T`` draws (:func:`reach_chance`):
the first step succeeds on a draw with chance ``u / U`` (``u`` its 进张 of ``U`` unseen
tiles), each later step at the route's typical rate (:data:`TYPICAL_UKEIRE`), as a hand's
进张 shrinks on its way to ready.
Value of the hand: the best route's chance × value, plus a fifth of the others' (a hand that
keeps two routes open is worth more than one that keeps only the best), plus, where a kong
pays on its own (新余 杠钱), the expected kong money of its held fours, concealed triplets and
exposed pongs (:func:`_kong_money`).

Everything is read from what the seat may see: its own tiles and melds, and the count of
tiles it cannot see (:func:`unseen_of`). Pure and fast: one discard decision weighs every
discard's routes in about a millisecond or two.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.game.state import GameState, MeldRec
from engine.shanten import HonourRuns, shanten_chiitoi, shanten_standard, shanten_within
from engine.variants.base import AiTuning

#: Weight of the routes other than the best in a hand's value.
OTHER_ROUTES = 0.2
#: A suit route (清一色 / 混一色) is weighed only when the suit holds at least this many of
#: the hand's tiles (melds included): below it the route is too far to matter.
FLUSH_MIN = 7
#: Weight of the expected 杠钱 in a hand's value (:func:`_kong_money`).
KONG_MONEY_WEIGHT = 1.0
#: Melds that leave the hand concealed (门清): a concealed kong, 上饶's indicator kong.
CONCEALED_MELDS = frozenset({"concealed_kong", "indicator_kong"})


@dataclass(frozen=True)
class Outlook:
    """What the seat knows that values a hand: the unseen copies of each kind, how many
    draws it has left, the wildcard kinds, its open melds (kind, tile kinds) and the
    variant's route values."""

    unseen: tuple[int, ...]
    draws: int
    wild: frozenset[int]
    melds: tuple[tuple[str, tuple[int, ...]], ...]
    tuning: AiTuning
    #: How much more often the last step comes, counting wins on others' discards (1: a
    #: self-draw only game); ``plain_boost`` the same for an open plain (平胡) hand, which
    #: some variants let win on a discard only with an extra (九江 二炮起胡).
    last_boost: float = 1.0
    plain_boost: float = 1.0
    #: Honour triples that are sequences too (南昌 中发白, three winds).
    runs: HonourRuns = ()

    @property
    def unseen_total(self) -> int:
        return max(1, sum(self.unseen))


def unseen_of(state: GameState, seat: int) -> list[int]:
    """Copies of each kind ``seat`` cannot see (not in its hand, a river, a meld, the 发 laid
    open or the indicator)."""
    h = state.hand
    seen = [0] * 34
    for t in h.seats[seat].hand:
        seen[t >> 2] += 1
    for s in h.seats:
        for t in s.river:
            seen[t >> 2] += 1
        for m in s.melds:
            for t in m.ids:
                seen[t >> 2] += 1
        for t in s.flowers:
            seen[t >> 2] += 1
    if h.indicator is not None:
        seen[h.indicator >> 2] += 1
    return [max(0, 4 - x) for x in seen]


def meld_kinds(melds: Sequence[MeldRec]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Each meld as (its kind, its tiles' kinds)."""
    return tuple((m.kind, tuple(sorted(t >> 2 for t in m.ids))) for m in melds)


#: Typical 进张 of a hand ``s`` 向听 away on each route (index ``s``, the last for farther):
#: the first step of a hand uses its own 进张, the steps after it these.
TYPICAL_UKEIRE = {
    "standard": (6, 18, 32, 44, 54),
    "pairs": (3, 9, 15, 21, 27),
    "pongs": (4, 8, 12, 16, 20),
    "flush": (6, 14, 22, 28, 34),
}


@lru_cache(maxsize=1 << 16)
def reach_chance(
    steps: int,
    ukeire: int,
    unseen: int,
    draws: int,
    route: str = "standard",
    last_boost: float = 1.0,
) -> float:
    """Chance that a hand ``steps`` 向听 away (-1: complete) completes in ``draws`` draws,
    when ``ukeire`` of ``unseen`` tiles improve it now and later steps improve at the route's
    typical rate (:data:`TYPICAL_UKEIRE`); the last step (ready → complete) ``last_boost``
    times as often (wins on others' discards)."""
    need = steps + 1
    if need <= 0:
        return 1.0
    if need > draws or ukeire <= 0:
        return 0.0
    typical = TYPICAL_UKEIRE[route]
    rates = [min(0.9, ukeire / unseen)]
    for j in range(1, need):
        rates.append(min(0.9, typical[min(steps - j, len(typical) - 1)] / unseen))
    rates[-1] = min(0.9, rates[-1] * last_boost)
    stage = [1.0] + [0.0] * need  # stage[j]: chance of having made j steps so far
    for _ in range(draws):
        for j in range(need - 1, -1, -1):
            moved = stage[j] * rates[j]
            stage[j] -= moved
            stage[j + 1] += moved
    return stage[need]


def _wild_draws(o: Outlook) -> int:
    return sum(o.unseen[k] for k in o.wild)


#: Standard-shape 向听 of hands weighed lately, (counts, wildcards) → 向听: the hands after
#: "discard a, draw b" come back for many a and b, and from one decision to the next.
_standard_cache: dict[tuple[bytes, int, HonourRuns], int] = {}
STANDARD_CACHE_SIZE = 1 << 16


def _sh_standard(plain: list[int], w: int, runs: HonourRuns = ()) -> int:
    key = (bytes(plain), w, runs)
    found = _standard_cache.get(key)
    if found is None:
        if len(_standard_cache) >= STANDARD_CACHE_SIZE:
            _standard_cache.clear()
        found = _standard_cache[key] = shanten_standard(plain, w, runs)
    return found


def _neighbours(plain: list[int], runs: HonourRuns = ()) -> list[int]:
    """Kinds a draw of which can lower the standard 向听 of a hand without wildcards: held
    kinds and, in the suits, those within two of a held tile, with honour sequences ``runs``
    the partners of a held honour (a tile with no such neighbour makes no pair or partial
    set; with a wildcard it could, so such hands try every kind)."""
    near = set()
    for k in range(34):
        if plain[k]:
            near.add(k)
            for run in runs:
                if k in run:
                    near.update(run)
            if k < 27:
                r = k % 9
                for d in (-2, -1, 1, 2):
                    if 0 <= r + d <= 8:
                        near.add(k + d)
    return sorted(near)


def _standard(plain: list[int], w: int, o: Outlook) -> tuple[int, int]:
    """平胡 route: (向听, 进张)."""
    base = _sh_standard(plain, w, o.runs)
    if base < 0:
        return base, 0
    uk = 0
    for x in _neighbours(plain, o.runs) if w == 0 else range(34):
        n = o.unseen[x]
        if not n or x in o.wild or plain[x] >= 4:
            continue
        plain[x] += 1
        if _sh_standard(plain, w, o.runs) < base:
            uk += n
        plain[x] -= 1
    if _wild_draws(o) and _sh_standard(plain, w + 1, o.runs) < base:
        uk += _wild_draws(o)
    return base, uk


def _pairs(plain: list[int], w: int, o: Outlook) -> tuple[int, int]:
    """七对 route: (向听, 进张): a copy of any odd-counted kind makes a pair."""
    base = shanten_chiitoi(plain, w)
    if base < 0:
        return base, 0
    uk = sum(o.unseen[k] for k in range(34) if plain[k] in (1, 3) and k not in o.wild)
    return base, uk + _wild_draws(o)


def _pongs(plain: list[int], w: int, o: Outlook) -> tuple[int, int]:
    """碰碰胡 route: (向听, 进张): the most-held kinds become triplets and a pair."""
    sets = (sum(plain) + w) // 3
    order = sorted(range(34), key=lambda k: -plain[k])
    best_missing = 99
    chosen: list[int] = []
    for pair_at in range(sets + 1):  # which of the top kinds is the pair
        top = order[: sets + 1]
        missing = 0
        for i, k in enumerate(top):
            missing += max(0, (2 if i == pair_at else 3) - plain[k])
        if missing < best_missing:
            best_missing, chosen = missing, top
    sh = best_missing - w - 1
    if sh < 0:
        return sh, 0
    uk = sum(o.unseen[k] for k in chosen if 0 < plain[k] < 3 and k not in o.wild)
    return sh, uk + _wild_draws(o)


def _within(plain: list[int], w: int, o: Outlook, suit: int, honours: bool) -> tuple[int, int]:
    """清一色 / 混一色 route: (向听, 进张) with only ``suit`` (and honours) kept."""
    suits = (suit,)
    base = shanten_within(plain, w, suits, honours)
    if base < 0:
        return base, 0
    kinds = [*range(9 * suit, 9 * suit + 9), *(range(27, 34) if honours else ())]
    uk = 0
    for x in kinds:
        n = o.unseen[x]
        if not n or x in o.wild or plain[x] >= 4:
            continue
        plain[x] += 1
        if shanten_within(plain, w, suits, honours) < base:
            uk += n
        plain[x] -= 1
    if _wild_draws(o) and shanten_within(plain, w + 1, suits, honours) < base:
        uk += _wild_draws(o)
    return base, uk


def _main_suit(plain: list[int], o: Outlook) -> tuple[int, int, int]:
    """The suit the hand holds most of: (suit, its tiles, the honour tiles), melds included;
    suit -1 when an open meld of another suit already rules every suit route out."""
    held = [sum(plain[9 * s : 9 * s + 9]) for s in range(3)]
    honours = sum(plain[27:])
    meld_suits = set()
    for _kind, kinds in o.melds:
        k = kinds[0]
        if k >= 27:
            honours += len(kinds)
        else:
            meld_suits.add(k // 9)
            held[k // 9] += len(kinds)
    suit = max(range(3), key=lambda s: held[s])
    if meld_suits - {suit}:
        return -1, 0, honours
    return suit, held[suit], honours


def hand_value(plain: list[int], w: int, o: Outlook) -> float:
    """Expected value of a 3n+1 concealed hand (``plain``: counts without the wildcards,
    ``w`` wildcards), in plain wins (see the module docstring). ``plain`` is restored."""
    t = o.tuning
    total = o.unseen_total
    open_melds = [kind for kind, _ in o.melds if kind not in CONCEALED_MELDS]
    concealed = not open_melds
    values: list[float] = []
    sh, uk = _standard(plain, w, o)
    boost = o.last_boost if concealed else o.plain_boost
    values.append(
        reach_chance(sh, uk, total, o.draws, "standard", boost)
        * (t.concealed_value if concealed else 1.0)
    )
    if not o.melds and sum(plain) + w == 13:
        sh, uk = _pairs(plain, w, o)
        values.append(reach_chance(sh, uk, total, o.draws, "pairs", o.last_boost) * t.pairs_value)
    if t.pongs_value > 1.0 and "chi" not in open_melds:
        sh, uk = _pongs(plain, w, o)
        values.append(reach_chance(sh, uk, total, o.draws, "pongs", o.last_boost) * t.pongs_value)
    suit, held, honours = _main_suit(plain, o)
    if suit >= 0 and held + w >= FLUSH_MIN:
        bonus = t.concealed_value if concealed else 1.0
        if honours == 0 or t.half_flush_value <= 1.0:
            sh, uk = _within(plain, w, o, suit, False)
            values.append(
                reach_chance(sh, uk, total, o.draws, "flush", o.last_boost) * t.flush_value * bonus
            )
        if t.half_flush_value > 1.0 and held + honours + w >= FLUSH_MIN + 2:
            sh, uk = _within(plain, w, o, suit, True)
            values.append(
                reach_chance(sh, uk, total, o.draws, "flush", o.last_boost)
                * t.half_flush_value
                * bonus
            )
    best = max(values)
    return best + OTHER_ROUTES * (sum(values) - best) + _kong_money(plain, o)


def _kong_money(plain: list[int], o: Outlook) -> float:
    """Expected 杠钱 of the hand's kongs to come (where kongs pay on their own): a held
    four; a concealed triplet whose last copy may be drawn; an exposed pong (补杠) the same,
    at half the value."""
    t = o.tuning
    if not t.kong_value:
        return 0.0
    total = o.unseen_total
    out = 0.0
    for k in range(34):
        if plain[k] >= 3 and k not in o.wild:
            out += t.kong_value * (1.0 if plain[k] == 4 else _drawn(o.unseen[k], total, o.draws))
    for kind, kinds in o.melds:
        if kind == "pong":
            out += t.kong_value / 2 * _drawn(o.unseen[kinds[0]], total, o.draws)
    return KONG_MONEY_WEIGHT * out


def _drawn(copies: int, unseen: int, draws: int) -> float:
    """Chance that one of ``copies`` of ``unseen`` tiles comes in ``draws`` draws."""
    return 1.0 - (1.0 - min(1.0, copies / unseen)) ** draws


def discard_values(plain: list[int], w: int, kinds: Sequence[int], o: Outlook) -> dict[int, float]:
    """:func:`hand_value` after discarding each of ``kinds`` (a 3n+2 hand; wildcard kinds
    discard a wildcard). ``plain`` is restored."""
    out: dict[int, float] = {}
    for k in dict.fromkeys(kinds):
        if k in o.wild:
            out[k] = hand_value(plain, w - 1, o) if w else 0.0
            continue
        plain[k] -= 1
        try:
            out[k] = hand_value(plain, w, o)
        finally:
            plain[k] += 1
    return out
