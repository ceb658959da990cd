"""Several bot processes (Discord shards) on one PostgreSQL: any process serves any press,
deadlines fire once, owners hear of changes made elsewhere.

One process on SQLite needs none of this: a :class:`services.game.GameService` starts alone
and :attr:`~services.core.GameCore.shared` stays False. ``await service.join_cluster()`` (the
bot does it when several processes share PostgreSQL) turns on three things:

- **The database is the authority.** Every write is a compare-and-set on the game's version
  (:meth:`services.core.GameCore._commit`; a lobby's seats too, :mod:`services.lobby`). A
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
  claim deadline and the 准备 deadline set by a hand's last action go in the same
  transaction as the action (``append_action(deadlines=…)``), so a process killed right
  after answering still leaves them; the exact values, and the vote / next-hand deadlines,
  follow in batches behind the commit. A timer that expires first claims its stored
  deadline, and every process sweeps deadlines overdue by ``grace`` seconds with ``FOR
  UPDATE SKIP LOCKED`` — those of a process that stopped or died are fired by another, which
  takes the game over (its timers, its messages). Firing is a versioned append: two
  processes firing one deadline apply it once.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from typing import TypeVar, cast

from db.base import StoreBase
from db.deadlines import DeadlineBook, DeadlineChange, DueDeadline
from db.notify import GameNotices, listen_games
from services.delivery import GameSummary
from services.errors import NoSuchGame, ServiceError
from services.gamelog import LiveGame
from services.model import ActionKey
from services.play import ActResult
from services.session import SessionMixin

log = logging.getLogger(__name__)

T = TypeVar("T")

#: seconds between two sweeps for overdue deadlines
SWEEP_EVERY = 0.5
#: a deadline is swept by any process this many seconds after it was due (its own process's
#: timer normally fires it first)
GRACE = 3.0
#: seconds a claimed deadline is left to the process that claimed it
LEASE = 30.0
#: deadlines armed within this many seconds are stored in one write (well under ``GRACE``)
FLUSH_EVERY = 0.2


def process_name() -> str:
    """``host:pid:random`` — who holds a claimed deadline (logs and the ``deadlines`` table)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"


