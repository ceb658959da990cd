"""Records of hands played with real tiles (实体牌局记录), pure of Discord.

The reporter names the four players (in seat order), the winner or a draw, how it was won,
who discarded, and either the hand (scored by the engine, :mod:`services.desk`) or the points
one loser pays; and, as for ``/mahjong score``, the rest of the table where it changes the
payments (上饶 叁包 feeder, the others' 发 / kongs / 中白 for 九江 吃兴家 and 新余 杠钱, 九江
跟庄 / 黄庄). One winner is settled exactly as the calculator settles the same hand
(:mod:`services.desk_table`); several winners on one discard (一炮多响, 新余 with
``discard_win``) through :func:`engine.settle.settle_multi`.
The record stays *pending* until every named player confirmed it; it expires after the
server's expiry time (``record_expiry_hours``, default 24 h). Only a confirmed record counts, once, in the server's
leaderboards (source ``record``); an admin (Manage Server) may void one.

The store (:class:`db.store.Store`) does the bookkeeping: one transaction per confirmation,
the hand recorded in the same transaction as the last confirmation.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Protocol

from db.guilds import GuildRepository
from db.records import RecordRepository
from db.types import (
    HandInput,
    HandPlayer,
    NotAPlayer,
    PhysicalRecordInfo,
    RecordClosed,
    RecordNotFound,
)
from engine import variants
from engine.notation import Hand, MeldKind
from engine.refusal import Reason
from engine.scoring import ScoreResult, WinContext, score
from engine.settle import SEATS, settle_multi, table_kong_money
from services.desk import (
    DeskAnswer,
    DeskInputError,
    DeskQuery,
    answer_context,
    build_context,
    parse_option_pairs,
    parse_variant,
    parse_win,
    rule_options,
    typed_hand,
)
from services.desk_errors import variant_title
from services.desk_table import (
    ROLE_NAMES,
    SEAT_ROLES,
    PayLine,
    Table,
    build_table,
    parse_others,
    settle_table,
)

DEFAULT_EXPIRY = timedelta(hours=24)
MAX_EXPIRY = timedelta(days=30)
MAX_POINTS = 100_000
HOW_WORDS: dict[str, str] = {"draw": "draw", "流局": "draw", "荒庄": "draw", "黄庄": "draw"}


class RecordStore(Protocol):
    """The part of :class:`db.store.Store` the record flow uses: its records (实体牌局记录)
    and server settings."""

    @property
    def records(self) -> RecordRepository: ...

    @property
    def guilds(self) -> GuildRepository: ...


class RecordError(Exception):
    """A record request refused; ``key`` names the sentence :mod:`cogs.desk.text` shows."""

    key = "record_error"

    def __init__(self, detail: str = "", **params: Any) -> None:
        self.detail = detail
        self.params = params
        super().__init__(detail or self.key)


class BadReport(RecordError):
    """The report itself is wrong (players, winner, discarder, points); ``field`` names the
    option at fault, ``detail`` says what is wrong (a :class:`~engine.refusal.Reason` the
    reader sees in their language; its English for logs)."""

    key = "bad_report"

    def __init__(self, field: str, detail: str) -> None:
        super().__init__(detail, field=field)
        self.field = field


def report_why(name: str, english: str, /, **params: Any) -> Reason:
    """What is wrong with a record report: key ``desk.report.<name>`` (English as given)."""
    return Reason(f"desk.report.{name}", english, **params)


_why = report_why


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
class ExtraWinner:
    """Another winner on the same discard (一炮多响, 新余 with ``discard_win``): a user id and
    their own hand (scored with the first winner's variant, 宝, flags and options) or the
    points the discarder pays them. ``text`` may hold either: a whole number is points."""

    user_id: int
    hand: str | None = None
    points: int | None = None

    @staticmethod
    def of(user_id: int, text: str | None) -> ExtraWinner:
        """``"8"`` → points 8; anything else → a hand to score; blank → neither."""
        if text is None or not text.strip():
            return ExtraWinner(user_id)
        raw = text.strip()
        return ExtraWinner(user_id, points=int(raw)) if raw.isdigit() else ExtraWinner(user_id, raw)


@dataclass(frozen=True)
class RecordReport:
    """One physically played hand as the reporter gives it.

    ``players`` are four user ids in seat order (play order: each one's 下家 is the next,
    player 4's is player 1); ``winner``, ``discarder`` and ``feeder`` are user ids
    (``winner=None`` is a draw); ``how`` is 自摸 / 点炮 / 抢杠 (or their codes) or ``draw``.
    Give ``hand`` (a :class:`DeskQuery`, scored by the engine) or ``points`` (what one loser
    pays, before the variant's payment rules), not both.

    The rest of the table, as for ``/mahjong score`` (:mod:`services.desk_table`):
    ``feeder`` 上饶 叁包, ``others`` the other players' 发 / kongs / 中白 (九江 吃兴家, 新余
    杠钱) — each part starts with whose it is, 下家 / 对家 / 上家 *seen from the winner* or a
    mention ``<@id>`` — and ``streak`` 九江 跟庄 / 黄庄. ``more_winners`` are further winners on
    the same discard (一炮多响), where the variant allows it.
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
    feeder: int | None = None
    others: str | None = None
    streak: str | None = None
    more_winners: tuple[ExtraWinner, ...] = ()


@dataclass(frozen=True)
class PreparedRecord:
    """A validated report: the hand to store, the first winner's scoring when a hand was
    given (``answer``, as ``/mahjong score`` shows it), every winner's points by seat, and
    the details kept for display."""

    hand: HandInput
    answer: DeskAnswer | None
    details: dict[str, Any]
    winner_points: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class ConfirmOutcome:
    """After a confirmation: the record, whether this click made it count, whether the user
    had already confirmed."""

    record: PhysicalRecordInfo
    counted_now: bool
    repeated: bool


@dataclass(frozen=True)
class _Won:
    """One winner, scored: seat, context (the hand, or an empty hand for given points),
    result, and the hand as typed (None for given points)."""

    seat: int
    ctx: WinContext
    result: ScoreResult
    hand_text: str | None


def parse_how(text: str | None, *, draw: bool) -> str:
    """``draw`` for a drawn hand, else ``self`` / ``discard`` / ``rob_kong`` (default 自摸)."""
    if text is not None and text.strip().lower() in HOW_WORDS:
        return "draw"
    if draw:
        if text is None or not text.strip():
            return "draw"
        raise BadReport(
            "how",
            _why("draw_how", "a draw has no winner, so {how!r} does not apply", how=text.strip()),
        )
    try:
        return parse_win(text)
    except DeskInputError as e:
        raise BadReport("how", e.problem) from None


def seat_word(seat: int, winner: int) -> str:
    """The seat-relative word for ``seat`` seen from ``winner`` (seats in play order):
    ``next`` (下家), ``across`` (对家) or ``prev`` (上家).

    >>> seat_word(0, 3), seat_word(1, 3), seat_word(2, 3)
    ('next', 'across', 'prev')
    """
    rel = (seat - winner) % SEATS
    if rel == 0:
        raise ValueError("the winner has no seat word of their own")
    return SEAT_ROLES[rel]


def absolute_seat(rel: int, winner: int) -> int:
    """The seat (index into the players) of the seat ``rel`` seen from ``winner`` (1 = 下家)."""
    return (winner + rel) % SEATS


_MENTION_RX = re.compile(r"<@!?(\d{1,20})>")


def others_text(text: str | None, players: Sequence[int], winner: int) -> str | None:
    """The ``others`` text with each player mention ``<@id>`` turned into the seat word seen
    from the winner (``下家`` / ``对家`` / ``上家``), so :func:`services.desk_table.parse_others`
    reads it; a mention of the winner or of someone not playing is a :class:`BadReport`."""
    if text is None or not text.strip():
        return None

    def word(m: re.Match[str]) -> str:
        uid = int(m.group(1))
        if uid not in players:
            raise BadReport(
                "others",
                _why("not_player_named", "{who} is not one of the four players", who=m.group(0)),
            )
        seat = players.index(uid)
        if seat == winner:
            raise BadReport(
                "others",
                _why(
                    "winner_in_others",
                    "the winner's own kongs and 发 belong in the hand, not in others",
                ),
            )
        return f" {ROLE_NAMES[seat_word(seat, winner)][0]} "

    return _MENTION_RX.sub(word, text)


def multi_win_refusal(variant: str, options: Any, how: str) -> Reason | None:
    """Why several winners on one tile are not allowed here (None: they are). RULES: 上饶
    (§3.1) and 九江 (§5.1) give the tile to the first claimer in play order from the
    discarder; 新余 (§4.1) wins on a discard only with ``discard_win``, and then every
    claimer wins (一炮多响) — on a discard or a robbed kong, as the table engine plays it."""
    if how == "self":
        return _why(
            "multi_self",
            "a self-drawn win (自摸) has one winner; several winners need a discard (一炮多响)",
        )
    v = variants.get(variant)
    if not v.rules(v.options_class()).multi_win:
        return _why(
            "multi_first",
            "{variant} has one winner per discard: the first in play order from the "
            "discarder (RULES); record only that one",
            variant=variant_title(variant),
        )
    if not getattr(options, "discard_win", False):
        return _why(
            "multi_discard_win",
            "{variant} wins on a discard only with the rule option discard_win=true (then 一炮多响 "
            "is allowed): add it to options, or set it as the server's house rule",
            variant=variant_title(variant),
        )
    return None


def _options_for(
    variant: str, text: str | None, house_rules: Mapping[str, Mapping[str, Any]] | None
) -> Any:
    return rule_options(variant, parse_option_pairs(text), house_rules)


def _score_winner(
    report: RecordReport,
    *,
    seat: int,
    field_name: str,
    hand: DeskQuery | None,
    points: int | None,
    variant: str,
    how: str,
    dealer: int | None,
    house_rules: Mapping[str, Mapping[str, Any]] | None,
) -> _Won:
    """Score one winner: their hand through the calculator's reading, or the given points."""
    if (hand is None) == (points is None):
        raise BadReport(
            field_name,
            _why(
                "hand_or_points", "give either the hand (scored by the bot) or the points, not both"
            ),
        )
    if hand is not None:
        flags = tuple(hand.flags)
        if dealer is not None and dealer == seat:
            flags = (*flags, "dealer")
        query = replace(hand, variant=variant, win=how, flags=flags)
        ctx = build_context(query, default_variant=variant, house_rules=house_rules)
        result = score(ctx)
        if not result.legal:
            raise BadReport(
                field_name, _why("not_legal", "not a legal win: {reason}", reason=result.reason)
            )
        return _Won(seat, ctx, result, hand.hand)
    if type(points) is not int or not 0 < points <= MAX_POINTS:
        raise BadReport(
            "points" if field_name == "hand" else field_name,
            _why("points_range", "points must be a whole number 1–{most}", most=MAX_POINTS),
        )
    options = _options_for(variant, report.options, house_rules)
    ctx = WinContext(
        variant=variant,
        options=options,
        hand=Hand(()),  # only the points are known
        win=how,  # type: ignore[arg-type]
        flags=frozenset({"dealer"} if dealer is not None and dealer == seat else ()),
    )
    return _Won(seat, ctx, ScoreResult(True, points, ()), None)


def _table_for(
    report: RecordReport, first: _Won, players: Sequence[int], payer: int | None
) -> Table:
    """The rest of the table seen from the first winner, read by the calculator's own
    :func:`services.desk_table.build_table` (so the same checks and the same errors)."""
    winner = first.seat
    discarder = seat_word(payer, winner) if payer is not None else None
    feeder: str | None = None
    feeder_seat: int | None = None
    if report.feeder is not None:
        if report.feeder not in players:
            raise BadReport("feeder", _why("not_player", "must be one of the four players"))
        feeder_seat = players.index(report.feeder)
        if feeder_seat == winner:
            raise BadReport("feeder", _why("feeder_winner", "the winner cannot be the 叁包 feeder"))
        feeder = seat_word(feeder_seat, winner)
    given_hand = first.hand_text is not None
    sanbao = variants.get(first.ctx.variant).desk.feeder  # 上饶 叁包
    table = build_table(
        first.ctx,
        discarder=discarder,
        feeder=feeder if given_hand or not sanbao else None,
        others=others_text(report.others, players, winner),
        streak=report.streak,
    )
    if feeder is not None and not given_hand and sanbao:
        # points only: the winner's melds are not known, the reporter vouches for the 叁包
        table = replace(table, feeder=(feeder_seat - winner) % SEATS)  # type: ignore[operator]
    return table


def _rotate(deltas: Sequence[int], winner: int) -> list[int]:
    """Deltas seen from the winner (seat 0) → deltas by the players' seats."""
    out = [0] * SEATS
    for rel, d in enumerate(deltas):
        out[absolute_seat(rel, winner)] = d
    return out


def prepare_record(
    report: RecordReport,
    *,
    default_variant: str | None = None,
    house_rules: Mapping[str, Mapping[str, Any]] | None = None,
) -> PreparedRecord:
    """Check a report and work out every player's points change (no I/O).

    One winner: scored and settled exactly as ``/mahjong score`` does for the same hand and
    table (:func:`services.desk.answer_context` with :func:`services.desk_table.build_table`,
    the seats turned from the winner's view to the players'). Several winners on one discard
    (一炮多响): each scored alone, paid by the discarder through
    :func:`engine.settle.settle_multi`, plus 新余 杠钱 of every kong on the table.

    Raises :class:`BadReport`, or :class:`services.desk.DeskInputError` for input that
    cannot be read (a hand, the others' melds, the streak); a hand that is no legal win is a
    :class:`BadReport` with the reason.
    """
    players = list(report.players)
    if len(players) != 4:
        raise BadReport(
            "players", _why("four_players", "name exactly four players, not {n}", n=len(players))
        )
    if len(set(players)) != 4:
        raise BadReport("players", _why("player_twice", "each player may be named once"))
    how_text = report.how
    if (how_text is None or not how_text.strip()) and report.discarder is not None:
        how_text = "discard"  # a discarder named, no way given: 点炮
    if report.winner is not None and (how_text is None or not how_text.strip()):
        # 自摸 and 点炮 move different points: a record is never a guess
        raise BadReport(
            "how",
            _why("how_missing", "say how the hand was won: 自摸 (self), 点炮 (discard) or 抢杠"),
        )
    how = parse_how(how_text, draw=report.winner is None)
    given = report.hand.variant if report.hand is not None and report.hand.variant else None
    variant = parse_variant(given or report.variant, default_variant)
    details: dict[str, Any] = {"variant": variant, "players": players}
    if report.dealer is not None:
        if report.dealer not in players:
            raise BadReport("dealer", _why("not_player", "must be one of the four players"))
        details["dealer"] = report.dealer
    if how == "draw":
        if report.winner is not None:
            raise BadReport("winner", _why("draw_winner", "a drawn hand (流局) has no winner"))
        if report.discarder is not None:
            raise BadReport("discarder", _why("draw_discarder", "a drawn hand has no discarder"))
        if report.hand is not None or report.points is not None:
            raise BadReport(
                "hand", _why("draw_hand", "a drawn hand has no hand or points to record")
            )
        if report.more_winners:
            raise BadReport("winner2", _why("draw_winner", "a drawn hand (流局) has no winner"))
        for name in ("feeder", "streak"):
            value = getattr(report, name)
            if value is not None and (not isinstance(value, str) or value.strip()):
                raise BadReport(
                    name, _why("draw_pays", "a drawn hand pays nothing: leave it empty")
                )
        options = _options_for(variant, _hand_options(report), house_rules)
        deltas, parts, shown = _draw_kong_money(report.others, players, variant, options)
        hand = HandInput(
            guild_id=report.guild_id,
            variant=variant,
            hand_no=1,
            players=[HandPlayer(seat, uid, deltas[seat]) for seat, uid in enumerate(players)],
            how="draw",
            source="record",
        )
        if any(deltas):
            details.update(deltas=deltas, parts=parts, others=shown)
        return PreparedRecord(hand, None, {**details, "how": "draw"})
    assert report.winner is not None
    if report.winner not in players:
        raise BadReport("winner", _why("not_player", "must be one of the four players"))
    winner = players.index(report.winner)
    extra_seats: list[int] = []
    for n, extra in enumerate(report.more_winners, 2):
        if extra.user_id not in players:
            raise BadReport(f"winner{n}", _why("not_player", "must be one of the four players"))
        seat = players.index(extra.user_id)
        if seat == winner or seat in extra_seats:
            raise BadReport(f"winner{n}", _why("winner_twice", "each winner may be named once"))
        extra_seats.append(seat)
    payer: int | None = None
    if how == "self":
        if report.discarder is not None:
            raise BadReport(
                "discarder", _why("self_discarder", "a self-drawn win (自摸) has no discarder")
            )
    else:
        if report.discarder is None:
            raise BadReport(
                "discarder",
                _why("discarder_missing", "name who discarded (点炮) or whose kong was robbed"),
            )
        if report.discarder not in players:
            raise BadReport("discarder", _why("not_player", "must be one of the four players"))
        payer = players.index(report.discarder)
        if payer == winner or payer in extra_seats:
            raise BadReport(
                "discarder", _why("winner_discarder", "a winner cannot be the discarder")
            )
    if extra_seats:
        why = multi_win_refusal(
            variant, _options_for(variant, _hand_options(report), house_rules), how
        )
        if why is not None:
            raise BadReport("winner2", why)
    dealer = players.index(report.dealer) if report.dealer is not None else None
    won = [
        _score_winner(
            report,
            seat=winner,
            field_name="hand",
            hand=report.hand,
            points=report.points,
            variant=variant,
            how=how,
            dealer=dealer,
            house_rules=house_rules,
        )
    ]
    for n, (seat, extra) in enumerate(zip(extra_seats, report.more_winners, strict=True), 2):
        query = None
        if extra.hand is not None:
            base = report.hand or DeskQuery(hand="", options=report.options)
            query = replace(base, hand=extra.hand, flown=0, kong_draws=0, flowers=0)
        won.append(
            _score_winner(
                report,
                seat=seat,
                field_name=f"hand{n}",
                hand=query,
                points=extra.points,
                variant=variant,
                how=how,
                dealer=dealer,
                house_rules=house_rules,
            )
        )
    first = won[0]
    table = _table_for(report, first, players, payer)
    answer: DeskAnswer | None = None
    if len(won) == 1:
        if first.hand_text is not None:
            answer = answer_context(first.ctx, table)  # exactly the calculator's answer
            assert answer.settlement is not None
            deltas_seen, lines = answer.settlement.deltas, answer.payments
        else:
            settlement, lines = settle_table(first.ctx, first.result, table)
            deltas_seen = settlement.deltas
        deltas = _rotate(deltas_seen, winner)
        parts = _parts(lines, winner)
    else:
        deltas, parts = _settle_several(won, table, payer, dealer)  # type: ignore[arg-type]
    winners = sorted(won, key=lambda w: (w.seat - (payer if payer is not None else winner)) % 4)
    items: list[dict[str, Any]] = []
    for w in winners:
        for i in w.result.items:
            item = {"name": i.name, "en": i.en, "value": i.value}
            items.append({**item, "seat": w.seat} if len(won) > 1 else item)
    total_points = sum(w.result.points for w in won)
    hand = HandInput(
        guild_id=report.guild_id,
        variant=variant,
        hand_no=1,
        players=[HandPlayer(seat, uid, deltas[seat]) for seat, uid in enumerate(players)],
        how=how,  # type: ignore[arg-type]
        winners=[w.seat for w in winners],
        discarder=payer,
        points=total_points,
        items=items,
        source="record",
    )
    if first.hand_text is not None:
        details["hand"] = typed_hand(first.hand_text)
    details.update(how=how, points=total_points, deltas=deltas, parts=parts)
    if len(won) > 1:
        details["winners"] = [
            {"user_id": players[w.seat], "points": w.result.points, "hand": w.hand_text}
            for w in winners
        ]
    details.update(_table_details(table, players, winner))
    return PreparedRecord(
        hand, answer, details, winner_points={w.seat: w.result.points for w in won}
    )


def _draw_kong_money(
    text: str | None, players: Sequence[int], variant: str, options: Any
) -> tuple[list[int], list[dict[str, Any]], list[dict[str, Any]]]:
    """新余 杠钱 of a drawn hand (RULES §4.3: paid at each kong, "also if it ends in a
    draw"): ``others`` names each player with kongs by mention, ``<@id> [7777m] (5555p)``,
    since a draw has no winner to count 下家 / 对家 / 上家 from. Returns each seat's change and
    its part, and the others' melds as the record message shows them."""
    if text is None or not text.strip():
        return [0] * SEATS, [{} for _ in range(SEATS)], []
    if not variants.get(variant).rules(options).kong_money:
        raise BadReport(
            "others",
            _why(
                "draw_no_kong_money",
                "a drawn hand pays nothing in {variant}: leave it empty",
                variant=variant_title(variant),
            ),
        )
    pieces = _MENTION_RX.split(text)  # [before, id, melds, id, melds, …]
    if pieces[0].strip(" ;；,，、"):
        raise BadReport(
            "others",
            _why(
                "draw_mentions",
                "a drawn hand has no winner to count seats from: start each part with the "
                "player's mention, e.g. @Bo [7777m]; @Cai (5555p)",
            ),
        )
    kongs: list[tuple[int, bool]] = []
    shown_melds: list[dict[str, Any]] = []
    seen: set[int] = set()
    for uid_text, melds in zip(pieces[1::2], pieces[2::2], strict=True):
        uid = int(uid_text)
        if uid not in players or uid in seen:
            raise BadReport(
                "others",
                _why(
                    "not_player_once",
                    "{who} must be one of the four players, named once",
                    who=f"<@{uid}>",
                ),
            )
        seen.add(uid)
        try:
            shown = parse_others("下家 " + melds.strip(" ;；,，、")).get(1)
        except DeskInputError as e:
            raise BadReport("others", e.problem) from None
        if shown is not None:
            seat = players.index(uid)
            kongs += [(seat, m.kind is MeldKind.CONCEALED_KONG) for m in shown.melds if m.is_kong]
            melds = [m.text() for m in shown.melds]
            shown_melds.append({"user_id": uid, "flowers": 0, "melds": melds})
    money = table_kong_money(variant, kongs)
    parts = [{"kong": -money.deltas[seat]} for seat in range(SEATS)]
    return list(money.deltas), parts, shown_melds


def _hand_options(report: RecordReport) -> str | None:
    return (
        report.hand.options if report.hand is not None and report.hand.options else report.options
    )


def _parts(lines: Sequence[PayLine], winner: int) -> list[dict[str, Any]]:
    """Each seat's payment behind its change (what it pays for the win, of which 吃兴家 in
    炮, its 杠钱, 叁包), by the players' seats; the winner's entry holds only its 杠钱 (net,
    negative: received), empty when none."""
    out: list[dict[str, Any]] = [{} for _ in range(SEATS)]
    for line in lines:
        rel = {"next": 1, "across": 2, "prev": 3}.get(line.role)
        if rel is None:
            continue  # no seat roles: nothing known beyond the deltas
        out[absolute_seat(rel, winner)] = {
            "win": line.win,
            "eaten": line.eaten,
            "kong": line.kong,
            "feeder": line.feeder,
        }
    kong = sum(line.kong for line in lines)  # 杠钱 sums to zero over the four seats
    if kong:
        out[winner] = {"kong": -kong}
    return out


def _settle_several(
    won: Sequence[_Won], table: Table, payer: int, dealer: int | None
) -> tuple[list[int], list[dict[str, Any]]]:
    """一炮多响: the discarder pays each winner (:func:`engine.settle.settle_multi`); 新余
    杠钱 of each winner's kongs and of the others' (seats seen from the first winner).
    Returns the deltas and each seat's part (``win``, ``kong``: what it pays, negative when
    it receives)."""
    first = won[0]
    variant, options = first.ctx.variant, first.ctx.options
    win = settle_multi(
        variant,
        options,
        winners=[(w.seat, w.result) for w in won],
        payer=payer,
        dealer=dealer if dealer is not None else first.seat,
        win=first.ctx.win,
        value_per_pao=table.pao_value,
    )
    winner_seats = {w.seat for w in won}
    kongs = [
        (w.seat, m.kind is MeldKind.CONCEALED_KONG)
        for w in won
        for m in w.ctx.hand.melds
        if m.is_kong
    ]
    for rel, sm in table.others.items():
        seat = absolute_seat(rel, first.seat)
        if seat in winner_seats:
            raise BadReport(
                "others",
                _why("winner_kongs", "a winner's own kongs belong in their hand, not in others"),
            )
        kongs += [(seat, m.kind is MeldKind.CONCEALED_KONG) for m in sm.melds if m.is_kong]
    money = table_kong_money(variant, kongs)
    total = win + money
    parts: list[dict[str, Any]] = [
        {"win": -win.deltas[seat], "eaten": 0, "kong": -money.deltas[seat], "feeder": False}
        for seat in range(SEATS)
    ]  # a winner's "win" is negative: what they receive
    return list(total.deltas), parts


def _table_details(table: Table, players: Sequence[int], winner: int) -> dict[str, Any]:
    """The rest of the table for the record message, by user id."""
    out: dict[str, Any] = {}
    if table.feeder is not None:
        out["feeder"] = players[absolute_seat(table.feeder, winner)]
    if table.others:
        out["others"] = [
            {
                "user_id": players[absolute_seat(rel, winner)],
                "flowers": sm.flowers,
                "melds": [m.text() for m in sm.melds],
            }
            for rel, sm in sorted(table.others.items())
        ]
    if table.streak_given:
        out["pao_value"] = table.pao_value
        out["raises"] = list(table.raises)
    return out


class RecordService:
    """The record flow on top of the store: report, confirm, void, expire."""

    def __init__(self, store: RecordStore, *, default_expiry: timedelta = DEFAULT_EXPIRY) -> None:
        self.store = store
        self.default_expiry = default_expiry

    async def expiry_for(self, guild_id: int) -> timedelta:
        """The server's expiry time for pending records: its ``record_expiry_hours`` setting
        (a column of the server's settings), else the bot-wide default."""
        settings = await self.store.guilds.settings(guild_id)
        hours = settings.record_expiry_hours
        if isinstance(hours, int | float) and not isinstance(hours, bool) and hours > 0:
            return min(timedelta(hours=hours), MAX_EXPIRY)
        return self.default_expiry

    async def set_expiry(self, guild_id: int, hours: float | None) -> timedelta:
        """Set (or with ``None`` clear, back to the bot's default) the server's expiry time;
        returns the one in force."""
        if hours is not None and not 0 < hours <= MAX_EXPIRY / timedelta(hours=1):
            raise BadReport(
                "hours",
                _why(
                    "expiry_range",
                    "the expiry must be more than 0 and at most {days} days",
                    days=MAX_EXPIRY.days,
                ),
            )
        await self.store.guilds.update_settings(
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
        settings = await self.store.guilds.settings(report.guild_id)
        prepared = prepare_record(
            report, default_variant=settings.default_variant, house_rules=settings.rule_options
        )
        expiry = await self.expiry_for(report.guild_id)
        record = await self.store.records.create(
            report.reporter_id,
            prepared.hand,
            payload={**prepared.details, **(extra or {})},
            expires_in=expiry,
            now=now,
            winner_points=prepared.winner_points,
        )
        return record, prepared

    async def confirm(
        self, record_id: int, user_id: int, *, now: datetime | None = None
    ) -> ConfirmOutcome:
        """A named player confirms; the record counts when the last one does (once)."""
        before = await self.store.records.get(record_id)
        if before is None:
            raise NoSuchRecord(f"record {record_id} does not exist", record_id=record_id)
        try:
            record = await self.store.records.confirm(record_id, user_id, now=now)
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
            return await self.store.records.void(record_id, now=now)
        except RecordNotFound:
            raise NoSuchRecord(f"record {record_id} does not exist", record_id=record_id) from None
        except RecordClosed as e:
            raise RecordNotPending(record_id, e.status) from None

    async def expire_due(self, *, now: datetime | None = None) -> list[PhysicalRecordInfo]:
        """Mark pending records past their time as expired; returns them."""
        return await self.store.records.expire(now=now)

    async def get(self, record_id: int) -> PhysicalRecordInfo:
        record = await self.store.records.get(record_id)
        if record is None:
            raise NoSuchRecord(f"record {record_id} does not exist", record_id=record_id)
        return record


def waiting_for(record: PhysicalRecordInfo) -> list[int]:
    """The named players who have not confirmed yet, in seat order."""
    return [uid for uid in record.player_ids if uid not in record.confirmations]


async def attach_message(store: Any, record_id: int, channel_id: int, message_id: int) -> None:
    """Remember which channel message shows the record (kept in its details), so the bot
    can update it when the record expires."""
    try:
        await store.records.attach_message(record_id, channel_id, message_id)
    except RecordNotFound as error:
        raise NoSuchRecord(f"record {record_id} does not exist", record_id=record_id) from error


def message_of(record: PhysicalRecordInfo) -> tuple[int, int] | None:
    """``(channel id, message id)`` of the message showing the record, if remembered."""
    where = (record.payload or {}).get("message")
    if not isinstance(where, dict):
        return None
    try:
        return int(where["channel_id"]), int(where["message_id"])
    except (KeyError, TypeError, ValueError):
        return None
