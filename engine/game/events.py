"""Events the state machine emits: one frozen dataclass per kind, each saying who may see it.

Every event has a ``kind`` (its class's name in the log), ``visible_to`` (``None`` for
everyone — the channel table — or the one seat that may see it, in its DM) and ``data`` (its
fields as JSON-ready values, the form the log stores: :meth:`Event.to_json`,
:meth:`Event.from_json`). Public events never hold a concealed tile, nor who may claim.
The kinds addressed to one seat's DM derive from :class:`PrivateEvent`: their first field,
``to``, is that seat, stored as ``visible_to`` rather than in ``data``.

==========================  =======  =====================================================
class (``kind``)            who      what
==========================  =======  =====================================================
``HandStarted``             public   hand number, dealer, value per 炮, wall size, SHA-256
(``hand_started``)                   commitment of seed + wall
``Dice`` (``dice``)         public   ``purpose`` (dealer / deal / indicator / replacement),
                                     ``values`` (or ``rolls`` per seat for the dealer)
``Dealt`` (``dealt``)       seat     the seat's dealt tiles
``Indicator``               public   上饶 跌宝牌 and the 宝 (wildcard) kinds
``IndicatorTaken``          public   南昌: a replacement took the face-up indicator
(``indicator_taken``)
``Flower`` (``flower``)     public   九江: a 发 laid open
``Drawn`` (``drawn``)       seat     the tile drawn (``from_tail`` for a replacement)
``Drew`` (``drew``)         public   the same draw without the tile, and the wall left
``Turn`` (``turn``)         public   whose turn opens the hand
``Discarded``               public   打牌: seat, tile, whether after a kong
``Ready`` (``ready``)       public   九江 报听
``KeptDrawing`` (``touji``) seat     偷机 (it would tell the hand)
``KongDeclared`` (``kong``) public   杠: seat, ``kind`` (concealed / added / indicator), tile
``AddedKongDeclared``       public   补杠 declared (others may rob it: 抢杠)
``KongMoney``               public   新余 杠钱: deltas and totals
``ClaimWindowOpened``       seat     a seat's claim options on a discard / added kong
(``claim_window``)
``Responded``               seat     the seat's own answer in a claim window
``Claimed`` (``claimed``)   public   吃 / 碰 / 杠 of a discard
``Won`` (``won``)           public   胡: how, who paid, the winners and their items
``DrawnHand``               public   荒庄 (no winner)
(``drawn_hand``)
``HandSettled``             public   the variant's hand-end settlement per seat (南昌 精)
(``hand_settled``)
``HandEnded``               public   result, deltas, totals, next dealer; seed and wall
(``hand_ended``)                     revealed
==========================  =======  =====================================================
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar


@dataclass(frozen=True)
class Event:
    """One thing that happened (the base of every kind; see the module table)."""

    #: the kind's name, as the log and the service call it
    kind: ClassVar[str] = ""
    #: the field holding the one seat that may see the event (None: everyone may)
    private_to: ClassVar[str | None] = None
    #: fields that are not part of ``data`` (the seat a private event is addressed to)
    hidden: ClassVar[frozenset[str]] = frozenset()
    #: ``(field, data key)`` where the two differ (``from`` is a Python keyword …)
    renamed: ClassVar[tuple[tuple[str, str], ...]] = ()
    #: fields left out of ``data`` while they are ``None``
    optional: ClassVar[frozenset[str]] = frozenset()

    @property
    def visible_to(self) -> int | None:
        """``None``: everyone may see it; else the one seat that may."""
        if self.private_to is None:
            return None
        seat: int = getattr(self, self.private_to)
        return seat

    @property
    def data(self) -> dict[str, Any]:
        """The event's fields as the log stores them."""
        out: dict[str, Any] = {}
        for name, key, optional in _layout(type(self)):
            value = getattr(self, name)
            if value is None and optional:
                continue
            out[key] = value
        return out

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "visible_to": self.visible_to, "data": self.data}

    @classmethod
    def from_data(cls, visible_to: int | None, data: dict[str, Any]) -> Event:
        """The event of this kind from its ``visible_to`` and ``data``."""
        keys = {key: name for name, key in cls.renamed}
        kwargs = {keys.get(k, k): v for k, v in data.items()}
        if cls.private_to is not None and cls.private_to in cls.hidden:
            kwargs[cls.private_to] = visible_to
        return cls(**kwargs)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Event:
        """The typed event of :meth:`to_json`'s output (``ValueError`` for an unknown kind)."""
        kind = EVENT_TYPES.get(d["kind"])
        if kind is None:
            raise ValueError(f"unknown event kind {d['kind']!r:.40}")
        return kind.from_data(d["visible_to"], dict(d["data"]))


