"""Records of hands played with real tiles (实体牌局记录), pure of Discord.

The reporter names the four players (in seat order), the winner or a draw, how it was won,
who discarded, and either the hand (scored by the engine, :mod:`services.desk`) or the points
one loser pays. The payments follow the variant's rules (:func:`engine.settle.settle_win`).
The record stays *pending* until every named player confirmed it; it expires after the
server's expiry time (``record_expiry_hours``, default 24 h). Only a confirmed record counts, once, in the server's
leaderboards (source ``record``); an admin (Manage Server) may void one.

The store (:class:`db.store.Store`) does the bookkeeping: one transaction per confirmation,
the hand recorded in the same transaction as the last confirmation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from db.types import (
    GuildSettings,
    HandInput,
    HandPlayer,
    NotAPlayer,
    PhysicalRecordInfo,
    RecordClosed,
    RecordNotFound,
)
from engine.options import make_options
from engine.scoring import ScoreResult
from engine.settle import settle_win
from services.desk import (
    DeskAnswer,
    DeskInputError,
    DeskQuery,
    answer_context,
    build_context,
    parse_variant,
    parse_win,
)

DEFAULT_EXPIRY = timedelta(hours=24)
MAX_EXPIRY = timedelta(days=30)
MAX_POINTS = 100_000
HOW_WORDS: dict[str, str] = {"draw": "draw", "流局": "draw", "荒庄": "draw", "黄庄": "draw"}


class RecordStore(Protocol):
    """The part of :class:`db.store.Store` the record flow uses."""

    async def create_record(
        self,
        reporter_id: int,
        hand: HandInput,
        *,
        payload: dict[str, Any] | None = None,
        expires_in: timedelta = DEFAULT_EXPIRY,
        now: datetime | None = None,
    ) -> PhysicalRecordInfo: ...

    async def confirm_record(
        self, record_id: int, user_id: int, *, now: datetime | None = None
    ) -> PhysicalRecordInfo: ...

    async def void_record(
        self, record_id: int, *, now: datetime | None = None
    ) -> PhysicalRecordInfo: ...

    async def expire_records(self, *, now: datetime | None = None) -> list[PhysicalRecordInfo]: ...

    async def get_record(self, record_id: int) -> PhysicalRecordInfo | None: ...

    async def get_guild_settings(self, guild_id: int) -> GuildSettings: ...

    async def update_guild_settings(self, guild_id: int, **changes: Any) -> GuildSettings: ...


class RecordError(Exception):
    """A record request refused; ``key`` names the sentence :mod:`cogs.desk_text` shows."""

    key = "record_error"

    def __init__(self, detail: str = "", **params: Any) -> None:
        self.detail = detail
        self.params = params
        super().__init__(detail or self.key)


class BadReport(RecordError):
    """The report itself is wrong (players, winner, discarder, points); ``field`` names the
    option at fault."""

    key = "bad_report"

    def __init__(self, field: str, detail: str) -> None:
        super().__init__(detail, field=field)
        self.field = field


class NoSuchRecord(RecordError):
    key = "no_record"


class RecordNotPending(RecordError):
    """Already confirmed (counted), expired or void; ``status`` says which."""

    key = "record_closed"

    def __init__(self, record_id: int, status: str) -> None:
        super().__init__(f"record {record_id} is {status}", record_id=record_id, status=status)
        self.status = status


class NotNamed(RecordError):
    """The user is not one of the record's four players."""

    key = "not_named"


class NotAdmin(RecordError):
    """Voiding needs Manage Server."""

    key = "not_admin"


@dataclass(frozen=True)
class RecordReport:
    """One physically played hand as the reporter gives it.

    ``players`` are four user ids in seat order; ``winner`` and ``discarder`` are user ids
    (``winner=None`` is a draw); ``how`` is 自摸 / 点炮 / 抢杠 (or their codes) or ``draw``.
    Give ``hand`` (a :class:`DeskQuery`, scored by the engine) or ``points`` (what one loser
    pays, before the variant's payment rules), not both.
    """

    guild_id: int
    reporter_id: int
    players: tuple[int, ...]
    winner: int | None
    how: str | None = None
    discarder: int | None = None
    hand: DeskQuery | None = None
    points: int | None = None
    variant: str | None = None
    options: str | None = None
    dealer: int | None = None


@dataclass(frozen=True)
class PreparedRecord:
    """A validated report: the hand to store and, when a hand was given, its scoring."""

    hand: HandInput
    answer: DeskAnswer | None
    details: dict[str, Any]


@dataclass(frozen=True)
class ConfirmOutcome:
    """After a confirmation: the record, whether this click made it count, whether the user
    had already confirmed."""

    record: PhysicalRecordInfo
    counted_now: bool
    repeated: bool


def parse_how(text: str | None, *, draw: bool) -> str:
    """``draw`` for a drawn hand, else ``self`` / ``discard`` / ``rob_kong`` (default 自摸)."""
    if text is not None and text.strip().lower() in HOW_WORDS:
        return "draw"
    if draw:
        if text is None or not text.strip():
            return "draw"
        raise BadReport("how", f"a draw has no winner, so {text.strip()!r} does not apply")
    try:
        return parse_win(text)
    except DeskInputError as e:
        raise BadReport("how", str(e)) from None


