"""Several processes on one database: the delivery takes back the message ids the store kept
(issue 15 item 8). The store decides — a table message by compare-and-set on the old id, the
place of play once, the remembered messages by a merge — and a process whose own post lost
deletes it and uses the stored one from then on (:mod:`cogs.delivery.places`, :mod:`cogs.delivery.hand_dm`)."""

from __future__ import annotations

import asyncio
import itertools
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.delivery import pictures
from cogs.delivery.hand_dm import HandMessages
from cogs.delivery.places import Places, take_stored
from cogs.delivery.preferences import Preferences
from services.delivery import GameSummary, PrivateUpdate
from services.model import HandView, Seat

_ids = itertools.count(discord.utils.time_snowflake(datetime.now(UTC)))

CHANNEL = 2
OTHERS_TABLE = next(_ids)


class FakeMessage:
    """A Discord message: its edits and whether it was deleted are recorded."""

    def __init__(self, channel_id: int, message_id: int | None = None) -> None:
        self.id = message_id if message_id is not None else next(_ids)
        self.channel = SimpleNamespace(id=channel_id)
        self.flags = None
        self.edits: list[dict[str, Any]] = []
        self.deleted = False

    async def edit(self, **fields: Any) -> None:
        self.edits.append(fields)

    async def delete(self) -> None:
        self.deleted = True


class FakeChannel:
    def __init__(self, bot: FakeBot, channel_id: int) -> None:
        self.bot, self.id = bot, channel_id

    async def send(self, **fields: Any) -> FakeMessage:
        message = FakeMessage(self.id)
        self.bot.messages[message.id] = message
        self.bot.posted.append(message)
        return message

    def get_partial_message(self, message_id: int) -> FakeMessage:
        return self.bot.messages.setdefault(message_id, FakeMessage(self.id, message_id))


class FakeBot:
    """The channels, messages and thread calls of a bot (nothing cached)."""

    def __init__(self) -> None:
        self.messages: dict[int, FakeMessage] = {}
        self.posted: list[FakeMessage] = []
        self.threads_opened: list[int] = []
        self.threads_deleted: list[int] = []
        bot = self

        class Http:
            async def start_thread_with_message(self, *_a: Any, **_k: Any) -> dict[str, Any]:
                bot.threads_opened.append(next(_ids))
                return {"id": str(bot.threads_opened[-1])}

            start_thread_without_message = start_thread_with_message

            async def delete_channel(self, channel_id: int, **_k: Any) -> None:
                bot.threads_deleted.append(channel_id)

        self.http = Http()

    def get_channel(self, _channel_id: int) -> None:
        return None

    def get_partial_messageable(self, channel_id: int) -> FakeChannel:
        return FakeChannel(self, channel_id)

    async def create_dm(self, user: discord.Object) -> FakeChannel:
        return FakeChannel(self, 10_000 + user.id)


class SharedStore:
    """The game service as a process sharing the database sees it: ``others`` is what
    another process stored meanwhile (a table message, a place of play, messages)."""

    shared = True

    def __init__(self, table: int | None = None, messages: dict[str, Any] | None = None) -> None:
        self.table = table
        self.messages: dict[str, Any] = dict(messages or {})
        self.others_table: tuple[int, dict[str, Any]] | None = None
        self.others_thread: int | None = None
        self.others_messages: dict[str, Any] = {}
        self.thread: int | None = None
        self.saved: list[dict[str, Any]] = []
        self.table_waits: list[bool] = []
        self.save_started = asyncio.Event()
        self.save_may_end: asyncio.Event | None = None

    def table_message_id(self, _game: Any) -> int | None:
        return self.table

    def seed(self, game: Any) -> dict[str, Any]:
        return dict(game.messages)  # (the base of a merge: not modelled here)

    def forget(self, _game_id: int) -> None:
        pass

    async def stored_messages(self, _game_id: int) -> tuple[int | None, dict[str, Any]]:
        return self.table, dict(self.messages)

    async def set_table_message(
        self, _game_id: int, message_id: int | None, *, wait: bool = True
    ) -> int | None:
        self.table_waits.append(wait)
        if self.others_table is not None:  # another process posted one after this one read
            self.table, self.messages = self.others_table[0], dict(self.others_table[1])
            self.others_table = None
        else:
            self.table = message_id
        return self.table

    async def set_thread(self, _game_id: int, thread_id: int) -> int:
        if self.thread is None:
            self.thread = self.others_thread or thread_id
        return self.thread

    async def save_messages(self, _game_id: int, messages: dict[str, Any]) -> dict[str, Any]:
        self.saved.append(messages)
        self.save_started.set()
        if self.save_may_end is not None:
            await self.save_may_end.wait()
        merged = {**messages}
        for name, theirs in self.others_messages.items():  # groups merged entry by entry
            ours = merged.get(name)
            merged[name] = {**ours, **theirs} if isinstance(ours, dict) else theirs
        self.messages = merged
        return dict(self.messages)


