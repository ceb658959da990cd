"""The end of a hand (RULES §3.1, §3.4, §4.1, §5.1): settlement through :mod:`engine.settle`,
the next dealer of each variant, 九江 跟庄 / 黄庄 values, and the public result (the hands,
the seed and the wall are revealed).
"""

from __future__ import annotations

from typing import Any

from engine import variants
from engine.game import events as ev
from engine.game import wall as wall_
from engine.game.events import Event
from engine.game.rules import rules_of, to_meld
from engine.game.state import PHASE_OVER, GameState, HandState
from engine.notation import format_hand, format_tiles
from engine.scoring.types import ScoreResult, WinContext, WinKind
from engine.settle import (
    EMPTY,
    Settlement,
    next_pao_value,
    sanbao_feeder,
    settle_multi,
    settle_win,
)
from engine.variants.base import HandEnd, HandSettlement


def finish_win(
    g: GameState,
    won: list[tuple[int, tuple[ScoreResult, WinContext]]],
    how: WinKind,
    payer: int | None,
    tile: int | None,
    events: list[Event],
) -> None:
    """End the hand with ``won`` = ``[(seat, (ScoreResult, WinContext))]`` (several only for
    新余 一炮多响); ``payer`` is the discarder / robbed seat, ``tile`` the claimed tile (it goes
    to the first winner's hand). Settles through :mod:`engine.settle` (叁包, 吃兴家, value per 炮).
    """
    h = g.hand
    melds = [[to_meld(m) for m in s.melds] for s in h.seats]
    rules = rules_of(g.variant, g.options)
    variant = variants.get(g.variant)
    extras: tuple[int, ...] = (0, 0, 0, 0)
    if variant.loser_extras is not None:  # 九江 吃兴家
        extras = tuple(variant.extras_of(melds[i], len(h.seats[i].flowers)) for i in range(4))
    if len(won) == 1:
        seat, (result, _ctx) = won[0]
        feeder = sanbao_feeder(melds[seat]) if rules.sanbao else None
        st = settle_win(
            g.variant,
            g.options,
            winner=seat,
            result=result,
            win=how,
            payer=payer,
            dealer=h.dealer,
            sanbao_feeder=feeder,
            loser_extras=extras,
            value_per_pao=g.value_per_pao,
        )
    else:
        assert payer is not None  # several winners only on a discard: the discarder pays
        st = settle_multi(
            g.variant,
            g.options,
            winners=[(s, r) for s, (r, _c) in won],
            payer=payer,
            dealer=h.dealer,
            win=how,
            loser_extras=extras,
            value_per_pao=g.value_per_pao,
        )
    if tile is not None:
        first = h.seats[won[0][0]]
        first.hand.append(tile)
        first.hand.sort()
    hand_end = _settle_hand(g, won[0][0], how, payer, tile)
    if hand_end is not None:
        st = st + Settlement.of(hand_end.payments)
    winners = []
    for seat, (result, ctx) in won:
        winners.append(
            {
                "seat": seat,
                "hand": format_hand(ctx.hand),
                "points": result.points,
                "items": [{"name": i.name, "en": i.en, "value": i.value} for i in result.items],
                "flags": sorted(ctx.flags),
            }
        )
    first_seat = won[0][0]
    next_dealer = dealer_after(g, first_seat)
    end_hand(
        g,
        st.deltas,
        winners,
        how,
        payer,
        next_dealer,
        events,
        payments=st.payments,
        settlement=hand_end,
    )


def finish_draw(g: GameState, events: list[Event]) -> None:
    """荒牌 / 黄庄: the live wall is used up; nobody pays for a win (新余 kong money stays
    paid); a variant's hand-end settlement (南昌 精, kong points) still runs."""
    hand_end = _settle_hand(g, None, "draw", None, None)
    st = Settlement.of(hand_end.payments) if hand_end is not None else EMPTY
    end_hand(
        g,
        st.deltas,
        [],
        "draw",
        None,
        dealer_after(g, None),
        events,
        payments=st.payments,
        settlement=hand_end,
    )


def _settle_hand(
    g: GameState, winner: int | None, how: str, payer: int | None, tile: int | None
) -> HandSettlement | None:
    """The variant's hand-end settlement (:attr:`~engine.variants.Variant.settle_hand`) of
    the hand as it ends (the winning tile already in the winner's hand); ``None`` for a
    variant without one."""
    hook = variants.get(g.variant).settle_hand
    if hook is None:
        return None
    h = g.hand
    discarded: list[list[int]] = [[t >> 2 for t in s.river] for s in h.seats]
    claimed: list[list[tuple[int, int]]] = [[] for _ in h.seats]
    for i, s in enumerate(h.seats):
        for m in s.melds:
            if m.claimed is not None and m.fed_by is not None:
                discarded[m.fed_by].append(m.claimed >> 2)
                claimed[i].append((m.claimed >> 2, m.fed_by))
    if tile is not None and winner is not None and payer is not None:
        if how == "discard":
            discarded[payer].append(tile >> 2)
        claimed[winner].append((tile >> 2, payer))
    end = HandEnd(
        options=g.options,
        dealer=h.dealer,
        winner=winner,
        how=how,
        payer=payer,
        indicator=h.indicator >> 2 if h.indicator is not None else None,
        wildcards=h.wildcards,
        hands=tuple(tuple(t >> 2 for t in s.hand) for s in h.seats),
        melds=tuple(tuple(to_meld(m) for m in s.melds) for s in h.seats),
        discarded=tuple(tuple(d) for d in discarded),
        claimed=tuple(tuple(c) for c in claimed),
        winning_tile=_winning_tile(h, winner, tile),
        followed=chaozhuang(g),
    )
    return hook(end)


