"""摊牌 payments, itemised: every line a seat pays or receives for one ended hand, so that each
seat's change is exactly the sum of the lines shown (no number without its reason).

Lines come from the settlement's payments (:attr:`services.model.HandResult.payments`) and
the kong money paid during the hand:

- ``hand`` — the hand's value (自摸 / 点炮 / 抢杠 / 点胡 / 放炮 …);
- ``sanbao`` — 叁包: the feeder of three melds pays everything (上饶);
- ``xing`` — 吃兴家: a 九江 loser's own 发 and kongs, eaten by the winner;
- ``raise`` — 九江 跟庄 / 黄庄: the value per 炮 above 1 (``× value``);
- ``kong`` — 杠钱: 新余's money for every kong, paid when it was declared (also in a 荒庄);
- ``other`` — a change no line explains (never expected: the engine's settlement and its
  kong money account for every point; kept so a sum can never silently disagree).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from services.model import HandResult, RevealedHand

#: Line kinds, in the order they are shown.
KINDS = ("hand", "sanbao", "xing", "raise", "kong", "other")


@dataclass(frozen=True)
class PayLine:
    """``payer`` gives ``amount`` to ``payee`` because of ``kind`` (see the module);
    ``label`` is the reason as the engine words it (``自摸``, ``暗杠`` …); ``payer`` is None
    for an ``other`` line (the change of ``payee`` alone)."""

    payer: int | None
    payee: int
    amount: int
    kind: str
    label: str = ""


def _reason(text: str) -> str:
    """``自摸 · self-draw + 吃兴家 2`` → ``自摸``."""
    return text.split(" · ", 1)[0].split(" + ", 1)[0].strip()


def pay_lines(result: HandResult) -> list[PayLine]:
    """Every payment of the hand as itemised lines (see the module docstring)."""
    lines: list[PayLine] = []
    value = max(1, int(result.value_per_pao or 1))
    for p in result.payments:
        payer, payee, amount = int(p[0]), int(p[1]), int(p[2])
        reason = str(p[3]) if len(p) > 3 else ""
        label = _reason(reason)
        if reason.startswith("叁包"):
            lines.append(PayLine(payer, payee, amount, "sanbao", label))
            continue
        split = _split_pao(result, payee, amount, value, reason)
        if split is None:
            lines.append(PayLine(payer, payee, amount, "hand", label))
            continue
        points, xing, raised = split
        lines.append(PayLine(payer, payee, points, "hand", label))
        if xing:
            lines.append(PayLine(payer, payee, xing, "xing", "吃兴家"))
        if raised:
            lines.append(PayLine(payer, payee, raised, "raise", "/".join(result.raised_by)))
    lines += _kong_lines(result, lines)
    return lines


def _split_pao(
    result: HandResult, payee: int, amount: int, value: int, reason: str
) -> tuple[int, int, int] | None:
    """A payment ``(hand points + 吃兴家) × value per 炮`` (九江) as its three parts, or None when
    the payment is not one (another variant, or numbers that do not add up)."""
    if value == 1 and "吃兴家" not in reason:
        return None
    if payee not in result.winners or amount % value:
        return None
    i = result.winners.index(payee)
    points = result.winner_points[i] if i < len(result.winner_points) else result.points
    xing = amount // value - points
    if xing < 0:
        return None
    return points, xing, amount - amount // value


def _kong_lines(result: HandResult, lines: Sequence[PayLine]) -> list[PayLine]:
    """杠钱 paid during the hand: the change the settlement lines leave unexplained, matched
    to the kongs on the table (新余: 1 from each other player for a 明杠 / 补杠, 2 for an
    暗杠); anything still unexplained is an ``other`` line."""
    seats = len(result.deltas)
    left = list(result.deltas)
    for line in lines:
        if line.payer is not None:
            left[line.payer] += line.amount
        left[line.payee] -= line.amount
    if not any(left):
        return []
    kongs = _kongs(result.hands, seats)
    paid = [0] * seats
    for owner, amount, _label in kongs:
        for s in range(seats):
            if s != owner:
                paid[s] -= amount
                paid[owner] += amount
    out: list[PayLine] = []
    if kongs and paid == left:
        for owner, amount, label in kongs:
            out += [PayLine(s, owner, amount, "kong", label) for s in range(seats) if s != owner]
        return out
    return [PayLine(None, s, d, "other", "") for s, d in enumerate(left) if d]


def _kongs(hands: Sequence[RevealedHand], seats: int) -> list[tuple[int, int, str]]:
    out = []
    for hand in hands:
        for meld in hand.melds:
            if meld.kind == "concealed_kong":
                out.append((hand.seat, 2, "暗杠"))
            elif meld.kind == "kong":
                out.append((hand.seat, 1, "补杠" if meld.added else "明杠"))
    return [k for k in out if 0 <= k[0] < seats]


def changes(lines: Sequence[PayLine], seats: int = 4) -> list[int]:
    """Each seat's change: the sum of the lines."""
    out = [0] * seats
    for line in lines:
        if line.payer is None:
            out[line.payee] += line.amount
            continue
        out[line.payer] -= line.amount
        out[line.payee] += line.amount
    return out


def sanbao_payer(result: HandResult) -> int | None:
    """The seat that pays everything under 叁包 (上饶), or None."""
    for p in result.payments:
        if len(p) > 3 and str(p[3]).startswith("叁包"):
            return int(p[0])
    return None