def summary(**kw: Any) -> GameSummary:
    base: dict[str, Any] = {
        "id": 7,
        "guild_id": 1,
        "channel_id": CHANNEL,
        "variant": "shangrao",
        "options": {},
        "seats": tuple(Seat(name=f"p{i}", user_id=100 + i) for i in range(4)),
        "status": "active",
        "version": 42,
        "totals": (0, 0, 0, 0),
        "hand_no": 2,
        "phase": "turn",
        "thread_id": CHANNEL,
    }
    base.update(kw)
    return GameSummary(**base)


def places_with(service: SharedStore) -> tuple[Places, FakeBot]:
    bot = FakeBot()
    places = Places(bot, Preferences(None))  # type: ignore[arg-type]
    places.service = service  # type: ignore[assignment]
    places.ids = service  # type: ignore[assignment]
    return places, bot


def table_build(label: str) -> Any:
    def build() -> tuple[discord.Embed, None, list[discord.File]]:
        return discord.Embed(description=label), None, []

    return build


# ---------------------------------------------------------------------- the table message


async def test_a_table_posted_while_another_process_posted_one_is_deleted() -> None:
    """Both processes found this hand's table missing: the one stored first stays, this
    process's post is deleted, the stored one shows this table and is edited from then on."""
    old_table = next(_ids)
    service = SharedStore(old_table, {"table_at": [CHANNEL, 1]})
    service.others_table = (OTHERS_TABLE, {"table_at": [CHANNEL, 2]})
    places, bot = places_with(service)
    game = summary(messages={"table_at": [CHANNEL, 1]})

    await places.put_hand_table(game, table_build("first"))

    [duplicate] = bot.posted
    assert duplicate.deleted
    stored = bot.messages[OTHERS_TABLE]
    assert [e["embed"].description for e in stored.edits] == ["first"]
    assert places.refs(game)["table_at"] == [CHANNEL, 2]
    assert old_table not in bot.messages  # the other process retired it, not this one

    await places.put_hand_table(game, table_build("second"))
    assert len(bot.posted) == 1  # edited, not posted again
    assert [e["embed"].description for e in stored.edits] == ["first", "second"]


async def test_a_stored_table_of_another_hand_is_not_edited_with_this_one() -> None:
    service = SharedStore(next(_ids), {"table_at": [CHANNEL, 1]})
    service.others_table = (OTHERS_TABLE + 1, {"table_at": [CHANNEL, 3]})
    places, bot = places_with(service)
    game = summary(messages={"table_at": [CHANNEL, 1]})

    await places.put_hand_table(game, table_build("hand 2"))

    [duplicate] = bot.posted
    assert duplicate.deleted
    assert bot.messages.get(OTHERS_TABLE + 1) is None or not bot.messages[OTHERS_TABLE + 1].edits
    assert places.refs(game)["table_at"] == [CHANNEL, 1]  # not taken as this hand's


async def test_a_table_kept_by_the_store_is_not_deleted() -> None:
    """The usual case: the compare-and-set kept this process's table."""
    service = SharedStore(next(_ids), {"table_at": [CHANNEL, 1]})
    places, bot = places_with(service)
    game = summary(messages={"table_at": [CHANNEL, 1]})

    await places.put_hand_table(game, table_build("mine"))

    [posted] = bot.posted
    assert not posted.deleted and service.table == posted.id
    assert places.refs(game)["table_at"] == [CHANNEL, 2]


