"""What the pictures show: small frozen input dataclasses with plain ``int`` tile kinds.

Tile kinds follow RULES.md §1: 0–8 = 1m–9m (万), 9–17 = 1p–9p (筒), 18–26 = 1s–9s (条),
27–30 = 东南西北, 31–33 = 中发白. The renderers never see another player's concealed tiles:
the table takes only counts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from render.words import ZH_WORDS, PictureWords

MeldKind = Literal["chi", "pong", "kong", "concealed_kong", "indicator_kong"]


#: ``MeldView.fed_from`` values: where the feeder sits, counted from the meld's owner
#: (``(fed_by - owner) % 4``). Real tables turn the claimed tile sideways on that side.
XIAJIA = 1  # 下家 (the next seat): claimed tile on the right
DUIJIA = 2  # 对家 (across): claimed tile in the middle
SHANGJIA = 3  # 上家 (the previous seat): claimed tile on the left


def feeder_offset(owner: int, fed_by: int | None) -> int | None:
    """``MeldView.fed_from`` for a meld of seat ``owner`` fed by seat ``fed_by`` (None when
    nobody fed it: a concealed kong, an old saved game, or ``fed_by == owner``)."""
    if fed_by is None:
        return None
    offset = (fed_by - owner) % 4
    return offset or None


@dataclass(frozen=True)
class MeldView:
    """An exposed or declared set: 吃 ``chi``, 碰 ``pong``, 明杠/补杠 ``kong``, 暗杠
    ``concealed_kong`` (drawn as two backs around two faces) or Shangrao's 3-tile kong of the
    indicator's kind ``indicator_kong`` (§3.1, drawn like a concealed kong of three).

    ``fed_from`` says who fed a claimed meld, relative to its owner (:data:`SHANGJIA` 上家,
    :data:`DUIJIA` 对家, :data:`XIAJIA` 下家; None: unknown or not claimed — drawn all
    upright as before). The claimed tile ``claimed`` (a kind of ``tiles``; for a chi, None
    turns the lowest tile) is drawn sideways on the feeder's side; an ``added`` kong (补杠)
    stacks its fourth tile on the sideways one."""

    kind: MeldKind
    tiles: tuple[int, ...]
    fed_from: int | None = None
    claimed: int | None = None
    added: bool = False


@dataclass(frozen=True)
class HandPicture:
    """One player's own hand (private: sent only to that player).

    ``concealed`` holds the concealed tiles *without* the drawn one (the renderer sorts them);
    ``drawn`` is the tile just drawn, set apart at the right. ``wildcards`` are the 宝 (wildcard)
    kinds whose tiles are marked; ``flowers`` the 发 laid open (Jiujiang §5.1). A review's
    advice (复盘) rings two tiles: ``played``, the tile the player let go (red), and
    ``suggested``, the analysis' choice (green)."""

    concealed: tuple[int, ...]
    drawn: int | None = None
    melds: tuple[MeldView, ...] = ()
    wildcards: frozenset[int] = frozenset()
    flowers: int = 0
    title: str | None = None
    labels: bool = False  # short tile names (5m, 东) under the concealed tiles
    sort: bool = True
    words: PictureWords = ZH_WORDS  # the reader's language (honor names of the labels)
    played: int | None = None
    suggested: int | None = None
    #: 南昌: the 正精 kind (the indicator's); the other wildcard kind is 副精, each badged apart
    primary_wildcard: int | None = None


@dataclass(frozen=True)
class SeatView:
    """The public view of one seat at the table: never its concealed faces, only the count."""

    name: str
    score: int = 0
    concealed_count: int = 13
    melds: tuple[MeldView, ...] = ()
    river: tuple[int, ...] = ()  # discards in order (牌河)
    flowers: int = 0  # 发 laid open (Jiujiang 兴家)
    dealer: bool = False  # 庄家
    auto: bool = False  # 托管 (auto-play)
    ready: bool = False  # 报听 (declared ready)


#: A table's four seats, seat 0 to 3.
FourSeats = tuple[SeatView, SeatView, SeatView, SeatView]


def four_seats(seats: Iterable[SeatView]) -> FourSeats:
    """``seats`` as a table's four, in order; ValueError unless there are exactly four."""
    first, second, third, fourth = seats
    return (first, second, third, fourth)


@dataclass(frozen=True)
class TablePicture:
    """The public table. ``viewer`` is the seat drawn at the bottom; its 下家 (seat + 1) is
    drawn on the right, the opposite seat at the top and the 上家 on the left.
    ``last_discard`` is the seat whose newest river tile is the last discard (marked)."""

    seats: FourSeats
    viewer: int = 0
    turn: int | None = None
    wall_left: int = 0
    hand_number: int = 1
    round_label: str = ""  # e.g. "东风圈" or a variant name, shown in the centre
    bao_indicator: int | None = None  # Shangrao 跌宝牌 (shown face up)
    #: the wildcard kinds (Shangrao 宝; a variant may have several); marked everywhere
    wildcards: frozenset[int] = frozenset()
    last_discard: int | None = None
    countdown: str | None = None  # e.g. "25秒"
    #: a claim window is open: the centre says 等待吃碰杠胡…, the same whoever may claim
    #: (``turn`` is None then: no seat is highlighted)
    claim_wait: bool = False
    reveal_concealed_kongs: bool = True  # False: a 暗杠 shows four backs to the table
    words: PictureWords = ZH_WORDS  # badges and centre lines in the reader's language
    #: 南昌: the 正精 kind (the indicator's); the other wildcard kind is 副精, each badged apart
    primary_wildcard: int | None = None


@dataclass(frozen=True)
class ScoreItem:
    """One scoring item: Chinese name and its display value, e.g. ("清一色", "×4")."""

    name: str
    value: str


@dataclass(frozen=True)
class SeatChange:
    """One seat's score change for the hand (+ won, − paid)."""

    name: str
    delta: int
    total: int | None = None
    winner: bool = False
    dealer: bool = False


@dataclass(frozen=True)
class ResultPicture:
    """The result of a hand. With ``winner`` = None it is a drawn hand (流局/荒庄).

    ``concealed`` is the winner's concealed tiles *without* the winning tile; ``winning_tile``
    is set apart at the right. ``win_mode`` says how it was won (e.g. "自摸", "点炮 · 小明")."""

    changes: tuple[SeatChange, ...]
    winner: str | None = None
    concealed: tuple[int, ...] = ()
    winning_tile: int | None = None
    melds: tuple[MeldView, ...] = ()
    items: tuple[ScoreItem, ...] = ()
    total: str = ""
    win_mode: str = ""
    wildcards: frozenset[int] = frozenset()  # the 宝 (wildcard) kinds, marked
    flowers: int = 0
    title: str | None = None
    notes: tuple[str, ...] = field(default=())
    words: PictureWords = ZH_WORDS  # headline words and badges in the reader's language
    #: 南昌: the 正精 kind (the indicator's); the other wildcard kind is 副精, each badged apart
    primary_wildcard: int | None = None

    @property
    def is_draw(self) -> bool:
        """True for a drawn hand (流局)."""
        return self.winner is None
