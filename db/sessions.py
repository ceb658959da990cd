"""A player's sessions (场次战绩): the online games they sat in that have ended, each with
every player's total, rank and the 大赢家 (``store.stats.sessions`` / ``session`` /
``session_tally``).

A session's totals are summed from its recorded hands (``hand_results``), one line per
seat and person: the same figures as the game's ``totals``, and a seat whose occupant
changed (one who left, replaced) gives each of them their own line. The 大赢家 is the top
total, shared by a tie; nobody when every total is 0.

Cost: a player's page starts from their own hand lines (``ix_hand_results_player``), then
reads the page's games, their hands (``uq_hands_game_hand_no``), their lines
(``ix_hand_results_game``) and the ends of their logs (the ``actions`` key), so it grows
with the player's hands, never with the server's.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.engine import Row
from sqlalchemy.ext.asyncio import AsyncConnection

from db.models import Action, Game, Hand, HandResult, Player
from db.types import Json, SessionLine, SessionRecord, SessionTally

_HR = HandResult.__table__
_H = Hand.__table__
_G = Game.__table__
_A = Action.__table__
_P = Player.__table__

#: the statuses of a game that is over
ENDED = ("finished", "abandoned")
#: log entries read at a session's end: its ``end`` entry and the 再来一局 presses after it
TAIL = 8


def _played(guild_id: int, user_id: int) -> Any:
    """The online games in which the person ``user_id`` has a recorded hand."""
    return (
        select(_HR.c.game_id)
        .where(
            _HR.c.guild_id == guild_id,
            _HR.c.user_id == user_id,
            _HR.c.is_ai.is_(False),
            _HR.c.game_id.is_not(None),
        )
        .distinct()
        .subquery("played")
    )


def _ended_games(guild_id: int, user_id: int) -> Any:
    """The ended games of the server the person played in, with their last hand's time."""
    played = _played(guild_id, user_id)
    ended_at = (
        select(func.max(_H.c.created_at))
        .where(_H.c.game_id == _G.c.id)
        .correlate(_G)
        .scalar_subquery()
    )
    return (
        select(_G.c.id, _G.c.guild_id, _G.c.channel_id, _G.c.variant, _G.c.status)
        .add_columns(_G.c.seats, _G.c.version, ended_at.label("ended_at"))
        .select_from(_G.join(played, played.c.game_id == _G.c.id))
        .where(_G.c.guild_id == guild_id, _G.c.status.in_(ENDED))
    )


async def player_sessions(
    conn: AsyncConnection, guild_id: int, user_id: int, *, limit: int, offset: int = 0
) -> list[SessionRecord]:
    """The person's ended sessions in the server, latest first (by their last hand), a page
    of ``limit`` from ``offset``."""
    stmt = _ended_games(guild_id, user_id)
    ended_at = stmt.selected_columns.ended_at
    stmt = stmt.order_by(ended_at.desc(), _G.c.id.desc()).limit(limit).offset(offset)
    games = list(await conn.execute(stmt))
    return await _records(conn, games)


async def one_session(conn: AsyncConnection, guild_id: int, game_id: int) -> SessionRecord | None:
    """Session ``game_id`` of the server, or None (not this server's, not over, or no hand
    recorded)."""
    ended_at = select(func.max(_H.c.created_at)).where(_H.c.game_id == game_id).scalar_subquery()
    stmt = (
        select(_G.c.id, _G.c.guild_id, _G.c.channel_id, _G.c.variant, _G.c.status)
        .add_columns(_G.c.seats, _G.c.version, ended_at.label("ended_at"))
        .where(_G.c.id == game_id, _G.c.guild_id == guild_id, _G.c.status.in_(ENDED))
    )
    games = list(await conn.execute(stmt))
    found = await _records(conn, games)
    return found[0] if found else None


async def session_tally(conn: AsyncConnection, guild_id: int, user_id: int) -> SessionTally:
    """How many ended sessions the person played in the server, how many made them a
    大赢家, and the sum of their totals: one statement, the same rules as the pages."""
    played = _played(guild_id, user_id)
    games = (
        select(_G.c.id)
        .select_from(_G.join(played, played.c.game_id == _G.c.id))
        .where(_G.c.guild_id == guild_id, _G.c.status.in_(ENDED))
        .cte("ended_games")
    )
    lines = (
        select(
            _HR.c.game_id,
            _HR.c.user_id,
            _HR.c.is_ai,
            func.sum(_HR.c.delta).label("total"),
        )
        .join(games, games.c.id == _HR.c.game_id)
        .group_by(_HR.c.game_id, _HR.c.seat, _HR.c.user_id, _HR.c.is_ai)
        .cte("lines")
    )
    best = (
        select(
            lines.c.game_id,
            func.max(lines.c.total).label("top"),
            func.max(func.abs(lines.c.total)).label("spread"),
        )
        .group_by(lines.c.game_id)
        .cte("best")
    )
    is_top = and_(lines.c.total == best.c.top, best.c.spread > 0)
    row = (
        await conn.execute(
            select(
                func.count(func.distinct(lines.c.game_id)).label("sessions"),
                func.coalesce(func.sum(case((is_top, 1), else_=0)), 0).label("tops"),
                func.coalesce(func.sum(lines.c.total), 0).label("points"),
            )
            .select_from(lines.join(best, best.c.game_id == lines.c.game_id))
            .where(lines.c.user_id == user_id, lines.c.is_ai.is_(False))
        )
    ).one()
    return SessionTally(sessions=int(row.sessions), tops=int(row.tops), points=int(row.points or 0))


