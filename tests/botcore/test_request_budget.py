"""The bot's request budget (botcore.request_budget), on a fake clock: never more than N
requests in any one second, the players' requests before the table edits (which keep a
small guaranteed share), interaction answers and webhooks never counted and never waiting,
and nothing waiting for ever."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from pathlib import Path

import aiohttp
import pytest
from multidict import CIMultiDict
from yarl import URL

from botcore.client import MahjongBot
from botcore.request_budget import (
    PLAYER,
    PRIORITY,
    TABLE,
    RequestBudget,
    budget_trace,
    counted,
    request_budget,
)
from botcore.settings import Settings
from cogs.delivery import pictures

BASE = "https://discord.com/api/v10"


class FakeTime:
    """A clock that moves only when the test says so; ``sleep`` waits for it."""

    def __init__(self) -> None:
        self.now = 0.0
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        future = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + seconds, next(self._seq), future))
        await future

    async def run_until(self, until: float) -> None:
        """Move the clock to ``until``, waking each sleeper at its time on the way."""
        while True:
            await settle()
            if not self._sleepers or self._sleepers[0][0] > until:
                break
            when, _, future = heapq.heappop(self._sleepers)
            self.now = max(self.now, when)
            if not future.done():
                future.set_result(None)
        self.now = until
        await settle()


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def budget_of(per_second: int, time: FakeTime, **options: float) -> RequestBudget:
    """A budget on the fake clock, over windows of one second (unless told)."""
    options.setdefault("window", 1.0)
    return RequestBudget(per_second, clock=time, sleep=time.sleep, **options)  # type: ignore[arg-type]


class Sent:
    """Requests started as tasks; when each got its slot, by priority."""

    def __init__(self, budget: RequestBudget, time: FakeTime) -> None:
        self.budget, self.time = budget, time
        self.at: dict[int, list[float]] = {PLAYER: [], TABLE: []}
        self.tasks: list[asyncio.Task[None]] = []

    def start(self, count: int, priority: int) -> None:
        async def one() -> None:
            await self.budget.take(priority)
            self.at[priority].append(self.time.now)

        self.tasks += [asyncio.create_task(one()) for _ in range(count)]

    def all(self) -> list[float]:
        return sorted(self.at[PLAYER] + self.at[TABLE])


def most_in_one_window(times: list[float], window: float = 1.0) -> int:
    return max((sum(1 for u in times if t - window < u <= t) for t in times), default=0)


async def test_the_window_has_a_tenth_of_a_second_for_the_jitter() -> None:
    """By default N per 1.1 s: a batch let go as one second ends and the next one cannot
    reach Discord in the same second, whatever a tenth of a second of jitter does."""
    time = FakeTime()
    budget = RequestBudget(3, clock=time, sleep=time.sleep)  # type: ignore[arg-type]
    sent = Sent(budget, time)
    sent.start(7, PLAYER)
    await time.run_until(5)
    assert sent.all() == pytest.approx([0.0] * 3 + [1.1] * 3 + [2.2])
    assert most_in_one_window(sent.all(), window=1.1) == 3
    time.now = 20  # no players' requests for 5 s: the whole budget, per second
    assert budget.spare() == pytest.approx(3 / 1.1)


async def test_never_more_than_n_requests_in_any_second() -> None:
    time = FakeTime()
    budget = budget_of(5, time)
    sent = Sent(budget, time)
    sent.start(23, PLAYER)
    await time.run_until(0.5)
    sent.start(4, PLAYER)  # more come in mid-second: they queue behind
    await time.run_until(10)
    assert all(task.done() for task in sent.tasks)
    times = sent.all()
    assert len(times) == 27
    assert most_in_one_window(times) == 5
    # each second's five go as soon as the second before is over, in arrival order
    assert times == [float(s) for s in range(6) for _ in range(5)][:27]
    assert budget.figures.granted == [27, 0] and budget.figures.waited == [22, 0]
    assert budget.figures.forced == 0


async def test_players_go_first_and_the_tables_take_what_is_left() -> None:
    """10 a second, 2 of them kept for players, 1 guaranteed to the tables: ten table edits
    and ten players' requests at once — the tables take 8, the players the 2 kept for them
    and then every slot but the tables' one guaranteed a second."""
    time = FakeTime()
    budget = budget_of(10, time, reserve=2, table_floor=1)
    sent = Sent(budget, time)
    sent.start(10, TABLE)
    await settle()
    sent.start(10, PLAYER)
    await time.run_until(5)
    assert sent.at[TABLE] == [0.0] * 8 + [1.0, 2.0]
    assert sent.at[PLAYER] == [0.0] * 2 + [1.0] * 8
    assert most_in_one_window(sent.all()) == 10