#: each kind's ``data`` layout: (field, data key, left out while None), worked out once
_LAYOUTS: dict[type[Event], tuple[tuple[str, str, bool], ...]] = {}


def _layout(kind: type[Event]) -> tuple[tuple[str, str, bool], ...]:
    layout = _LAYOUTS.get(kind)
    if layout is None:
        names = dict(kind.renamed)
        layout = tuple(
            (f.name, names.get(f.name, f.name), f.name in kind.optional)
            for f in fields(kind)
            if f.name not in kind.hidden
        )
        _LAYOUTS[kind] = layout
    return layout


@dataclass(frozen=True)
class PrivateEvent(Event):
    """An event only seat ``to`` may see (in its DM); ``to`` is where it goes, not part of
    ``data`` (the log's ``visible_to`` holds it)."""

    to: int
    private_to: ClassVar[str | None] = "to"
    hidden: ClassVar[frozenset[str]] = frozenset({"to"})


@dataclass(frozen=True)
class HandStarted(Event):
    """开局: the hand is dealt; ``commitment`` is SHA-256 of (seed, wall), revealed at its end."""

    hand: int
    dealer: int
    value_per_pao: int
    wall_size: int
    commitment: str
    kind: ClassVar[str] = "hand_started"


@dataclass(frozen=True)
class Dice(Event):
    """掷骰: ``values`` rolled for ``purpose``, or each seat's ``rolls`` to choose the dealer."""

    purpose: str
    values: list[int] | None = None
    rolls: dict[str, list[int]] | None = None
    kind: ClassVar[str] = "dice"
    optional: ClassVar[frozenset[str]] = frozenset({"values", "rolls"})


@dataclass(frozen=True)
class Dealt(PrivateEvent):
    """配牌: the tiles dealt to ``to`` (only that seat sees them)."""

    tiles: list[int]
    kind: ClassVar[str] = "dealt"


@dataclass(frozen=True)
class Indicator(Event):
    """翻宝 (上饶): the 跌宝牌 turned up, and the 宝 (wildcard) kinds it names."""

    indicator: int
    wildcards: list[int]
    #: 南昌 正精: the indicator's own kind when it is itself wild (the others are 副精)
    primary: int | None = None
    kind: ClassVar[str] = "indicator"
    optional: ClassVar[frozenset[str]] = frozenset({"primary"})

    @classmethod
    def from_data(cls, visible_to: int | None, data: dict[str, Any]) -> Event:
        """Also reads events logged before wildcards were a set (a single ``bao``)."""
        data = dict(data)
        bao = data.pop("bao", None)
        if data.get("wildcards") is None:
            data["wildcards"] = [] if bao is None else [bao]
        return super().from_data(visible_to, data)


@dataclass(frozen=True)
class IndicatorTaken(Event):
    """南昌 ``indicator_reached = take``: a kong replacement reached the face-up indicator and
    ``seat`` took it into its hand (everyone sees it leave the table)."""

    seat: int
    kind: ClassVar[str] = "indicator_taken"


@dataclass(frozen=True)
class Flower(Event):
    """补花 (九江): ``seat`` lays a 发 open."""

    seat: int
    tile: int
    kind: ClassVar[str] = "flower"


@dataclass(frozen=True)
class Drawn(PrivateEvent):
    """摸牌: the tile ``to`` drew (only that seat sees it; ``from_tail`` for a replacement)."""

    tile: int
    from_tail: bool
    kind: ClassVar[str] = "drawn"


@dataclass(frozen=True)
class Drew(Event):
    """The public side of a draw: who drew, from which end, and how many tiles are left."""

    seat: int
    from_tail: bool
    left: int
    kind: ClassVar[str] = "drew"


@dataclass(frozen=True)
class Turn(Event):
    """The dealer's first turn opens the hand."""

    seat: int
    kind: ClassVar[str] = "turn"


@dataclass(frozen=True)
class Discarded(Event):
    """打牌: ``seat`` discards ``tile`` (``after_kong``: right after a kong, 杠上炮)."""

    seat: int
    tile: int
    after_kong: bool
    kind: ClassVar[str] = "discarded"


@dataclass(frozen=True)
class Ready(Event):
    """报听 (九江): ``seat`` declares its hand ready."""

    seat: int
    kind: ClassVar[str] = "ready"


@dataclass(frozen=True)
class KeptDrawing(Event):
    """偷机: ``seat`` declined a 宝吊头 self-draw (only that seat sees it: it tells the hand)."""

    seat: int
    kind: ClassVar[str] = "touji"
    private_to: ClassVar[str | None] = "seat"


