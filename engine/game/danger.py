"""Tile danger (放炮危险度) from public information only, for the AI's defence (守牌 / 防守).

Everything here is read from a :class:`Sight`: what one seat may see, field for field the
same as :func:`engine.game.view.seat_view` shows (its own concealed tiles; everyone's
discards 牌河, melds, 发 laid open and 报听; the 宝 and its indicator; the wall count). It is
built either from the state (:func:`sight_of`, fast, used by the AI) or from a seat view
(:func:`sight_from_view`); the two agree, which the tests check. Other seats' concealed
tiles and the wall order are never read.

**Threat (威胁)** of another seat, :func:`threat_of`, is a rough chance that it is ready (听牌):

- 报听 declared: 1 (the hand is locked and ready);
- 3 or more melds shown: 1 (with 4 melds it is always ready, with 3 nearly so);
- otherwise ``0.06 × (discards − pace) + (0, 0.12, 0.35)[melds]``, capped at 1 — later in the
  hand and with more melds, more likely ready (pace 3 in 九江, 5 in 新余, whose hands are
  slower). The numbers fit how often the AI's seats really are ready in self-play.
- 上饶 (only with ``discard_win``): no threat at all. With four 宝 a 宝吊头 hand wins on any
  tile, so no tile is safe; measured, folding there only lost wins.

**Danger (危险度)** of discarding kind ``k`` to one threatening seat, :func:`danger_of`, counts
the waiting shapes that could win on ``k``, each weighted by how many of the tiles the shape
needs are still unseen (not in our hand, a river, a meld or the indicator):

- 两面 (open wait, k−2 k−1 or k+1 k+2) and 边张 (edge wait), 嵌张 (closed wait, k−1 k+1),
  单钓 / 双碰 (single or pair wait on ``k`` itself, which needs unseen copies of ``k``);
- 字牌 (honours) only wait as 单钓 / 双碰: with 2–3 copies in sight they are safer, with all
  4 in sight safe; a suited kind whose neighbours are all in sight (壁, no-chance) loses
  those shapes the same way (all 4 copies of a *suited* kind in sight is not safe: a 两面
  beside it still waits on it);
- 筋 (suji): if the seat threw ``k ± 3`` an open wait on ``k`` from that side is unlikely
  (×0.3; after 报听 ×0.1, since a locked hand that drew its own wait would have won);
- 现物 (a kind the seat itself discarded): danger × 0.15; after 报听 it is 0 (the locked hand
  discards every drawn tile that does not win). A kind another seat threw after the 报听,
  which the ready seat let pass, is nearly safe too (× 0.1; counted from each seat's second
  discard, as 报听 happens on the first turn).

The scale is 1 for a middle suited tile with nothing known, so the summed risk
:func:`risks` (threat × danger over the other seats) reads directly: above
:data:`VERY_DANGEROUS` a tile is very dangerous. In 九江 self-play a ready seat's wait was
hit by 0.8 % of the discards with danger below 0.1 and by about 11 % of those above 0.6
(all discards: 6 %). How the AI uses it is in :mod:`engine.game.ai`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import variants
from engine.game.rules import live_count, rules_of
from engine.game.state import GameState

#: Risk (threat × danger, summed over seats) above which a tile is "very dangerous".
VERY_DANGEROUS = 1.0
#: A seat whose threat reaches this is a clear threat (the AI considers folding).
THREAT_MIN = 0.5

# Discards before readiness starts to rise, and the threat scale, are each variant's
# AI tuning (``Variant.ai``: ``pace``, ``threat_scale``).
_SUJI = 0.3  # 筋: open wait on k from the side whose outer tile the seat threw
_SUJI_READY = 0.1
_GENBUTSU = 0.15  # 现物 of a seat that has not declared
_PASSED_READY = 0.1  # thrown by someone else after the 报听 and let pass
_KANCHAN = 0.6  # 嵌张 is a less common wait than 两面
_PAIR = (0.0, 0.35, 0.8, 1.0, 1.0)  # 单钓 / 双碰 weight by unseen copies of k (0–4)
_NORM = 1.0 / 3.6  # so a middle suited kind with nothing in sight is 1


@dataclass(frozen=True)
class Sight:
    """What ``seat`` may see (the public table and its own concealed tiles), by kind."""

    variant: str
    seat: int
    own: tuple[int, ...]  # 34 counts of the seat's concealed tiles
    rivers: tuple[tuple[int, ...], ...]  # per seat, its discards not claimed (in order)
    melds: tuple[tuple[tuple[int, ...], ...], ...]  # per seat, each meld's kinds
    fed: tuple[int, ...]  # per seat, how many of its discards others claimed into melds
    flowers: tuple[tuple[int, ...], ...]  # per seat, 发 laid open (九江)
    ready: tuple[bool, ...]  # per seat, 报听
    indicator: int | None  # 上饶 跌宝牌 kind
    wildcards: frozenset[int]  # wildcard kinds (上饶 宝)
    wall_left: int  # tiles that may still be drawn

    def discards(self, seat: int) -> int:
        """Discards ``seat`` has made this hand (its river plus those claimed from it)."""
        return len(self.rivers[seat]) + self.fed[seat]

    def visible(self) -> list[int]:
        """Copies of each kind this seat sees (own hand, rivers, melds, flowers, indicator)."""
        v = list(self.own)
        for seat in range(4):
            for k in self.rivers[seat]:
                v[k] += 1
            for m in self.melds[seat]:
                for k in m:
                    v[k] += 1
            for k in self.flowers[seat]:
                v[k] += 1
        if self.indicator is not None:
            v[self.indicator] += 1
        return v


def sight_of(state: GameState, seat: int) -> Sight:
    """The :class:`Sight` of ``seat`` read from the state's public fields and its own hand."""
    h = state.hand
    own = [0] * 34
    for t in h.seats[seat].hand:
        own[t >> 2] += 1
    fed = [0, 0, 0, 0]
    for s in h.seats:
        for m in s.melds:
            if m.fed_by is not None:
                fed[m.fed_by] += 1
    return Sight(
        state.variant,
        seat,
        tuple(own),
        tuple(tuple(t >> 2 for t in s.river) for s in h.seats),
        tuple(tuple(tuple(sorted(t >> 2 for t in m.ids)) for m in s.melds) for s in h.seats),
        tuple(fed),
        tuple(tuple(t >> 2 for t in s.flowers) for s in h.seats),
        tuple(s.ready for s in h.seats),
        h.indicator >> 2 if h.indicator is not None else None,
        h.wildcards,
        live_count(h, rules_of(state.variant, state.options).reserve),
    )


