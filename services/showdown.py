"""摊牌 payments, itemised: every line a seat pays or receives for one ended hand, so that each
seat's change is exactly the sum of the lines shown (no number without its reason).

Lines come from the settlement's payments (:attr:`services.model.HandResult.payments`) and
the kong money paid during the hand:

- ``hand`` — the hand's value (自摸 / 点炮 / 抢杠 / 点胡 / 放炮 …);
- ``sanbao`` — 叁包: the feeder of three melds pays everything (上饶);
- ``xing`` — 吃兴家: a 九江 loser's own 发 and kongs, eaten by the winner;
- ``raise`` — 九江 跟庄 / 黄庄: the value per 炮 above 1 (``× value``);
- ``kong`` — 杠钱: 新余's money for every kong, paid when it was declared (also in a 荒庄);
- the variant's hand-end settlement (南昌, won or drawn): ``jing`` — 精分, the 精 held below
  冲关; ``chongguan`` — 冲关, s × (s − 3) from 5 精 points; both marked ``bawang`` (霸王精: the
  only seat holding 精) and ``liable`` (包: the supplier of the 精 pays for all three);
  ``gang_jing`` — 杠精, 10 from each for a kong of a 精 kind; ``kong_points`` — 杠分 of the
  other kongs; ``chaozhuang`` — 抄庄, the dealer pays each; ``draw_penalty`` — 荒庄, the dealer
  pays each on a drawn hand;
- ``other`` — a change no line explains (never expected: the engine's settlement and its
  kong money account for every point; kept so a sum can never silently disagree).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from services.model import HandResult, RevealedHand

#: Line kinds, in the order they are shown.
KINDS = (
    "hand",
    "sanbao",
    "xing",
    "raise",
    "kong",
    "jing",
    "chongguan",
    "gang_jing",
    "kong_points",
    "chaozhuang",
    "draw_penalty",
    "other",
)
#: The hand-end settlement's payments by the engine's reason word (南昌's ``settle_hand``).
SETTLEMENT_KINDS = {
    "精分": "jing",
    "冲关": "chongguan",
    "杠精": "gang_jing",
    "暗杠": "kong_points",
    "明杠": "kong_points",
    "抄庄": "chaozhuang",
    "荒庄": "draw_penalty",
}


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
    #: ``bawang`` (霸王精) and ``liable`` (包) on a 精 line
    marks: tuple[str, ...] = ()


@dataclass(frozen=True)
class JingRow:
    """One seat's 精 at the hand end (南昌 精 settlement): ``zheng`` 正精 and ``fu`` 副精 held,
    ``points`` s = 2 × 正精 + 1 × 副精, ``amount`` what each other seat owes it (after 冲关 and
    霸王精; None when the hand settled no 精, a drawn hand without ``jing_on_draw``), ``gang_jing``
    (杠精 from each), ``liable`` the seat paying its 冲关 for all three (包), ``kong_points`` its
    杠分 net and ``net`` its whole change from the settlement (精, kongs, 抄庄, 荒庄)."""

    seat: int
    zheng: int
    fu: int
    points: int
    amount: int | None
    chongguan: bool
    bawang: bool
    gang_jing: int
    liable: int | None
    kong_points: int
    net: int


def jing_rows(result: HandResult) -> list[JingRow]:
    """Each seat's 精 line of the hand's settlement (empty for a variant without one)."""
    rows = []
    for seat, line in enumerate(result.settlement):
        amount = line.get("amount")
        liable = line.get("liable")
        rows.append(
            JingRow(
                seat=seat,
                zheng=int(line.get("zheng", 0)),
                fu=int(line.get("fu", 0)),
                points=int(line.get("jing", 0)),
                amount=None if amount is None else int(amount),
                chongguan=bool(line.get("chongguan", False)),
                bawang=bool(line.get("bawang", False)),
                gang_jing=int(line.get("gang_jing", 0)),
                liable=None if liable is None else int(liable),
                kong_points=int(line.get("kong_points", 0)),
                net=int(line.get("net", 0)),
            )
        )
    return rows


def _settlement_line(payer: int, payee: int, amount: int, reason: str) -> PayLine | None:
    """A payment of the hand-end settlement as its line (``冲关 · 精 over the bar · 霸王精 · 包
    (supplied the 精)`` → ``chongguan`` marked ``bawang``, ``liable``), or None for another."""
    kind = SETTLEMENT_KINDS.get(_reason(reason))
    if kind is None:
        return None
    marks = tuple(
        mark for mark, word in (("bawang", "霸王精"), ("liable", "包 (")) if word in reason
    )
    return PayLine(payer, payee, amount, kind, _reason(reason), marks)


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
        settled = _settlement_line(payer, payee, amount, reason) if result.settlement else None
        if settled is not None:
            lines.append(settled)
            continue
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