# ------------------------------------------------------------------------------- records


async def _records(conn: AsyncConnection, games: Sequence[Row[Any]]) -> list[SessionRecord]:
    """The sessions of ``games`` (rows of :func:`_ended_games`), in their order; a game
    with no recorded hand is left out."""
    ids = [int(g.id) for g in games]
    if not ids:
        return []
    hands = {
        r.game_id: r
        for r in await conn.execute(
            select(
                _H.c.game_id,
                func.count().label("hands"),
                func.min(_H.c.created_at).label("first"),
                func.max(_H.c.created_at).label("last"),
            )
            .where(_H.c.game_id.in_(ids))
            .group_by(_H.c.game_id)
        )
    }
    by_game: dict[int, list[Row[Any]]] = defaultdict(list)
    rows = await conn.execute(
        select(
            _HR.c.game_id,
            _HR.c.seat,
            _HR.c.user_id,
            _HR.c.is_ai,
            func.sum(_HR.c.delta).label("total"),
            func.count().label("hands"),
            func.min(_HR.c.hand_id).label("first_hand"),
        )
        .where(_HR.c.game_id.in_(ids))
        .group_by(_HR.c.game_id, _HR.c.seat, _HR.c.user_id, _HR.c.is_ai)
    )
    for r in rows:
        by_game[int(r.game_id)].append(r)
    logs = await _log_ends(conn, [(int(g.id), int(g.version)) for g in games])
    strangers = {
        int(r.user_id)
        for g in games
        for r in by_game.get(int(g.id), [])
        if not r.is_ai and _seat_name(g.seats, r) is None
    }
    names = await _stored_names(conn, strangers)
    out = []
    for g in games:
        gid = int(g.id)
        if gid not in hands or not by_game.get(gid):
            continue
        setup, tail = logs.get(gid, (None, ()))
        out.append(
            SessionRecord(
                game_id=gid,
                guild_id=int(g.guild_id),
                channel_id=int(g.channel_id),
                variant=str(g.variant),
                status=str(g.status),
                hands=int(hands[gid].hands),
                started_at=hands[gid].first,
                ended_at=hands[gid].last,
                lines=_lines(g.seats, by_game[gid], names),
                setup=setup,
                tail=tail,
            )
        )
    return out


def _seat_name(seats: Any, row: Row[Any]) -> str | None:
    """The name the game's seat keeps for this line's player (None: the seat is someone
    else's now, or unnamed)."""
    seat = int(row.seat)
    data = seats[seat] if isinstance(seats, list) and 0 <= seat < len(seats) else None
    if not isinstance(data, Mapping):
        return None
    name = data.get("name")
    seat_ai = bool(data.get("ai")) or data.get("user_id") is None
    if row.is_ai:
        return str(name) if seat_ai and name else None
    if seat_ai or data.get("user_id") != row.user_id:
        return None
    return str(name) if name else None


async def _stored_names(conn: AsyncConnection, user_ids: set[int]) -> dict[int, str]:
    if not user_ids:
        return {}
    rows = await conn.execute(
        select(_P.c.user_id, _P.c.display_name).where(_P.c.user_id.in_(sorted(user_ids)))
    )
    return {int(r.user_id): str(r.display_name) for r in rows if r.display_name}


def _lines(
    seats: Any, rows: Sequence[Row[Any]], names: Mapping[int, str]
) -> tuple[SessionLine, ...]:
    """Each player's line, ranked (ties share a rank), best first, then by seat and by who
    sat there first."""
    totals = [int(r.total) for r in rows]
    top = max(totals)
    scored = any(totals)
    lines = []
    for r in sorted(rows, key=lambda r: (-int(r.total), int(r.seat), int(r.first_hand))):
        total = int(r.total)
        name = _seat_name(seats, r)
        if name is None and not r.is_ai:
            name = names.get(int(r.user_id))
        lines.append(
            SessionLine(
                seat=int(r.seat),
                user_id=int(r.user_id),
                is_ai=bool(r.is_ai),
                name=name,
                total=total,
                hands=int(r.hands),
                rank=1 + sum(1 for o in totals if o > total),
                top=scored and total == top,
            )
        )
    return tuple(lines)


async def _log_ends(
    conn: AsyncConnection, games: Sequence[tuple[int, int]]
) -> dict[int, tuple[Json | None, tuple[Json, ...]]]:
    """Each game's first log entry and its last :data:`TAIL` entries (oldest first)."""
    if not games:
        return {}
    wanted = or_(
        *(
            and_(_A.c.game_id == gid, or_(_A.c.seq == 1, _A.c.seq > version - TAIL))
            for gid, version in games
        )
    )
    rows = await conn.execute(
        select(_A.c.game_id, _A.c.seq, _A.c.action).where(wanted).order_by(_A.c.game_id, _A.c.seq)
    )
    setups: dict[int, Json] = {}
    tails: dict[int, list[Json]] = defaultdict(list)
    versions = dict(games)
    for r in rows:
        gid, seq = int(r.game_id), int(r.seq)
        entry = r.action if isinstance(r.action, dict) else {}
        if seq == 1:
            setups[gid] = entry
        if seq > versions[gid] - TAIL:
            tails[gid].append(entry)
    return {gid: (setups.get(gid), tuple(tails[gid])) for gid, _ in games}
