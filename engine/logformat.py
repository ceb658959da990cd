"""The game log format (牌谱), version 1: what ``/mahjong export game`` attaches,
``python -m engine.simulate --log FILE`` writes and ``python -m engine.replay`` /
``python -m engine.verify`` read. The full description is ``docs/log-format.md``.

A log is one JSON object::

    {"format": "jiangxi-mahjong-log", "version": 1, "variant": "xinyu", "options": {...},
     "games": [{"id": ..., "seed": null | hex, "players": [...], "events": [...],
                "hands": [HAND, ...]}]}

and each ``HAND`` holds everything needed to replay and check it on its own::

    {"hand": 1, "seed": hex, "commitment": hex, "dealer": 0, "scores_before": [0, 0, 0, 0],
     "value_per_pao": 1, "draws_in_row": 0, "wall": [ids...],
     "events": [deal events], "actions": [{"seat": 2, "action": {...}, "events": [...]}],
     "result": {...the engine's hand result...}, "scores_after": [...]}

Actions are the engine's own JSON (:func:`engine.game.actions.action_to_json`), events the
engine's (:meth:`engine.game.events.Event.to_json`, private ones included: a log holds
finished hands only, whose tiles are revealed anyway). The game seed is given only once no
hand of the game can still be dealt (it derives every later hand's seed).

:class:`Recorder` writes the format while a game is played; :func:`read_log` checks a log
and returns it as :class:`GameLog` values. Pure: no I/O here.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine import variants
from engine.game.actions import Action, ActionError, NextHand, action_from_json, action_to_json
from engine.game.events import Event
from engine.game.state import PHASE_OVER, GameState
from engine.options import OptionError, make_options, options_to_dict

FORMAT = "jiangxi-mahjong-log"
VERSION = 1
#: Versions this code reads.
READABLE = (1,)
#: Limits that keep a hostile log from costing much.
MAX_GAMES = 10_000
MAX_HANDS = 100_000
MAX_ACTIONS = 2_000  # per hand (the simulator's safety net is the same)


class LogError(ValueError):
    """A log that cannot be read; the message says where and why."""


def _json(value: Any) -> Any:
    """A JSON-ready deep copy (tuples become lists), so records never share state."""
    return json.loads(json.dumps(value))


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class LoggedAction:
    seat: int
    action: Action
    events: list[dict[str, Any]] | None = None  # None: not recorded


@dataclass
class LoggedHand:
    """One finished hand of a log."""

    hand: int  # 1-based, as players count (``#game-hand`` codes)
    seed: str
    commitment: str
    dealer: int
    scores_before: list[int]
    value_per_pao: int
    draws_in_row: int
    actions: list[LoggedAction]
    result: dict[str, Any] | None
    scores_after: list[int] | None = None
    wall: list[int] | None = None
    events: list[dict[str, Any]] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand": self.hand,
            "seed": self.seed,
            "commitment": self.commitment,
            "dealer": self.dealer,
            "scores_before": list(self.scores_before),
            "value_per_pao": self.value_per_pao,
            "draws_in_row": self.draws_in_row,
        }
        if self.wall is not None:
            out["wall"] = list(self.wall)
        if self.events is not None:
            out["events"] = self.events
        out["actions"] = [
            {"seat": a.seat, "action": action_to_json(a.action)}
            | ({} if a.events is None else {"events": a.events})
            for a in self.actions
        ]
        out["result"] = self.result
        if self.scores_after is not None:
            out["scores_after"] = list(self.scores_after)
        return out


@dataclass
class LoggedGame:
    id: Any
    seed: str | None
    players: list[dict[str, Any]]
    hands: list[LoggedHand]
    events: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)  # status, dates: carried as is

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "seed": self.seed,
            **self.extra,
            "players": self.players,
            "events": self.events,
            "hands": [h.to_json() for h in self.hands],
        }


@dataclass
class GameLog:
    variant: str
    options: dict[str, Any]
    games: list[LoggedGame]
    version: int = VERSION

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "variant": self.variant,
            "options": self.options,
            "games": [g.to_json() for g in self.games],
        }

    def hands(self) -> Iterable[tuple[LoggedGame, LoggedHand]]:
        for g in self.games:
            for h in g.hands:
                yield g, h


# --------------------------------------------------------------------------- writing


class Recorder:
    """Builds the log of one game while it is played (or replayed from another log).

    ``Recorder(state, events)`` right after :func:`engine.game.new_game`, then
    :meth:`step` after every :func:`engine.game.apply`; :meth:`game` gives the
    :class:`LoggedGame` (finished hands only). ``with_events=False`` leaves events out
    (smaller files; the replay then checks results only).
    """

    def __init__(
        self,
        state: GameState,
        events: list[Event],
        *,
        game_id: Any = None,
        players: list[dict[str, Any]] | None = None,
        with_events: bool = True,
    ) -> None:
        self.variant = state.variant
        self.options = options_to_dict(state.options)
        self.with_events = with_events
        self.game_seed = state.seed
        self.id = game_id
        self.players = players or [{"seat": i, "name": f"AI {i + 1}", "ai": True} for i in range(4)]
        self.hands: list[LoggedHand] = []
        self.current: LoggedHand | None = None
        start = self._split_start(events)
        self.events = [e.to_json() for e in start] if with_events else []
        self._begin(state, events[len(start) :])

    @staticmethod
    def _split_start(events: list[Event]) -> list[Event]:
        """The game's own events before the first ``hand_started`` (上饶's dealer roll)."""
        for i, e in enumerate(events):
            if e.kind == "hand_started":
                return events[:i]
        return list(events)

    def _begin(self, state: GameState, events: list[Event]) -> None:
        h = state.hand
        started = next((e for e in events if e.kind == "hand_started"), None)
        commitment = str(started.data["commitment"]) if started is not None else ""
        self.current = LoggedHand(
            hand=h.number + 1,
            seed=h.seed,
            commitment=commitment,
            dealer=h.dealer,
            scores_before=list(state.scores),
            value_per_pao=state.value_per_pao,
            draws_in_row=state.draws_in_row,
            actions=[],
            result=None,
            events=[_json(e.to_json()) for e in events] if self.with_events else None,
        )
        self._maybe_end(state)

    def _maybe_end(self, state: GameState) -> None:
        cur = self.current
        if cur is not None and state.hand.phase == PHASE_OVER and cur.result is None:
            cur.result = _json(state.hand.result)
            cur.scores_after = list(state.scores)
            cur.wall = list(state.hand.wall)
            self.hands.append(cur)

    def step(self, seat: int, action: Action, state: GameState, events: list[Event]) -> None:
        """Record ``action`` by ``seat`` that led to ``state`` with ``events``."""
        if isinstance(action, NextHand):
            self._begin(state, events)
            return
        cur = self.current
        if cur is None or cur.result is not None:
            raise LogError("an action after the hand ended that is not NextHand")
        cur.actions.append(
            LoggedAction(
                seat,
                action,
                [_json(e.to_json()) for e in events] if self.with_events else None,
            )
        )
        self._maybe_end(state)

    def game(self, *, reveal_seed: bool = False, **extra: Any) -> LoggedGame:
        """The game so far: its finished hands. ``reveal_seed`` only when no further hand
        can be dealt (the game seed derives every hand's seed)."""
        return LoggedGame(
            id=self.id,
            seed=self.game_seed if reveal_seed else None,
            players=copy.deepcopy(self.players),
            hands=list(self.hands),
            events=list(self.events),
            extra=dict(extra),
        )

    def log(self, *, reveal_seed: bool = False) -> GameLog:
        """A whole log holding this one game."""
        return GameLog(self.variant, dict(self.options), [self.game(reveal_seed=reveal_seed)])


# --------------------------------------------------------------------------- reading


def _need(d: Any, key: str, kinds: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(d, dict) or key not in d:
        raise LogError(f"{where}: missing {key!r}")
    v = d[key]
    if not isinstance(v, kinds) or (isinstance(v, bool) and bool not in _tuple(kinds)):
        raise LogError(f"{where}: {key!r} has the wrong type ({type(v).__name__})")
    return v


def _tuple(kinds: type | tuple[type, ...]) -> tuple[type, ...]:
    return kinds if isinstance(kinds, tuple) else (kinds,)


def _scores(v: Any, where: str) -> list[int]:
    if not isinstance(v, list) or len(v) != 4 or not all(type(x) is int for x in v):
        raise LogError(f"{where}: scores are four integers")
    return list(v)


def _seat(v: Any, where: str) -> int:
    if type(v) is not int or not 0 <= v < 4:
        raise LogError(f"{where}: a seat is 0–3, not {v!r:.20}")
    return v


def _events(v: Any, where: str) -> list[dict[str, Any]] | None:
    if v is None:
        return None
    if not isinstance(v, list) or not all(
        isinstance(e, dict) and isinstance(e.get("kind"), str) for e in v
    ):
        raise LogError(f"{where}: events are objects with a 'kind'")
    return v


def _hand(d: Any, where: str) -> LoggedHand:
    if not isinstance(d, dict):
        raise LogError(f"{where}: a hand is an object")
    number = _need(d, "hand", int, where)
    where = f"{where} (hand {number})"
    seed = _need(d, "seed", str, where)
    commitment = _need(d, "commitment", str, where)
    raw_actions = _need(d, "actions", list, where)
    if len(raw_actions) > MAX_ACTIONS:
        raise LogError(f"{where}: more than {MAX_ACTIONS} actions")
    actions = []
    for i, a in enumerate(raw_actions):
        w = f"{where} action {i + 1}"
        if not isinstance(a, dict):
            raise LogError(f"{w}: an action entry is an object")
        try:
            action = action_from_json(a.get("action"))
        except ActionError as error:
            raise LogError(f"{w}: {error}") from error
        if isinstance(action, NextHand):
            raise LogError(f"{w}: next_hand is not part of a hand")
        actions.append(LoggedAction(_seat(a.get("seat"), w), action, _events(a.get("events"), w)))
    wall = d.get("wall")
    if wall is not None and (
        not isinstance(wall, list) or not all(type(t) is int and 0 <= t < 136 for t in wall)
    ):
        raise LogError(f"{where}: 'wall' lists physical tile ids 0–135")
    result = d.get("result")
    if result is not None and not isinstance(result, dict):
        raise LogError(f"{where}: 'result' is an object")
    after = d.get("scores_after")
    return LoggedHand(
        hand=number,
        seed=seed,
        commitment=commitment,
        dealer=_seat(d.get("dealer"), where),
        scores_before=_scores(d.get("scores_before"), where),
        value_per_pao=_need(d, "value_per_pao", int, where),
        draws_in_row=_need(d, "draws_in_row", int, where),
        actions=actions,
        result=result,
        scores_after=None if after is None else _scores(after, where),
        wall=wall,
        events=_events(d.get("events"), where),
    )


def read_log(data: Any) -> GameLog:
    """Check a parsed JSON log and return it; raises :class:`LogError` saying what is wrong."""
    if not isinstance(data, dict):
        raise LogError("a log is a JSON object")
    if data.get("format") != FORMAT:
        raise LogError(f"not a {FORMAT} file (format is {data.get('format')!r:.40})")
    version = data.get("version")
    if version not in READABLE:
        raise LogError(f"log version {version!r:.20} is not readable here (reads {READABLE})")
    variant = data.get("variant")
    if not isinstance(variant, str) or not variants.is_known(variant):
        known = ", ".join(variants.names())
        raise LogError(f"unknown variant {variant!r:.40}: one of {known}")
    options = data.get("options") or {}
    try:
        opts = make_options(variant, options)
    except (OptionError, TypeError) as error:
        raise LogError(f"options: {error}") from error
    raw_games = _need(data, "games", list, "log")
    if len(raw_games) > MAX_GAMES:
        raise LogError(f"more than {MAX_GAMES} games")
    games = []
    total = 0
    for gi, g in enumerate(raw_games):
        where = f"game {gi + 1}"
        if not isinstance(g, dict):
            raise LogError(f"{where}: a game is an object")
        seed = g.get("seed")
        if seed is not None and not isinstance(seed, str):
            raise LogError(f"{where}: 'seed' is a string or null")
        hands_raw = _need(g, "hands", list, where)
        total += len(hands_raw)
        if total > MAX_HANDS:
            raise LogError(f"more than {MAX_HANDS} hands")
        players = g.get("players") or []
        if not isinstance(players, list):
            raise LogError(f"{where}: 'players' is a list")
        extra = {
            k: v for k, v in g.items() if k not in ("id", "seed", "players", "events", "hands")
        }
        games.append(
            LoggedGame(
                id=g.get("id"),
                seed=seed,
                players=players,
                hands=[_hand(h, where) for h in hands_raw],
                events=_events(g.get("events"), where) or [],
                extra=extra,
            )
        )
    return GameLog(variant, options_to_dict(opts), games, version)


def loads(text: str | bytes) -> GameLog:
    """:func:`read_log` of JSON text."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise LogError(f"not JSON: {error}") from error
    return read_log(data)


def dumps(log: GameLog, *, indent: int | None = None) -> str:
    """The log as JSON text (UTF-8 names kept readable)."""
    return json.dumps(log.to_json(), ensure_ascii=False, indent=indent)


__all__ = [
    "FORMAT",
    "VERSION",
    "GameLog",
    "LogError",
    "LoggedAction",
    "LoggedGame",
    "LoggedHand",
    "Recorder",
    "dumps",
    "loads",
    "read_log",
]
