"""南昌麻将 payments (RULES §8.4–§8.6) — being written."""

from __future__ import annotations

from engine.payments import Payment
from engine.variants.base import PayRequest


def pay_win(r: PayRequest) -> list[Payment]:
    """The payments of one 南昌 winner (not written yet)."""
    raise NotImplementedError("南昌 payments are being written")
