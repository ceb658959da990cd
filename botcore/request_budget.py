"""The bot's REST request budget: Discord's global limit, kept by the bot itself.

Discord lets a bot make about 50 REST requests a second in all; past it, it answers a
*global* 429 and every request of the bot waits it out — a player's hand DM as much as a
table edit. Interaction answers (``/interactions/…``) and webhook follow-ups
(``/webhooks/…``) do not count. :class:`RequestBudget` lets at most ``per_second`` of the
other requests go in any :data:`WINDOW` (``DISCORD_REQUESTS_PER_SECOND``, 45 by default: a
margin under Discord's 50), in priority order. The window is a second and a tenth: Discord
counts the requests as they *arrive*, and the way there delays some more than others — a
batch let go as a second ends could arrive with the next second's batch; a tenth of a second
of such jitter cannot make the bot's requests exceed its ``per_second`` in Discord's
second. The priorities:

- :data:`PLAYER` (the default): what a player waits for — hand DMs, alerts, event lines,
  results, thread posts, DM channels;
- :data:`TABLE`: the coalesced table edits (:mod:`cogs.delivery.table_edits`, which sets
  :data:`PRIORITY` in its own tasks): only the newest table matters, so it is the one that
  lags when the budget is short. A table request takes a slot only while at least
  ``reserve`` slots of the second are left for players — except its guaranteed share
  (``table_floor`` a second), so that no table waits for ever behind players.

The budget sits in aiohttp's request-start hook (:func:`budget_trace`, given to discord.py as
``http_trace``): every request the bot really sends — a retry after a 429 too — is counted
when it goes, after discord.py's own per-route waits; interaction answers and webhooks never
wait. A global 429 that comes all the same (other processes of the bot — shards — spend from
the same limit: give each its share) holds every request for its ``retry_after``
(:meth:`RequestBudget.pause`). A request that waited :data:`MAX_WAIT` goes anyway (logged):
nothing waits for ever.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import re
import time
import weakref
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord.http

log = logging.getLogger(__name__)

#: a request a player waits for (hand DM, alert, event line, result, thread): served first
PLAYER = 0
#: a coalesced table edit: takes what the players leave
TABLE = 1
#: the priority of the requests made in the current task (:data:`PLAYER` unless set)
PRIORITY: contextvars.ContextVar[int] = contextvars.ContextVar("mj_request_priority", default=0)
#: a slot the current task took before its request (:meth:`RequestBudget.prepay`), spent by
#: its next counted request instead of taking another
_PREPAID: contextvars.ContextVar[bool] = contextvars.ContextVar("mj_request_prepaid", default=False)

#: requests per second for the whole bot by default (Discord allows about 50)
DEFAULT_PER_SECOND = 45
#: seconds in which at most ``per_second`` requests go: a second, and a tenth for the jitter
#: of the requests on their way to Discord (which counts them as they arrive)
WINDOW = 1.1
#: the longest a request waits for a slot (seconds): past it, it goes anyway
MAX_WAIT = 30.0
#: seconds over which the players' own rate is measured (:meth:`RequestBudget.spare`)
RATE_WINDOW = 5.0
#: routes Discord does not count (interaction answers, webhook follow-ups), after the API base
EXEMPT = re.compile(r"^/(?:interactions|webhooks)/")


@dataclass(eq=False)
class _Waiter:
    """One request waiting for a slot."""

    since: float
    future: asyncio.Future[None]
    task: asyncio.Task[Any] | None


@dataclass
class BudgetFigures:
    """What the budget did (for logs and tests)."""

    granted: list[int] = field(default_factory=lambda: [0, 0])  # by priority
    waited: list[int] = field(default_factory=lambda: [0, 0])  # of those, how many waited
    forced: int = 0  # sent past MAX_WAIT, over the budget
    global_429s: int = 0  # global 429s Discord answered all the same (:meth:`pause`)


class RequestBudget:
    """At most ``per_second`` requests in any ``window``, players' first (module docstring).

    ``clock`` and ``sleep`` are the time the budget keeps (a fake clock in tests)."""

    def __init__(
        self,
        per_second: int,
        *,
        window: float = WINDOW,
        reserve: int | None = None,
        table_floor: int | None = None,
        max_wait: float = MAX_WAIT,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        if per_second < 1:
            raise ValueError("a request budget needs at least one request per window")
        self.per_second = per_second
        self.window = window
        #: slots of each second that table edits leave free for players' bursts (a tenth)
        self.reserve = per_second // 10 if reserve is None else reserve
        #: table edits a second that go even while players wait (a tenth, at least one)
        self.table_floor = max(1, per_second // 10) if table_floor is None else table_floor
        self.max_wait = max_wait
        self.clock = clock
        self.sleep = sleep
        self.figures = BudgetFigures()
        self._sent: deque[float] = deque()  # when each request of the last window went
        self._table_sent: deque[float] = deque()  # the same, table edits only
        self._player_rate: deque[float] = deque()  # players' requests of the last RATE_WINDOW
        self._queues: tuple[deque[_Waiter], deque[_Waiter]] = (deque(), deque())
        self._pump: asyncio.Task[None] | None = None
        #: tasks whose table requests now go at the players' priority (:meth:`hurry`)
        self._hurried: weakref.WeakSet[asyncio.Task[Any]] = weakref.WeakSet()
        self._paused_until = 0.0  # no request goes before (a global 429 came all the same)

    # --- asking for a slot ----------------------------------------------------------------

    async def take(self, priority: int | None = None) -> None:
        """Wait for a slot of the budget (at once when one is free and nobody is ahead)."""
        if priority is None:
            priority = PRIORITY.get()
        task = asyncio.current_task()
        priority = TABLE if priority == TABLE and task not in self._hurried else PLAYER
        now = self.clock()
        self._expire(now)
        if self._may_go(priority, now):
            self._grant(priority, now)
            return
        waiter = _Waiter(now, asyncio.get_running_loop().create_future(), task)
        self._queues[priority].append(waiter)
        self._wake()
        await waiter.future  # cancelled: the pump skips it (a slot it got is left unused)
        self.figures.waited[priority] += 1

    async def prepay(self) -> None:
        """Take the slot of this task's next request now (at its :data:`PRIORITY`), before
        the request is built: a coalesced table edit waits for its slot *first*, then
        renders the newest table — what it sends is never a table that went stale while it
        waited here. The next counted request of the task spends it (:meth:`spend_prepaid`);
        taken already and not spent, nothing more is taken."""
        if not _PREPAID.get():
            await self.take()
            _PREPAID.set(True)

    @staticmethod
    def spend_prepaid() -> bool:
        """Whether this task had a slot taken ahead (:meth:`prepay`): spent now."""
        if _PREPAID.get():
            _PREPAID.set(False)
            return True
        return False

    def hurry(self, task: asyncio.Task[Any]) -> None:
        """``task``'s table requests go at the players' priority from now on — the one it
        waits with too: someone waits for that task (a hand's result waits for the table
        write under way; shut-down), so it must not lag behind the other tables."""
        self._hurried.add(task)
        players, tables = self._queues
        if any(waiter.task is task for waiter in tables):
            moved = [waiter for waiter in tables if waiter.task is task]
            kept = [waiter for waiter in tables if waiter.task is not task]
            tables.clear()
            tables.extend(kept)
            players.extend(moved)
            self._serve(self.clock())  # (the pump may sleep till the next slot frees)
            self._wake()

    def pause(self, seconds: float) -> None:
        """Discord answered a global 429 all the same (another process spends from the
        bot's limit — shards — or requests bunched on the way): no request goes for
        ``seconds``, not those already waiting here either (discord.py holds back only
        the requests it has not started)."""
        self.figures.global_429s += 1
        self._paused_until = max(self._paused_until, self.clock() + max(0.0, seconds))

    def spare(self) -> float:
        """Requests per second the players leave to the table edits now: the budget less
        the ``reserve`` and the players' rate over the last :data:`RATE_WINDOW`, never below
        ``table_floor`` — what the tables can take without queueing here."""
        now = self.clock()
        rate = self._player_rate
        while rate and rate[0] <= now - RATE_WINDOW:
            rate.popleft()
        players = len(rate) / RATE_WINDOW * self.window
        left = self.per_second - self.reserve - players
        return max(float(self.table_floor), left) / self.window

    @property
    def waiting(self) -> int:
        """Requests waiting for a slot now."""
        return len(self._queues[PLAYER]) + len(self._queues[TABLE])

    async def close(self) -> None:
        """Shut-down: whatever waits goes now (the bot stops; nothing may hang)."""
        pump, self._pump = self._pump, None
        if pump is not None:
            pump.cancel()
            await asyncio.gather(pump, return_exceptions=True)
        for queue in self._queues:
            while queue:
                waiter = queue.popleft()
                if not waiter.future.done():
                    waiter.future.set_result(None)

    # --- internals ------------------------------------------------------------------------

    def _expire(self, now: float) -> None:
        window, sent, table = self.window, self._sent, self._table_sent
        while sent and sent[0] + window <= now:  # (the sum _next_change waits for)
            sent.popleft()
        while table and table[0] + window <= now:
            table.popleft()

    def _may_go(self, priority: int, now: float) -> bool:
        """Whether a new request of ``priority`` may go now, nobody being ahead of it."""
        used = len(self._sent)
        if used >= self.per_second or now < self._paused_until:
            return False
        players, tables = self._queues
        if priority == PLAYER:
            return not players and not (tables and len(self._table_sent) < self.table_floor)
        if tables:
            return False
        if len(self._table_sent) < self.table_floor:
            return True  # the tables' guaranteed share
        return not players and used < self.per_second - self.reserve

    def _grant(self, priority: int, now: float) -> None:
        self._sent.append(now)
        if priority == TABLE:
            self._table_sent.append(now)
        else:
            self._player_rate.append(now)
        self.figures.granted[priority] += 1

    def _serve(self, now: float) -> None:
        """Let go as many waiting requests as the window allows, in priority order."""
        self._expire(now)
        players, tables = self._queues
        for queue in self._queues:  # cancelled waiters leave
            while queue and queue[0].future.done():
                queue.popleft()
        for priority, queue in enumerate(self._queues):
            while queue and queue[0].since + self.max_wait <= now:
                waiter = queue.popleft()
                if not waiter.future.done():
                    self.figures.forced += 1
                    if self.figures.forced % 100 == 1:  # the 1st, 101st…: not a flood
                        log.warning(
                            "a request waited %.0f s for the request budget; sent anyway "
                            "(%d so far)",
                            now - waiter.since,
                            self.figures.forced,
                        )
                    self._grant(priority, now)
                    waiter.future.set_result(None)
        while len(self._sent) < self.per_second and now >= self._paused_until:
            if tables and len(self._table_sent) < self.table_floor:
                queue, priority = tables, TABLE  # the tables' guaranteed share
            elif players:
                queue, priority = players, PLAYER
            elif tables and len(self._sent) < self.per_second - self.reserve:
                queue, priority = tables, TABLE
            else:
                break
            waiter = queue.popleft()
            if waiter.future.done():
                continue
            self._grant(priority, now)
            waiter.future.set_result(None)

    def _next_change(self, now: float) -> float:
        """Seconds until a slot frees or a waiter reaches :attr:`max_wait`."""
        times = [self._sent[0] + self.window] if self._sent else []
        if self._table_sent:
            times.append(self._table_sent[0] + self.window)
        times += [queue[0].since + self.max_wait for queue in self._queues if queue]
        if self._paused_until > now:  # nothing goes before; then whatever may
            times = [max(at, self._paused_until) for at in times] + [self._paused_until]
        return max(0.0, min(times, default=now) - now)

    def _wake(self) -> None:
        if self._pump is None or self._pump.done():
            self._pump = asyncio.create_task(self._run_pump(), name="mj-request-budget")

    async def _run_pump(self) -> None:
        """While requests wait: sleep until a slot frees, let the next ones go."""
        self._serve(self.clock())
        while self.waiting:
            await self.sleep(self._next_change(self.clock()))
            self._serve(self.clock())


def counted(url: str, api_base: str) -> bool:
    """Whether a request to ``url`` counts against Discord's global limit: a REST request
    (under ``api_base``, discord.py's ``Route.BASE``) that is not an interaction answer or a
    webhook follow-up (the gateway and the CDN are not REST requests)."""
    if not url.startswith(api_base):
        return False
    return EXEMPT.match(url[len(api_base) :]) is None


def budget_trace(budget: RequestBudget) -> aiohttp.TraceConfig:
    """An aiohttp trace that makes every counted request of the session wait for a slot of
    ``budget`` before it is sent (give it to discord.py as ``http_trace``)."""

    async def on_request_start(
        _session: aiohttp.ClientSession,
        _context: Any,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        if counted(str(params.url), discord.http.Route.BASE) and not budget.spend_prepaid():
            await budget.take()

    async def on_request_end(
        _session: aiohttp.ClientSession,
        _context: Any,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        response = params.response
        if response.status == 429 and response.headers.get("X-RateLimit-Global"):
            budget.pause(retry_after(response.headers))

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(on_request_start)
    trace.on_request_end.append(on_request_end)
    return trace


def retry_after(headers: Any) -> float:
    """Seconds a 429 says to wait, from its headers (``X-RateLimit-Reset-After``, else
    ``Retry-After``; 1 if neither can be read)."""
    for name in ("X-RateLimit-Reset-After", "Retry-After"):
        try:
            return float(headers[name])
        except (KeyError, ValueError):
            continue
    return 1.0


def request_budget(per_second: int) -> RequestBudget | None:
    """The budget for ``DISCORD_REQUESTS_PER_SECOND`` (``None`` for 0: no budget)."""
    return RequestBudget(per_second) if per_second > 0 else None
