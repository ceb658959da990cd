"""SQLAlchemy 2 table models for the mahjong store.

These classes never leave the ``db`` package: the store turns rows into the plain
dataclasses of :mod:`db.types`. Every schema change here needs an Alembic migration in
``db/migrations/versions`` (a test compares the two on SQLite and PostgreSQL).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy import false as sa_false
from sqlalchemy import true as sa_true
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

GAME_STATUSES = ("lobby", "active", "finished", "abandoned")
HAND_SOURCES = ("online", "record")
WIN_KINDS = ("self", "discard", "rob_kong", "draw")
RECORD_STATUSES = ("pending", "confirmed", "expired", "void")

#: Integer primary keys: BIGINT on PostgreSQL, INTEGER (rowid alias) on SQLite.
BigId = BigInteger().with_variant(Integer(), "sqlite")


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and always read back timezone-aware (SQLite drops the zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


class Base(DeclarativeBase):
    #: every model is a plain table (typed as such for the Core statements of ``db``)
    __table__: ClassVar[Table]
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {  # noqa: RUF012
        datetime: UTCDateTime,
        dict[str, Any]: JSON,
        list[Any]: JSON,
    }


class Guild(Base):
    """A Discord server (服务器) and its settings."""

    __tablename__ = "guilds"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    default_variant: Mapped[str] = mapped_column(String(32), default="shangrao")
    rule_options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    turn_timeout: Mapped[int] = mapped_column(Integer, default=60)
    claim_timeout: Mapped[int] = mapped_column(Integer, default=15)
    language: Mapped[str] = mapped_column(String(16), default="zh")
    hints: Mapped[bool] = mapped_column(Boolean, default=True)
    current_season: Mapped[int] = mapped_column(Integer, default=1)
    #: Hours a physical record waits for confirmations; NULL = the bot's default.
    record_expiry_hours: Mapped[float | None] = mapped_column(Float)
    #: Play each game in its own thread when the bot may create one.
    thread: Mapped[bool] = mapped_column(Boolean, default=True, server_default=sa_true())
    #: Seconds per AI action revealed while a human sits at the table; NULL = the bot's default.
    ai_pace: Mapped[float | None] = mapped_column(Float)
    #: A new game's length: ``4`` / ``8`` / ``16`` hands or ``1圈`` / ``2圈`` / ``4圈`` rounds.
    length: Mapped[str] = mapped_column(String(8), default="8", server_default="8")
    #: Seconds to press 准备 between hands, and to answer a 解散 vote.
    ready_timeout: Mapped[int] = mapped_column(Integer, default=60, server_default="60")
    vote_timeout: Mapped[int] = mapped_column(Integer, default=60, server_default="60")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class Season(Base):
    """A leaderboard season (赛季) of one server."""

    __tablename__ = "seasons"

    guild_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("guilds.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)


class Player(Base):
    """A Discord user who played or was recorded."""

    __tablename__ = "players"

    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    display_name: Mapped[str | None] = mapped_column(String(100))
    locale: Mapped[str | None] = mapped_column(String(16))
    prefers_images: Mapped[bool] = mapped_column(Boolean, default=True)
    #: Turn alerts (a short DM when a decision waits): ``on``, ``claims`` (claims only), ``off``.
    alerts: Mapped[str] = mapped_column(String(8), default="on", server_default="on")
    #: The language chosen for a game's private texts (``zh``, ``zh-TW``, ``en``); NULL =
    #: follow the server's.
    language: Mapped[str | None] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class Game(Base):
    """An online game at one table: many hands (局) over hours or days."""

    __tablename__ = "games"
    __table_args__ = (
        CheckConstraint(_in("status", GAME_STATUSES), name="status"),
        Index("ix_games_status_updated", "status", "updated_at"),
        Index("ix_games_guild_updated", "guild_id", "updated_at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    guild_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("guilds.id", ondelete="CASCADE"))
    channel_id: Mapped[int] = mapped_column(BigInteger)
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    seats: Mapped[list[Any]] = mapped_column(default=list)
    status: Mapped[str] = mapped_column(String(16), default="lobby")
    seed_commitment: Mapped[str | None] = mapped_column(String(128))
    totals: Mapped[list[Any]] = mapped_column(default=list)
    version: Mapped[int] = mapped_column(Integer, default=0)
    table_message_id: Mapped[int | None] = mapped_column(BigInteger)
    #: Where the game is played: its thread, or the channel itself; NULL = not decided yet.
    thread_id: Mapped[int | None] = mapped_column(BigInteger)
    #: The Discord messages delivery keeps up to date (hand DMs, alerts, the last result).
    messages: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: The game ended (its ``end`` entry) and its ending — the last hand's result, the final
    #: standings — is not yet known to be posted; cleared once delivery accepted it.
    ending_owed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class Action(Base):
    """One entry of a game's append-only action log; ``seq`` runs 1, 2, 3, … per game."""

    __tablename__ = "actions"

    game_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seat: Mapped[int | None] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Snapshot(Base):
    """A serialised game state covering the log up to and including ``seq``."""

    __tablename__ = "snapshots"

    game_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    state: Mapped[dict[str, Any]] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Hand(Base):
    """A finished hand (一局): online (from a game) or a physically played, recorded one."""

    __tablename__ = "hands"
    __table_args__ = (
        CheckConstraint(_in("source", HAND_SOURCES), name="source"),
        CheckConstraint(_in("how", WIN_KINDS), name="how"),
        UniqueConstraint("game_id", "hand_no", name="uq_hands_game_hand_no"),
        Index("ix_hands_guild_created", "guild_id", "created_at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    game_id: Mapped[int | None] = mapped_column(
        BigInteger, ForeignKey("games.id", ondelete="CASCADE")
    )
    source: Mapped[str] = mapped_column(String(8), default="online")
    guild_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("guilds.id", ondelete="CASCADE"))
    variant: Mapped[str] = mapped_column(String(32))
    season: Mapped[int] = mapped_column(Integer)
    hand_no: Mapped[int] = mapped_column(Integer)
    winner_seats: Mapped[list[Any]] = mapped_column(default=list)
    winner_user_ids: Mapped[list[Any]] = mapped_column(default=list)
    how: Mapped[str] = mapped_column(String(16))
    discarder_seat: Mapped[int | None] = mapped_column(Integer)
    discarder_user_id: Mapped[int | None] = mapped_column(BigInteger)
    points: Mapped[int] = mapped_column(Integer, default=0)
    items: Mapped[list[Any]] = mapped_column(default=list)
    deltas: Mapped[list[Any]] = mapped_column(default=list)
    seed_reveal: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class HandResult(Base):
    """One player's line of one finished hand; drives leaderboards and stats."""

    __tablename__ = "hand_results"
    __table_args__ = (
        # Leaderboards: all / season / period scans of one server, covering.
        Index(
            "ix_hand_results_board",
            "guild_id", "is_ai", "user_id", "variant", "season", "created_at", "delta", "won",
        ),
        Index(
            "ix_hand_results_board_time",
            "guild_id", "is_ai", "created_at", "user_id", "variant", "season", "delta", "won",
        ),
        # Player stats and history, covering.
        Index(
            "ix_hand_results_player",
            "guild_id", "user_id", "variant", "created_at",
            "delta", "won", "self_draw", "dealt_in", "season",
        ),
        Index("ix_hand_results_game", "game_id"),
    )  # fmt: skip

    hand_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("hands.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    user_id: Mapped[int] = mapped_column(BigInteger)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    game_id: Mapped[int | None] = mapped_column(BigInteger)
    source: Mapped[str] = mapped_column(String(8))
    variant: Mapped[str] = mapped_column(String(32))
    season: Mapped[int] = mapped_column(Integer)
    delta: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[bool] = mapped_column(Boolean, default=False)
    self_draw: Mapped[bool] = mapped_column(Boolean, default=False)
    dealt_in: Mapped[bool] = mapped_column(Boolean, default=False)
    is_ai: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Rating(Base):
    """A player's openskill rating in one server and variant (``*`` = all variants)."""

    __tablename__ = "ratings"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    is_ai: Mapped[bool] = mapped_column(Boolean, primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    hands: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class RatingHistory(Base):
    """A rating after one hand, for the stats chart."""

    __tablename__ = "rating_history"
    __table_args__ = (
        Index("ix_rating_history_player", "guild_id", "user_id", "variant", "created_at"),
        Index("ix_rating_history_hand", "hand_id"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    variant: Mapped[str] = mapped_column(String(32))
    user_id: Mapped[int] = mapped_column(BigInteger)
    is_ai: Mapped[bool] = mapped_column(Boolean)
    hand_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("hands.id", ondelete="CASCADE"))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class PhysicalRecord(Base):
    """A hand played with real tiles, waiting for every named player to confirm it."""

    __tablename__ = "physical_records"
    __table_args__ = (
        CheckConstraint(_in("status", RECORD_STATUSES), name="status"),
        Index("ix_physical_records_status_expires", "status", "expires_at"),
        Index("ix_physical_records_guild", "guild_id", "created_at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    guild_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("guilds.id", ondelete="CASCADE"))
    reporter_id: Mapped[int] = mapped_column(BigInteger)
    player_ids: Mapped[list[Any]] = mapped_column()
    payload: Mapped[dict[str, Any]] = mapped_column()
    confirmations: Mapped[list[Any]] = mapped_column(default=list)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    expires_at: Mapped[datetime] = mapped_column()
    hand_id: Mapped[int | None] = mapped_column(
        BigInteger, ForeignKey("hands.id", ondelete="SET NULL")
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class Deadline(Base):
    """A decision's deadline (期限), stored so that whichever live process gets there first
    fires it, once: ``kind`` ``play`` (the turn or claim timeout) or ``session`` (准备, the
    解散 vote, dealing the next hand); ``version`` the game's version when it was armed;
    ``due_at`` epoch seconds; ``lease_until`` while a process is firing it (claimed with
    ``FOR UPDATE SKIP LOCKED``, see :mod:`db.deadlines`)."""

    __tablename__ = "deadlines"
    __table_args__ = (Index("ix_deadlines_due_at", "due_at"),)

    game_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    due_at: Mapped[float] = mapped_column(Float)
    holder: Mapped[str | None] = mapped_column(String(64))
    lease_until: Mapped[float | None] = mapped_column(Float)


class ChannelGame(Base):
    """The open game (未结束的对局) of a channel: one per channel, a database guarantee shared by
    every bot process. A new lobby takes the row over only when the game it names has ended
    (finished or abandoned) — a compare-and-set in the lobby's insert (see
    :meth:`db.games.GameRepository.create` with ``claim_channel``)."""

    __tablename__ = "channel_games"
    __table_args__ = (Index("ix_channel_games_game", "game_id"),)

    channel_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    game_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("games.id", ondelete="CASCADE"), nullable=False
    )