@dataclass(frozen=True)
class KongDeclared(Event):
    """杠: ``seat`` makes a kong (``meld``: concealed_kong, added_kong or indicator_kong) of
    ``tile`` (a concealed kong shows its kind, as on the table)."""

    seat: int
    meld: str
    tile: int
    kind: ClassVar[str] = "kong"
    renamed: ClassVar[tuple[tuple[str, str], ...]] = (("meld", "kind"),)


@dataclass(frozen=True)
class AddedKongDeclared(Event):
    """补杠 declared: the others may rob it (抢杠) before it completes."""

    seat: int
    tile: int
    kind: ClassVar[str] = "added_kong_declared"


@dataclass(frozen=True)
class KongMoney(Event):
    """新余 杠钱: paid at the declaration (``deltas``; ``scores`` the totals after)."""

    seat: int
    concealed: bool
    deltas: list[int]
    scores: list[int]
    kind: ClassVar[str] = "kong_money"


@dataclass(frozen=True)
class ClaimWindowOpened(PrivateEvent):
    """A claim window (``window``: discard, or rob for 抢杠) offers ``to`` its ``options``
    on ``tile`` (only that seat sees it: who may claim is never public)."""

    window: str
    tile: int
    options: list[dict[str, Any]]
    kind: ClassVar[str] = "claim_window"
    renamed: ClassVar[tuple[tuple[str, str], ...]] = (("window", "kind"),)


@dataclass(frozen=True)
class Responded(PrivateEvent):
    """``to``'s own answer in a claim window (private: who passed is never public)."""

    action: dict[str, Any]
    kind: ClassVar[str] = "responded"


@dataclass(frozen=True)
class Claimed(Event):
    """吃 / 碰 / 明杠: ``seat`` claims ``tile`` discarded by ``from_seat`` into a ``meld``."""

    seat: int
    meld: str
    tile: int
    from_seat: int
    kind: ClassVar[str] = "claimed"
    renamed: ClassVar[tuple[tuple[str, str], ...]] = (("meld", "kind"), ("from_seat", "from"))


@dataclass(frozen=True)
class Won(Event):
    """胡: ``how`` (self, discard, rob_kong), who paid (``payer``) and the winners."""

    how: str
    payer: int | None
    winners: list[dict[str, Any]]
    kind: ClassVar[str] = "won"


@dataclass(frozen=True)
class DrawnHand(Event):
    """荒庄: the wall ran out with no winner."""

    kind: ClassVar[str] = "drawn_hand"


@dataclass(frozen=True)
class HandSettled(Event):
    """The variant's hand-end settlement (南昌 精 settlement, kong points, 抄庄), one JSON line
    per seat (its 精 count, amount, what it paid and received); public, as the hands are
    revealed at the end of the hand."""

    seats: list[dict[str, Any]]
    kind: ClassVar[str] = "hand_settled"


@dataclass(frozen=True)
class HandEnded(Event):
    """The hand is over: its ``result`` (deltas, next dealer …), the totals, and the seed and
    wall revealed (so anyone can check the ``commitment`` published at its start)."""

    result: dict[str, Any] = field(default_factory=dict)
    scores: list[int] = field(default_factory=list)
    seed: str = ""
    wall: list[int] = field(default_factory=list)
    commitment: str = ""
    kind: ClassVar[str] = "hand_ended"

    @property
    def data(self) -> dict[str, Any]:
        return {
            **self.result,
            "scores": self.scores,
            "seed": self.seed,
            "wall": self.wall,
            "commitment": self.commitment,
        }

    @classmethod
    def from_data(cls, visible_to: int | None, data: dict[str, Any]) -> Event:
        rest = dict(data)
        own = {name: rest.pop(name) for name in ("scores", "seed", "wall", "commitment")}
        return cls(result=rest, **own)


#: every kind of event, by its name
EVENT_TYPES: dict[str, type[Event]] = {
    c.kind: c
    for c in (
        HandStarted,
        Dice,
        Dealt,
        Indicator,
        IndicatorTaken,
        Flower,
        Drawn,
        Drew,
        Turn,
        Discarded,
        Ready,
        KeptDrawing,
        KongDeclared,
        AddedKongDeclared,
        KongMoney,
        ClaimWindowOpened,
        Responded,
        Claimed,
        Won,
        DrawnHand,
        HandSettled,
        HandEnded,
    )
}


def events_json(events: Iterable[Event]) -> list[dict[str, Any]]:
    """:meth:`Event.to_json` of each event, in order (one call for a whole step)."""
    return [e.to_json() for e in events]


def visible(events: list[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see (``None``: the public ones only)."""
    return [
        e for e in events if e.visible_to is None or (seat is not None and e.visible_to == seat)
    ]
