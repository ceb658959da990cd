"""Games and their event-sourced log: create, append with compare-and-set, snapshot, load."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import timedelta
from typing import Any, NoReturn

from sqlalchemy import Text, cast, exists, func, select, update
from sqlalchemy.engine import Row
from sqlalchemy.ext.asyncio import AsyncConnection

from db.append_sql import Append, append_statement, latest_arms
from db.base import Database
from db.deadlines import DeadlineChange, arm_rows
from db.guilds import ensure_guild
from db.message_refs import merge_messages
from db.models import GAME_STATUSES, Action, ChannelGame, Game, Snapshot, utcnow
from db.sqlite_append import SqliteAppend
from db.sqlite_messages import SqliteMessages
from db.types import (
    ActionRecord,
    ChannelTaken,
    GameInfo,
    GameNotFound,
    Json,
    LoadedGame,
    SnapshotRecord,
    VersionConflict,
)

UNFINISHED = ("lobby", "active")
#: game columns `GameRepository.append_action` may change with the version
_VERSIONED = frozenset({"seats", "status", "totals", "seed_commitment", "options", "ending_owed"})
_UNSET: Any = object()
_G = Game.__table__
_A = Action.__table__
_S = Snapshot.__table__
_C = ChannelGame.__table__
#: statuses of a game that no longer holds its channel
ENDED = ("finished", "abandoned")


def game_info(row: Row[Any]) -> GameInfo:
    """A ``games`` row as a plain value."""
    m = row._mapping
    return GameInfo(
        id=m["id"],
        guild_id=m["guild_id"],
        channel_id=m["channel_id"],
        variant=m["variant"],
        options=m["options"],
        seats=m["seats"],
        status=m["status"],
        seed_commitment=m["seed_commitment"],
        totals=m["totals"],
        version=m["version"],
        table_message_id=m["table_message_id"],
        created_at=m["created_at"],
        updated_at=m["updated_at"],
        thread_id=m["thread_id"],
        messages=dict(m["messages"] or {}),
    )


def _action(row: Row[Any]) -> ActionRecord:
    return ActionRecord(seq=row.seq, seat=row.seat, action=row.action, created_at=row.created_at)


def _snapshot(row: Row[Any]) -> SnapshotRecord:
    return SnapshotRecord(seq=row.seq, state=row.state, created_at=row.created_at)


def _check_status(status: str) -> None:
    if status not in GAME_STATUSES:
        raise ValueError(f"unknown game status {status!r}; expected one of {GAME_STATUSES}")


class GameRepository:
    """Games (对局), the append-only action log and snapshots (``store.games``)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        #: SQLite: the append's statements compiled once (db.sqlite_append)
        self._sqlite_append = SqliteAppend(db.engine.dialect) if db.dialect == "sqlite" else None
        #: SQLite: the messages' read and write compiled once (db.sqlite_messages)
        sqlite = db.dialect == "sqlite"
        self._sqlite_messages = SqliteMessages(db.engine.dialect) if sqlite else None

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        variant: str,
        *,
        options: Json | None = None,
        seats: list[Any] | None = None,
        status: str = "lobby",
        seed_commitment: str | None = None,
        table_message_id: int | None = None,
        claim_channel: bool = False,
    ) -> GameInfo:
        """Create a game at version 0 (empty log); totals start at 0 for every seat.

        ``claim_channel``: the game becomes the channel's open game (one per channel, shared
        by every process): in the same transaction it takes the channel's row, which another
        game keeps until it has ended; else `ChannelTaken` and nothing is written."""
        _check_status(status)
        seats = list(seats or [])
        now = utcnow()
        async with self.db.write() as conn:
            await ensure_guild(self.db, conn, guild_id)
            result = await conn.execute(
                _G.insert()
                .values(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    variant=variant,
                    options=dict(options or {}),
                    seats=seats,
                    status=status,
                    seed_commitment=seed_commitment,
                    totals=[0] * len(seats),
                    version=0,
                    table_message_id=table_message_id,
                    created_at=now,
                    updated_at=now,
                )
                .returning(*_G.c)
            )
            game = game_info(result.one())
            if claim_channel:
                await self._claim_channel(conn, channel_id, game.id)
            return game

    async def _claim_channel(self, conn: AsyncConnection, channel_id: int, game_id: int) -> None:
        """Make ``game_id`` the channel's open game unless another game that has not ended
        holds it (then `ChannelTaken`; the caller's transaction rolls back).

        One statement, a compare-and-set on the channel's row: inserted, or taken over when
        the game it names has ended. Two processes racing: PostgreSQL makes the second insert
        wait for the first's commit, then sees the row (its holder, invisible to the second
        statement's snapshot or still open, has not ended: refused); SQLite has one writer."""
        stmt = self.db.insert(_C).values(channel_id=channel_id, game_id=game_id)
        holder_ended = exists(
            select(_G.c.id).where(_G.c.id == _C.c.game_id, _G.c.status.in_(ENDED))
        )
        claimed = await conn.execute(
            stmt.on_conflict_do_update(
                index_elements=["channel_id"],
                set_={"game_id": stmt.excluded.game_id},
                where=holder_ended,
            ).returning(_C.c.game_id)
        )
        if claimed.one_or_none() is None:
            holder = await conn.scalar(select(_C.c.game_id).where(_C.c.channel_id == channel_id))
            raise ChannelTaken(channel_id, holder)

    async def get(self, game_id: int) -> GameInfo | None:
        """The game, or None."""
        async with self.db.read() as conn:
            row = (await conn.execute(select(_G).where(_G.c.id == game_id))).one_or_none()
        return None if row is None else game_info(row)

    async def update(
        self,
        game_id: int,
        *,
        status: str = _UNSET,
        seats: list[Any] = _UNSET,
        options: Json = _UNSET,
        seed_commitment: str | None = _UNSET,
        totals: list[int] = _UNSET,
        table_message_id: int | None = _UNSET,
        channel_id: int = _UNSET,
        thread_id: int | None = _UNSET,
        messages: Json | None = _UNSET,
        ending_owed: bool = _UNSET,
        expected_version: int | None = None,
    ) -> GameInfo:
        """Change the given fields (not the version). With ``expected_version`` the change is
        made only if the log is still at that version, else `VersionConflict`."""
        values: dict[str, Any] = {
            k: v
            for k, v in {
                "status": status,
                "seats": seats,
                "options": options,
                "seed_commitment": seed_commitment,
                "totals": totals,
                "table_message_id": table_message_id,
                "channel_id": channel_id,
                "thread_id": thread_id,
                "messages": messages,
                "ending_owed": ending_owed,
            }.items()
            if v is not _UNSET
        }
        if "status" in values:
            _check_status(values["status"])
        values["updated_at"] = utcnow()
        stmt = update(_G).where(_G.c.id == game_id)
        if expected_version is not None:
            stmt = stmt.where(_G.c.version == expected_version)
        async with self.db.write() as conn:
            row = (await conn.execute(stmt.values(**values).returning(*_G.c))).one_or_none()
            if row is None:
                await self._raise_missing_or_conflict(conn, game_id, expected_version or 0)
        return game_info(row)

    async def set_table_message(
        self, game_id: int, message_id: int | None, *, replacing: int | None
    ) -> int | None:
        """Make ``message_id`` the game's table message if it still is ``replacing`` (a
        compare-and-set on the old id: a process that missed a newer table posted by another
        cannot put its own back over it). Returns the table message stored now — ``message_id``,
        or the newer one that stays."""
        async with self.db.write() as conn:
            row = (
                await conn.execute(
                    update(_G)
                    .where(
                        _G.c.id == game_id, _G.c.table_message_id.is_not_distinct_from(replacing)
                    )
                    .values(table_message_id=message_id, updated_at=utcnow())
                    .returning(_G.c.table_message_id)
                )
            ).one_or_none()
            if row is not None:
                return message_id
            stored = (
                await conn.execute(select(_G.c.table_message_id).where(_G.c.id == game_id))
            ).one_or_none()
        if stored is None:
            raise GameNotFound(game_id)
        return None if stored[0] is None else int(stored[0])

    async def settle_thread(self, game_id: int, thread_id: int) -> int:
        """Where the game plays (its thread, or its channel), decided once: stored unless
        another process decided first. Returns the place stored now."""
        async with self.db.write() as conn:
            await conn.execute(
                update(_G)
                .where(_G.c.id == game_id, _G.c.thread_id.is_(None))
                .values(thread_id=thread_id, updated_at=utcnow())
            )
            stored = (
                await conn.execute(select(_G.c.thread_id).where(_G.c.id == game_id))
            ).one_or_none()
        if stored is None:
            raise GameNotFound(game_id)
        return int(stored[0])

    async def merge_messages(self, game_id: int, base: Json | None, ours: Json) -> Json:
        """Save the game's remembered messages: what changed from ``base`` (as this process
        last saved them; None = never) to ``ours`` goes over the stored ones, the rest of them
        stays (:mod:`db.message_refs`), under the row's write lock. Returns what is stored.

        On SQLite the read and the write are compiled once and each is one trip to the
        driver (:mod:`db.sqlite_messages`), without a savepoint of its own in a group commit:
        the only row it changes is written by its last statement."""
        if self._sqlite_messages is not None:
            return await self._merge_messages_sqlite(game_id, base, ours)
        async with self.db.write() as conn:
            row = (
                await conn.execute(
                    select(_G.c.messages).where(_G.c.id == game_id).with_for_update()
                )
            ).one_or_none()
            if row is None:
                raise GameNotFound(game_id)
            theirs = dict(row[0] or {})
            merged = merge_messages(base, ours, theirs)
            if merged != theirs:
                await conn.execute(
                    update(_G)
                    .where(_G.c.id == game_id)
                    .values(messages=merged, updated_at=utcnow())
                )
        return merged

    async def _merge_messages_sqlite(self, game_id: int, base: Json | None, ours: Json) -> Json:
        """:meth:`merge_messages` on SQLite (the writer's lock is the batch's)."""
        sql = self._sqlite_messages
        assert sql is not None
        async with self.db.write(savepoint=False) as conn:
            found, stored = await sql.read(conn, game_id)
            if not found:
                raise GameNotFound(game_id)
            theirs = dict(stored or {})
            merged = merge_messages(base, ours, theirs)
            if merged != theirs:
                await sql.write(conn, game_id, merged, utcnow())
        return merged

    async def _raise_missing_or_conflict(
        self, conn: AsyncConnection, game_id: int, expected: int
    ) -> NoReturn:
        actual = await conn.scalar(select(_G.c.version).where(_G.c.id == game_id))
        if actual is None:
            raise GameNotFound(game_id)
        raise VersionConflict(game_id, expected, actual)

    async def append_action(
        self,
        game_id: int,
        expected_version: int,
        seat: int | None,
        action: Json,
        *,
        changes: Json | None = None,
        deadlines: Sequence[DeadlineChange] = (),
        holder: str = "",
        snapshot: Json | None = None,
        keep_snapshots: int = 2,
    ) -> int:
        """Append ``action`` as seq ``expected_version + 1`` if the game is still at
        ``expected_version``; return the new version (= the action's seq).

        The version bump and the insert commit together, durably, before this returns.
        A stale writer gets `VersionConflict` (`GameNotFound` for no game) and nothing is
        written. ``changes``: columns of the game row (``seats``, ``status``, ``totals``,
        ``seed_commitment``, ``ending_owed``) written with the same compare-and-set (a
        lobby's seats). ``deadlines``: what the game awaits after this action, stored in the
        same transaction for ``holder`` (:mod:`db.deadlines`: a process killed right after
        the commit leaves them for another process to fire). ``snapshot``: the game as it
        is after this action, stored with it (covering the log up to the new seq; only the
        ``keep_snapshots`` newest snapshots of the game are kept) — no write of its own.

        What it costs (``python -m benchmarks.db_statements``): on PostgreSQL one statement,
        committed alone (the row locks and the ``NOTIFY`` of the version trigger as
        before); on SQLite one statement per table written, without a savepoint of its own
        in a group commit (a refused compare-and-set changes no row), each compiled once
        and one trip to aiosqlite's thread (:mod:`db.sqlite_append`).
        """
        if keep_snapshots < 1:
            raise ValueError("keep_snapshots must be at least 1")
        extra = dict(changes or {})
        if set(extra) - _VERSIONED:
            raise ValueError(f"not a versioned game column: {sorted(set(extra) - _VERSIONED)}")
        if "status" in extra:
            _check_status(extra["status"])
        entry = Append(
            game_id=game_id,
            seq=expected_version + 1,
            seat=seat,
            action=action,
            at=utcnow(),
            changes=extra,
            arms=latest_arms(deadlines),
            holder=holder[:64],
            snapshot=snapshot,
            keep_old=keep_snapshots - 1,
        )
        if self.db.dialect == "postgresql":
            async with self.db.autocommit() as conn:
                appended = await conn.scalar(append_statement(entry, expected_version))
                if not appended:
                    await self._raise_missing_or_conflict(conn, game_id, expected_version)
            return entry.seq
        assert self._sqlite_append is not None
        async with self.db.write(savepoint=False) as conn:
            # the compare-and-set first: refused, nothing changed and the batch stays as it was
            if not await self._sqlite_append.append(conn, entry, expected_version):
                await self._raise_missing_or_conflict(conn, game_id, expected_version)
            if entry.arms:
                await arm_rows(conn, self.db.insert, entry.arms, holder)
        return entry.seq

    async def save_snapshot(self, game_id: int, seq: int, state: Json, *, keep: int = 2) -> None:
        """Store ``state`` as covering the log up to ``seq`` (replacing one at the same seq);
        keep only the ``keep`` newest snapshots of the game."""
        if keep < 1:
            raise ValueError("keep must be at least 1")
        async with self.db.write() as conn:
            version = await conn.scalar(select(_G.c.version).where(_G.c.id == game_id))
            if version is None:
                raise GameNotFound(game_id)
            if not 0 <= seq <= version:
                raise ValueError(f"snapshot seq {seq} is outside the log (0..{version})")
            stmt = self.db.insert(_S).values(
                game_id=game_id, seq=seq, state=state, created_at=utcnow()
            )
            await conn.execute(
                stmt.on_conflict_do_update(
                    index_elements=["game_id", "seq"],
                    set_={"state": stmt.excluded.state, "created_at": stmt.excluded.created_at},
                )
            )
            seqs = await conn.scalars(
                select(_S.c.seq).where(_S.c.game_id == game_id).order_by(_S.c.seq.desc())
            )
            stale = list(seqs)[keep:]
            if stale:
                await conn.execute(_S.delete().where(_S.c.game_id == game_id, _S.c.seq <= stale[0]))

    async def load(self, game_id: int) -> LoadedGame:
        """The game, its newest snapshot (or None) and every action after it, in seq order."""
        async with self.db.read() as conn:
            row = (await conn.execute(select(_G).where(_G.c.id == game_id))).one_or_none()
            if row is None:
                raise GameNotFound(game_id)
            game = game_info(row)
            snap_row = (
                await conn.execute(
                    select(_S)
                    .where(_S.c.game_id == game_id, _S.c.seq <= game.version)
                    .order_by(_S.c.seq.desc())
                    .limit(1)
                )
            ).one_or_none()
            snapshot = None if snap_row is None else _snapshot(snap_row)
            after = 0 if snapshot is None else snapshot.seq
            rows = await conn.execute(
                select(_A.c.seq, _A.c.seat, _A.c.action, _A.c.created_at)
                .where(_A.c.game_id == game_id, _A.c.seq > after, _A.c.seq <= game.version)
                .order_by(_A.c.seq)
            )
            actions = [_action(r) for r in rows]
        return LoadedGame(game=game, snapshot=snapshot, actions=actions)

    async def list_unfinished(self) -> list[GameInfo]:
        """Every game in the lobby or being played, oldest activity first."""
        async with self.db.read() as conn:
            rows = await conn.execute(
                select(_G).where(_G.c.status.in_(UNFINISHED)).order_by(_G.c.updated_at, _G.c.id)
            )
            return [game_info(r) for r in rows]

    async def load_ending_owed(self) -> list[LoadedGame]:
        """`load` for every ended game whose ending (its last result, its final standings)
        is not yet known to be posted (``ending_owed``, set with the game's ``end`` entry)."""
        async with self.db.read() as conn:
            ids = list(
                await conn.scalars(
                    select(_G.c.id)
                    .where(_G.c.ending_owed.is_(True), _G.c.status.in_(ENDED))
                    .order_by(_G.c.updated_at, _G.c.id)
                )
            )
        loaded = []
        for game_id in ids:
            try:
                loaded.append(await self.load(game_id))
            except GameNotFound:  # deleted meanwhile
                continue
        return loaded

    async def ended_with(
        self, group: str, within: timedelta
    ) -> list[tuple[int, int, dict[str, Any]]]:
        """``(id, guild id, messages)`` of every game ended (or last changed) within
        ``within`` whose remembered messages hold a non-empty ``group`` (e.g. the buttons
        still to take off), oldest first."""
        since = utcnow() - within
        async with self.db.read() as conn:
            rows = await conn.execute(
                select(_G.c.id, _G.c.guild_id, _G.c.messages)
                .where(
                    _G.c.status.in_(ENDED),
                    _G.c.updated_at >= since,
                    cast(_G.c.messages, Text).like(f'%"{group}"%'),
                )
                .order_by(_G.c.updated_at, _G.c.id)
            )
            out = []
            for game_id, guild_id, messages in rows:
                held = (messages or {}).get(group) if isinstance(messages, dict) else None
                if held:
                    out.append((int(game_id), int(guild_id), dict(messages)))
            return out

    async def ending_posted(self, game_id: int) -> None:
        """The game's ending was posted: nothing is owed any more (the version is kept)."""
        async with self.db.write() as conn:
            await conn.execute(
                update(_G)
                .where(_G.c.id == game_id, _G.c.ending_owed.is_(True))
                .values(ending_owed=False)
            )

    async def load_unfinished(self) -> list[LoadedGame]:
        """`load` for every unfinished game, in three queries (for start-up)."""
        async with self.db.read() as conn:
            games = [
                game_info(r)
                for r in await conn.execute(
                    select(_G).where(_G.c.status.in_(UNFINISHED)).order_by(_G.c.updated_at, _G.c.id)
                )
            ]
            unfinished = select(_G.c.id).where(_G.c.status.in_(UNFINISHED))
            newest = (
                select(_S.c.game_id, func.max(_S.c.seq).label("seq"))
                .where(_S.c.game_id.in_(unfinished))
                .group_by(_S.c.game_id)
                .subquery()
            )
            snapshots: dict[int, SnapshotRecord] = {}
            rows = await conn.execute(
                select(_S).join(
                    newest, (_S.c.game_id == newest.c.game_id) & (_S.c.seq == newest.c.seq)
                )
            )
            for r in rows:
                snapshots[r.game_id] = _snapshot(r)
            actions: dict[int, list[ActionRecord]] = defaultdict(list)
            rows = await conn.execute(
                select(_A.c.game_id, _A.c.seq, _A.c.seat, _A.c.action, _A.c.created_at)
                .outerjoin(newest, _A.c.game_id == newest.c.game_id)
                .where(
                    _A.c.game_id.in_(unfinished),
                    _A.c.seq > func.coalesce(newest.c.seq, 0),
                )
                .order_by(_A.c.game_id, _A.c.seq)
            )
            for r in rows:
                actions[r.game_id].append(_action(r))
        loaded = []
        for game in games:
            snap = snapshots.get(game.id)
            log = [a for a in actions.get(game.id, []) if a.seq <= game.version]
            loaded.append(LoadedGame(game=game, snapshot=snap, actions=log))
        return loaded
