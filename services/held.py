"""The games held in memory, indexed by channel and by (server, player); finished games leave.

:class:`HeldGames` is the service's ``_games`` dict (game id → :class:`Table`) with two
indexes kept beside it, so the look-ups every command makes (``game_in_channel``,
``game_of_player``) read a few candidates instead of scanning every game ever held. An index
may list a game that no longer matches (a player who left, a game that ended): every look-up
checks its candidates, so an index only has to include every game that may match — a game is
(re)indexed whenever it enters the dict and when its seats or thread change
(:meth:`HeldGames.reindex`).

Finished and abandoned games are kept for a while (a 再来一局 press, a late button) and then
let go: past ``keep_finished`` of them, the oldest whose deliveries have all run is dropped
(a later press loads it again from the store).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from services import outbox

if TYPE_CHECKING:
    from services.gamelog import LiveGame
    from services.table import Table

OPEN = ("lobby", "active")
#: finished games kept in memory before the oldest are let go
KEEP_FINISHED = 256


class HeldGames(dict[int, "Table"]):
    """``{game id: Table}`` with look-up indexes and a bound on finished games."""

    def __init__(self, keep_finished: int = KEEP_FINISHED) -> None:
        super().__init__()
        self.keep_finished = keep_finished
        self._by_place: dict[int, dict[int, None]] = {}
        self._by_player: dict[tuple[int, int], dict[int, None]] = {}
        self._keys: dict[int, list[tuple[str, Any]]] = {}
        self._finished: OrderedDict[int, None] = OrderedDict()
        #: games let go so far (a figure for benchmarks)
        self.released = 0

    # ------------------------------------------------------------------ the dict

    def __setitem__(self, game_id: int, table: Table) -> None:
        super().__setitem__(game_id, table)
        self.reindex(table)

    def setdefault(self, game_id: int, table: Table) -> Table:
        if game_id not in self:
            self[game_id] = table
        return self[game_id]

    def lives(self) -> list[LiveGame]:
        """The games of the tables held."""
        return [table.live for table in self.values()]

    def __delitem__(self, game_id: int) -> None:
        super().__delitem__(game_id)
        self._unindex(game_id)
        self._finished.pop(game_id, None)

    def pop(self, game_id: int, *default: Any) -> Any:
        if game_id in self:
            table = self[game_id]
            del self[game_id]
            return table
        if default:
            return default[0]
        raise KeyError(game_id)

    # ------------------------------------------------------------------ indexes

    def reindex(self, table: Table) -> None:
        """Index ``table`` as it is now (its channel, thread and human players); a game that
        is over starts its way out of memory (see :meth:`finished`)."""
        live = table.live
        self._unindex(live.id)
        keys: list[tuple[str, Any]] = []
        for place in {live.channel_id, live.thread_id}:
            if place is not None:
                self._by_place.setdefault(place, {})[live.id] = None
                keys.append(("place", place))
        for seat in live.seats:
            if seat.user_id is not None and not seat.ai:
                key = (live.guild_id, seat.user_id)
                self._by_player.setdefault(key, {})[live.id] = None
                keys.append(("player", key))
        self._keys[live.id] = keys
        if live.status not in OPEN:
            self.finished(table)

    def _unindex(self, game_id: int) -> None:
        for kind, key in self._keys.pop(game_id, []):
            index: dict[Any, dict[int, None]] = (
                self._by_place if kind == "place" else self._by_player
            )
            ids = index.get(key)
            if ids is not None:
                ids.pop(game_id, None)
                if not ids:
                    del index[key]

    def in_channel(self, channel_id: int) -> int | None:
        """The unfinished game of a channel (or of its thread), or None."""
        for game_id in self._by_place.get(channel_id, ()):
            table = self.get(game_id)
            live = None if table is None else table.live
            if (
                live is not None
                and channel_id in (live.channel_id, live.thread_id)
                and live.status in OPEN
            ):
                return live.id
        return None

    def of_player(self, guild_id: int, user_id: int) -> int | None:
        """The unfinished game of this server the user sits in, or None."""
        for game_id in self._by_player.get((guild_id, user_id), ()):
            table = self.get(game_id)
            live = None if table is None else table.live
            if (
                live is not None
                and live.guild_id == guild_id
                and live.status in OPEN
                and live.seat_of(user_id) is not None
            ):
                return live.id
        return None

    # ------------------------------------------------------------------ finished games

    def finished(self, table: Table) -> None:
        """``table``'s game is over: keep it among the newest finished games, and let the
        oldest go once there are more than ``keep_finished`` (only those whose deliveries all
        ran and that nobody is changing)."""
        game_id = table.id
        if game_id not in self:
            return
        self._finished[game_id] = None
        self._finished.move_to_end(game_id)
        excess = len(self._finished) - self.keep_finished
        for game_id in list(self._finished)[: max(0, excess)]:
            held = self.get(game_id)
            if held is None:
                self._finished.pop(game_id, None)
                continue
            old = held.live
            if old.status in OPEN or held.lock.locked() or outbox.busy(old):
                continue  # reopened, being changed, or still delivering: next time
            del self[game_id]
            outbox.cancel(old)
            self.released += 1
