"""The one codec of the game's actions between buttons, the service, the log and the engine.

A button names an action by an :class:`ActionKey` (``kind`` plus an optional ``arg``) inside
its ``custom_id`` ``mj:<game id>:<kind>[:<arg>]`` (:data:`CUSTOM_ID`, :func:`custom_id`,
:func:`parse_custom_id`); the engine's typed actions (:mod:`engine.game.actions`) map to keys
and back here (:func:`key_of`, :func:`action_of`), and the durable log stores the engine's own
action JSON (:func:`log_step`, :func:`read_step`, :func:`entry_action`, :func:`read_logged`; the
button form of older logs still reads).

==============================  ===========================================
``discard:5m``                  ``Discard(4)`` 打牌
``win``                         ``Win()`` 胡 (自摸, or on a discard / robbed kong)
``pass``                        ``Pass()`` 过
``pong`` / ``kong``             ``Pong()`` / ``Kong()`` 碰 / 明杠 (claiming a discard)
``kong:5m``                     ``ConcealedKong(4)`` 暗杠 or ``AddedKong(4)`` 补杠 (one's turn),
                                or ``IndicatorKong()`` when 5m is the 跌宝牌's kind
``chi:345m``                    ``Chi((2, 3, 4))`` 吃
``touji:5m``                    ``KeepDrawing(4)`` (偷机: decline 宝吊头, discard 5m)
``ready:5m``                    ``DeclareReady(4)`` (报听 with the discard 5m)
``next``                        ``NextHand()`` 下一盘
==============================  ===========================================

Buttons drawn before this codec carry the same ``custom_id`` format, so they keep working.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.game.actions import (
    Action,
    ActionError,
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
    action_from_json,
    action_to_json,
)
from engine.tiles import kind_of, tile_str

#: A game button's ``custom_id`` (the ``DynamicItem`` template): game id, kind, optional arg.
CUSTOM_ID = r"mj:(?P<gid>[0-9]{1,20}):(?P<kind>[a-z]{1,12})(?::(?P<arg>[0-9a-z]{1,12}))?"
_CUSTOM_ID_RX = re.compile(CUSTOM_ID)
#: every tile kind's name in buttons (``5m``), and back
_NAMES: tuple[str, ...] = tuple(tile_str(k) for k in range(34))
_KINDS: dict[str, int] = {name: k for k, name in enumerate(_NAMES)}


@dataclass(frozen=True, order=True)
class ActionKey:
    """An action as a button names it: ``kind`` plus an optional ``arg`` (a tile such as
    ``5m``, or a chi shape such as ``345m``). ``mj:<game>:<kind>[:<arg>]`` is its custom_id."""

    kind: str
    arg: str | None = None

    def custom_id(self, game_id: int) -> str:
        """The button custom_id ``mj:<game id>:<kind>[:<arg>]``."""
        return custom_id(game_id, self.kind, self.arg)


def custom_id(game_id: int, kind: str, arg: str | None = None) -> str:
    """``mj:<game id>:<kind>[:<arg>]``."""
    tail = f":{arg}" if arg else ""
    return f"mj:{game_id}:{kind}{tail}"


def parse_custom_id(text: str) -> tuple[int, ActionKey] | None:
    """``(game id, key)`` of a game button's ``custom_id`` (None: not one)."""
    m = _CUSTOM_ID_RX.fullmatch(text)
    if m is None:
        return None
    return int(m["gid"]), ActionKey(m["kind"], m["arg"])


# --- keys ↔ engine actions ------------------------------------------------------------------


def _name(kind: int) -> str:
    """The button name of a tile kind (``4`` → ``5m``)."""
    return _NAMES[kind]


def _kind(name: str) -> int:
    """The tile kind of a button name (``5m`` → ``4``); ``ValueError`` if it is none."""
    kind = _KINDS.get(name)
    if kind is None:
        return kind_of(name)  # the engine's notation explains what is wrong
    return kind


def chi_arg(tiles: tuple[int, ...]) -> str:
    """``(2, 3, 4)`` → ``345m``."""
    return "".join(_name(t)[0] for t in sorted(tiles)) + _name(tiles[0])[1]


def key_of(action: Action, indicator: int | None = None) -> ActionKey:
    """The button key of an engine action. ``indicator``: the kind of the hand's 跌宝牌
    (上饶), which names an ``IndicatorKong``."""
    if isinstance(action, Discard):
        return ActionKey("discard", _name(action.tile))
    if isinstance(action, Win):
        return ActionKey("win")
    if isinstance(action, Pass):
        return ActionKey("pass")
    if isinstance(action, Pong):
        return ActionKey("pong")
    if isinstance(action, Kong):
        return ActionKey("kong")
    if isinstance(action, ConcealedKong | AddedKong):
        return ActionKey("kong", _name(action.kind))
    if isinstance(action, IndicatorKong):
        return ActionKey("kong", _name(indicator) if indicator is not None else "bao")
    if isinstance(action, Chi):
        return ActionKey("chi", chi_arg(action.tiles))
    if isinstance(action, KeepDrawing):
        return ActionKey("touji", _name(action.tile))
    if isinstance(action, DeclareReady):
        return ActionKey("ready", _name(action.tile))
    if isinstance(action, NextHand):
        return ActionKey("next")
    raise ValueError(f"unknown engine action {action!r}")


