"""Plain values the store returns and accepts; no ORM object ever leaves ``db``.

JSON fields (actions, states, options, seats, items) are whatever the engine and the bot
put there: the store only keeps them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

Json = dict[str, Any]
GameStatus = Literal["lobby", "active", "finished", "abandoned"]
WinKind = Literal["self", "discard", "rob_kong", "draw"]
HandSource = Literal["online", "record"]
Period = Literal["all", "season", "month", "week"]
BoardOrder = Literal["points", "rating", "winrate"]
RecordStatus = Literal["pending", "confirmed", "expired", "void"]

#: The rating "variant" that pools every variant of a server.
ALL_VARIANTS = "*"


class StoreError(Exception):
    """Base class of the store's own errors."""


class GameNotFound(StoreError):
    """No game has this id."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} does not exist")
        self.game_id = game_id


class VersionConflict(StoreError):
    """A stale writer: the game moved on since ``expected`` was read; nothing was written."""

    def __init__(self, game_id: int, expected: int, actual: int) -> None:
        super().__init__(
            f"game {game_id}: expected version {expected}, but it is at {actual}; reload it"
        )
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class ChannelTaken(StoreError):
    """The channel already has an open game (one game per channel); nothing was written."""

    def __init__(self, channel_id: int, game_id: int | None) -> None:
        super().__init__(f"channel {channel_id} already has an open game ({game_id})")
        self.channel_id = channel_id
        self.game_id = game_id


class DuplicateHand(StoreError):
    """This game's hand number was already recorded (e.g. by another shard)."""


class RecordNotFound(StoreError):
    """No physical record has this id."""


class RecordClosed(StoreError):
    """The physical record is no longer pending (confirmed, expired or void)."""

    def __init__(self, record_id: int, status: str) -> None:
        super().__init__(f"record {record_id} is {status}")
        self.record_id = record_id
        self.status = status


class NotAPlayer(StoreError):
    """The user is not one of the record's players."""


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's settings; defaults when the server never changed them."""

    guild_id: int
    default_variant: str = "shangrao"
    rule_options: dict[str, Json] = field(default_factory=dict)
    turn_timeout: int = 60
    claim_timeout: int = 15
    language: str = "zh"
    hints: bool = True
    current_season: int = 1
    #: Hours a physical record waits for confirmations; None = the bot's default.
    record_expiry_hours: float | None = None
    #: Play each game in its own thread when the bot may create one.
    thread: bool = True
    #: Seconds per AI action shown while a human sits at the table; None = the bot's default.
    ai_pace: float | None = None
    #: A new game's length: ``4`` / ``8`` / ``16`` hands or ``1圈`` / ``2圈`` / ``4圈`` rounds.
    length: str = "8"
    #: Seconds to press 准备 between hands, and to answer a 解散 vote.
    ready_timeout: int = 60
    vote_timeout: int = 60


@dataclass(frozen=True, slots=True)
class SeasonInfo:
    guild_id: int
    number: int
    started_at: datetime


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    user_id: int
    display_name: str | None
    locale: str | None
    prefers_images: bool
    #: Turn alerts: ``on`` (turns and claims), ``claims`` (claims only) or ``off``.
    alerts: str = "on"
    #: The language chosen for a game's private texts; None = follow the server's.
    language: str | None = None


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game row. ``version`` = number of actions in its log = seq of the last one."""

    id: int
    guild_id: int
    channel_id: int
    variant: str
    options: Json
    seats: list[Any]
    status: str
    seed_commitment: str | None
    totals: list[int]
    version: int
    table_message_id: int | None
    created_at: datetime
    updated_at: datetime
    #: Where the game is played: its thread, or the channel itself; None = not decided yet.
    thread_id: int | None = None
    #: The Discord messages delivery keeps up to date (hand DMs, alerts, the last result).
    messages: Json = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ActionRecord:
    seq: int
    seat: int | None
    action: Json
    created_at: datetime


@dataclass(frozen=True, slots=True)
class SnapshotRecord:
    """A state covering the log up to and including ``seq``."""

    seq: int
    state: Json
    created_at: datetime


@dataclass(frozen=True, slots=True)
class LoadedGame:
    """What resuming needs: the game, its latest snapshot, the actions after it in order."""

    game: GameInfo
    snapshot: SnapshotRecord | None
    actions: list[ActionRecord]


@dataclass(frozen=True, slots=True)
class HandPlayer:
    """One seat of a finished hand. AI seats carry a bot-chosen id and ``is_ai=True``."""

    seat: int
    user_id: int
    delta: int
    is_ai: bool = False


@dataclass(frozen=True, slots=True)
class HandInput:
    """A finished hand to record. ``winners`` and ``discarder`` are seats."""

    guild_id: int
    variant: str
    hand_no: int
    players: list[HandPlayer]
    how: WinKind
    winners: list[int] = field(default_factory=list)
    discarder: int | None = None
    points: int = 0
    items: list[Any] = field(default_factory=list)
    seed_reveal: Json | None = None
    game_id: int | None = None
    #: each winner's own points, in the order of ``winners`` (一炮多响); empty: every
    #: winner is credited ``points``
    winner_points: Sequence[int] = ()
    source: HandSource = "online"
    season: int | None = None  # None: the server's current season
    created_at: datetime | None = None  # None: now


@dataclass(frozen=True, slots=True)
class RatingChange:
    user_id: int
    is_ai: bool
    variant: str
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float


@dataclass(frozen=True, slots=True)
class HandInfo:
    """A recorded hand as shown in history."""

    id: int
    game_id: int | None
    source: str
    guild_id: int
    variant: str
    season: int
    hand_no: int
    winner_seats: list[int]
    winner_user_ids: list[int]
    how: str
    discarder_seat: int | None
    discarder_user_id: int | None
    points: int
    items: list[Any]
    deltas: list[Json]
    seed_reveal: Json | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class RecordedHand:
    """What ``store.hands.record`` did: the hand, the game's new totals, the rating changes."""

    hand: HandInfo
    totals: list[int] | None
    ratings: list[RatingChange]


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    """One ranked player. ``rank`` is None for an asking user not ranked (too few hands)."""

    rank: int | None
    user_id: int
    display_name: str | None
    hands: int
    wins: int
    points: int
    win_rate: float
    mu: float | None
    sigma: float | None
    rating: float | None  # openskill ordinal, mu - 3 sigma


