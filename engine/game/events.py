"""Events the state machine emits, each tagged with who may see it.

``visible_to`` is ``None`` for everyone (the channel table) or one seat (that player's DM).
``data`` holds JSON-ready values only. Kinds (``Event.kind``):

- ``hand_started`` (public): hand number, dealer, value per 炮, SHA-256 commitment of seed+wall
- ``dice`` (public): ``purpose`` (dealer / deal / indicator / replacement) and ``values``
- ``dealt`` (private): the seat's dealt tiles
- ``indicator`` (public): 上饶 跌宝牌 and the 宝 kind
- ``flower`` (public): 九江 a 发 laid open; ``replaced`` is private as ``drawn``
- ``drawn`` (private; a public twin ``drew`` without the tile): a tile drawn (``from_tail``)
- ``discarded`` (public), ``claimed`` (public: pong / kong / chi), ``kong`` (public; concealed
  kongs show the kind, as on the table), ``ready`` (public 报听), ``touji`` (private 偷机: it would tell the hand)
- ``claim_window`` (private per eligible seat: the options), ``passed`` (private)
- ``kong_money`` (public, 新余), ``won`` / ``drawn_hand`` (public), ``hand_ended`` (public:
  deltas, totals, next dealer, seed and wall revealed)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing that happened. ``visible_to``: ``None`` = everyone, else that seat only."""

    kind: str
    visible_to: int | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "visible_to": self.visible_to, "data": self.data}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Event:
        return cls(d["kind"], d["visible_to"], dict(d["data"]))


def visible(events: list[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see (``None``: the public ones only)."""
    return [
        e for e in events if e.visible_to is None or (seat is not None and e.visible_to == seat)
    ]