def direct_action(key: ActionKey) -> Action | None:
    """The engine action a key names on its own (None: not an action). ``kong:5m`` reads as
    ``ConcealedKong``: which kong it is depends on the hand (see :func:`action_of`)."""
    try:
        tile = _kind(key.arg) if key.arg and key.kind != "chi" else None
        if key.kind in ("win", "pass", "pong", "next"):
            if key.arg is not None:
                return None
            bare: dict[str, type[Win | Pass | Pong | NextHand]] = {
                "win": Win,
                "pass": Pass,
                "pong": Pong,
                "next": NextHand,
            }
            return bare[key.kind]()
        if key.kind == "chi" and key.arg and len(key.arg) == 4:
            suit = key.arg[-1]
            a, b, c = sorted(_kind(f"{d}{suit}") for d in key.arg[:3])
            return Chi((a, b, c))
        if key.kind == "kong":
            return Kong() if tile is None else ConcealedKong(tile)
        if key.kind == "discard" and tile is not None:
            return Discard(tile)
        if key.kind == "touji" and tile is not None:
            return KeepDrawing(tile)
        if key.kind == "ready" and tile is not None:
            return DeclareReady(tile)
    except ValueError:
        return None
    return None


def action_of(
    key: ActionKey, legal: Iterable[Action], indicator: int | None = None
) -> Action | None:
    """The action ``key`` names among ``legal`` (a seat's legal actions now), else the action
    it names on its own (the engine then explains why it is refused), else None."""
    direct = direct_action(key)
    if direct is not None and not isinstance(direct, ConcealedKong):
        return direct
    for action in legal:  # a kong: concealed, added or indicator
        if key_of(action, indicator) == key:
            return action
    return direct


# --- the durable log -------------------------------------------------------------------------


def log_step(seat: int, action: Action) -> list[Any]:
    """One step of a log entry: ``[seat, engine action JSON]``."""
    return [seat, action_to_json(action)]


#: an action as a log entry holds it: the engine's JSON (``{"type": "discard", "tile": 4}``),
#: or the button key of logs written before (resolved against the state when replayed)
Logged = dict[str, Any] | ActionKey


def read_step(step: Any) -> tuple[int, Logged]:
    """One logged step: ``[seat, action JSON]``, or the older ``[seat, kind, arg]``."""
    if isinstance(step, list | tuple) and len(step) == 2 and isinstance(step[1], dict):
        return int(step[0]), dict(step[1])
    if isinstance(step, list | tuple) and len(step) == 3:
        return int(step[0]), ActionKey(str(step[1]), step[2])
    raise ActionError(f"not a logged step: {step!r:.80}")


def entry_action(entry: dict[str, Any]) -> Logged:
    """The seat's own action of an ``act`` log entry: ``"a"`` (engine JSON), or the older
    ``"kind"`` / ``"arg"`` (button form)."""
    if "a" in entry:
        return dict(entry["a"])
    return ActionKey(str(entry["kind"]), entry.get("arg"))


def read_logged(logged: Logged, legal: Iterable[Action], indicator: int | None = None) -> Action:
    """The engine action of a logged one (a button key is resolved among ``legal``, the
    seat's legal actions in the state it was played in). Raises ``ActionError``."""
    if isinstance(logged, ActionKey):
        action = action_of(logged, legal, indicator)
        if action is None:
            raise ActionError(f"not an action: {logged.kind} {logged.arg or ''}".strip())
        return action
    return decode_logged(logged)


#: engine actions already read from the log, by their JSON's items (an action is immutable)
_DECODED: dict[tuple[tuple[str, Any], ...], Action] = {}
_DECODED_MAX = 4096


def decode_logged(data: dict[str, Any]) -> Action:
    """:func:`engine.game.action_from_json`, read once per distinct action: a replay reads
    the same few actions (``discard`` of 34 kinds, ``pass``, ``pong`` …) thousands of times.
    Only JSON whose values are plain ``str`` / ``int`` is kept (a chi's list of tiles is
    read each time). Raises ``ActionError``."""
    try:
        key = tuple(data.items())
    except AttributeError:
        return action_from_json(data)  # not an object: the engine says what is wrong
    if not all(type(v) in (str, int) for _, v in key):
        return action_from_json(data)
    hit = _DECODED.get(key)
    if hit is None:
        hit = action_from_json(data)
        if len(_DECODED) >= _DECODED_MAX:
            _DECODED.clear()
        _DECODED[key] = hit
    return hit


def entry_key(entry: dict[str, Any], indicator: int | None = None) -> ActionKey:
    """The button key of an ``act`` entry's own action, whichever form the log holds."""
    logged = entry_action(entry)
    return logged if isinstance(logged, ActionKey) else key_of(action_from_json(logged), indicator)
