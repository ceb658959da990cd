"""Typed player actions (the moves of the table flow) and their JSON codec.

Every action is a small frozen value; the seat that takes it is passed beside it to
:func:`engine.game.machine.apply`. Tiles are *kinds* (0–33); the engine chooses which physical
copy moves.

>>> action_to_json(Chi((3, 4, 5)))
{'type': 'chi', 'tiles': [3, 4, 5]}
>>> action_from_json({"type": "discard", "tile": 31})
Discard(tile=31)
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar


class ActionError(ValueError):
    """An action that cannot be read from JSON."""


@dataclass(frozen=True)
class Discard:
    """打牌: discard one tile of this kind."""

    tile: int
    type: ClassVar[str] = "discard"


@dataclass(frozen=True)
class Chi:
    """吃: claim the 上家's discard into the sequence ``tiles`` (three kinds, sorted)."""

    tiles: tuple[int, int, int]
    type: ClassVar[str] = "chi"


@dataclass(frozen=True)
class Pong:
    """碰: claim the discard with two matching tiles."""

    type: ClassVar[str] = "pong"


@dataclass(frozen=True)
class Kong:
    """明杠: claim the discard with three matching tiles (replacement from the tail)."""

    type: ClassVar[str] = "kong"


@dataclass(frozen=True)
class ConcealedKong:
    """暗杠: four tiles of ``kind`` in hand, declared on one's turn."""

    kind: int
    type: ClassVar[str] = "concealed_kong"


@dataclass(frozen=True)
class AddedKong:
    """补杠 / 碰杠: add the fourth ``kind`` to one's own pong (may be robbed: 抢杠)."""

    kind: int
    type: ClassVar[str] = "added_kong"


@dataclass(frozen=True)
class IndicatorKong:
    """上饶: the three remaining tiles of the 跌宝牌's kind, declared as a kong (no replacement)."""

    type: ClassVar[str] = "indicator_kong"


@dataclass(frozen=True)
class Win:
    """胡: self-drawn (自摸) on one's turn, or on a discard / robbed kong in a claim window."""

    type: ClassVar[str] = "win"


@dataclass(frozen=True)
class Pass:
    """过: decline every claim in the open window."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True)
class KeepDrawing:
    """偷机: decline a 宝吊头 self-draw win and discard ``tile`` to keep drawing."""

    tile: int
    type: ClassVar[str] = "keep_drawing"


@dataclass(frozen=True)
class DeclareReady:
    """报听 (九江): discard ``tile`` and declare the hand ready; it is locked from then on."""

    tile: int
    type: ClassVar[str] = "declare_ready"


@dataclass(frozen=True)
class NextHand:
    """下一盘: start the next hand once this one is over."""

    type: ClassVar[str] = "next_hand"


Action = (
    Discard
    | Chi
    | Pong
    | Kong
    | ConcealedKong
    | AddedKong
    | IndicatorKong
    | Win
    | Pass
    | KeepDrawing
    | DeclareReady
    | NextHand
)

ACTION_TYPES: dict[str, type[Action]] = {
    c.type: c
    for c in (
        Discard,
        Chi,
        Pong,
        Kong,
        ConcealedKong,
        AddedKong,
        IndicatorKong,
        Win,
        Pass,
        KeepDrawing,
        DeclareReady,
        NextHand,
    )
}


def action_to_json(action: Action) -> dict[str, Any]:
    """``{"type": ..., field: value}``; tuples become lists."""
    out: dict[str, Any] = {"type": action.type}
    for f in fields(action):
        v = getattr(action, f.name)
        out[f.name] = list(v) if isinstance(v, tuple) else v
    return out


def _kind(value: Any, name: str) -> int:
    if type(value) is not int or not 0 <= value < 34:
        raise ActionError(f"action field {name!r} must be a tile kind 0–33, not {value!r}")
    return value


def action_from_json(data: Any) -> Action:
    """Read an action written by :func:`action_to_json`; raises :class:`ActionError`."""
    if not isinstance(data, dict) or "type" not in data:
        raise ActionError(f"an action is an object with a 'type', not {data!r:.80}")
    cls = ACTION_TYPES.get(data["type"])
    if cls is None:
        raise ActionError(
            f"unknown action type {data['type']!r:.40}: one of {', '.join(ACTION_TYPES)}"
        )
    names = {f.name for f in fields(cls)}
    extra = set(data) - names - {"type"}
    if extra:
        raise ActionError(
            f"action {cls.type!r} has no field(s) {', '.join(sorted(map(str, extra)))}"
        )
    kwargs: dict[str, Any] = {}
    for name in names:
        if name not in data:
            raise ActionError(f"action {cls.type!r} needs field {name!r}")
        v = data[name]
        if name == "tiles":
            if not isinstance(v, list | tuple) or len(v) != 3:
                raise ActionError("chi 'tiles' must be three tile kinds")
            kwargs[name] = tuple(sorted(_kind(x, name) for x in v))
        else:
            kwargs[name] = _kind(v, name)
    return cls(**kwargs)