def prepare_record(
    report: RecordReport,
    *,
    default_variant: str = "shangrao",
    house_rules: Mapping[str, Mapping[str, Any]] | None = None,
) -> PreparedRecord:
    """Check a report and work out every player's points change (no I/O).

    Raises :class:`BadReport`, or :class:`services.desk.DeskInputError` for a hand that
    cannot be read; a hand that is no legal win is a :class:`BadReport` with the reason.
    """
    players = list(report.players)
    if len(players) != 4:
        raise BadReport("players", f"name exactly four players, not {len(players)}")
    if len(set(players)) != 4:
        raise BadReport("players", "each player may be named once")
    how_text = report.how
    if (how_text is None or not how_text.strip()) and report.discarder is not None:
        how_text = "discard"  # a discarder named, no way given: 点炮
    how = parse_how(how_text, draw=report.winner is None)
    given = report.hand.variant if report.hand is not None and report.hand.variant else None
    variant = parse_variant(given or report.variant, default_variant)
    details: dict[str, Any] = {"variant": variant, "players": players}
    if report.dealer is not None:
        if report.dealer not in players:
            raise BadReport("dealer", "the dealer must be one of the four players")
        details["dealer"] = report.dealer
    if how == "draw":
        if report.winner is not None:
            raise BadReport("winner", "a drawn hand (流局) has no winner")
        if report.discarder is not None:
            raise BadReport("discarder", "a drawn hand has no discarder")
        if report.hand is not None or report.points is not None:
            raise BadReport("hand", "a drawn hand has no hand or points to record")
        hand = HandInput(
            guild_id=report.guild_id,
            variant=variant,
            hand_no=1,
            players=[HandPlayer(seat, uid, 0) for seat, uid in enumerate(players)],
            how="draw",
            source="record",
        )
        return PreparedRecord(hand, None, {**details, "how": "draw"})
    assert report.winner is not None
    if report.winner not in players:
        raise BadReport("winner", "the winner must be one of the four players")
    winner = players.index(report.winner)
    payer: int | None = None
    if how == "self":
        if report.discarder is not None:
            raise BadReport("discarder", "a self-drawn win (自摸) has no discarder")
    else:
        if report.discarder is None:
            raise BadReport("discarder", "name who discarded (点炮) or whose kong was robbed")
        if report.discarder not in players:
            raise BadReport("discarder", "the discarder must be one of the four players")
        if report.discarder == report.winner:
            raise BadReport("discarder", "the winner cannot be the discarder")
        payer = players.index(report.discarder)
    if (report.hand is None) == (report.points is None):
        raise BadReport("hand", "give either the hand (scored by the bot) or the points, not both")
    dealer = players.index(report.dealer) if report.dealer is not None else None
    answer: DeskAnswer | None = None
    if report.hand is not None:
        flags = tuple(report.hand.flags)
        if dealer is not None and dealer == winner:
            flags = (*flags, "dealer")
        query = DeskQuery(
            hand=report.hand.hand,
            variant=variant,
            win=how,
            bao=report.hand.bao,
            flown=report.hand.flown,
            kong_draws=report.hand.kong_draws,
            flowers=report.hand.flowers,
            flags=flags,
            options=report.hand.options or report.options,
        )
        ctx = build_context(query, default_variant=variant, house_rules=house_rules)
        answer = answer_context(ctx)
        if not answer.legal:
            raise BadReport("hand", f"not a legal win: {answer.reason}")
        result = answer.result
        options: Any = ctx.options
        details["hand"] = report.hand.hand
    else:
        points = report.points
        if type(points) is not int or not 0 < points <= MAX_POINTS:
            raise BadReport("points", f"points must be a whole number 1–{MAX_POINTS}")
        result = ScoreResult(True, points, ())
        try:
            options = make_options(variant, dict((house_rules or {}).get(variant) or {}))
        except ValueError:
            options = make_options(variant)
    settlement = settle_win(
        variant,
        options,
        winner=winner,
        result=result,
        win=how,  # type: ignore[arg-type]
        payer=payer,
        dealer=dealer if dealer is not None else winner,
    )
    items = [{"name": i.name, "en": i.en, "value": i.value} for i in result.items]
    hand = HandInput(
        guild_id=report.guild_id,
        variant=variant,
        hand_no=1,
        players=[
            HandPlayer(seat, uid, settlement.deltas[seat]) for seat, uid in enumerate(players)
        ],
        how=how,  # type: ignore[arg-type]
        winners=[winner],
        discarder=payer,
        points=result.points,
        items=items,
        source="record",
    )
    details.update(how=how, points=result.points, deltas=list(settlement.deltas))
    return PreparedRecord(hand, answer, details)


