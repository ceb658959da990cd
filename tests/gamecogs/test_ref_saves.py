"""The saves of a game's remembered messages are combined (:meth:`cogs.delivery.places.Places.save_refs`,
issue 15): at most one in flight per game, the calls made meanwhile served by one following
save of the latest copy; callers that adopt the stored result still get it; a failure is
logged and the next save still happens."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from cogs.delivery.places import Places
from cogs.delivery.preferences import Preferences
from services.delivery import GameSummary
from services.model import Seat


class SlowStore:
    """The delivery's message ids (:class:`cogs.delivery.message_ids.MessageIds`): each save
    is recorded, held until ``gate`` is set, and merged with what ``others`` (another
    process) stored; as the game service it says the database is not shared."""

    shared = False

    def __init__(self) -> None:
        self.saves: list[dict[str, Any]] = []
        self.stored: dict[str, Any] = {}
        self.others: dict[str, Any] = {}
        self.gate = asyncio.Event()
        self.fail_next = False

    async def written_behind(self) -> None:
        pass  # (no table message ids here)

    def seed(self, game: Any) -> dict[str, Any]:
        return dict(game.messages)  # (the base of a merge: not modelled here)

    def forget(self, _game_id: int) -> None:
        pass

    async def save_messages(self, _game_id: int, messages: dict[str, Any]) -> dict[str, Any]:
        self.saves.append(messages)
        await self.gate.wait()
        if self.fail_next:
            self.fail_next = False
            raise RuntimeError("database is locked")
        merged = dict(messages)
        for name, theirs in self.others.items():  # groups merged entry by entry
            ours = merged.get(name)
            merged[name] = {**ours, **theirs} if isinstance(ours, dict) else theirs
        self.stored = merged
        return dict(self.stored)


def summary(game_id: int = 7) -> GameSummary:
    return GameSummary(
        id=game_id,
        guild_id=1,
        channel_id=2,
        variant="shangrao",
        options={},
        seats=tuple(Seat(name=f"p{i}", user_id=100 + i) for i in range(4)),
        status="active",
        version=1,
        totals=(0, 0, 0, 0),
        hand_no=1,
        phase="turn",
    )


@pytest.fixture
def store() -> SlowStore:
    return SlowStore()


@pytest.fixture
def places(store: SlowStore) -> Places:
    """The message places of a bot whose game service and message ids are ``store``."""
    places = Places(object(), Preferences(None))  # type: ignore[arg-type]
    places.service = store  # type: ignore[assignment]
    places.ids = store  # type: ignore[assignment]
    return places


@pytest.fixture
def game() -> GameSummary:
    return summary()


async def test_concurrent_saves_of_one_game_make_fewer_writes_and_store_the_latest(
    store: SlowStore, places: Places, game: GameSummary
) -> None:
    alerts = places.held(game, "alerts")
    alerts["100"] = [1, 1, 1]
    first = asyncio.create_task(places.save_refs(game.id))
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    callers = []
    for episode in range(2, 12):  # ten alert changes while the first save is under way
        alerts["100"] = [1, episode, episode]
        callers.append(asyncio.create_task(places.save_refs(game.id)))
    await asyncio.sleep(0)
    assert len(store.saves) == 1
    store.gate.set()
    await asyncio.gather(first, *callers)
    assert len(store.saves) == 2  # 11 calls: the first save and one following it
    assert store.stored == {"alerts": {"100": [1, 11, 11]}}
    assert places.refs(game) == store.stored


async def test_a_save_not_waited_for_goes_on_behind_and_is_drained(
    store: SlowStore, places: Places, game: GameSummary
) -> None:
    places.refs(game)["result"] = [2, 50, 1]
    await places.save_refs(game.id, wait=False)  # returns before the write ends
    await asyncio.sleep(0)
    assert len(store.saves) == 1 and store.stored == {}
    store.gate.set()
    await places.saves_done()
    assert store.stored == {"result": [2, 50, 1]}


async def test_a_waiting_caller_adopts_what_the_store_holds_after_combined_saves(
    store: SlowStore, places: Places, game: GameSummary
) -> None:
    """Another process's entry comes back into this process's copy for the caller who waits,
    even when its save was served by the one following a save under way."""
    store.shared = True
    dm = places.refs(game).setdefault("dm", {})
    dm["100"] = [10, 11, 1]
    places.refs(game)["lobby"] = 5
    await places.save_refs(game.id, wait=False)
    await asyncio.sleep(0)
    assert len(store.saves) == 1  # under way
    store.others = {"dm": {"100": [10, 99, 1]}}  # the other process's DM stays
    dm["101"] = [12, 13, 1]
    waiting = asyncio.create_task(places.save_refs(game.id))
    await asyncio.sleep(0)
    store.gate.set()
    await waiting
    assert places.refs(game)["dm"] == {"100": [10, 99, 1], "101": [12, 13, 1]}
    assert len(store.saves) == 2
    assert places.refs(game)["lobby"] == 5


async def test_a_failed_save_is_logged_and_the_next_save_still_happens(
    store: SlowStore, places: Places, game: GameSummary, caplog: pytest.LogCaptureFixture
) -> None:
    store.fail_next = True
    store.gate.set()
    places.refs(game)["vote"] = [2, 60, 1]
    with caplog.at_level(logging.ERROR, logger="cogs.delivery.places"):
        await places.save_refs(game.id)
    assert "game 7: could not save its messages" in caplog.text
    assert store.stored == {}
    places.refs(game)["vote"] = [2, 61, 2]
    await places.save_refs(game.id)
    assert store.stored == {"vote": [2, 61, 2]}


async def test_a_copy_changed_back_to_what_is_stored_is_not_written_again(
    store: SlowStore, places: Places, game: GameSummary
) -> None:
    """Alone on the database: an alert sent and taken away while a save was under way
    leaves the copy as stored — the following save has nothing to write."""
    alerts = places.held(game, "alerts")
    alerts["100"] = [1, 5, 1]
    first = asyncio.create_task(places.save_refs(game.id))
    await asyncio.sleep(0)
    alerts["100"] = [1, 6, 2]  # a new alert...
    second = asyncio.create_task(places.save_refs(game.id))
    alerts["100"] = [1, 5, 1]  # ...and back (as the first save sends it)
    store.gate.set()
    await asyncio.gather(first, second)
    assert len(store.saves) == 1
    alerts["100"] = [1, 7, 3]
    await places.save_refs(game.id)
    assert len(store.saves) == 2 and store.stored == {"alerts": {"100": [1, 7, 3]}}


async def test_a_forgotten_game_is_not_saved_again(
    store: SlowStore, places: Places, game: GameSummary
) -> None:
    """The game ended: its last save is waited for, then it is forgotten; a save asked for
    later finds nothing to write."""
    store.gate.set()
    places.refs(game)["standings"] = [2, 70]
    await places.save_refs(game.id)
    places.forget_game(game.id)
    await places.save_refs(game.id, wait=False)
    await places.saves_done()
    assert len(store.saves) == 1
