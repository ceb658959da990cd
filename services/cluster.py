"""Several bot processes (Discord shards) on one PostgreSQL: any process serves any press,
deadlines fire once, owners hear of changes made elsewhere.

One process on SQLite needs none of this: a :class:`services.game.GameService` starts alone
and :attr:`~services.core.GameCore.shared` stays False. ``await service.join_cluster()`` (the
bot does it when several processes share PostgreSQL) turns on three things:

- **The database is the authority.** Every write is a compare-and-set on the game's version
  (:meth:`services.table.Table.commit`; a lobby's seats too, :mod:`services.lobby`). A
  press for a game this process does not hold loads it; one held at an older version fails
  the compare-and-set, is reloaded and tried again. A refusal drawn from an old copy ("not
  your turn", "not waiting for 准备"…) is checked against the stored version first and the
  press tried again on the fresh copy. A channel's one open game is the database's too (a
  lobby claims the channel in the insert that creates it, :mod:`db.games`), and stored
  message ids are never written back older: the table message is a compare-and-set on the
  old id, the thread is decided once, the remembered messages are merged
  (:mod:`db.message_refs`).
- **Owners hear of changes** through ``LISTEN/NOTIFY`` (:mod:`db.notify`): a process holding
  a game another process moved on reloads it, re-arms its timers and refreshes its messages.
- **Deadlines fire once** (:mod:`db.deadlines`): every turn / claim (``play``) and 准备 / 解散
  / next-hand (``session``) deadline armed here is stored: a press's (or AI step's) turn /
  claim deadline, the 准备 deadline set by a hand's last action, and those set by a 准备
  press, a 解散 vote, a deal, an ``end`` entry or a 托管 toggle go in the same transaction
  as that entry (``append_action(deadlines=…)``), so a process killed right after
  answering still leaves them; the exact values follow in batches behind the commit. A
  timer that expires first claims its stored deadline, and every process sweeps deadlines
  overdue by ``grace`` seconds with ``FOR UPDATE SKIP LOCKED`` — those of a process that
  stopped or died are fired by another, which takes the game over (its timers, its
  messages). Firing is a versioned append: two processes firing one deadline apply it once.
- **Processes alive** are those whose listening connection PostgreSQL shows
  (:mod:`db.presence`, looked at every ``presence_every`` seconds): a claim by a process
  that is gone is void at once, and when one goes, the others redraw the games they hold
  that changed lately (both processes edit a game's messages, and an edit the dead one drew
  for an earlier moment may have landed last). None of this waits for a NOTIFY: the sweep
  and the redraw read the database; a process missing from the list reconnects its
  listener. The cluster's loops (deadline writer, sweep, presence) are restarted, with the
  error logged, if one ever ends.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Callable, Coroutine
from typing import Any, cast

from db.base import StoreBase
from db.deadlines import DeadlineBook, DeadlineChange, DueDeadline
from db.notify import GameNotices, listen_games
from db.presence import HOLDER_LIMIT, live_holders, presence_name
from services.core import GameCore
from services.errors import NoSuchGame
from services.gamelog import LiveGame
from services.logged import logged
from services.play import Play
from services.session import Session
from services.table import Table

log = logging.getLogger(__name__)

#: seconds between two sweeps for overdue deadlines
SWEEP_EVERY = 0.5
#: a deadline is swept by any process this many seconds after it was due (its own process's
#: timer normally fires it first)
GRACE = 3.0
#: seconds a claimed deadline is left to the process that claimed it
LEASE = 30.0
#: deadlines armed within this many seconds are stored in one write (well under ``GRACE``)
FLUSH_EVERY = 0.2
#: seconds between two looks at which processes are alive (:mod:`db.presence`)
PRESENCE_EVERY = 1.0
#: when a process dies, the games changed this many seconds before are redrawn by the others
#: (an edit of the dead process, drawn for an earlier moment, may have landed last)
TAKE_OVER_RECENT = 120.0


def process_name() -> str:
    """``host:pid:random`` — who holds a claimed deadline (logs, the ``deadlines`` table and
    the presence of the process, :mod:`db.presence`: at most 55 characters)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"


