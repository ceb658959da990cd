"""The Discord message ids the delivery keeps for each game (消息记录): its table message and
its remembered messages (hand DMs, alerts, the lobby, the last result…), stored with the
game's row so that a restart edits them instead of sending new ones.

The delivery owns them: the game service never writes them, and the delivery does not go
through the service to keep them. The service only hands over, with each game summary, the
table message id as it loaded it from the store (at a start, a takeover or a refresh after
another process moved the game on), which is newer than what this process knew.

Sharing the database, every write is a compare-and-set (the table message: on the id this
process knew) or a three-way merge (the remembered messages, :mod:`db.message_refs`), so a
stale process never puts back an older id over a newer one.
"""

from __future__ import annotations

import copy
import logging
from collections import OrderedDict
from typing import Any, Protocol

from db.types import GameInfo
from services.delivery import GameSummary
from services.table_ids import TableIdWrites

log = logging.getLogger(__name__)

#: games ended here whose ids are kept a while (their standings are still edited when a
#: rematch starts) before the oldest are let go
KEEP_ENDED = 256


class GameMessageStore(Protocol):
    """What the ids are kept in (:class:`db.games.GameRepository`)."""

    async def get(self, game_id: int) -> GameInfo | None: ...

    async def set_table_message(
        self, game_id: int, message_id: int | None, *, replacing: int | None
    ) -> int | None: ...

    async def merge_messages(
        self, game_id: int, base: dict[str, Any] | None, ours: dict[str, Any]
    ) -> dict[str, Any]: ...


class MessageIds:
    """The message ids of the games this process delivers, and their writes to the store."""

    def __init__(self, games: GameMessageStore) -> None:
        self._games = games
        #: game → its table message as this process knows it (set, written behind or adopted)
        self._table: dict[int, int | None] = {}
        #: game → the table message id its summary carried when last looked at
        self._carried: dict[int, int | None] = {}
        #: game → its messages as this process last saved or loaded them: the base of its
        #: next save's merge (absent: nothing known, nothing of the stored copy is dropped)
        self._saved: dict[int, dict[str, Any]] = {}
        self._writes = TableIdWrites(games, self._not_kept)
        #: games ended here, oldest first (see :data:`KEEP_ENDED`)
        self._ended: OrderedDict[int, None] = OrderedDict()

    @property
    def writes_behind(self) -> int:
        """Table id writes made behind so far (ids close together share one)."""
        return self._writes.writes

    def seed(self, game: GameSummary) -> dict[str, Any]:
        """The game's remembered messages to start from: as this process last saved them,
        else as loaded with its summary (then also the base of the first save: an entry this
        process drops is dropped in the store too). The summary's copy is not newer than a
        save of this process: the service loads it, it never learns of the saves."""
        saved = self._saved.setdefault(game.id, copy.deepcopy(dict(game.messages)))
        return copy.deepcopy(saved)

    def table_message_id(self, game: GameSummary) -> int | None:
        """The game's table message (the lobby before the first hand): as this process last
        set it, unless the summary carries a newer id than it did before — loaded from the
        store since (a takeover, a refresh after another process posted one). Message ids
        grow with time, so an older carried id (a summary reloaded while this process stored
        its new table) never replaces the one known here."""
        carried = game.table_message_id
        if game.id in self._table and self._carried.get(game.id) == carried:
            return self._table[game.id]
        self._carried[game.id] = carried
        known = self._table.get(game.id)
        if known is not None and (carried is None or carried < known):
            return known
        self._table[game.id] = carried
        return carried

    async def set_table_message(
        self, game_id: int, message_id: int | None, *, wait: bool = True
    ) -> int | None:
        """Remember the game's table message (kept across restarts) in place of the one
        this process knew: sharing the database, another process may have posted a newer one
        meanwhile, which stays (compare-and-set on the old id). Returns the table message
        stored now (not ``message_id``: this process's message is a duplicate).

        ``wait=False`` (a caller that needs nothing of the stored result: the database is not
        shared): for a game known here the id is taken at once and written behind, ids of one
        game close together in one write (:mod:`services.table_ids`); returns ``message_id``."""
        if not wait and game_id in self._table:
            self._writes.put(game_id, message_id, replacing=self._table[game_id])
            self._table[game_id] = message_id
            return message_id
        await self._writes.settled(game_id)  # (an id written behind goes first)
        if game_id in self._table:
            replacing = self._table[game_id]
        else:
            info = await self._games.get(game_id)
            replacing = info.table_message_id if info is not None else None
        stored = await self._games.set_table_message(game_id, message_id, replacing=replacing)
        if stored != message_id:
            log.info(
                "game %s: table message %s not kept: %s was posted meanwhile",
                game_id,
                message_id,
                stored,
            )
        self._table[game_id] = stored
        return stored

    def _not_kept(self, game_id: int, written: int | None, stored: int | None) -> None:
        if self._table.get(game_id) == written:
            self._table[game_id] = stored

    async def written_behind(self) -> None:
        """Wait until every table message id written behind is written (shut-down)."""
        await self._writes.drained()

    async def stored_messages(self, game_id: int) -> tuple[int | None, dict[str, Any]] | None:
        """The game's table message and remembered messages as stored now (the table id is
        taken as this process's when it is newer than the one known here): sharing the
        database, another process may have posted this hand's table or a player's hand DM
        since. None: no such game."""
        info = await self._games.get(game_id)
        if info is None:
            return None
        stored, known = info.table_message_id, self._table.get(game_id)
        if known is None or (stored is not None and stored > known):
            # (never an older one: the read may have begun before this process stored the
            # table it posted meanwhile — a hand DM adopting its stored entry while the
            # hand's table goes out)
            self._table[game_id] = stored
        return stored, dict(info.messages or {})

    async def save_messages(self, game_id: int, messages: dict[str, Any]) -> dict[str, Any]:
        """Store the messages the delivery keeps up to date. Sharing the database, what this
        process changed since its last save is merged over what is stored
        (:mod:`db.message_refs`): entries another process saved meanwhile stay, and of one
        entry changed by both the newer stays. Returns the messages stored now."""
        # the table message they describe (``table_at``) is stored before them: after a
        # crash they never point at the previous hand's table as this hand's
        await self._writes.settled(game_id)
        ours = copy.deepcopy(dict(messages))  # (the base of the next save: never shared)
        stored = await self._games.merge_messages(game_id, self._saved.get(game_id), ours)
        self._saved[game_id] = ours
        return stored

    async def cross_out(self, game_id: int, group: str, key: str, entry: Any) -> None:
        """Remove ``key`` (stored as ``entry``) from a group of the game's stored messages,
        by itself: a game this process no longer holds (ended). A three-way merge like every
        save: the group's other entries, and whatever else is stored, stay."""
        await self._writes.settled(game_id)
        await self._games.merge_messages(game_id, {group: {key: entry}}, {group: {}})

    def forget(self, game_id: int) -> None:
        """The game ended here: its ids are kept among the newest ended games, and the
        oldest let go past :data:`KEEP_ENDED` (an id owed is still written)."""
        self._ended[game_id] = None
        self._ended.move_to_end(game_id)
        while len(self._ended) > KEEP_ENDED:
            gone, _ = self._ended.popitem(last=False)
            self._carried.pop(gone, None)
            self._saved.pop(gone, None)
            self._table.pop(gone, None)
