"""Read queries for replays, reviews and exports: a game's whole action log, the finished
hands of a server (the only hands that may be replayed: a hand is recorded in ``hands``
once it is over) and one hand by its ``#game-hand`` code (``store.replays``). Each is one
read transaction returning the store's plain values.
"""

from __future__ import annotations

from sqlalchemy import select

from db.base import Database
from db.games import game_info
from db.hands import hand_info
from db.models import Action, Game, Hand
from db.types import ActionRecord, GameInfo, HandInfo

_A = Action.__table__
_G = Game.__table__
_H = Hand.__table__

#: The most hands one server export holds (a spreadsheet, not an archive).
MAX_EXPORT_HANDS = 100_000


class ReplayRepository:
    """Whole logs and finished hands for replays, reviews and exports (``store.replays``)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def game_with_log(self, game_id: int) -> tuple[GameInfo, list[ActionRecord]] | None:
        """The game and every action of its log in order (snapshots ignored), or None."""
        async with self.db.read() as conn:
            row = (await conn.execute(select(_G).where(_G.c.id == game_id))).one_or_none()
            if row is None:
                return None
            game = game_info(row)
            rows = await conn.execute(
                select(_A.c.seq, _A.c.seat, _A.c.action, _A.c.created_at)
                .where(_A.c.game_id == game_id, _A.c.seq <= game.version)
                .order_by(_A.c.seq)
            )
            actions = [
                ActionRecord(seq=r.seq, seat=r.seat, action=r.action, created_at=r.created_at)
                for r in rows
            ]
        return game, actions

    async def online_hand(self, game_id: int, hand_no: int) -> HandInfo | None:
        """The recorded (so finished) hand ``hand_no`` of game ``game_id``, or None."""
        async with self.db.read() as conn:
            row = (
                await conn.execute(
                    select(_H).where(
                        _H.c.game_id == game_id, _H.c.hand_no == hand_no, _H.c.source == "online"
                    )
                )
            ).one_or_none()
        return None if row is None else hand_info(row)

    async def game_hands(self, game_id: int) -> list[HandInfo]:
        """Every recorded hand of a game, in hand order."""
        async with self.db.read() as conn:
            rows = await conn.execute(
                select(_H)
                .where(_H.c.game_id == game_id, _H.c.source == "online")
                .order_by(_H.c.hand_no)
            )
            return [hand_info(r) for r in rows]

    async def recent_online_hands(
        self, guild_id: int, *, limit: int = 25, game_id: int | None = None
    ) -> list[HandInfo]:
        """The server's latest finished online hands (newest first), of one game if given."""
        stmt = select(_H).where(_H.c.guild_id == guild_id, _H.c.source == "online")
        if game_id is not None:
            stmt = stmt.where(_H.c.game_id == game_id)
        stmt = stmt.order_by(_H.c.created_at.desc(), _H.c.id.desc()).limit(limit)
        async with self.db.read() as conn:
            return [hand_info(r) for r in await conn.execute(stmt)]

    async def server_hands(
        self, guild_id: int, *, limit: int = MAX_EXPORT_HANDS
    ) -> tuple[list[HandInfo], dict[int, GameInfo]]:
        """Every recorded hand of the server (online and played with real tiles), oldest first,
        and the games the online ones belong to."""
        async with self.db.read() as conn:
            rows = await conn.execute(
                select(_H)
                .where(_H.c.guild_id == guild_id)
                .order_by(_H.c.created_at, _H.c.id)
                .limit(limit)
            )
            hands = [hand_info(r) for r in rows]
            ids = sorted({h.game_id for h in hands if h.game_id is not None})
            games: dict[int, GameInfo] = {}
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                for r in await conn.execute(select(_G).where(_G.c.id.in_(chunk))):
                    info = game_info(r)
                    games[info.id] = info
        return hands, games