@dataclass(frozen=True, slots=True)
class Leaderboard:
    guild_id: int
    variant: str | None
    period: str
    by: str
    season: int | None
    since: datetime | None
    total: int  # ranked players
    offset: int
    entries: list[LeaderboardEntry]
    me: LeaderboardEntry | None


@dataclass(frozen=True, slots=True)
class RatingPoint:
    at: datetime
    mu: float
    sigma: float
    rating: float


@dataclass(frozen=True, slots=True)
class BiggestHand:
    hand_id: int
    variant: str
    points: int
    delta: int
    how: str
    items: list[Any]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """``self_draw_share`` = self-draws / wins; ``deal_in_share`` = deal-ins / hands."""

    guild_id: int
    user_id: int
    variant: str | None
    period: str
    hands: int
    wins: int
    self_draws: int
    deal_ins: int
    points: int
    win_rate: float
    self_draw_share: float
    deal_in_share: float
    average_win: float
    biggest_hand: BiggestHand | None
    favourite_variant: str | None
    rating: RatingPoint | None
    rating_history: list[RatingPoint]


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A game in history: its final (or current) totals and how many hands it recorded."""

    game: GameInfo
    hands: int


@dataclass(frozen=True, slots=True)
class SessionLine:
    """One player's line of a session (一场): their seat, who they are, their total over
    the session's recorded hands, their rank (ties share one) and whether they are a 大赢家
    (the top total, shared by a tie; nobody when every total is 0). ``name`` is the seat's
    name as the game kept it (None: the seat no longer names this player, e.g. one who left
    and was replaced; then the players table's, if any). ``user_id`` of an AI seat is the
    placeholder id its hands were recorded under."""

    seat: int
    user_id: int
    is_ai: bool
    name: str | None
    total: int
    hands: int
    rank: int = 1
    top: bool = False


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """A finished session (一场): an online game that ended (``finished`` or
    ``abandoned``) after at least one recorded hand, with every player's total.

    ``started_at`` / ``ended_at``: its first and last recorded hand; ``hands``: how many it
    recorded. ``setup`` and ``tail`` are its log's first entry and last few entries, oldest
    first (what the bot wrote: its length, why it ended), kept as they are."""

    game_id: int
    guild_id: int
    channel_id: int
    variant: str
    status: str
    hands: int
    started_at: datetime
    ended_at: datetime
    lines: tuple[SessionLine, ...]
    setup: Json | None = None
    tail: tuple[Json, ...] = ()

    def line_of(self, user_id: int) -> SessionLine | None:
        """The person ``user_id``'s line (never an AI seat's), or None."""
        return next((x for x in self.lines if x.user_id == user_id and not x.is_ai), None)

    @property
    def top_lines(self) -> tuple[SessionLine, ...]:
        """The 大赢家 (several on a tie; none when nobody scored)."""
        return tuple(x for x in self.lines if x.top)


@dataclass(frozen=True, slots=True)
class SessionTally:
    """A player's sessions in a server: how many they played, how many made them 大赢家
    (a shared top counts), and the sum of their session totals."""

    sessions: int = 0
    tops: int = 0
    points: int = 0


@dataclass(frozen=True, slots=True)
class PhysicalRecordInfo:
    """A physically played hand awaiting confirmation; ``hand_id`` once it counts."""

    id: int
    guild_id: int
    reporter_id: int
    player_ids: list[int]
    hand: HandInput
    payload: Json
    confirmations: list[int]
    status: str
    expires_at: datetime
    hand_id: int | None
    created_at: datetime