class RecordService:
    """The record flow on top of the store: report, confirm, void, expire."""

    def __init__(self, store: RecordStore, *, default_expiry: timedelta = DEFAULT_EXPIRY) -> None:
        self.store = store
        self.default_expiry = default_expiry

    async def expiry_for(self, guild_id: int) -> timedelta:
        """The server's expiry time for pending records: its ``record_expiry_hours`` setting
        (a column of the server's settings), else the bot-wide default."""
        settings = await self.store.get_guild_settings(guild_id)
        hours = settings.record_expiry_hours
        if isinstance(hours, int | float) and not isinstance(hours, bool) and hours > 0:
            return min(timedelta(hours=hours), MAX_EXPIRY)
        return self.default_expiry

    async def set_expiry(self, guild_id: int, hours: float | None) -> timedelta:
        """Set (or with ``None`` clear, back to the bot's default) the server's expiry time;
        returns the one in force."""
        if hours is not None and not 0 < hours <= MAX_EXPIRY / timedelta(hours=1):
            raise BadReport(
                "hours", f"the expiry must be more than 0 and at most {MAX_EXPIRY.days} days"
            )
        await self.store.update_guild_settings(
            guild_id, record_expiry_hours=None if hours is None else float(hours)
        )
        return await self.expiry_for(guild_id)

    async def report(
        self,
        report: RecordReport,
        *,
        now: datetime | None = None,
        extra: dict[str, Any] | None = None,
    ) -> tuple[PhysicalRecordInfo, PreparedRecord]:
        """Validate, score and store a report as a pending record (the reporter's own
        confirmation counts at once when they are one of the players)."""
        settings = await self.store.get_guild_settings(report.guild_id)
        prepared = prepare_record(
            report, default_variant=settings.default_variant, house_rules=settings.rule_options
        )
        expiry = await self.expiry_for(report.guild_id)
        record = await self.store.create_record(
            report.reporter_id,
            prepared.hand,
            payload={**prepared.details, **(extra or {})},
            expires_in=expiry,
            now=now,
        )
        return record, prepared

    async def confirm(
        self, record_id: int, user_id: int, *, now: datetime | None = None
    ) -> ConfirmOutcome:
        """A named player confirms; the record counts when the last one does (once)."""
        before = await self.store.get_record(record_id)
        if before is None:
            raise NoSuchRecord(f"record {record_id} does not exist", record_id=record_id)
        try:
            record = await self.store.confirm_record(record_id, user_id, now=now)
        except RecordNotFound:
            raise NoSuchRecord(f"record {record_id} does not exist", record_id=record_id) from None
        except RecordClosed as e:
            raise RecordNotPending(record_id, e.status) from None
        except NotAPlayer:
            raise NotNamed(f"user {user_id} is not a player of record {record_id}") from None
        repeated = user_id in before.confirmations
        counted_now = record.status == "confirmed"
        return ConfirmOutcome(record, counted_now, repeated)

    async def void(
        self, record_id: int, *, is_admin: bool, now: datetime | None = None
    ) -> PhysicalRecordInfo:
        """An admin (Manage Server) voids a record; a counted one leaves the leaderboards,
        stats and ratings (rating history included) before this returns."""
        if not is_admin:
            raise NotAdmin("only members with Manage Server can void a record")
        try:
            return await self.store.void_record(record_id, now=now)
        except RecordNotFound:
            raise NoSuchRecord(f"record {record_id} does not exist", record_id=record_id) from None
        except RecordClosed as e:
            raise RecordNotPending(record_id, e.status) from None

    async def expire_due(self, *, now: datetime | None = None) -> list[PhysicalRecordInfo]:
        """Mark pending records past their time as expired; returns them."""
        return await self.store.expire_records(now=now)

    async def get(self, record_id: int) -> PhysicalRecordInfo:
        record = await self.store.get_record(record_id)
        if record is None:
            raise NoSuchRecord(f"record {record_id} does not exist", record_id=record_id)
        return record


def waiting_for(record: PhysicalRecordInfo) -> list[int]:
    """The named players who have not confirmed yet, in seat order."""
    return [uid for uid in record.player_ids if uid not in record.confirmations]


async def attach_message(store: Any, record_id: int, channel_id: int, message_id: int) -> None:
    """Remember which channel message shows the record (kept in its details), so the bot
    can update it when the record expires. Written on the store's own transaction helper
    (the store has no method for it)."""
    from sqlalchemy import select, update

    from db.models import PhysicalRecord

    table = PhysicalRecord.__table__
    async with store._write() as conn:
        row = (
            await conn.execute(select(table.c.payload).where(table.c.id == record_id))
        ).one_or_none()
        if row is None:
            raise NoSuchRecord(f"record {record_id} does not exist", record_id=record_id)
        payload = dict(row.payload)
        details = dict(payload.get("details") or {})
        details["message"] = {"channel_id": channel_id, "message_id": message_id}
        payload["details"] = details
        await conn.execute(update(table).where(table.c.id == record_id).values(payload=payload))


def message_of(record: PhysicalRecordInfo) -> tuple[int, int] | None:
    """``(channel id, message id)`` of the message showing the record, if remembered."""
    where = (record.payload or {}).get("message")
    if not isinstance(where, dict):
        return None
    try:
        return int(where["channel_id"]), int(where["message_id"])
    except (KeyError, TypeError, ValueError):
        return None
