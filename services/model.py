"""Plain values shared by the service and the cogs (no Discord, no engine types).

The engine adapter turns the engine's own state, actions and events into these, so the cogs
never import the engine's classes and a change there touches one module
(:mod:`services.engine_adapter`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from i18n import short, t

# the button key lives with its codec
from services.action_codec import ActionKey as ActionKey

#: Button-level action kinds: 打 discard, 胡 win, 杠 kong, 碰 pong, 吃 chi, 过 pass,
#: 偷机 keep drawing, 报听 declare ready.
ACTION_KINDS = ("discard", "win", "kong", "pong", "chi", "pass", "touji", "ready")
#: AI levels a host picks per AI seat (电脑难度: 初级, 中级, 高级), weakest first; the
#: engine adapter maps each to a policy.
AI_LEVELS = ("beginner", "intermediate", "advanced")
#: An AI seat that names no level (every seat saved before levels) plays today's AI.
AI_DEFAULT_LEVEL = "intermediate"
#: 托管 (auto-play for a human away) plays at the strongest level.
AI_AUTOPLAY_LEVEL = "advanced"

Phase = Literal["turn", "claim", "hand_over", "game_over"]


@dataclass(frozen=True)
class MeldInfo:
    """An exposed or declared set: ``chi``, ``pong``, ``kong`` (明杠/补杠), ``concealed_kong``
    (暗杠) or ``indicator_kong`` (Shangrao's 3-tile kong of the indicator's kind).

    ``from_seat`` is the seat whose discard was claimed (None: not claimed, or unknown);
    ``claimed`` the kind of the claimed tile (None: unknown); ``added`` marks a kong made by
    adding a tile to one's own pong (补杠)."""

    kind: str
    tiles: tuple[int, ...]
    from_seat: int | None = None
    added: bool = False
    claimed: int | None = None


@dataclass(frozen=True)
class PublicSeat:
    """What everyone sees of one seat: never its concealed tiles, only how many."""

    seat: int
    concealed_count: int
    melds: tuple[MeldInfo, ...] = ()
    river: tuple[int, ...] = ()
    flowers: int = 0
    dealer: bool = False
    ready: bool = False


@dataclass(frozen=True)
class TableView:
    """The public table (公开信息) of the hand in play."""

    hand_no: int
    phase: Phase
    dealer: int
    turn: int | None
    wall_left: int
    seats: tuple[PublicSeat, ...]
    bao_indicator: int | None = None  # 上饶 跌宝牌: the tile turned up to show the 宝
    #: the wildcard kinds (上饶 宝; a variant may have several, e.g. 正精/副精); empty = none
    wildcards: frozenset[int] = frozenset()
    last_discard: tuple[int, int] | None = None  # (seat, tile kind)
    #: the seat whose turn it is (public). Never the seats a claim window waits on: who may
    #: claim a discard is secret, so in a claim window this is empty.
    waiting_on: tuple[int, ...] = ()
    commitment: str | None = None  # fairness hash of this hand
    #: 南昌: the 正精 kind (the indicator's); the other wildcard kind is 副精
    primary_wildcard: int | None = None


@dataclass(frozen=True)
class HandView:
    """One seat's private view (手牌): its tiles and what it may do now."""

    seat: int
    concealed: tuple[int, ...]  # without the drawn tile
    drawn: int | None
    melds: tuple[MeldInfo, ...]
    legal: tuple[ActionKey, ...]
    waits: tuple[int, ...] = ()  # kinds that would complete the hand (听牌)
    flowers: int = 0
    wildcards: frozenset[int] = frozenset()  # the wildcard kinds (宝); empty = none
    claim_tile: int | None = None  # the discard a claim window is about
    claim_from: int | None = None  # the seat that discarded it (or added the kong to rob)
    claim_rob: bool = False  # the window is about robbing an added kong (抢杠)
    #: 南昌: the 正精 kind (the indicator's); the other wildcard kind is 副精
    primary_wildcard: int | None = None


@dataclass(frozen=True)
class GameEvent:
    """Something that happened. ``visible_to`` None = public, else only that seat sees it.

    Kinds are the engine's (``hand_started`` with the commitment, ``dice``, ``indicator``,
    ``discarded``, ``claimed``, ``kong``, ``ready``, ``touji``, ``flower``, ``won``,
    ``drawn_hand``, ``hand_ended`` with seed and wall, private ``drawn`` / ``dealt`` /
    ``claim_window``) plus the service's ``timeout`` and ``auto``.
    """

    kind: str
    seat: int | None = None
    visible_to: int | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ScoreLine:
    """One scoring item: ``清一色`` · ``Pure one suit`` · ``×4``."""

    name: str
    en: str
    value: str