class ClusterMixin(SessionMixin):
    """Sharing the database with other processes (see the module docstring)."""

    holder: str = ""
    sweep_every: float = SWEEP_EVERY
    grace: float = GRACE
    lease: float = LEASE

    # ------------------------------------------------------------------ joining and leaving

    async def join_cluster(
        self,
        holder: str | None = None,
        *,
        sweep_every: float = SWEEP_EVERY,
        grace: float = GRACE,
        lease: float = LEASE,
    ) -> None:
        """Start sharing the database: store deadlines, sweep overdue ones, listen to game
        changes (PostgreSQL; on SQLite nothing is heard — one process)."""
        if self.shared:
            return
        self.holder = holder or process_name()
        self.sweep_every, self.grace, self.lease = sweep_every, grace, lease
        self._book = DeadlineBook(cast(StoreBase, self.store))
        self._book_pending: dict[tuple[int, str], DeadlineChange] = {}
        self._book_wake = asyncio.Event()
        self._refresh_wanted: dict[int, tuple[int, str]] = {}
        self._refreshing: dict[int, asyncio.Task[None]] = {}
        self._notices: GameNotices | None = None
        self._cluster_tasks: list[asyncio.Task[None]] = []
        self.shared = True
        for live in list(self._games.values()):
            if live.status == "active":
                self._deadline_changed(live, "play", live.deadline)
                self._session_arm(live)
        self._cluster_tasks = [
            asyncio.create_task(self._write_deadlines(), name="mj-deadline-writer"),
            asyncio.create_task(self._sweep(), name="mj-deadline-sweep"),
        ]
        self._notices = await listen_games(cast(StoreBase, self.store), self._heard)
        log.info("sharing the database as %s", self.holder)

    async def leave_cluster(self) -> None:
        """Stop sweeping and listening (part of :meth:`services.game.GameService.close`);
        the stored deadlines stay for the other processes, written as they are now."""
        if not self.shared:
            return
        self.shared = False
        tasks = [*self._cluster_tasks, *self._refreshing.values()]
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

    def _deadline_changed(self, live: LiveGame, kind: str, due: float | None) -> None:
        if not self.shared:
            return
        self._book_pending[(live.id, kind)] = DeadlineChange(live.id, kind, live.version, due)
        self._book_wake.set()

    async def _write_deadlines(self) -> None:
        while True:
            await self._book_wake.wait()
            await asyncio.sleep(FLUSH_EVERY)  # one write for every deadline armed meanwhile
            self._book_wake.clear()
            try:
                await self._flush_deadlines()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("could not store deadlines; trying again")
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
                game_id, kind, version, self.holder, now=self.clock(), lease=self.lease
            )
        except Exception:
            log.exception("game %s: could not claim its %s deadline", game_id, kind)
            return True  # the versioned append still applies it once

    async def _on_timeout(self, live: LiveGame, version: int) -> None:
        if self.shared and not await self._claim(live.id, "play", version):
            log.info("game %s: its deadline is fired by another process", live.id)
            return
        await super()._on_timeout(live, version)

    async def _session_fire(self, live: LiveGame) -> None:
        if self.shared and not await self._claim(live.id, "session", live.version):
            log.info("game %s: its session deadline is fired by another process", live.id)
            return
        await super()._session_fire(live)

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_every)
            try:
                due = await self._book.claim_overdue(
                    self.holder, now=self.clock(), grace=self.grace, lease=self.lease
                )
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("deadline sweep failed")
                continue
            for deadline in due:
                try:
                    await self._fire_swept(deadline)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("game %s: firing its overdue deadline failed", deadline.game_id)

    async def _fire_swept(self, deadline: DueDeadline) -> None:
        """Fire an overdue deadline this process claimed: the game is loaded (or brought up
        to date) and taken over — its timers armed here, its messages kept by this process."""
        try:
            live = await self._get(deadline.game_id)
        except NoSuchGame:
            await self._book.drop(deadline.game_id, deadline.kind, deadline.version)
            return
        async with live.lock:
            if live.version < deadline.version or live.status != "active":
                await self._reload(live)
        if live.status != "active":
            await self._book.drop(deadline.game_id, deadline.kind, deadline.version)
            return
        if live.version != deadline.version:
            # the game moved on and its new deadline was never stored (its process died
            # between the commit and the write): arm it here, from what is stored
            async with live.lock:
                self._rearm(live)
                self._session_arm(live)
            return
        log.info("game %s: firing its overdue %s deadline", live.id, deadline.kind)
        if deadline.kind == "play":
            await super()._on_timeout(live, deadline.version)
        else:
            await super()._session_fire(live)
        async with live.lock:  # whatever is awaited next is now timed here
            if live.version == deadline.version and live.status == "active":
                self._rearm(live)
                self._session_arm(live)

    # ------------------------------------------------------------------ changes made elsewhere

    def _heard(self, game_id: int | None, version: int, status: str) -> None:
        """A game changed in the database (this process's own writes included)."""
        if game_id is None:  # the listener reconnected: anything may have changed
            for held in list(self._games.values()):
                self._want_refresh(held, held.version + 1)
            return
        live = self._games.get(game_id)
        if live is None or (version <= live.version and status == live.status):
            return
        self._want_refresh(live, version, status)

    def _want_refresh(self, live: LiveGame, version: int, status: str = "") -> None:
        known = self._refresh_wanted.get(live.id)
        if known is None or version >= known[0]:
            self._refresh_wanted[live.id] = (version, status)
        task = self._refreshing.get(live.id)
        if task is None or task.done():
            self._refreshing[live.id] = asyncio.create_task(
                self._refresh(live), name=f"mj-refresh-{live.id}"
            )

    async def _refresh(self, live: LiveGame) -> None:
        try:
            async with live.lock:
                version, status = self._refresh_wanted.pop(live.id, (0, ""))
                if self._games.get(live.id) is not live:
                    return
                if live.version > version or (live.version == version and live.status == status):
                    return  # (its own write, heard before the writer took the new version)
                stored = await self.store.games.get(live.id)
                if stored is None:
                    return
                if stored.version == live.version and stored.status == live.status:
                    return
                await self._reload(live)
                # the table another process posted meanwhile is the one edited from now on
                live.table_message_id = stored.table_message_id
                log.debug("game %s: refreshed to version %s", live.id, live.version)
                self._show_refreshed(live)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: could not refresh it", live.id)
        finally:
            if self._refreshing.get(live.id) is asyncio.current_task():
                self._refreshing.pop(live.id, None)

    def _show_refreshed(self, live: LiveGame) -> None:
        """After a reload (under the lock): timers for what is awaited now, messages redrawn."""
        if live.status not in ("lobby", "active"):
            self._deadlines.cancel(live)
            self._games.finished(live)
            return
        if live.state is None:
            summary = self._summary(live)
            self._enqueue(live, lambda: self.delivery.lobby_changed(summary))
            return
        self._after_change(live, [])

    # ------------------------------------------------------------------ presses on old copies

    async def _on_fresh_copy(self, game_id: int, call: Callable[[], Awaitable[T]]) -> T:
        """Run a press; sharing the database, a refusal drawn from an old copy of the game is
        checked against the stored version and the press tried once more on a fresh copy."""
        try:
            return await call()
        except ServiceError:
            if not self.shared or not await self._behind(game_id):
                raise
        return await call()

    async def _behind(self, game_id: int) -> bool:
        """Is the held copy older than the stored game? (then it is reloaded)"""
        live = self._games.get(game_id)
        if live is None:
            return False
        stored = await self.store.games.get(game_id)
        if stored is None:
            return False
        async with live.lock:
            if stored.version == live.version and stored.status == live.status:
                return False
            await self._reload(live)
        return True

    async def act(
        self, game_id: int, user_id: int, key: ActionKey, *, seen_version: int | None = None
    ) -> ActResult:
        parent = super().act
        return await self._on_fresh_copy(
            game_id, lambda: parent(game_id, user_id, key, seen_version=seen_version)
        )

    async def set_autoplay(self, game_id: int, user_id: int, on: bool) -> GameSummary:
        parent = super().set_autoplay
        return await self._on_fresh_copy(game_id, lambda: parent(game_id, user_id, on))

    async def ready(self, game_id: int, user_id: int) -> GameSummary:
        parent = super().ready
        return await self._on_fresh_copy(game_id, lambda: parent(game_id, user_id))

    async def propose_dissolve(self, game_id: int, user_id: int) -> GameSummary:
        parent = super().propose_dissolve
        return await self._on_fresh_copy(game_id, lambda: parent(game_id, user_id))

    async def answer_dissolve(
        self, game_id: int, user_id: int, agree: bool, vote_no: int | None = None
    ) -> GameSummary:
        parent = super().answer_dissolve
        return await self._on_fresh_copy(game_id, lambda: parent(game_id, user_id, agree, vote_no))
