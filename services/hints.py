"""听牌提示 (wait hints): the winning tiles of a ready hand and how many of each are unseen.

"Unseen" is counted from the player's own point of view: 4 copies, less the ones in their own
hand, in every exposed meld, in every river and the face-up 宝 indicator.
"""

from __future__ import annotations

from services.model import HandView, TableView


def unseen_counts(hand: HandView, table: TableView) -> list[int]:
    """How many of each of the 34 kinds this seat has not seen (never below 0)."""
    seen = [0] * 34
    own = list(hand.concealed) + ([hand.drawn] if hand.drawn is not None else [])
    for kind in own:
        seen[kind] += 1
    for seat in table.seats:
        for meld in seat.melds:
            for kind in meld.tiles:
                seen[kind] += 1
        for kind in seat.river:
            seen[kind] += 1
    if table.bao_indicator is not None:
        seen[table.bao_indicator] += 1
    return [max(0, 4 - n) for n in seen]


def wait_hints(hand: HandView, table: TableView) -> tuple[tuple[int, int], ...]:
    """``(winning kind, unseen copies)`` for each of the hand's waits, in kind order.

    >>> from services.model import PublicSeat
    >>> t = TableView(1, "turn", 0, 0, 50, tuple(PublicSeat(i, 13) for i in range(4)))
    >>> h = HandView(0, (0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 8), None, (), (), waits=(8,))
    >>> wait_hints(h, t)
    ((8, 3),)
    """
    unseen = unseen_counts(hand, table)
    return tuple((kind, unseen[kind]) for kind in sorted(set(hand.waits)))