@dataclass(frozen=True)
class HandResult:
    """A finished hand: who won how, every scoring item, each seat's change."""

    hand_no: int
    how: str  # "self" | "discard" | "rob_kong" | "draw"
    winners: tuple[int, ...]
    discarder: int | None
    points: int
    items: tuple[ScoreLine, ...]
    deltas: tuple[int, ...]
    winning_tile: int | None = None
    winner_concealed: tuple[int, ...] = ()
    winner_melds: tuple[MeldInfo, ...] = ()
    seed_reveal: dict[str, Any] | None = None
    notes: tuple[str, ...] = ()
    winner_hand: str = ""  # RULES §1 hand string of the (first) winner
    payments: tuple[tuple[Any, ...], ...] = ()  # (payer seat, payee seat, amount, reason)
    scores: tuple[int, ...] = ()  # running totals after the hand
    winner_points: tuple[int, ...] = ()  # each winner's own points, in ``winners`` order
    #: 摊牌: every seat's tiles once the hand is over (never built before); see
    #: :class:`RevealedHand` and :mod:`services.showdown`
    hands: tuple[RevealedHand, ...] = ()
    dealer: int | None = None  # the dealer of this hand
    next_dealer: int | None = None  # who deals the next hand
    value_per_pao: int = 1  # 九江: this hand's value per 炮 (跟庄 / 黄庄 raise it)
    #: 九江: what raised this hand's value (``黄庄`` / ``跟庄``), oldest first
    raised_by: tuple[str, ...] = ()
    wildcards: frozenset[int] = frozenset()  # 上饶: the 宝 (wildcard) kinds of this hand
    #: the variant's hand-end settlement, one JSON line per seat (南昌 精: ``zheng``, ``fu``,
    #: ``jing``, ``amount``, ``chongguan``, ``bawang``, ``gang_jing``, ``liable``,
    #: ``kong_points``, ``net``); its payments are already in ``payments`` and ``deltas``
    settlement: tuple[dict[str, Any], ...] = ()
    #: 南昌: the 正精 kind (the indicator's); the other wildcard kind is 副精
    primary_wildcard: int | None = None


@dataclass(frozen=True)
class RevealedHand:
    """One seat's tiles laid open at the end of a hand (摊牌): its concealed tiles (the
    winner's include the winning tile), its melds and its laid-open 发 (九江 flowers)."""

    seat: int
    concealed: tuple[int, ...]
    melds: tuple[MeldInfo, ...] = ()
    flowers: tuple[int, ...] = ()


#: The names AI seats are stored under, in seat-taking order (the log keeps these; what a
#: reader sees is :meth:`Seat.shown_name` in their language).
AI_NAMES = ("电脑一", "电脑二", "电脑三", "电脑四")


def shown_ai_name(name: str, lang: str) -> str:
    """An AI seat's stored name (电脑一) as a reader of ``lang`` sees it (電腦一, Bot 1); any
    other name as it is."""
    if name in AI_NAMES:
        return t(f"game.ai_name.{AI_NAMES.index(name) + 1}", short(lang))
    return name


@dataclass
class Seat:
    """A seat of a game: a human (``user_id``) or an AI; ``auto`` = on 托管 (auto-play);
    ``level``: an AI seat's level (电脑难度: ``beginner`` 初级, ``intermediate`` 中级,
    ``advanced`` 高级; ``None``: the default, :data:`AI_DEFAULT_LEVEL`)."""

    name: str
    user_id: int | None = None
    ai: bool = False
    auto: bool = False
    level: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "user_id": self.user_id,
            "ai": self.ai,
            "auto": self.auto,
        }
        if self.level is not None:  # seats saved before levels keep their exact JSON
            out["level"] = self.level
        return out

    def copy(self) -> Seat:
        """The seat as it is now (a summary's copy: ``dataclasses.replace`` costs several
        times more, and every press makes a few)."""
        return Seat(self.name, self.user_id, self.ai, self.auto, self.level)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        return cls(
            name=str(data.get("name", "?")),
            user_id=data.get("user_id"),
            ai=bool(data.get("ai", False)),
            auto=bool(data.get("auto", False)),
            level=data.get("level") if data.get("level") in AI_LEVELS else None,
        )

    def shown_name(self, lang: str) -> str:
        """The name a reader of ``lang`` sees: an AI seat in their language (电脑一, 電腦一,
        Bot 1); a person keeps their own."""
        return shown_ai_name(self.name, lang) if self.ai else self.name

    @property
    def robot(self) -> bool:
        """True when the AI decides for this seat (an AI seat, or a human on 托管)."""
        return self.ai or self.auto

    @property
    def play_level(self) -> str:
        """The level the AI plays this seat at: an AI seat's own, 托管 at
        :data:`AI_AUTOPLAY_LEVEL`."""
        if self.ai:
            return self.level or AI_DEFAULT_LEVEL
        return AI_AUTOPLAY_LEVEL
