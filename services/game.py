"""GameService: lobby, play, timers and resume — the one place that changes a game.

Every change follows the same path, under the game's ``asyncio.Lock``: check who asks and
whether it is legal, let the engine apply it, append it to the store's action log with the
version check (committed before the call returns), then let AI seats and seats on 托管
(auto-play) act until a human decision is needed, re-arm the timeout, and queue what happened
for :class:`services.delivery.Delivery` (in order per game; a delivery failure never undoes a
committed action).

The service is put together from modules with one job each:

- :mod:`services.core` — the games held in memory and the change path;
- :mod:`services.lobby` — open, join, leave, add bots, start, abandon;
- :mod:`services.play` — actions, dealing the next hand, 托管, timeouts;
- :mod:`services.session` — length, 准备, 解散 vote, 再来一局;
- :mod:`services.autoplay` — AI turn-taking (a failing AI plays the safe default);
- :mod:`services.deadlines` — the timeout of the awaited decision;
- :mod:`services.outbox` — ordered delivery per game;
- :mod:`services.recording` — finished hands for the store;
- :mod:`services.gamelog` — the action log, replay and snapshots.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from services import outbox
from services.autoplay import MAX_AUTO_STEPS
from services.core import SEATS, STORE_DEFAULT_CLAIM, STORE_DEFAULT_TURN
from services.delivery import GameSummary
from services.gamelog import LiveGame
from services.lobby import AI_NAMES
from services.model import GameEvent
from services.play import ActResult
from services.session import SessionMixin

log = logging.getLogger(__name__)

__all__ = [
    "AI_NAMES",
    "MAX_AUTO_STEPS",
    "SEATS",
    "STORE_DEFAULT_CLAIM",
    "STORE_DEFAULT_TURN",
    "ActResult",
    "GameService",
]


class GameService(SessionMixin):
    """Create, join, play and resume games; no Discord types in or out.

    ``GameService(store, engine, delivery=None, *, turn_timeout=60, claim_timeout=15,
    snapshot_every=24, clock=time.time, new_seed=...)``: ``turn_timeout`` / ``claim_timeout``
    (seconds) are the process defaults used when a server kept the built-in ones;
    ``snapshot_every`` N actions a snapshot is saved.
    """

    # ------------------------------------------------------------------ start-up / shut-down

    async def resume_all(self) -> list[GameSummary]:
        """Load every unfinished game, finish any AI turns, re-arm timers, refresh tables and
        re-deliver every human's hand."""
        loaded_games = await self.store.load_unfinished_games()
        out = []
        for loaded in loaded_games:
            try:
                live = self._games.get(loaded.game.id)
                if live is not None and live.fresh:
                    # created by this process after it connected: already delivered (a
                    # second pass would send everyone a second hand message)
                    continue
                if live is None:  # (a button may have loaded it already)
                    live = self._live_from_info(loaded.game)
                    self._replay(live, loaded)
                    self._games[live.id] = live
                if live.state is not None and live.status == "lobby":
                    live.status = "active"
                    await self.store.update_game(live.id, status="active")
                await self._resume_one(live)
                out.append(self._summary(live))
            except Exception:
                log.exception("could not resume game %s", loaded.game.id)
        return out

    async def _resume_one(self, live: LiveGame) -> None:
        async with live.lock:
            events: list[GameEvent] = []
            if live.status == "active" and live.state is not None:
                await self._record_if_over(live)
                events = await self._advance(live)
            summary = self._summary(live)
            if live.state is None:
                self._enqueue(live, lambda: self.delivery.lobby_changed(summary))
                return
            table = self.engine.table_view(live.state)
            self._enqueue(live, lambda: self.delivery.refresh(summary, table))
            live.delivered.clear()
            self._after_change(live, events, force_private=True)
            self.session_resumed(live)

    async def close(self) -> None:
        """Cancel timers and let queued deliveries finish (paced moments at once)."""
        self._stopping.set()
        timers = self._deadlines.close(self._games.values()) + self.session_close()
        await asyncio.gather(*timers, return_exceptions=True)
        await self.idle()
        await outbox.stop(self._games.values())

    async def idle(self) -> None:
        """Wait until every queued delivery ran (tests and shut-down)."""
        await outbox.drained(self._games.values())

    async def set_table_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the game's table message (kept across restarts)."""
        live = self._games.get(game_id)
        if live is not None:
            live.table_message_id = message_id
        async with self._write_lock:
            await self.store.update_game(game_id, table_message_id=message_id)

    async def set_thread(self, game_id: int, thread_id: int) -> None:
        """Remember where the game is played: its thread, or its channel's id when it plays
        in the channel (kept across restarts)."""
        live = self._games.get(game_id)
        if live is not None:
            live.thread_id = thread_id
            self._games.reindex(live)  # look-ups by channel find it from its thread
        async with self._write_lock:
            await self.store.update_game(game_id, thread_id=thread_id)

    async def save_messages(self, game_id: int, messages: dict[str, Any]) -> None:
        """Remember the Discord messages delivery keeps up to date (a restart edits them
        instead of sending new ones)."""
        live = self._games.get(game_id)
        if live is not None:
            live.messages = dict(messages)
        async with self._write_lock:
            await self.store.update_game(game_id, messages=dict(messages))
