"""The table message ids written behind: a process that needs nothing of the stored
result — it does not share the database, so nobody else posts a game's table — keeps the new
id in memory at once and writes it soon after, several ids of one game that come close
together in ONE write (the newest). The write is the same compare-and-set on the id it
replaces as ever (:meth:`db.games.GameRepository.set_table_message`).

The ids are bookkeeping: a crash before the write costs at worst a table posted again after
the restart, never a game action.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from services.single_flight import SingleFlight

log = logging.getLogger(__name__)


class TableIdStore(Protocol):
    async def set_table_message(
        self, game_id: int, message_id: int | None, *, replacing: int | None
    ) -> int | None: ...


class TableIdWrites:
    """The table message ids owed to the store, per game, written one game at a time.

    ``on_stored(game_id, written, stored)`` is told when the store kept another id than the
    one written (another writer got there first: its id stays)."""

    def __init__(
        self,
        games: TableIdStore,
        on_stored: Callable[[int, int | None, int | None], None] | None = None,
    ) -> None:
        self._games = games
        self._on_stored = on_stored
        #: game → the newest id not written yet
        self._owed: dict[int, int | None] = {}
        #: game → the id the store holds as far as this process knows, while writes are owed
        self._known: dict[int, int | None] = {}
        self._flight: SingleFlight[int] = SingleFlight(self._write, "table message of game")

    @property
    def writes(self) -> int:
        """Writes made so far (calls of :meth:`put` that came close together share one)."""
        return self._flight.runs

    def put(self, game_id: int, message_id: int | None, *, replacing: int | None) -> None:
        """Owe ``message_id`` as the game's table message, in place of ``replacing`` (the
        id this process knew; ignored while an earlier id of the game is still owed: the
        write replaces what the store holds)."""
        self._known.setdefault(game_id, replacing)
        self._owed[game_id] = message_id
        self._flight.request(game_id)

    async def settled(self, game_id: int) -> None:
        """Wait until no id of the game is being written or owed."""
        await self._flight.settled(game_id)

    async def drained(self) -> None:
        """Wait until every owed id is written (shut-down)."""
        await self._flight.drained()

    async def _write(self, game_id: int) -> None:
        if game_id not in self._owed:
            return
        message_id = self._owed.pop(game_id)
        replacing = self._known.get(game_id)
        try:
            stored = await self._games.set_table_message(game_id, message_id, replacing=replacing)
        except Exception:
            self._owed.setdefault(game_id, message_id)  # (the next put writes the newest)
            raise
        if game_id in self._owed:
            self._known[game_id] = stored  # a newer id came meanwhile: it replaces this one
        else:
            self._known.pop(game_id, None)
        if stored != message_id:
            log.info(
                "game %s: table message %s not kept: %s was stored meanwhile",
                game_id,
                message_id,
                stored,
            )
            if self._on_stored is not None:
                self._on_stored(game_id, message_id, stored)
