"""The Discord delivery's collaborators on their own: the table's edit budget
(:mod:`cogs.delivery.table_edits`), the stored choices (:mod:`cogs.delivery.preferences`) and where messages go
(:mod:`cogs.delivery.places`); and how :class:`cogs.delivery.discord_delivery.DiscordDelivery` wires them."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord

from botcore.request_budget import PLAYER, PRIORITY, TABLE, RequestBudget
from cogs.delivery.discord_delivery import DiscordDelivery
from cogs.delivery.places import Places
from cogs.delivery.preferences import Preferences
from cogs.delivery.table_edits import PLAYING_WINDOW, TABLE_MAX_INTERVAL, TableEdits

INTERVAL = 0.2


class PartialChannel:
    """What ``get_partial_messageable`` gives: a channel known by its id only."""

    def __init__(self, channel_id: int) -> None:
        self.id = channel_id


class FakeBot:
    def __init__(self, cached: dict[int, Any] | None = None) -> None:
        self.cached = cached or {}
        self.closed = False

    def get_channel(self, channel_id: int) -> Any:
        return self.cached.get(channel_id)

    def get_partial_messageable(self, channel_id: int) -> PartialChannel:
        return PartialChannel(channel_id)

    def is_closed(self) -> bool:
        return self.closed


def game(game_id: int = 7) -> Any:
    return SimpleNamespace(id=game_id, guild_id=1, messages={})


def edits(*, fail: list[BaseException] | None = None, delay: float | None = 0.0) -> Any:
    """A TableEdits whose writes are recorded (and fail with ``fail``'s errors first)."""
    places = Places(FakeBot(), Preferences(None))  # type: ignore[arg-type]
    tables = TableEdits(places, Preferences(None), lambda _error: delay, interval=INTERVAL)
    written: list[Any] = []
    errors = list(fail or [])

    async def write(_game: Any, table: Any) -> None:
        if errors:
            raise errors.pop(0)
        written.append(table)

    tables.write = write  # type: ignore[method-assign]
    return tables, written


def clocked_tables(now: list[float], *, per_second: float) -> TableEdits:
    """Table edits every 2 s at most, ``per_second`` for all tables, on the clock ``now[0]``."""
    places = Places(FakeBot(), Preferences(None))  # type: ignore[arg-type]
    return TableEdits(
        places,
        Preferences(None),
        lambda _e: None,
        interval=2.0,
        per_second=per_second,
        clock=lambda: now[0],
    )


async def settle(tables: TableEdits, game_id: int = 7) -> None:
    task = tables._tasks.get(game_id)
    if task is not None:
        await asyncio.wait_for(task, timeout=30)


async def test_table_changes_coalesce_to_the_newest_within_the_edit_budget() -> None:
    """≤ 1 edit per interval per table: the first change is written at once, four more
    within the interval give one write, of the newest — the three between are never
    rendered; changes made before the write starts are one write too."""
    tables, written = edits()
    g = game()
    tables.schedule(g, "table 0")
    await asyncio.sleep(0.01)
    assert written == ["table 0"]
    for n in range(1, 5):
        tables.schedule(g, f"table {n}")
    await settle(tables)
    assert written == ["table 0", "table 4"]
    for n in range(5, 8):
        tables.schedule(g, f"table {n}")
    await settle(tables)
    assert written == ["table 0", "table 4", "table 7"]


async def test_the_spacing_runs_from_when_a_table_was_taken_not_from_its_edit() -> None:
    """A slow edit (its picture queued, its request slow) does not push the next one back by
    its own length: the next table is taken one spacing after the previous was, so a move
    waits at most a spacing and one edit, not a spacing and two."""
    tables, _ = edits()
    tables.interval = 0.4
    loop = asyncio.get_running_loop()
    taken: list[float] = []

    async def slow_write(_game: Any, table: Any) -> None:
        taken.append(loop.time())
        await asyncio.sleep(0.4)
        tables.note_edit(7)  # (as the real write: when the edit landed)

    tables.write = slow_write  # type: ignore[method-assign]
    g = game()
    tables.schedule(g, "first")
    await asyncio.sleep(0.01)
    tables.schedule(g, "second")
    await settle(tables)
    assert len(taken) == 2
    assert 0.39 <= taken[1] - taken[0] < 0.7  # from the end it would be ≥ 0.8


async def test_two_games_have_their_own_budget() -> None:
    tables, written = edits()
    tables.schedule(game(7), "seven")
    tables.schedule(game(8), "eight")
    await settle(tables, 7)
    await settle(tables, 8)
    assert sorted(written) == ["eight", "seven"]


def test_many_tables_playing_share_one_budget_of_edits() -> None:
    """Discord's ≈50 requests/s are for the whole bot: past ``per_second × interval`` tables
    playing, each table is edited less often, never more than 10 s apart; tables that stopped
    changing stop counting."""
    now = [1000.0]
    tables = clocked_tables(now, per_second=10)
    for game_id in range(20):
        tables.note_edit(game_id)
    assert tables.spacing() == 2.0  # 20 tables at one edit per 2 s: 10/s, within the budget
    for game_id in range(20, 40):
        tables.note_edit(game_id)
    assert tables.spacing() == 4.0  # 40 tables, 10 edits/s
    for game_id in range(60, 1000):
        tables.note_edit(game_id)
    assert tables.spacing() == TABLE_MAX_INTERVAL  # never longer
    now[0] += TABLE_MAX_INTERVAL  # a table edited at every spacing still counts
    assert tables.spacing() == TABLE_MAX_INTERVAL
    now[0] += PLAYING_WINDOW - TABLE_MAX_INTERVAL + 1  # the tables stopped; one plays on
    tables.note_edit(5)
    assert tables.spacing() == 2.0
    unbudgeted = clocked_tables(now, per_second=0)
    for game_id in range(1000):
        unbudgeted.note_edit(game_id)
    assert unbudgeted.spacing() == 2.0


async def test_a_table_waits_its_spacing_when_many_tables_play() -> None:
    """The second edit of a table comes one spacing after its first: the shared budget's."""
    tables, written = edits()
    tables.interval = 0.05
    tables.per_second = 100  # 10 tables playing: 0.1 s apart
    for game_id in range(100, 110):
        tables.note_edit(game_id)
    g = game()
    loop = asyncio.get_running_loop()
    started = loop.time()
    tables.note_edit(g.id)
    tables.schedule(g, "next")
    await settle(tables)
    assert written == ["next"]
    assert loop.time() - started >= 0.1


def test_the_tables_take_no_more_than_the_request_budget_leaves() -> None:
    """With the bot's request budget (botcore.request_budget), the tables share what the
    players' requests leave of it when that is less than ``per_second``."""
    now = [1000.0]
    tables = clocked_tables(now, per_second=30)
    # 4 kept free for players, 4 for tables (a window of one second: round figures)
    budget = RequestBudget(45, window=1.0, clock=lambda: now[0])
    tables.budget = budget
    for game_id in range(100):
        tables.note_edit(game_id)
    assert tables.spacing() == 100 / 30  # nobody else sends: TABLE_EDITS_PER_SECOND caps
    for at in range(50):  # players' requests: 25 a second over the last 2 s
        budget._grant(PLAYER, now[0] - at / 25)
    assert budget.spare() == 31  # (their rate is measured over RATE_WINDOW: 10 a second)
    assert tables.spacing() == 100 / 30  # still more than TABLE_EDITS_PER_SECOND
    for at in range(50, 100):
        budget._grant(PLAYER, now[0] - 2 - at / 50)
    assert budget.spare() == 21  # 20 a second over the last 5 s
    assert tables.spacing() == 100 / 21
    for game_id in range(100, 200):
        tables.note_edit(game_id)
    assert tables.spacing() == TABLE_MAX_INTERVAL  # the longest still
    tables.per_second = 0  # no cap of its own: the budget's spare alone
    assert tables.spacing() == TABLE_MAX_INTERVAL
    now[0] += 20  # the players went quiet, and the tables with them but 30
    for game_id in range(30):
        tables.note_edit(game_id)
    assert tables.spacing() == 2.0


async def test_table_edits_are_made_at_the_table_priority() -> None:
    """A coalesced edit's requests wait behind the players' in the request budget; a
    flush (the hand's last table, before its result) is made at the players' priority."""
    tables, _written = edits()
    seen: list[int] = []

    async def write(_game: Any, _table: Any) -> None:
        seen.append(PRIORITY.get())

    tables.write = write  # type: ignore[method-assign]
    tables.schedule(game(), "coalesced")
    await settle(tables)
    await tables.flush(game(), "final")
    assert seen == [TABLE, PLAYER]
    assert PRIORITY.get() == PLAYER  # the caller's own is untouched


async def test_a_table_that_waited_for_the_request_budget_is_drawn_as_it_stands_then() -> None:
    """The coalesced write takes its budget slot *before* it picks the table to draw: a
    table that changed while the write waited for the budget goes out as it is now, not
    as it stood when the write began to wait (and the write's request spends that slot,
    taking no second one)."""
    tables, written = edits()
    now = [0.0]
    budget = RequestBudget(1, window=1.0, reserve=0, table_floor=1, clock=lambda: now[0])
    tables.budget = budget
    await budget.take(PLAYER)  # the second's one slot is spent: the table write waits
    spent: list[bool] = []

    async def write(_game: Any, table: Any) -> None:
        spent.append(budget.spend_prepaid())
        written.append(table)

    tables.write = write  # type: ignore[method-assign]
    g = game()
    tables.schedule(g, "when it began to wait")
    for _ in range(5):
        await asyncio.sleep(0)
    assert budget.waiting == 1 and written == []
    tables.schedule(g, "newest")
    now[0] = 1.0  # the window passes: the slot frees
    await settle(tables)
    assert written == ["newest"]
    assert spent == [True]  # the request spent the slot taken ahead
    assert budget.figures.granted == [1, 1]


async def test_a_prepaid_slot_is_spent_by_the_next_counted_request_only() -> None:
    now = [0.0]
    budget = RequestBudget(5, window=1.0, clock=lambda: now[0])
    await budget.prepay()
    await budget.prepay()  # taken already and not spent: nothing more is taken
    assert budget.figures.granted == [1, 0]
    assert budget.spend_prepaid() is True
    assert budget.spend_prepaid() is False  # the next request takes its own


async def test_a_failed_write_that_may_pass_goes_again_with_the_newest_table() -> None:
    tables, written = edits(
        fail=[discord.DiscordServerError(SimpleNamespace(status=503, reason="x"), "")]
    )  # type: ignore[arg-type]
    g = game()
    tables.schedule(g, "first")
    await asyncio.sleep(0)
    tables.schedule(g, "newer")
    await settle(tables)
    assert written == ["newer"]


async def test_a_write_that_cannot_pass_is_dropped() -> None:
    tables, written = edits(fail=[RuntimeError("refused")], delay=None)
    tables.schedule(game(), "first")
    await settle(tables)
    assert written == []
    assert tables._tasks[7].done()


async def test_flush_writes_now_and_drops_the_pending_edit() -> None:
    tables, written = edits()
    g = game()
    tables.schedule(g, "first")
    await asyncio.sleep(0.01)
    tables.schedule(g, "pending")
    await tables.flush(g, "final")
    await asyncio.sleep(INTERVAL * 2)
    assert written == ["first", "final"]


async def test_preferences_without_a_store_are_the_defaults() -> None:
    prefs = Preferences(None)
    assert await prefs.lang_for_guild(1) == "zh"
    assert await prefs.lang_for_user(2) == "zh"
    assert await prefs.images_for_user(2) is True
    assert await prefs.alerts_for_user(2) == "on"
    prefs.note_user(2, "en-US")
    prefs.set_user_images(2, False)
    prefs.set_user_alerts(2, "claims")
    assert (await prefs.lang_for_user(2), await prefs.images_for_user(2)) == ("en", False)
    assert await prefs.alerts_for_user(2) == "claims"
    prefs.set_user_alerts(2, "sometimes")  # not a choice: alerts stay on
    assert await prefs.alerts_for_user(2) == "on"


def test_a_channel_that_takes_no_messages_is_reached_by_its_id() -> None:
    """A cached forum or category cannot be sent to: the partial channel stands in."""
    forum = SimpleNamespace(id=5)
    places = Places(FakeBot({5: forum}), Preferences(None))  # type: ignore[arg-type]
    where = places.place(5)
    assert isinstance(where, PartialChannel) and where.id == 5


def test_remembered_groups_are_created_once_and_kept() -> None:
    places = Places(FakeBot(), Preferences(None))  # type: ignore[arg-type]
    g = game()
    g.messages = {"alerts": "garbled"}
    alerts = places.held(g, "alerts")
    assert alerts == {}
    alerts["9"] = [1, 2, 3]
    assert places.held(g, "alerts") == {"9": [1, 2, 3]}
    assert places.refs(g)["alerts"] is alerts


def test_the_delivery_wires_one_set_of_collaborators() -> None:
    bot = FakeBot()
    delivery = DiscordDelivery(bot, ephemeral_lifetime=30)  # type: ignore[arg-type]
    service: Any = object()
    delivery.service = service
    assert delivery.places.service is service and delivery.service is service
    assert delivery.hands.places is delivery.places is delivery.alerts.places
    assert delivery.session.hands is delivery.hands is delivery.alerts.hands
    assert delivery.tables.places is delivery.places
    assert delivery.hands.ephemeral_lifetime == 30
    assert (
        delivery.resend_delay(
            discord.DiscordServerError(SimpleNamespace(status=503, reason="x"), "")
        )
        == 0.0
    )  # type: ignore[arg-type]
    bot.closed = True  # nothing is sent again once the bot is closed
    assert delivery.resend_delay(RuntimeError()) is None


async def test_closing_stops_pending_table_edits() -> None:
    delivery = DiscordDelivery(FakeBot())  # type: ignore[arg-type]
    written: list[Any] = []

    async def write(_game: Any, table: Any) -> None:
        written.append(table)

    delivery.tables.write = write  # type: ignore[method-assign]
    g = game()
    delivery.tables.schedule(g, "first")
    await asyncio.sleep(0.01)
    delivery.tables.schedule(g, "second")
    await delivery.close()
    await asyncio.sleep(INTERVAL * 2)
    assert delivery.closing
    assert written == ["first"]


class _Embed(str):
    """A table message's text, standing in for its embed."""

    def set_image(self, *, url: str) -> None:
        pass


async def test_an_edit_s_text_is_the_newest_table_of_the_hand_its_picture_as_taken(
    monkeypatch: Any,
) -> None:
    """A move made while the table's picture renders is in that edit's text (the picture
    is of the table as it was taken) and the next edit brings its picture; a newer table
    of another hand never lends its text to this hand's picture."""
    from cogs.delivery import table_edits

    places = Places(FakeBot(), Preferences(None))  # type: ignore[arg-type]
    tables = TableEdits(places, Preferences(None), lambda _e: None, interval=INTERVAL)
    rendering, release = asyncio.Event(), asyncio.Event()
    sent: list[tuple[str, list[str]]] = []  # (the text's table, the picture's table)

    async def table_png(_game: Any, table: Any, *, lang: str) -> bytes:
        rendering.set()
        await release.wait()
        return str(table).encode()

    async def put_hand_table(_game: Any, build: Any) -> None:
        embed, _view, files = build()
        sent.append((str(embed), [f.fp.read().decode() for f in files]))

    monkeypatch.setattr(table_edits.pictures, "table_png", table_png)
    monkeypatch.setattr(table_edits, "table_message", lambda _g, t, _l: (_Embed(t), None))
    monkeypatch.setattr(places, "put_hand_table", put_hand_table)

    def hand(number: int) -> Any:
        return SimpleNamespace(id=7, guild_id=1, messages={}, hand_no=number)

    tables.schedule(hand(1), "move 1")
    await asyncio.wait_for(rendering.wait(), 5)
    tables.schedule(hand(1), "move 2")  # made while move 1's picture renders
    release.set()
    await settle(tables)
    assert sent == [("move 2", ["move 1"]), ("move 2", ["move 2"])]

    rendering.clear()
    release.clear()
    sent.clear()
    tables.schedule(hand(1), "last of hand 1")
    await asyncio.wait_for(rendering.wait(), 5)
    tables.schedule(hand(2), "hand 2")  # the next hand: its text is not this picture's
    release.set()
    await settle(tables)
    assert sent == [("last of hand 1", ["last of hand 1"]), ("hand 2", ["hand 2"])]
