"""The claim window (RULES §2): who may claim a discard or rob a kong, and who gets it.

Priority: win > kong = pong > chi. Several win claims: 上饶, 九江 and 南昌 the first in play
order from the discarder; 新余 with ``discard_win`` every claimer wins (一炮多响). Chi goes to
the discarder's 下家 (the claimer's 上家 discarded), also of honour sequences where the variant
has them (南昌 中发白, winds).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import variants
from engine.agari import is_complete
from engine.game.actions import Action, Chi, Kong, Pong, Win, action_from_json
from engine.game.rules import (
    evaluate_win,
    honours_of,
    is_wildcard_wait,
    live_count,
    rules_of,
    seat_counts,
)
from engine.game.state import ClaimWindow, GameState
from engine.game.variants import TableRules


@dataclass(frozen=True)
class ClaimOutcome:
    """The result of a closed window: the winners (in play order from the discarder), else the
    one meld claim that stands; ``missed`` lists seats that let a win pass (九江 rule 3)."""

    winners: list[int]
    claim: tuple[int, Action] | None
    missed: list[int]


def settled(c: ClaimWindow, rules: TableRules) -> bool:
    """Whether the answers so far decide the window (the rest cannot change the outcome).

    A win stands once no seat still to answer could win ahead of it (新余 一炮多响: once
    nobody left could win at all); a pong or kong once nobody left could win; a chi once
    nobody left could win, pong or kong. Seats that had not answered count as passing.
    """
    order = [(c.from_seat + i) % 4 for i in range(1, 4)]
    pending = [s for s in order if c.options[s] is not None and c.responses[s] is None]
    if not pending:
        return True

    def can(seat: int, *types: str) -> bool:
        return any(o["type"] in types for o in c.options[seat] or ())

    answered = {s: r["type"] for s in order if (r := c.responses[s]) is not None}
    wins = [s for s in order if answered.get(s) == "win"]
    if wins:
        if rules.multi_win:
            return not any(can(s, "win") for s in pending)
        first = order.index(wins[0])
        return not any(can(s, "win") and order.index(s) < first for s in pending)
    if any(t in ("pong", "kong") for t in answered.values()):
        return not any(can(s, "win") for s in pending)
    if "chi" in answered.values():
        return not any(can(s, "win", "pong", "kong") for s in pending)
    return False


def decide(c: ClaimWindow, rules: TableRules) -> ClaimOutcome:
    """Apply the priority to the answers of a settled window (no answer = pass)."""
    order = [(c.from_seat + i) % 4 for i in range(1, 4)]
    answers = {s: action_from_json(c.responses[s]) for s in order if c.responses[s] is not None}
    missed = []
    if rules.missed_win:
        missed = [
            s
            for s in order
            if (opts := c.options[s])
            and {"type": "win"} in opts
            and not isinstance(answers.get(s), Win)
        ]
    winners = [s for s in order if isinstance(answers.get(s), Win)]
    if winners:
        return ClaimOutcome(winners if rules.multi_win else winners[:1], None, missed)
    for kinds in ((Pong, Kong), (Chi,)):  # kong = pong > chi
        for s in order:
            a = answers.get(s)
            if isinstance(a, kinds):
                return ClaimOutcome([], (s, a), missed)
    return ClaimOutcome([], None, missed)


def claim_options(g: GameState, discarder: int, t: int) -> list[list[dict[str, Any]] | None]:
    """What each other seat may do with the discard ``t`` (JSON actions, ``None``: not asked).

    Win where the variant allows it (上饶: 地胡 on the dealer's first discard, 接宝 on a 宝,
    or any discard with ``discard_win``; 新余: ``discard_win``; 九江: always, unless the seat
    missed a win since its last draw; 南昌: always, except a kind the seat passed since its
    draw, any discard after a pass in a 精钓 wait, and a 精钓 hand's non-德国 win), kong (3 in
    hand) and pong (2 in hand) while a replacement / next draw exists, chi for the 下家 where
    the variant has chi. A 宝 is never ponged, konged or chowed (a 南昌 精 is, at face value),
    and a locked (报听) hand only wins.
    """
    h = g.hand
    rules = rules_of(g.variant, g.options)
    k = t >> 2
    live = live_count(h, rules.reserve)
    is_bao = k in h.wildcards and not rules.wild_melds  # 南昌: a discarded 精 is a plain tile
    no_win = k in h.wildcards and rules.wild_melds and not rules.win_on_wild_discard
    first_discard = h.discards == 1 and not h.interrupted and discarder == h.dealer
    out: list[list[dict[str, Any]] | None] = [None] * 4
    for i in range(1, 4):
        seat = (discarder + i) % 4
        s = h.seats[seat]
        opts: list[dict[str, Any]] = []
        jiebao = is_bao and s.bao_drawn >= 3
        may_win = (
            jiebao
            or (not is_bao and (rules.discard_win or (rules.earth_on_discard and first_discard)))
        ) and not ((rules.missed_win and s.missed_win) or k in s.missed_kinds or no_win)
        if may_win:
            h.claim = ClaimWindow("discard", t, discarder, [], [])  # for the 地胡 flag
            won = evaluate_win(
                g, seat, "discard", t, frozenset({"jiebao"}) if jiebao else frozenset()
            )
            h.claim = None
            if won is not None and not (
                rules.wild_melds
                and not rules.wildcard_wait_discard
                and not first_discard
                and not wins_plain(g, seat, t, rules)
            ):
                opts.append({"type": "win"})
        if live > 0 and not is_bao and not s.ready:
            n = sum(1 for x in s.hand if x >> 2 == k)
            if n >= 3:
                opts.append({"type": "kong"})
            if n >= 2 and not (rules.missed_pong_lock and k in s.missed_kinds):
                opts.append({"type": "pong"})
            if rules.chi and i == 1 and k >= 27:  # 南昌 honour sequences (中发白, winds)
                have = {x >> 2 for x in s.hand}
                for seq in rules.honour_sequences:
                    others = [x for x in seq if x != k]
                    if k in seq and all(x in have for x in others):
                        opts.append({"type": "chi", "tiles": sorted(seq)})
            if rules.chi and i == 1 and k < 27:
                have = {x >> 2 for x in s.hand}
                r = k % 9
                for lo in (k - 2, k - 1, k):
                    if lo < k - r or lo + 2 > k - r + 8:
                        continue
                    seq = (lo, lo + 1, lo + 2)
                    others = [x for x in seq if x != k]
                    if not rules.wild_melds and not h.wildcards.isdisjoint(others):
                        continue
                    if all(x in have for x in others):
                        opts.append({"type": "chi", "tiles": list(seq)})
        if opts:
            opts.append({"type": "pass"})
            out[seat] = opts
    return out


def wins_plain(g: GameState, seat: int, t: int, rules: TableRules) -> bool:
    """Whether ``seat`` may take the discard ``t`` although its hand may wait in 精钓: it is
    not in a wildcard wait, or the discard completes it with every wildcard read as itself
    (德国)."""
    s = g.hand.seats[seat]
    counts = seat_counts(s)
    if not is_wildcard_wait(counts, g.hand.wildcards, rules.honour_sequences):
        return True
    counts[t >> 2] += 1
    return is_complete(counts, 0, honours_of(rules.honour_sequences)) or variants.get(
        g.variant
    ).maybe_special(counts, 0, [x >> 2 for m in s.melds for x in m.ids])


def rob_options(g: GameState, konger: int, t: int) -> list[list[dict[str, Any]] | None]:
    """Who may rob the added kong's tile ``t`` (抢杠): a win, or pass."""
    h = g.hand
    rules = rules_of(g.variant, g.options)
    out: list[list[dict[str, Any]] | None] = [None] * 4
    if not rules.rob_kong:
        return out
    for i in range(1, 4):
        seat = (konger + i) % 4
        s = h.seats[seat]
        if (rules.missed_win and s.missed_win) or t >> 2 in s.missed_kinds:
            continue
        if evaluate_win(g, seat, "rob_kong", t) is not None:
            out[seat] = [{"type": "win"}, {"type": "pass"}]
    return out
