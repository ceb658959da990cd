"""The delivery keeps its message ids itself (:class:`cogs.delivery.message_ids.MessageIds`):
its saves and table ids go to the store without the game service, and a table id the
service loaded from the store since (a takeover, a refresh) is taken over the one it knew."""

from __future__ import annotations

import dataclasses
from typing import Any

from cogs.delivery.message_ids import MessageIds
from cogs.delivery.places import Places
from cogs.delivery.preferences import Preferences
from db import message_refs
from services.delivery import GameSummary
from services.model import Seat


@dataclasses.dataclass
class Row:
    table_message_id: int | None = None
    messages: dict[str, Any] = dataclasses.field(default_factory=dict)


class Games:
    """The games' rows as :class:`db.games.GameRepository` keeps them (one process)."""

    def __init__(self) -> None:
        self.rows: dict[int, Row] = {}
        self.writes: list[tuple[str, int]] = []

    async def get(self, game_id: int) -> Any:
        return self.rows.get(game_id)

    async def set_table_message(
        self, game_id: int, message_id: int | None, *, replacing: int | None
    ) -> int | None:
        self.writes.append(("table", game_id))
        row = self.rows.setdefault(game_id, Row())
        if row.table_message_id == replacing:
            row.table_message_id = message_id
        return row.table_message_id

    async def merge_messages(
        self, game_id: int, base: dict[str, Any] | None, ours: dict[str, Any]
    ) -> dict[str, Any]:
        self.writes.append(("messages", game_id))
        row = self.rows.setdefault(game_id, Row())
        row.messages = message_refs.merge_messages(base, ours, row.messages)
        return dict(row.messages)


class WhereOnly:
    """A game service that answers only where a game plays and whether the database is
    shared: any other call from the delivery fails."""

    shared = False

    async def set_thread(self, _game_id: int, thread_id: int) -> int:
        return thread_id


def summary(**kw: Any) -> GameSummary:
    base: dict[str, Any] = {
        "id": 7,
        "guild_id": 1,
        "channel_id": 500,
        "variant": "shangrao",
        "options": {},
        "seats": tuple(Seat(name=f"p{i}", user_id=100 + i) for i in range(4)),
        "status": "active",
        "version": 3,
        "totals": (0, 0, 0, 0),
        "hand_no": 1,
        "phase": "turn",
        "table_message_id": 40,
        "messages": {"lobby": 30, "gone": 1},
    }
    base.update(kw)
    return GameSummary(**base)


async def test_saves_and_table_ids_go_to_the_store_without_the_service() -> None:
    games = Games()
    games.rows[7] = Row(40, {"lobby": 30, "gone": 1})
    places = Places(object(), Preferences(None), MessageIds(games))  # type: ignore[arg-type]
    places.service = WhereOnly()  # type: ignore[assignment]
    game = summary()
    refs = places.refs(game)
    refs["dm"] = {"101": [1, 2, 1]}
    del refs["gone"]  # (dropped here: dropped in the store, the loaded copy being the base)
    await places.save_refs(game.id)
    assert games.rows[7].messages == {"lobby": 30, "dm": {"101": [1, 2, 1]}}
    assert places.table_id(game) == 40
    assert places.ids is not None
    assert await places.ids.set_table_message(game.id, 41) == 41
    assert places.table_id(game) == 41 and games.rows[7].table_message_id == 41
    assert games.writes == [("messages", 7), ("table", 7)]


async def test_a_table_id_loaded_by_the_service_since_is_taken() -> None:
    games = Games()
    games.rows[7] = Row(40)
    ids = MessageIds(games)
    game = summary()
    assert ids.table_message_id(game) == 40
    assert await ids.set_table_message(game.id, 41) == 41
    assert ids.table_message_id(game) == 41  # the summary still carries what was loaded
    games.rows[7].table_message_id = 52  # another process posted; the service refreshed
    assert ids.table_message_id(summary(table_message_id=52)) == 52
    assert await ids.set_table_message(game.id, 53) == 53  # compare-and-set on 52


async def test_an_ended_game_is_seen_as_this_process_last_saved_it() -> None:
    """The service never learns of the delivery's saves: an ended game's summary still
    carries its messages as loaded, and its standings (saved since) must still be found
    when its rematch starts."""
    games = Games()
    places = Places(object(), Preferences(None), MessageIds(games))  # type: ignore[arg-type]
    places.service = WhereOnly()  # type: ignore[assignment]
    game = summary(messages={"lobby": 30})
    places.refs(game)["standings"] = [500, 77]
    await places.save_refs(game.id)
    places.forget_game(game.id)  # the game ended
    assert places.refs(game) == {"lobby": 30, "standings": [500, 77]}


async def test_a_stored_read_begun_before_the_new_table_keeps_the_new_table() -> None:
    """A hand DM adopting its stored entry reads the game's row while the hand's table is
    being stored (several processes on one database): the read, begun before, carries the
    lobby; the table this process stored meanwhile stays its table (seen in a dissolve vote
    on PostgreSQL: the ending stripped the lobby's id in the thread, the table kept its
    buttons)."""
    import asyncio

    games = Games()
    games.rows[7] = Row(40)
    ids = MessageIds(games)
    game = summary()
    assert ids.table_message_id(game) == 40
    reading = asyncio.Event()
    read_may_end = asyncio.Event()
    plain_get = games.get

    async def slow_get(game_id: int) -> Any:
        row = dataclasses.replace(games.rows[game_id])  # (the row as the read saw it)
        reading.set()
        await read_may_end.wait()
        return row

    games.get = slow_get  # type: ignore[method-assign]
    read = asyncio.create_task(ids.stored_messages(game.id))
    await reading.wait()
    games.get = plain_get  # type: ignore[method-assign]
    assert await ids.set_table_message(game.id, 41) == 41  # the hand's table, stored
    read_may_end.set()
    assert (await read)[0] == 40  # (what the read saw is what it returns)
    assert ids.table_message_id(game) == 41
    assert await ids.set_table_message(game.id, 42) == 42  # compare-and-set on 41, not 40
    # a newer id stored by another process is still taken
    games.rows[7].table_message_id = 60
    assert (await ids.stored_messages(game.id))[0] == 60
    assert ids.table_message_id(game) == 60