def sight_from_view(view: dict[str, Any]) -> Sight:
    """The same :class:`Sight` built from :func:`engine.game.view.seat_view` output."""
    own = [0] * 34
    for k in view["own"]["hand"]:
        own[k] += 1
    seats = view["seats"]
    fed = [0, 0, 0, 0]
    for s in seats:
        for m in s["melds"]:
            if m["fed_by"] is not None:
                fed[m["fed_by"]] += 1
    return Sight(
        view["variant"],
        view["seat"],
        tuple(own),
        tuple(tuple(s["river"]) for s in seats),
        tuple(tuple(tuple(m["tiles"]) for m in s["melds"]) for s in seats),
        tuple(fed),
        tuple(tuple(s["flowers"]) for s in seats),
        tuple(bool(s["ready"]) for s in seats),
        view["indicator"],
        _wildcards_in_view(view),
        view["wall_left"],
    )


def _wildcards_in_view(view: dict[str, Any]) -> frozenset[int]:
    """The wildcard kinds a view shows (``wildcards``, or the single ``bao`` of older views)."""
    if "wildcards" in view:
        return frozenset(view["wildcards"])
    return frozenset() if view.get("bao") is None else frozenset((view["bao"],))


def threat_of(sight: Sight, seat: int) -> float:
    """Rough chance (0–1) that ``seat`` is ready (听牌), from what is public."""
    if sight.ready[seat]:
        return 1.0
    melds = len(sight.melds[seat])
    tuning = variants.get(sight.variant).ai
    scale = tuning.threat_scale
    if melds >= 3:
        return scale
    p = 0.06 * (sight.discards(seat) - tuning.pace) + (0.0, 0.12, 0.35)[melds]
    return min(1.0, max(0.0, p)) * scale


def danger_of(sight: Sight, seat: int, kind: int, unseen: list[int] | None = None) -> float:
    """How dangerous discarding ``kind`` is against ``seat`` (about 0–1.3; 0 = safe)."""
    if unseen is None:
        unseen = [max(0, 4 - v) for v in sight.visible()]
    ready = sight.ready[seat]
    river = sight.rivers[seat]
    if kind in river:
        if ready:
            return 0.0
        genbutsu = _GENBUTSU
    else:
        genbutsu = 1.0
    if ready and any(kind in sight.rivers[o][1:] for o in range(4) if o != seat):
        genbutsu = min(genbutsu, _PASSED_READY)
    raw = _PAIR[unseen[kind]]
    if kind < 27:
        r = kind % 9
        suji = _SUJI_READY if ready else _SUJI

        def u(d: int) -> float:
            return unseen[kind + d] / 4.0

        if r >= 2:  # 两面 / 边张 from below: k-2 k-1
            w = u(-2) * u(-1)
            if r >= 3 and kind - 3 in river:
                w *= suji
            raw += w
        if r <= 6:  # 两面 / 边张 from above: k+1 k+2
            w = u(1) * u(2)
            if r <= 5 and kind + 3 in river:
                w *= suji
            raw += w
        if 1 <= r <= 7:  # 嵌张: k-1 k+1
            raw += _KANCHAN * u(-1) * u(1)
    return raw * _NORM * genbutsu


def threats(sight: Sight) -> list[float]:
    """:func:`threat_of` for every seat (0 for the seat itself)."""
    return [0.0 if s == sight.seat else threat_of(sight, s) for s in range(4)]


def risks(sight: Sight, kinds: list[int], threat: list[float] | None = None) -> dict[int, float]:
    """Risk of discarding each of ``kinds``: Σ over the other seats of threat × danger."""
    if threat is None:
        threat = threats(sight)
    unseen = [max(0, 4 - v) for v in sight.visible()]
    out = {}
    for k in kinds:
        out[k] = sum(
            threat[s] * danger_of(sight, s, k, unseen) for s in range(4) if threat[s] > 0.0
        )
    return out
