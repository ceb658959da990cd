"""The value-based policy (高级): every choice by the hand's expected value.

- **Discards** (打牌, also the 报听 / 偷机 discards): among the discards that leave the
  lowest 向听, the one that leaves the hand worth most by
  :func:`engine.ai.value.hand_value` — 进张 on every winning route (平胡, 七对, 碰碰胡,
  清一色 / 混一色) weighted by what the route pays in this variant; the 宝 / 精 is kept (it is
  a wildcard on every route). Ties go to the less connected tile. Where honour triples
  are sequences (南昌 中发白, three winds) the 向听 and 进张 count them as sets.
- **Claims** (碰 / 吃): a claim that lowers the 向听, unless the hand after it (and its best
  discard) is worth less than :data:`CLAIM_FLOOR` of the hand that passes (a claim gives up
  门清 and 七对, a sequence 碰碰胡); of two claims, the one worth more.
- **Kongs**: a kong when it keeps the 向听; where a kong pays on its own (新余 杠钱) also
  when it costs a step, unless it breaks a ready hand; a 精 kind always (南昌 杠精).
- **Wins**, **偷机** and **报听**: as today's AI (:mod:`engine.game.ai`): every legal win
  (but 偷机 where the preset makes 宝吊 worth waiting for, and a 南昌 精钓 hand waits for
  its self-draw), 报听 whenever allowed (九江 counts it as a big hand).
- **Defence** (守牌), where a discard can be won and another seat may be ready: each
  candidate discard is scored in points, ``value × win_gain × (1 − P) − P × net``: ``P`` the
  chance that it deals in (the summed risk of :mod:`engine.game.danger` × the variant's
  measured ``deal_in_per_risk`` × :data:`RISK_WEIGHT`), ``net`` what dealing in costs beyond
  what the seat pays anyway when the ready seat wins without it (``deal_in_loss −
  bystander_loss(options)``: in 九江 and 南昌 about 2 points, against about 6.5 / 15.7 points
  per unit of hand value; the numbers are each variant's :class:`AiTuning`, measured in
  self-play). A ready or nearly ready hand only picks among its fastest discards; a hand
  :data:`FOLD_SHANTEN` or more steps from ready, against a clear threat, may fold (a slower
  discard, its value cut by :data:`SLOWER_DISCOUNT` per step). The defended discard replaces
  the attacking one only when it scores :data:`SWITCH_MARGIN` more. Deal-ins cost little
  more than standing by in these games, so the defence seldom changes a discard. Measured
  in the arena (4000 paired deals, seed 1, against ``strong-offence``), points a hand: 南昌
  +0.010 [−0.003, +0.023] (deal-ins −0.19 %, wins unchanged), 南昌 ``discard_pay=one``
  +0.016 [+0.002, +0.030], 九江 +0.003 [−0.001, +0.006].

Only what the seat may see is read (its own tiles; rivers, melds, 发 and the indicator).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import variants
from engine.ai.value import Outlook, discard_values, hand_value, meld_kinds, unseen_of
from engine.game import ai as today
from engine.game.actions import (
    Action,
    AddedKong,
    Chi,
    ConcealedKong,
    DeclareReady,
    Discard,
    IndicatorKong,
    KeepDrawing,
    Kong,
    NextHand,
    Pass,
    Pong,
    Win,
)
from engine.game.danger import THREAT_MIN, risks, sight_of, threats
from engine.game.legal import legal_actions
from engine.game.rules import live_count, rules_of, seat_counts, split_wilds
from engine.game.state import PHASE_TURN, GameState
from engine.shanten import HonourRuns, shanten
from engine.variants.base import AiTuning

#: Share of the measured chance of dealing in (``AiTuning.deal_in_per_risk``) that a discard
#: is charged. Measured in the arena (南昌, 1000 paired deals): at the full chance the seat
#: dealt in 1.8 % less but won 0.4 % less, which cost about what it saved; at half it dealt in
#: 1.7 % less and won as often.
RISK_WEIGHT = 0.5
#: A discard the defence prefers replaces the attacking one only when it scores more by at
#: least this share of what a hand's unit of value wins (``AiTuning.win_gain``): smaller
#: differences are within what the value and danger models can tell apart, and each switch
#: sets the hand on another course, which adds noise to the result. Measured in the arena
#: (1000 paired deals): 九江 with every switch +0.038 points a hand, 95 % [−0.119, +0.194];
#: with this margin +0.009 [−0.005, +0.023].
SWITCH_MARGIN = 0.05
#: The hand folds (a discard that leaves it further from ready is weighed) only this many
#: steps or more from ready, and only against a clear threat (:data:`THREAT_MIN`).
FOLD_SHANTEN = 2
#: Under a threat a discard that leaves the hand further from ready is weighed (as the
#: way to fold), its value cut by this factor per step of 向听.
SLOWER_DISCOUNT = 0.3
#: Wins on others' discards make the last step (ready → complete) this many times as likely
#: per turn as self-draws alone, where discards can be won.
DISCARD_WIN_BOOST = 2.0
#: A claim that brings the hand closer to ready is refused only when the hand after it is
#: worth less than this share of the hand that passes.
CLAIM_FLOOR = 0.5


def outlook_of(state: GameState, seat: int) -> Outlook:
    """The :class:`~engine.ai.value.Outlook` of ``seat`` now."""
    h = state.hand
    live = live_count(h, rules_of(state.variant, state.options).reserve)
    melds = meld_kinds(h.seats[seat].melds)
    return Outlook(
        tuple(unseen_of(state, seat)),
        max(1, -(-live // 4)),
        h.wildcards,
        melds,
        variants.get(state.variant).ai,
        *_boosts(state, seat, melds),
        _runs(state),
    )


def _runs(state: GameState) -> HonourRuns:
    """The honour triples that are sequences in this game (南昌 中发白, three winds)."""
    return rules_of(state.variant, state.options).honour_sequences


def _boosts(
    state: GameState, seat: int, melds: tuple[tuple[str, tuple[int, ...]], ...]
) -> tuple[float, float]:
    """The last step's boost from discard wins: for a hand, and for an open plain hand with
    ``melds`` (九江 二炮起胡: none without a 发, a 中 / 白 set or a kong)."""
    boost = DISCARD_WIN_BOOST if rules_of(state.variant, state.options).discard_win else 1.0
    plain = boost
    if variants.get(state.variant).ai.open_plain_needs_extra and not (
        state.hand.seats[seat].flowers
        or any(kind != "pong" or kinds[0] >= 27 for kind, kinds in melds)
    ):
        plain = 1.0
    return boost, plain


def _with_meld(
    state: GameState, seat: int, o: Outlook, meld: tuple[str, tuple[int, ...]]
) -> Outlook:
    """The outlook after claiming ``meld`` (the boosts of the hand it makes)."""
    melds = (*o.melds, meld)
    return Outlook(o.unseen, o.draws, o.wild, melds, o.tuning, *_boosts(state, seat, melds), o.runs)


def choose(
    state: GameState, seat: int, legal: Sequence[Action] | None = None, *, defend: bool = True
) -> Action:
    """The policy's choice for ``seat`` now. Raises ``ValueError`` if the seat has nothing
    to do. ``defend=False``: pure offence."""
    legal = list(legal_actions(state, seat) if legal is None else legal)
    if not legal:
        raise ValueError(f"seat {seat} has nothing to do now")
    if len(legal) == 1:
        return legal[0]
    if any(isinstance(a, NextHand) for a in legal):
        return NextHand()
    if state.hand.phase != PHASE_TURN:
        return _claim(state, seat, legal)
    return _turn(state, seat, legal, defend)


def best_discard(state: GameState, seat: int, kinds: Sequence[int], defend: bool = True) -> int:
    """The discard among ``kinds`` (see the module docstring), with defence if ``defend``."""
    h = state.hand
    plain, w = split_wilds(seat_counts(h.seats[seat]), h.wildcards)
    plain = list(plain)
    cands = [k for k in kinds if k not in h.wildcards]  # keep the 宝 / 精
    if not cands:
        return today._least_feeding(state, seat, list(kinds))
    if len(cands) == 1:
        return cands[0]
    runs = _runs(state)
    sh = {k: _shanten_after(plain, w, k, h.wildcards, runs) for k in cands}
    least = min(sh.values())
    # Measured in the arena: letting the route values pick a discard that leaves the hand a
    # step further from ready lost more wins than the bigger hands paid back.
    fastest = [k for k in cands if sh[k] == least]
    o = outlook_of(state, seat)
    value = discard_values(plain, w, fastest, o)

    def ranked(score: dict[int, float], among: Iterable[int]) -> int:
        return max(among, key=lambda k: (score[k], -today._keep_value(plain, k), k))

    attack = ranked(value, fastest)
    if not defend or not rules_of(state.variant, state.options).discard_win:
        return attack
    sight = sight_of(state, seat)
    threat = threats(sight)
    if not max(threat) > 0.0:  # nobody may be ready
        return attack
    pool = fastest
    if max(threat) >= THREAT_MIN and least >= FOLD_SHANTEN:
        pool = cands
        slower = [k for k in cands if k not in value]
        value.update(discard_values(plain, w, slower, o))
        for k in slower:  # as above: the route model overrates slower hands
            value[k] *= SLOWER_DISCOUNT ** (sh[k] - least)
    score = _defended(state, o.tuning, value, risks(sight, pool, threat))
    best = ranked(score, score)
    return best if score[best] - score[attack] >= SWITCH_MARGIN * o.tuning.win_gain else attack


def _defended(
    state: GameState, t: AiTuning, value: dict[int, float], risk: dict[int, float]
) -> dict[int, float]:
    """Each discard of ``risk`` scored in points: what its hand's ``value`` wins if the
    discard is not won on, less the net cost of dealing in (the deal-in's payment less what
    the seat pays anyway when the ready seat wins without it)."""
    net = max(0.0, t.deal_in_loss - t.bystander_loss(state.options))
    out = {}
    for k, r in risk.items():
        deal_in = min(0.6, RISK_WEIGHT * t.deal_in_per_risk * r)
        out[k] = value[k] * t.win_gain * (1 - deal_in) - deal_in * net
    return out


def _shanten_after(
    plain: list[int], w: int, k: int, wild: frozenset[int], runs: HonourRuns = ()
) -> int:
    if k in wild:
        return shanten(plain, w - 1, runs)
    plain[k] -= 1
    try:
        return shanten(plain, w, runs)
    finally:
        plain[k] += 1


def _turn(g: GameState, seat: int, legal: list[Action], defend: bool) -> Action:
    h = g.hand
    s = h.seats[seat]
    if any(isinstance(a, Win) for a in legal):
        keep = [a for a in legal if isinstance(a, KeepDrawing)]
        if not (
            keep
            and variants.get(g.variant).ai.keeps_drawing(g.options)
            and not s.touji
            and live_count(h, 0) > today.TOUJI_MIN_WALL
        ):
            return Win()
        return KeepDrawing(best_discard(g, seat, [a.tile for a in keep], defend=False))
    counts = seat_counts(s)
    runs = _runs(g)
    for a in legal:
        if isinstance(a, AddedKong | IndicatorKong):
            return a
        if isinstance(a, ConcealedKong):
            if a.kind in h.wildcards:
                return a  # 杠精 (南昌): 10 from each other player, its 精 still count
            plain, w = today._split(counts, h.wildcards)
            after = list(plain)
            after[a.kind] = 0
            now = (
                min(_shanten_after(plain, w, k, frozenset(), runs) for k in range(34) if plain[k])
                if sum(plain)
                else 9
            )
            if _kong_worth_it(g, shanten(after, w, runs), now):
                return a
    ready = [a.tile for a in legal if isinstance(a, DeclareReady)]
    if ready:
        return DeclareReady(best_discard(g, seat, ready, defend))
    kinds = [a.tile for a in legal if isinstance(a, Discard)]
    if not kinds:
        return legal[0]
    return Discard(best_discard(g, seat, kinds, defend))


def _kong_worth_it(g: GameState, after: int, now: int) -> bool:
    """Whether a kong leaving the hand ``after`` 向听 (``now`` without it) is worth it: when
    it keeps the 向听, and where a kong pays on its own (新余 杠钱: 3 points, 6 concealed,
    more than a whole hand is worth on average) also when it costs a step, unless it breaks a
    ready hand."""
    if after <= now:
        return True
    return rules_of(g.variant, g.options).kong_money and now > 0


def _claim(g: GameState, seat: int, legal: list[Action]) -> Action:
    if any(isinstance(a, Win) for a in legal):
        if Pass() in legal and today._waits_for_self_draw(g, seat):
            return Pass()  # 精钓 (南昌): self-drawn it pays more
        return Win()
    h = g.hand
    c = h.claim
    assert c is not None
    k = c.tile >> 2
    plain, w = split_wilds(seat_counts(h.seats[seat]), h.wildcards)
    runs = _runs(g)
    plain = list(plain)
    for a in legal:
        if isinstance(a, Kong):
            if k in h.wildcards:
                return a  # 杠精 (南昌): 10 from each other player
            after = list(plain)
            after[k] = 0
            if _kong_worth_it(g, shanten(after, w, runs), shanten(plain, w, runs)):
                return a
    # A held 精 (南昌) would freeze into the meld as its face value: such claims keep it wild.
    claims = [a for a in legal if isinstance(a, Pong | Chi) and h.wildcards.isdisjoint(_used(a, k))]
    if not claims:
        return Pass()
    o = outlook_of(g, seat)
    now = hand_value(plain, w, o)
    sh_now = shanten(plain, w, runs)
    best: tuple[float, Action] = (now, Pass())
    for a in claims:
        v = claim_value(g, seat, a, o)
        # Measured in the arena: refusing a claim that brings the hand closer to ready, for
        # the 门清 / 七对 it gives up, lost more wins than it paid; only a claim that halves
        # the hand's value is refused.
        after = list(plain)
        for x in _used(a, k):
            after[x] -= 1
        kinds = [x for x in range(34) if after[x]] or [next(iter(o.wild))]
        sh_after = min(_shanten_after(after, w, x, o.wild, runs) for x in kinds)
        if sh_after < sh_now and v >= CLAIM_FLOOR * now and (best[1] == Pass() or v > best[0]):
            best = (v, a)
    return best[1]


def _used(claim: Pong | Chi, k: int) -> list[int]:
    """The kinds a claim of a discarded ``k`` takes from the hand."""
    return [k, k] if isinstance(claim, Pong) else [x for x in claim.tiles if x != k]


def claim_value(
    state: GameState, seat: int, claim: Pong | Chi, outlook: Outlook | None = None
) -> float:
    """The hand's value after ``claim`` of the discard on offer and its best discard, as
    :func:`_claim` weighs it (in plain wins; the review shows it). ``outlook``: the seat's
    :func:`outlook_of` now, if already worked out."""
    h = state.hand
    assert h.claim is not None
    k = h.claim.tile >> 2
    plain, w = split_wilds(seat_counts(h.seats[seat]), h.wildcards)
    after = list(plain)
    for x in _used(claim, k):
        after[x] -= 1
    meld = ("pong", (k, k, k)) if isinstance(claim, Pong) else ("chi", tuple(claim.tiles))
    o = outlook_of(state, seat) if outlook is None else outlook
    kinds = [x for x in range(34) if after[x]] or [next(iter(o.wild))]
    return max(discard_values(after, w, kinds, _with_meld(state, seat, o, meld)).values())