async def test_a_player_does_not_wait_behind_a_queue_of_table_edits() -> None:
    """Table edits never fill the slots kept for players: a hand DM amid a backlog of
    table edits goes at once."""
    time = FakeTime()
    budget = budget_of(10, time, reserve=2, table_floor=1)
    sent = Sent(budget, time)
    sent.start(50, TABLE)
    for at in (0.25, 1.5, 2.75):
        await time.run_until(at)
        sent.start(1, PLAYER)
        await settle()
        assert sent.at[PLAYER][-1] == at
    await time.run_until(3.0)
    # the tables kept to the 8 a second the players leave (less the players' own), no fewer
    assert most_in_one_window(sent.at[TABLE]) == 8 and len(sent.at[TABLE]) == 29
    assert most_in_one_window(sent.all()) <= 10
    for task in sent.tasks:
        task.cancel()
    await budget.close()


async def test_the_tables_get_their_share_while_players_use_the_whole_budget() -> None:
    time = FakeTime()
    budget = budget_of(10, time, reserve=2, table_floor=2)
    sent = Sent(budget, time)
    sent.start(100, PLAYER)  # ten seconds of players' requests
    await settle()
    sent.start(6, TABLE)
    await time.run_until(3.5)
    assert sent.at[TABLE] == [1.0, 1.0, 2.0, 2.0, 3.0, 3.0]
    assert most_in_one_window(sent.all()) == 10
    for task in sent.tasks:
        task.cancel()
    await budget.close()


async def test_nothing_waits_for_ever() -> None:
    """A request that could never get a slot (no share left to tables at all) goes after
    ``max_wait``, counted and logged."""
    time = FakeTime()
    budget = budget_of(2, time, reserve=2, table_floor=0, max_wait=5)
    sent = Sent(budget, time)
    sent.start(1, TABLE)
    await time.run_until(4.9)
    assert sent.at[TABLE] == []
    await time.run_until(6)
    assert sent.at[TABLE] == [5.0] and budget.figures.forced == 1


async def test_a_cancelled_wait_gives_its_turn_to_the_next() -> None:
    time = FakeTime()
    budget = budget_of(1, time)
    sent = Sent(budget, time)
    sent.start(3, PLAYER)
    await settle()
    sent.tasks[1].cancel()  # the second one gives up waiting
    await time.run_until(3)
    assert sent.at[PLAYER] == [0.0, 1.0]
    assert budget.waiting == 0


async def test_closing_lets_every_waiting_request_go() -> None:
    time = FakeTime()
    budget = budget_of(1, time)
    sent = Sent(budget, time)
    sent.start(4, TABLE)
    await settle()
    await budget.close()
    await settle()
    assert all(task.done() for task in sent.tasks) and budget.waiting == 0


async def test_the_priority_is_the_tasks_own() -> None:
    """Table edits set :data:`PRIORITY` in their own task; other tasks stay players'."""
    time = FakeTime()
    budget = budget_of(4, time, reserve=4, table_floor=0, max_wait=100)

    async def as_table() -> None:
        PRIORITY.set(TABLE)
        await budget.take()

    table = asyncio.create_task(as_table())
    await settle()
    assert not table.done()  # no share for tables: it waits
    await budget.take()  # this task: a player's, at once
    assert budget.figures.granted == [1, 0]
    table.cancel()


def test_spare_is_what_the_players_leave() -> None:
    time = FakeTime()
    budget = budget_of(45, time)  # 4 kept free for players, 4 guaranteed to tables
    assert budget.spare() == 41
    for second in range(5):  # players at 20 a second for five seconds
        for _ in range(20):
            budget._grant(PLAYER, second + 0.5)
    time.now = 5.0
    assert budget.spare() == 21
    for second in range(5, 10):  # players at 45 a second
        for _ in range(45):
            budget._grant(PLAYER, second + 0.5)
    time.now = 10.0
    assert budget.spare() == 4  # the tables' guaranteed share
    time.now += 10
    assert budget.spare() == 41


@pytest.mark.parametrize(
    ("url", "is_counted"),
    [
        (f"{BASE}/channels/1/messages", True),
        (f"{BASE}/channels/1/messages/2", True),
        (f"{BASE}/users/@me/channels", True),
        (f"{BASE}/channels/1/webhooks", True),  # making a webhook counts
        (f"{BASE}/interactions/1/tok/callback", False),
        (f"{BASE}/webhooks/1/tok/messages/@original", False),
        (f"{BASE}/webhooks/1/tok", False),
        ("wss://gateway.discord.gg/?v=10", False),
        ("https://cdn.discordapp.com/avatars/1/a.png", False),
    ],
)
def test_interaction_answers_webhooks_and_the_cdn_are_not_counted(
    url: str, is_counted: bool
) -> None:
    assert counted(url, BASE) is is_counted