class Cluster:
    """Sharing the database with other processes (see the module docstring): a plain
    collaborator of the service, which hands it its core, play and session, and asks it at two
    hook points (:class:`services.hooks.Hooks`) — a deadline armed or cleared, a timer run
    out. Alone it does nothing until :meth:`join`."""

    def __init__(self, core: GameCore, play: Play, session: Session) -> None:
        self.core = core
        self.play = play
        self.session = session
        self.holder = ""
        self.sweep_every, self.grace, self.lease = SWEEP_EVERY, GRACE, LEASE
        self.presence_every = PRESENCE_EVERY
        self._book = DeadlineBook(cast(StoreBase, core.store))
        self._book_pending: dict[tuple[int, str], DeadlineChange] = {}
        self._book_wake = asyncio.Event()
        self._refresh_wanted: dict[int, tuple[int, str]] = {}
        self._refreshing: dict[int, asyncio.Task[None]] = {}
        self._redraw_wanted: set[int] = set()
        self._heard_at: dict[int, float] = {}
        self._firing: dict[tuple[int, str], asyncio.Task[None]] = {}
        self._alive: set[str] | None = None
        self._unseen = 0
        self._notices: GameNotices | None = None
        self._cluster_tasks: list[asyncio.Task[None]] = []

    # ------------------------------------------------------------------ joining and leaving

    async def join(
        self,
        holder: str | None = None,
        *,
        sweep_every: float = SWEEP_EVERY,
        grace: float = GRACE,
        lease: float = LEASE,
        presence_every: float = PRESENCE_EVERY,
    ) -> None:
        """Start sharing the database: store deadlines, sweep overdue ones, listen to game
        changes, watch which processes are alive (PostgreSQL; on SQLite nothing is heard —
        one process). ``holder``: this process's name (at most 55 characters)."""
        if self.core.shared:
            return
        self.holder = self.core.holder = (holder or process_name())[:HOLDER_LIMIT]
        self.sweep_every, self.grace, self.lease = sweep_every, grace, lease
        self.presence_every = presence_every
        self.core.shared = True
        for live in self.core._games.lives():
            if live.status == "active":
                self.deadline_changed(live, "play", live.deadline)
                self.session.arm(live)
        self._keep_running("mj-deadline-writer", self._write_deadlines)
        self._keep_running("mj-deadline-sweep", self._sweep)
        store = cast(StoreBase, self.core.store)
        self._notices = await listen_games(store, self._heard, presence_name(self.holder))
        if store.dialect == "postgresql":
            self._keep_running("mj-presence", self._watch_presence)
        log.info("sharing the database as %s", self.holder)

    def _keep_running(self, name: str, loop: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run one of the cluster's endless loops; one that ends while the database is
        shared (an error it did not catch) is logged and started again — never lost
        silently."""
        task = asyncio.create_task(loop(), name=name)
        self._cluster_tasks.append(task)

        def ended(done: asyncio.Task[None]) -> None:
            if done in self._cluster_tasks:
                self._cluster_tasks.remove(done)
            if done.cancelled() or not self.core.shared:
                return
            error = done.exception()
            log.error("%s stopped (%r); starting it again", name, error, exc_info=error)
            asyncio.get_running_loop().call_later(self.sweep_every, self._restart, name, loop)

        task.add_done_callback(ended)

    def _restart(self, name: str, loop: Callable[[], Coroutine[Any, Any, None]]) -> None:
        if self.core.shared:
            self._keep_running(name, loop)

    async def leave(self) -> None:
        """Stop sweeping and listening (part of :meth:`services.game.GameService.close`);
        the stored deadlines stay for the other processes, written as they are now."""
        if not self.core.shared:
            return
        self.core.shared = False
        tasks = [*self._cluster_tasks, *self._refreshing.values(), *self._firing.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._notices is not None:
            await self._notices.close()
        try:
            await self._flush_deadlines()
        except Exception:
            log.exception("could not store the last deadlines")

    # ------------------------------------------------------------------ stored deadlines

    def deadline_changed(self, live: LiveGame, kind: str, due: float | None) -> None:
        """A deadline was armed or cleared: sharing the database, it is stored (in batches)."""
        if not self.core.shared:
            return
        self._book_pending[(live.id, kind)] = DeadlineChange(live.id, kind, live.version, due)
        self._book_wake.set()

    async def _write_deadlines(self) -> None:
        while True:
            await self._book_wake.wait()
            await asyncio.sleep(FLUSH_EVERY)  # one write for every deadline armed meanwhile
            self._book_wake.clear()
            if not await logged(
                self._flush_deadlines(), log, "could not store deadlines; trying again"
            ):
                await asyncio.sleep(self.sweep_every)
                self._book_wake.set()

    async def _flush_deadlines(self) -> None:
        batch, self._book_pending = self._book_pending, {}
        if not batch:
            return
        try:
            await self._book.write(batch.values(), self.holder)
        except BaseException:
            for key, change in batch.items():  # keep them unless something newer came
                self._book_pending.setdefault(key, change)
            raise

    async def _claim(self, game_id: int, kind: str, version: int) -> bool:
        """May this process fire the game's deadline armed at ``version``?"""
        try:
            return await self._book.claim(
                game_id,
                kind,
                version,
                self.holder,
                now=self.core.clock(),
                lease=self.lease,
                alive=self._alive,
            )
        except Exception:
            log.exception("game %s: could not claim its %s deadline", game_id, kind)
            return True  # the versioned append still applies it once

    async def may_fire(self, live: LiveGame, kind: str, version: int) -> bool:
        """A timer of ``live`` ran out: may this process fire it? Alone, always; sharing
        the database, only when it claims the stored deadline (another process may have)."""
        if not self.core.shared or await self._claim(live.id, kind, version):
            return True
        if kind == "play":
            log.info("game %s: its deadline is fired by another process", live.id)
        else:
            log.info("game %s: its session deadline is fired by another process", live.id)
        return False

    async def _sweep(self) -> None:
        """Every ``sweep_every`` seconds: claim the deadlines overdue by ``grace`` that nobody
        alive is firing, and fire each in a task of its own (one that hangs never stops the
        sweep)."""
        while True:
            await asyncio.sleep(self.sweep_every)
            await logged(self._sweep_once(), log, "deadline sweep failed")

    async def _sweep_once(self) -> None:
        due = await self._book.claim_overdue(
            self.holder,
            now=self.core.clock(),
            grace=self.grace,
            lease=self.lease,
            alive=self._alive,
        )
        for deadline in due:
            key = (deadline.game_id, deadline.kind)
            running = self._firing.get(key)
            if running is None or running.done():
                self._firing[key] = asyncio.create_task(
                    self._fire_logged(deadline), name=f"mj-fire-{deadline.game_id}"
                )

    async def _fire_logged(self, deadline: DueDeadline) -> None:
        key = (deadline.game_id, deadline.kind)
        try:
            await logged(
                self._fire_swept(deadline),
                log,
                "game %s: firing its overdue deadline failed",
                deadline.game_id,
            )
        finally:
            if self._firing.get(key) is asyncio.current_task():
                self._firing.pop(key, None)

    async def _fire_swept(self, deadline: DueDeadline) -> None:
        """Fire an overdue deadline this process claimed: the game is loaded (or brought up
        to date) and taken over — its timers armed here, its messages kept by this process,
        the results its last deal noted owed handed over again when the game was not held
        here (:mod:`services.results_owed`)."""
        taken_over = self.core._games.get(deadline.game_id) is None
        try:
            table = await self.core._get(deadline.game_id)
        except NoSuchGame:
            await self._book.drop(deadline.game_id, deadline.kind, deadline.version)
            return
        live = table.live
        async with table.lock:
            if live.version < deadline.version or live.status != "active":
                await table.reload()
            if taken_over and live.status == "active":
                await self.core.results.queue_owed(live)
                self.core.results.queue_ended(live)
        if live.status != "active":
            await self._book.drop(deadline.game_id, deadline.kind, deadline.version)
            return
        if live.version != deadline.version:
            # the game moved on and its new deadline was never stored (its process died
            # between the commit and the write): arm it here, from what is stored
            async with table.lock:
                table.rearm()
                self.session.arm(live)
            return
        log.info("game %s: firing its overdue %s deadline", live.id, deadline.kind)
        if deadline.kind == "play":
            await self.play.timed_out(table, deadline.version)
        else:
            await self.session.run(table)
        async with table.lock:  # whatever is awaited next is now timed here
            if live.version == deadline.version and live.status == "active":
                table.rearm()
                self.session.arm(live)

    # ------------------------------------------------------------------ changes made elsewhere

    def _heard(self, game_id: int | None, version: int, status: str) -> None:
        """A game changed in the database (this process's own writes included)."""
        if game_id is None:  # the listener reconnected: anything may have changed
            for held in list(self.core._games.values()):
                self._want_refresh(held, held.live.version + 1)
            return
        table = self.core._games.get(game_id)
        if table is None:
            return
        self._heard_at[game_id] = self.core.clock()
        if version <= table.live.version and status == table.live.status:
            return
        self._want_refresh(table, version, status)

    def _want_refresh(
        self, table: Table, version: int, status: str = "", *, redraw: bool = False
    ) -> None:
        """Bring the held copy up to ``version`` (and its messages); ``redraw``: show every
        message of the game again even if the copy is current (a process died)."""
        live = table.live
        known = self._refresh_wanted.get(live.id)
        if known is None or version >= known[0]:
            self._refresh_wanted[live.id] = (version, status)
        if redraw:
            self._redraw_wanted.add(live.id)
        task = self._refreshing.get(live.id)
        if task is None or task.done():
            self._refreshing[live.id] = asyncio.create_task(
                self._refresh(table), name=f"mj-refresh-{live.id}"
            )

    async def _refresh(self, table: Table) -> None:
        """Refresh until nothing more is wanted (a notice heard while a refresh is under
        way is handled by the same task, not lost)."""
        game_id = table.id
        try:
            while game_id in self._refresh_wanted or game_id in self._redraw_wanted:
                if not await logged(
                    self._refresh_once(table), log, "game %s: could not refresh it", game_id
                ):
                    return
        finally:
            if self._refreshing.get(game_id) is asyncio.current_task():
                self._refreshing.pop(game_id, None)

    async def _refresh_once(self, table: Table) -> None:
        live = table.live
        async with table.lock:
            version, status = self._refresh_wanted.pop(live.id, (0, ""))
            redraw = live.id in self._redraw_wanted
            self._redraw_wanted.discard(live.id)
            if self.core._games.get(live.id) is not table:
                return
            current = live.version > version or (live.version == version and live.status == status)
            if current and not redraw:
                return  # (its own write, heard before the writer took the new version)
            stored = await self.core.store.games.get(live.id)
            if stored is None:
                return
            if stored.version != live.version or stored.status != live.status:
                await table.reload()
                log.debug("game %s: refreshed to version %s", live.id, live.version)
            elif not redraw:
                return
            # the table another process posted meanwhile is the one edited from now on
            live.table_message_id = stored.table_message_id
            self._show_refreshed(table, redraw=redraw)

    def _show_refreshed(self, table: Table, *, redraw: bool = False) -> None:
        """After a reload (under the lock): timers for what is awaited now, messages redrawn
        (``redraw``: every one of them — the table, every hand — as at a resume)."""
        live = table.live
        if live.status not in ("lobby", "active"):
            self.core._deadlines.cancel(live)
            self.core._games.finished(table)
            return
        summary = table.summary()
        if live.state is None:
            table.enqueue(lambda: self.core.delivery.lobby_changed(summary))
            return
        if redraw:
            view = self.core.engine.table_view(live.state)
            table.enqueue(lambda: self.core.delivery.refresh(summary, view))
            live.delivered.clear()
        table.after_change([], force_private=redraw)

    # ------------------------------------------------------------------ processes alive

    async def _watch_presence(self) -> None:
        """Every ``presence_every`` seconds: which processes are alive (:mod:`db.presence`)."""
        while True:
            await asyncio.sleep(self.presence_every)
            await logged(self._look_at_presence(), log, "could not see which processes are alive")

    async def _look_at_presence(self) -> None:
        alive = await live_holders(cast(StoreBase, self.core.store))
        if alive is not None:
            self._seen_alive(alive)

    def _seen_alive(self, alive: set[str]) -> None:
        """The processes alive now: a deadline claimed by one that is gone is free at once,
        and the games it may have been showing are taken over (:meth:`_take_over`). This
        process missing from the list means its listening connection is gone unnoticed:
        it listens again (and refreshes every game held)."""
        if self.holder not in alive:
            self._unseen += 1
            if self._unseen >= 2 and self._notices is not None:
                self._unseen = 0
                self._notices.reconnect()
        else:
            self._unseen = 0
        previous, self._alive = self._alive, {*alive, self.holder}
        since = self.core.clock() - TAKE_OVER_RECENT
        for game_id, at in list(self._heard_at.items()):
            if at < since:  # (what is older does not matter to a take-over)
                del self._heard_at[game_id]
        gone = sorted((previous or set()) - self._alive)
        if gone:
            log.warning("process %s is gone; taking over its games", ", ".join(gone))
            self._take_over()

    def _take_over(self) -> None:
        """Another process died or stopped: every game held here that changed lately is
        brought up to date from the database and shown again — table and hands — since an
        edit that process drew for an earlier moment may have landed after the newest one
        (both processes edit a game's messages), and nobody else would correct it. Its
        deadlines need nothing here: the sweep fires them (its claims are void now)."""
        since = self.core.clock() - TAKE_OVER_RECENT
        for table in list(self.core._games.values()):
            live = table.live
            if live.status not in ("lobby", "active"):
                continue
            if max(self._heard_at.get(live.id, 0.0), live.window_at) < since:
                continue
            self._want_refresh(table, live.version, live.status, redraw=True)
