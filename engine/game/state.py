"""Game, hand and seat state. Treated as immutable: the machine copies, then changes the copy.

Everything serialises to JSON-ready dicts and back losslessly (:func:`state_to_json`,
:func:`state_from_json`); the database stores these snapshots beside the action log.
Physical tile ids are used throughout (``kind = id >> 2``), so every tile is always in exactly
one place: the wall (from ``head`` to ``tail``), a hand, a meld, a river, the flowers, or the
Shangrao indicator.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.options import RuleOptions, make_options, options_to_dict

PHASE_TURN = "turn"  # the seat ``turn`` acts: win, kong or discard
PHASE_CLAIM = "claim"  # a discard waits for claims (win > kong = pong > chi)
PHASE_ROB = "rob"  # an added kong waits for 抢杠
PHASE_OVER = "over"  # the hand has ended; NextHand starts the next one


@dataclass(frozen=True)
class MeldRec:
    """A meld on the table with its physical tiles. ``kind`` is a MeldKind value string;
    ``fed_by`` the seat whose discard was claimed (叁包), ``claimed`` that physical tile (the
    one players turn sideways), ``added`` a kong made from one's own pong (补杠).

    Saved states from before ``claimed``/``added`` existed read back with None/False."""

    kind: str
    ids: tuple[int, ...]
    fed_by: int | None = None
    claimed: int | None = None
    added: bool = False

    def to_json(self) -> list[Any]:
        out: list[Any] = [self.kind, list(self.ids), self.fed_by]
        if self.claimed is not None or self.added:
            out += [self.claimed, self.added]
        return out

    @classmethod
    def from_json(cls, d: list[Any]) -> MeldRec:
        if len(d) > 3:
            return cls(d[0], tuple(d[1]), d[2], d[3], bool(d[4]))
        return cls(d[0], tuple(d[1]), d[2])


@dataclass
class SeatState:
    """One player's tiles and per-hand counters.

    Saved states from before ``four_bao_lost`` existed read back with False."""

    hand: list[int] = field(default_factory=list)  # concealed physical tiles, sorted
    melds: list[MeldRec] = field(default_factory=list)
    river: list[int] = field(default_factory=list)  # discards not claimed
    flowers: list[int] = field(default_factory=list)  # 九江 发 laid open
    discards: int = 0  # discards made this hand (0 = still on the first turn)
    flown: int = 0  # 飞宝: 宝 discarded
    bao_drawn: int = 0  # 宝 received this hand (deal and draws): 接宝 at 3, 四个宝 at 4
    ready: bool = False  # 九江 报听
    waits: tuple[int, ...] = ()  # the waits at 报听 (locked hand)
    missed_win: bool = False  # 九江 rule 3 until own next draw
    touji: bool = False  # 偷机 declared (declined a 宝吊头 self-draw)
    kong_chain: int = 0  # kongs declared in a row this turn (杠上开花)
    drawn: int | None = None  # the tile drawn this turn (None after a claim)
    four_bao_lost: bool = False  # discarded while holding 4 宝 drawn: no 四个宝 this hand
    #: 南昌 弃先胡后: kinds whose winnable discard this seat passed, barred until its next draw
    missed_kinds: tuple[int, ...] = ()

    def copy(self) -> SeatState:
        return SeatState(
            list(self.hand),
            list(self.melds),
            list(self.river),
            list(self.flowers),
            self.discards,
            self.flown,
            self.bao_drawn,
            self.ready,
            self.waits,
            self.missed_win,
            self.touji,
            self.kong_chain,
            self.drawn,
            self.four_bao_lost,
            self.missed_kinds,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand": list(self.hand),
            "melds": [m.to_json() for m in self.melds],
            "river": list(self.river),
            "flowers": list(self.flowers),
            "discards": self.discards,
            "flown": self.flown,
            "bao_drawn": self.bao_drawn,
            "ready": self.ready,
            "waits": list(self.waits),
            "missed_win": self.missed_win,
            "touji": self.touji,
            "kong_chain": self.kong_chain,
            "drawn": self.drawn,
            "four_bao_lost": self.four_bao_lost,
        }
        if self.missed_kinds:  # written only when set: other variants' snapshots unchanged
            out["missed_kinds"] = list(self.missed_kinds)
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SeatState:
        return cls(
            list(d["hand"]),
            [MeldRec.from_json(m) for m in d["melds"]],
            list(d["river"]),
            list(d["flowers"]),
            d["discards"],
            d["flown"],
            d["bao_drawn"],
            d["ready"],
            tuple(d["waits"]),
            d["missed_win"],
            d["touji"],
            d["kong_chain"],
            d["drawn"],
            d.get("four_bao_lost", False),  # states saved before it existed: not lost
            tuple(d.get("missed_kinds", ())),
        )


@dataclass
class ClaimWindow:
    """An open claim window on ``tile`` (a discard, or the 4th tile of an added kong: 抢杠).

    ``options[s]`` lists the JSON actions seat ``s`` may take (``None``: not asked);
    ``responses[s]`` what it answered (``None``: still waiting).
    """

    kind: str  # "discard" | "rob"
    tile: int
    from_seat: int
    options: list[list[dict[str, Any]] | None]
    responses: list[dict[str, Any] | None]

    def copy(self) -> ClaimWindow:
        return ClaimWindow(
            self.kind, self.tile, self.from_seat, list(self.options), list(self.responses)
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "tile": self.tile,
            "from_seat": self.from_seat,
            "options": self.options,
            "responses": self.responses,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ClaimWindow:
        return cls(d["kind"], d["tile"], d["from_seat"], list(d["options"]), list(d["responses"]))


def _wildcards_of_json(d: dict[str, Any]) -> frozenset[int]:
    """The wildcard kinds of a stored hand: ``wildcards`` (a list), or the single ``bao`` of
    snapshots written before wildcards were a set."""
    if "wildcards" in d:
        return frozenset(int(k) for k in d["wildcards"])
    bao = d.get("bao")
    return frozenset() if bao is None else frozenset((int(bao),))


@dataclass
class HandState:
    """One hand (一盘) from the deal to its end."""

    number: int
    seed: str
    wall: tuple[int, ...]  # the whole shuffled order (revealed at the end)
    head: int  # next live draw index
    tail: int  # next replacement index (from the end, moving back)
    dealer: int
    seats: list[SeatState]
    turn: int
    phase: str = PHASE_TURN
    indicator: int | None = None  # 上饶 跌宝牌 (physical id)
    wildcards: frozenset[int] = frozenset()  # wildcard kinds (上饶 宝); empty = none
    self_win: bool = False  # the turn seat may declare a self-drawn win now
    baodiao: bool = False  # ... and that win is 宝吊头 (so declining it is 偷机)
    claim: ClaimWindow | None = None
    discards: int = 0  # discards made this hand (地胡, 跟庄)
    interrupted: bool = False  # a claim or kong has happened (天胡 / 地胡 / 跟庄 end)
    follow: list[int] = field(default_factory=list)  # 九江 跟庄: kinds of the first discards
    last_tile: bool = False  # the live wall is used up (海底)
    after_kong: bool = False  # the pending discard followed a kong (杠上放炮)
    deltas: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    result: dict[str, Any] | None = None
    #: 南昌: where the face-up indicator lies in ``wall`` (it stays among the undrawn tiles);
    #: None where it was taken out (上饶) or once a replacement took it
    indicator_pos: int | None = None

    def copy(self) -> HandState:
        return HandState(
            self.number,
            self.seed,
            self.wall,
            self.head,
            self.tail,
            self.dealer,
            [s.copy() for s in self.seats],
            self.turn,
            self.phase,
            self.indicator,
            self.wildcards,
            self.self_win,
            self.baodiao,
            self.claim.copy() if self.claim else None,
            self.discards,
            self.interrupted,
            list(self.follow),
            self.last_tile,
            self.after_kong,
            list(self.deltas),
            self.result,
            self.indicator_pos,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "number": self.number,
            "seed": self.seed,
            "wall": list(self.wall),
            "head": self.head,
            "tail": self.tail,
            "dealer": self.dealer,
            "seats": [s.to_json() for s in self.seats],
            "turn": self.turn,
            "phase": self.phase,
            "indicator": self.indicator,
            "wildcards": sorted(self.wildcards),
            "self_win": self.self_win,
            "baodiao": self.baodiao,
            "claim": self.claim.to_json() if self.claim else None,
            "discards": self.discards,
            "interrupted": self.interrupted,
            "follow": list(self.follow),
            "last_tile": self.last_tile,
            "after_kong": self.after_kong,
            "deltas": list(self.deltas),
            "result": self.result,
        }
        if self.indicator_pos is not None:  # written only when set (南昌)
            out["indicator_pos"] = self.indicator_pos
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> HandState:
        return cls(
            d["number"],
            d["seed"],
            tuple(d["wall"]),
            d["head"],
            d["tail"],
            d["dealer"],
            [SeatState.from_json(s) for s in d["seats"]],
            d["turn"],
            d["phase"],
            d["indicator"],
            _wildcards_of_json(d),
            d["self_win"],
            d["baodiao"],
            ClaimWindow.from_json(d["claim"]) if d["claim"] else None,
            d["discards"],
            d["interrupted"],
            list(d["follow"]),
            d["last_tile"],
            d["after_kong"],
            list(d["deltas"]),
            d["result"],
            d.get("indicator_pos"),
        )


@dataclass
class GameState:
    """A game: a sequence of hands with running totals."""

    variant: str
    options: RuleOptions
    seed: str  # game seed (CSPRNG); each hand's seed derives from it
    hand: HandState
    dealer: int
    scores: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    value_per_pao: int = 1  # 九江 跟庄 / 黄庄 value of this hand
    draws_in_row: int = 0  # drawn hands in a row under the same dealer (九江 黄庄)
    actions: int = 0  # actions applied so far (the log length; a version number)
    history: list[dict[str, Any]] = field(default_factory=list)  # one summary per ended hand

    def copy(self) -> GameState:
        return GameState(
            self.variant,
            self.options,
            self.seed,
            self.hand.copy(),
            self.dealer,
            list(self.scores),
            self.value_per_pao,
            self.draws_in_row,
            self.actions,
            list(self.history),
        )


def state_to_json(state: GameState) -> dict[str, Any]:
    """The whole state as a JSON-ready dict."""
    return {
        "variant": state.variant,
        "options": options_to_dict(state.options),
        "seed": state.seed,
        "hand": state.hand.to_json(),
        "dealer": state.dealer,
        "scores": list(state.scores),
        "value_per_pao": state.value_per_pao,
        "draws_in_row": state.draws_in_row,
        "actions": state.actions,
        "history": list(state.history),
    }


def state_from_json(d: dict[str, Any]) -> GameState:
    """Rebuild a state written by :func:`state_to_json`."""
    return GameState(
        d["variant"],
        make_options(d["variant"], d["options"]),
        d["seed"],
        HandState.from_json(d["hand"]),
        d["dealer"],
        list(d["scores"]),
        d["value_per_pao"],
        d["draws_in_row"],
        d["actions"],
        list(d["history"]),
    )