async def test_the_trace_makes_counted_requests_wait_and_lets_answers_go(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("discord.http.Route.BASE", BASE)
    time = FakeTime()
    budget = budget_of(1, time)
    [hook] = budget_trace(budget).on_request_start

    async def start(path: str) -> None:
        params = aiohttp.TraceRequestStartParams("POST", URL(BASE + path), CIMultiDict())
        await hook(None, None, params)  # type: ignore[arg-type]

    await start("/channels/1/messages")  # the second's one slot
    edit = asyncio.create_task(start("/channels/1/messages/2"))
    await settle()
    assert not edit.done()  # waits for the next second
    # answers and follow-ups go at once, and are not counted
    await asyncio.wait_for(start("/interactions/5/tok/callback"), 1)
    await asyncio.wait_for(start("/webhooks/9/tok/messages/@original"), 1)
    assert budget.figures.granted == [1, 0] and budget.waiting == 1
    await time.run_until(1)
    assert edit.done() and budget.figures.granted == [2, 0]


def test_zero_means_no_budget() -> None:
    assert request_budget(0) is None
    assert request_budget(45) is not None
    with pytest.raises(ValueError):
        RequestBudget(0)


async def test_a_table_write_someone_waits_for_goes_at_the_players_priority() -> None:
    """A hand's result waits for the table write under way (``TableEdits.stop``): hurried,
    that write's request leaves the tables' queue for the players', and so do its later
    ones — the result does not lag behind the other tables."""
    time = FakeTime()
    budget = budget_of(4, time, reserve=4, table_floor=0, max_wait=100)
    order: list[str] = []

    async def table_write(name: str, requests: int) -> None:
        PRIORITY.set(TABLE)
        for n in range(requests):
            await budget.take()
            order.append(f"{name}{n}")

    others = [asyncio.create_task(table_write(f"t{i}-", 1)) for i in range(3)]
    waited = asyncio.create_task(table_write("w", 2))
    await settle()
    assert order == [] and budget.waiting == 4  # no share for tables at all
    budget.hurry(waited)
    await settle()
    assert order == ["w0", "w1"]  # both of its requests, at once, before the others
    assert not any(task.done() for task in others)
    for task in others:
        task.cancel()
    await budget.close()


async def test_a_global_429_all_the_same_holds_every_request_for_its_retry_after() -> None:
    """Another process of the bot (a shard) spends from the same limit: Discord's global
    429 holds the requests waiting here too, not only those discord.py has not started."""
    time = FakeTime()
    budget = budget_of(10, time)
    [on_end] = budget_trace(budget).on_request_end

    async def ended(status: int, headers: dict[str, str]) -> None:
        response = type("Response", (), {"status": status, "headers": CIMultiDict(headers)})
        params = aiohttp.TraceRequestEndParams("POST", URL(BASE), CIMultiDict(), response)  # type: ignore[arg-type]
        await on_end(None, None, params)  # type: ignore[arg-type]

    await ended(429, {"X-RateLimit-Reset-After": "0.5"})  # a route's own 429: no pause
    await ended(200, {"X-RateLimit-Global": "true"})
    assert budget.figures.global_429s == 0
    await ended(429, {"X-RateLimit-Global": "true", "X-RateLimit-Reset-After": "0.75"})
    sent = Sent(budget, time)
    sent.start(3, PLAYER)
    await time.run_until(0.5)
    assert sent.at[PLAYER] == []
    await time.run_until(1)
    assert sent.at[PLAYER] == [0.75] * 3 and budget.figures.global_429s == 1


async def test_the_bot_sends_through_its_budget_and_the_tables_share_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``DISCORD_REQUESTS_PER_SECOND``: discord.py's session gets the budget's trace, and
    the table edits the budget (0: neither)."""
    monkeypatch.setattr(pictures, "ENABLED", pictures.ENABLED)  # restored after the test
    monkeypatch.setattr(pictures, "INLINE_WAIT", pictures.INLINE_WAIT)
    settings = Settings(
        discord_token="t",
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'budget.db'}",
        mahjong_pictures=False,
        discord_requests_per_second=7,
    )
    bot = MahjongBot(settings)
    await bot.compose()
    try:
        budget = bot.request_budget
        assert budget is not None and budget.per_second == 7
        trace = bot.http.http_trace
        assert trace is not None and len(trace.on_request_start) == 1
        assert bot.game_delivery.tables.budget is budget
    finally:
        await bot.close()
    plain = MahjongBot(settings.model_copy(update={"discord_requests_per_second": 0}))
    assert plain.request_budget is None and plain.http.http_trace is None