async def test_a_lobby_posted_twice_keeps_the_stored_one() -> None:
    service = SharedStore(None)
    service.others_table = (OTHERS_TABLE + 2, {})
    places, bot = places_with(service)
    game = summary(hand_no=0, phase="lobby", status="lobby", thread_id=None)

    await places.put_lobby(game, discord.Embed(description="lobby"), None)

    [duplicate] = bot.posted
    assert duplicate.deleted
    assert [e["embed"].description for e in bot.messages[OTHERS_TABLE + 2].edits] == ["lobby"]


# ---------------------------------------------------------------------- the remembered messages


async def test_a_save_takes_back_what_other_processes_stored() -> None:
    """The merged messages come into this process's copy; a change made here while the save
    was under way stays (the next save brings it), and a held group keeps its identity."""
    service = SharedStore()
    service.others_messages = {"dm": {"101": [5, 6, 2]}, "alerts": {"7": [8, 9, 2]}}
    service.save_may_end = asyncio.Event()
    places, _bot = places_with(service)
    game = summary(messages={"alerts": {"5": [1, 2, 2]}, "result": [1, 2, 1]})
    alerts = places.held(game, "alerts")

    saving = asyncio.create_task(places.save_refs(game.id))
    await service.save_started.wait()
    alerts["6"] = [3, 4, 2]  # changed here while the save was under way
    service.save_may_end.set()
    await saving

    refs = places.refs(game)
    assert refs["dm"] == {"101": [5, 6, 2]}
    assert places.held(game, "alerts") is alerts
    assert alerts == {"5": [1, 2, 2], "6": [3, 4, 2], "7": [8, 9, 2]}
    assert refs["result"] == [1, 2, 1]


def test_entries_another_process_removed_leave_the_copy_unless_changed_here() -> None:
    sent = {"alerts": {"5": [1, 2, 2], "6": [3, 4, 2]}, "result": [1, 2, 1], "lobby": 9}
    held = {"alerts": {"5": [1, 2, 2], "6": [3, 4, 3]}, "result": [1, 2, 1], "lobby": 9}
    group = held["alerts"]
    stored = {"alerts": {}, "lobby": 9}
    take_stored(held, sent, stored)
    assert held == {"alerts": {"6": [3, 4, 3]}, "lobby": 9}
    assert held["alerts"] is group


# ---------------------------------------------------------------------- the place of play


async def test_a_thread_opened_after_another_process_decided_is_not_used() -> None:
    service = SharedStore()
    service.others_thread = 4242
    places, bot = places_with(service)
    game = summary(hand_no=1, thread_id=None, use_thread=True)

    assert await places.play_channel_id(game) == 4242
    assert bot.threads_deleted == bot.threads_opened and len(bot.threads_opened) == 1
    assert await places.play_channel_id(game) == 4242
    assert len(bot.threads_opened) == 1


async def test_the_thread_this_process_decided_is_kept() -> None:
    service = SharedStore()
    places, bot = places_with(service)
    game = summary(hand_no=1, thread_id=None, use_thread=True)

    where = await places.play_channel_id(game)
    assert bot.threads_opened == [where] and service.thread == where
    assert bot.threads_deleted == []


# ---------------------------------------------------------------------- the hand DM


@pytest.fixture
def no_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pictures, "ENABLED", False)


async def test_a_hand_dm_sent_twice_keeps_the_stored_one(no_pictures: None) -> None:
    """Another process sent the player this hand's DM meanwhile and the store kept it: this
    process's DM is deleted and the stored one is edited from then on."""
    stored_dm = [10_101, next(_ids) + 1_000_000, 2]  # sent after this one: the newer stays
    service = SharedStore()  # (nothing stored to adopt before sending: it comes with the save)
    service.others_messages = {"dm": {"101": stored_dm}}
    places, bot = places_with(service)
    hands = HandMessages(bot, places, Preferences(None))  # type: ignore[arg-type]
    game = summary()
    hand = HandView(0, (0, 1, 2), None, (), ())

    assert await hands.update_hand(game, PrivateUpdate(0, 101, hand)) is True

    [duplicate] = bot.posted
    assert duplicate.deleted
    kept = hands.dm_messages[(game.id, 101)][1]
    assert kept.id == stored_dm[1] and len(kept.edits) == 1

    newer = summary(version=43)
    await hands.update_hand(newer, PrivateUpdate(0, 101, HandView(0, (0, 1, 3), None, (), ())))
    assert len(bot.posted) == 1 and len(kept.edits) == 2