def _winning_tile(h: HandState, winner: int | None, tile: int | None) -> int | None:
    """The winning tile's kind: the claimed tile, else the winner's drawn one."""
    if tile is not None:
        return tile >> 2
    drawn = h.seats[winner].drawn if winner is not None else None
    return drawn >> 2 if drawn is not None else None


def chaozhuang(g: GameState) -> bool:
    """南昌 抄庄: under the variant's rule, the three others' first discards followed the
    dealer's first discard, no claim in between."""
    return rules_of(g.variant, g.options).chaozhuang and followed_count(g.hand) > 0


def dealer_after(g: GameState, winner: int | None) -> int:
    """Next dealer: 上饶 winner (the dealer stays when winning), draw → 下家; 新余 winner,
    draw per ``draw_dealer``; 九江 winner, the dealer keeps the deal after a draw; 南昌 the
    dealer stays on its win, a non-dealer's win passes the deal to the 下家, and 抄庄 passes
    it whatever the result."""
    d = g.hand.dealer
    rules = rules_of(g.variant, g.options)
    if chaozhuang(g):
        return (d + 1) % 4
    if winner is None:
        return d if rules.dealer_stays_after_draw else (d + 1) % 4
    if rules.win_passes_deal and winner != d:
        return (d + 1) % 4
    return winner


def followed_count(h: HandState) -> int:
    """九江 跟庄: 1 when the three others followed the dealer's first discard, 2 when the
    dealer's second discard was followed too (no claim in between), else 0."""
    f = h.follow
    if len(f) >= 4 and len(set(f[:4])) == 1:
        if len(f) >= 8 and len(set(f[4:8])) == 1:
            return 2
        return 1
    return 0


def end_hand(
    g: GameState,
    deltas: tuple[int, ...],
    winners: list[dict[str, Any]],
    how: str,
    payer: int | None,
    next_dealer: int,
    events: list[Event],
    payments: Any,
    settlement: HandSettlement | None = None,
) -> None:
    """Book the deltas, set the result and the next hand's dealer and value, emit the events.
    ``settlement``: the variant's hand-end settlement, whose per-seat lines the result shows
    (key ``settlement``, only for a variant that has one)."""
    h = g.hand
    for i in range(4):
        h.deltas[i] += deltas[i]
        g.scores[i] += deltas[i]
    drawn = not winners
    next_value = 1
    pao_value = rules_of(g.variant, g.options).pao_value  # 九江 value per 炮
    if pao_value:
        followed = followed_count(h)
        next_value = next_pao_value(
            g.value_per_pao,
            dealer_keeps=next_dealer == h.dealer,
            drawn=drawn,
            followed=followed,
            first_discard=h.follow[0] if h.follow else None,
        )
    h.phase = PHASE_OVER
    h.claim = None
    h.self_win = h.baodiao = False
    h.result = {
        "how": how,
        "after_kong": how == "discard" and h.after_kong,  # 杠上放炮
        "last_tile": h.last_tile,  # 海底
        "winners": winners,
        "payer": payer,
        "deltas": list(h.deltas),
        "payments": [[p.payer, p.payee, p.amount, p.reason] for p in payments],
        "next_dealer": next_dealer,
        "next_value_per_pao": next_value,
        "hands": [format_tiles(t >> 2 for t in s.hand) for s in h.seats],
    }
    if settlement is not None:
        h.result["settlement"] = [dict(line) for line in settlement.seats]
    g.history.append(
        {
            "hand": h.number,
            "how": how,
            "winners": [w["seat"] for w in winners],
            "deltas": list(h.deltas),
            # for a session's standings and its rounds (圈): who paid a discard win, each
            # winner's points, the deal, this hand's value per 炮 and its 跟庄
            "payer": payer,
            "points": [int(w["points"]) for w in winners],
            "dealer": h.dealer,
            "next_dealer": next_dealer,
            "value_per_pao": g.value_per_pao,
            "followed": followed_count(h) if pao_value else 0,
        }
    )
    if settlement is not None:
        events.append(ev.HandSettled([dict(line) for line in settlement.seats]))
    if winners:
        events.append(ev.Won(how, payer, winners))
    else:
        events.append(ev.DrawnHand())
    events.append(
        ev.HandEnded(
            result=dict(h.result),
            scores=list(g.scores),
            seed=h.seed,
            wall=list(h.wall),
            commitment=wall_.commitment(h.seed, h.wall),
        )
    )
