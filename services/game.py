"""GameService: lobby, play, timers and resume — the one place that changes a game.

Every change follows the same path, under the game's ``asyncio.Lock``: check who asks and
whether it is legal, let the engine apply it, append it to the store's action log with the
version check (committed before the call returns), then let AI seats and seats on 托管
(auto-play) act until a human decision is needed, re-arm the timeout, and queue what happened
for :class:`services.delivery.Delivery` (in order per game; a delivery failure never undoes a
committed action).

The log's entries are described in :mod:`services.gamelog`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from db.types import (
    DuplicateHand,
    GameInfo,
    HandInput,
    HandPlayer,
    LoadedGame,
    VersionConflict,
)
from engine.options import OptionError, make_options, options_to_dict
from services import gamelog
from services.delivery import Delivery, GameSummary, NullDelivery, PrivateUpdate
from services.engine_adapter import EngineIllegal, GameEngine
from services.errors import (
    AlreadyPlaying,
    BadOption,
    ChannelBusy,
    IllegalMove,
    LobbyFull,
    NoSuchGame,
    NotHost,
    NotInGame,
    NotYourTurn,
    ServiceError,
    StaleButton,
    WrongPhase,
)
from services.gamelog import LiveGame
from services.hints import wait_hints
from services.model import ActionKey, GameEvent, Seat, TableView
from services.store_adapter import GameStore

log = logging.getLogger(__name__)

SEATS = 4
#: Built-in defaults of a server's timeouts; a server that kept them gets the process settings.
STORE_DEFAULT_TURN = 60
STORE_DEFAULT_CLAIM = 15
AI_NAMES = ("电脑一", "电脑二", "电脑三", "电脑四")
#: Guard against an engine that never hands the turn back to a human.
MAX_AUTO_STEPS = 2000


@dataclass(frozen=True)
class ActResult:
    """What an accepted action did: the game after it, public events, the actor's hand."""

    game: GameSummary
    events: tuple[GameEvent, ...]
    hand: PrivateUpdate | None = None


class GameService:
    """Create, join, play and resume games; no Discord types in or out.

    ``turn_timeout`` / ``claim_timeout`` (seconds) are the process defaults used when a server
    kept the built-in ones; ``snapshot_every`` N actions a snapshot is saved.
    """

    def __init__(
        self,
        store: GameStore,
        engine: GameEngine,
        delivery: Delivery | None = None,
        *,
        turn_timeout: float = STORE_DEFAULT_TURN,
        claim_timeout: float = STORE_DEFAULT_CLAIM,
        snapshot_every: int = 24,
        clock: Callable[[], float] = time.time,
        new_seed: Callable[[], str] = lambda: secrets.token_hex(16),
    ) -> None:
        self.store = store
        self.engine = engine
        self.delivery: Delivery = delivery or NullDelivery()
        self.turn_timeout = turn_timeout
        self.claim_timeout = claim_timeout
        self.snapshot_every = snapshot_every
        self.clock = clock
        self.new_seed = new_seed
        self._games: dict[int, LiveGame] = {}
        self._index_lock = asyncio.Lock()
        self._write_lock = asyncio.Lock()
        self._closed = False

    # ------------------------------------------------------------------ look-ups

    def game_in_channel(self, channel_id: int) -> int | None:
        """The unfinished game of a channel, or None."""
        for live in self._games.values():
            if live.channel_id == channel_id and live.status in ("lobby", "active"):
                return live.id
        return None

    def game_of_player(self, guild_id: int, user_id: int) -> int | None:
        """The unfinished game of this server the user sits in, or None."""
        for live in self._games.values():
            if (
                live.guild_id == guild_id
                and live.status in ("lobby", "active")
                and live.seat_of(user_id) is not None
            ):
                return live.id
        return None

    def games(self) -> list[GameSummary]:
        """Every game held in memory."""
        return [self._summary(live) for live in self._games.values()]

    async def summary(self, game_id: int) -> GameSummary:
        """The game as it is now."""
        return self._summary(await self._get(game_id))

    async def table(self, game_id: int) -> TableView | None:
        """The public table of the hand in play, or None in the lobby."""
        live = await self._get(game_id)
        return None if live.state is None else self.engine.table_view(live.state)

    async def private_view(self, game_id: int, user_id: int) -> PrivateUpdate:
        """The user's hand (for ``/mahjong hand``); NotInGame / WrongPhase when none."""
        live = await self._get(game_id)
        seat = live.seat_of(user_id)
        if seat is None:
            raise NotInGame()
        if live.state is None:
            raise WrongPhase("the game has not started")
        return self._private(live, seat, ())

    # ------------------------------------------------------------------ lobby

    async def create_game(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        variant: str | None = None,
        overrides: dict[str, Any] | None = None,
        *,
        locale: str | None = None,
    ) -> GameSummary:
        """Open a lobby in the channel with the host in seat 0. Options: the server's
        defaults for the variant, then ``overrides``. ``locale``: the host's language."""
        settings = await self.store.get_guild_settings(guild_id)
        variant = variant or settings.default_variant
        try:
            base = dict(settings.rule_options.get(variant, {}))
            options = options_to_dict(make_options(variant, {**base, **(overrides or {})}))
        except OptionError as error:
            raise BadOption(str(error)) from error
        async with self._index_lock:
            if self.game_in_channel(channel_id) is not None:
                raise ChannelBusy(game_id=self.game_in_channel(channel_id))
            if self.game_of_player(guild_id, host_id) is not None:
                raise AlreadyPlaying(game_id=self.game_of_player(guild_id, host_id))
            seats = [Seat(name=host_name, user_id=host_id)]
            info = await self.store.create_game(
                guild_id,
                channel_id,
                variant,
                options=options,
                seats=[s.to_json() for s in seats],
                status="lobby",
            )
            live = self._live_from_info(info)
            self._games[live.id] = live
        await self._remember_player(host_id, host_name, locale)
        log.info("game %s: lobby opened (%s) in channel %s", live.id, variant, channel_id)
        summary = self._summary(live)
        self._enqueue(live, lambda: self.delivery.lobby_changed(summary))
        return summary

    async def join(
        self, game_id: int, user_id: int, name: str, *, locale: str | None = None
    ) -> GameSummary:
        """Take a free seat in the lobby."""
        live = await self._get(game_id)
        async with self._index_lock, live.lock:
            self._need(live, "lobby")
            if live.seat_of(user_id) is not None:
                raise AlreadyPlaying(game_id=live.id, here=True)
            other = self.game_of_player(live.guild_id, user_id)
            if other is not None:
                raise AlreadyPlaying(game_id=other)
            if len(live.seats) >= SEATS:
                raise LobbyFull()
            seats = [*live.seats, Seat(name=name, user_id=user_id)]
            await self._save_seats(live, seats)
        await self._remember_player(user_id, name, locale)
        return self._lobby_changed(live)

    async def leave(self, game_id: int, user_id: int) -> GameSummary:
        """Leave the lobby; the last human leaving closes it."""
        live = await self._get(game_id)
        async with live.lock:
            self._need(live, "lobby")
            seat = live.seat_of(user_id)
            if seat is None:
                raise NotInGame()
            seats = [s for i, s in enumerate(live.seats) if i != seat]
            await self._save_seats(live, seats)
            if not any(not s.ai for s in seats):
                await self._close(live, "abandoned")
                return self._summary(live)
        return self._lobby_changed(live)

    async def add_bot(self, game_id: int, user_id: int) -> GameSummary:
        """The host fills one free seat with an AI player."""
        live = await self._get(game_id)
        async with live.lock:
            self._need(live, "lobby")
            self._need_host(live, user_id)
            if len(live.seats) >= SEATS:
                raise LobbyFull()
            seats = [*live.seats, self._ai_seat(live.seats)]
            await self._save_seats(live, seats)
        return self._lobby_changed(live)

    async def start(self, game_id: int, user_id: int) -> GameSummary:
        """The host starts: empty seats take AI players, the first hand is dealt."""
        live = await self._get(game_id)
        async with live.lock:
            self._need(live, "lobby")
            self._need_host(live, user_id)
            seats = list(live.seats)
            while len(seats) < SEATS:
                seats.append(self._ai_seat(seats))
            await self._save_seats(live, seats)
            settings = await self.store.get_guild_settings(live.guild_id)
            cfg = {
                "turn_timeout": self._timeout(settings.turn_timeout, STORE_DEFAULT_TURN, "turn"),
                "claim_timeout": self._timeout(
                    settings.claim_timeout, STORE_DEFAULT_CLAIM, "claim"
                ),
                "hints": bool(settings.hints),
            }
            seed = self.new_seed()
            entry = {"k": "start", "seed": seed, "cfg": cfg}
            state, events = self.engine.new_game(live.variant, live.options, seed)
            await self._commit(live, None, entry)
            live.cfg = cfg
            live.state = state
            live.hand_no = 1
            live.status = "active"
            self._bookkeep(live, None, None, self.clock())
            await self.store.update_game(
                live.id, status="active", totals=[0] * SEATS, **self._commitment(events)
            )
            live.totals = [0] * SEATS
            log.info("game %s: started", live.id)
            events = list(events) + await self._advance(live)
            self._after_change(live, events)
        return self._summary(live)

    async def abandon(self, game_id: int, user_id: int, *, admin: bool = False) -> GameSummary:
        """The host (or a server manager, ``admin``) abandons the game."""
        live = await self._get(game_id)
        async with live.lock:
            if live.status not in ("lobby", "active"):
                raise WrongPhase("the game is over")
            if not admin:
                self._need_host(live, user_id)
            await self._close(live, "abandoned")
        return self._summary(live)

    # ------------------------------------------------------------------ play

    @contextlib.asynccontextmanager
    async def _moved_on(self, live: LiveGame) -> AsyncIterator[None]:
        """Another process (shard) wrote first: reload the game and refuse as stale."""
        try:
            yield
        except VersionConflict:
            await self._reload(live)
            raise StaleButton("someone acted first") from None

    async def act(
        self, game_id: int, user_id: int, key: ActionKey, *, seen_version: int | None = None
    ) -> ActResult:
        """A human's action (a button or command). Committed before this returns.

        ``seen_version`` is the game version the pressed button was drawn for; a button from
        before the seat's current decision began is refused as stale.
        """
        live = await self._get(game_id)
        async with live.lock, self._moved_on(live):
            seat = live.seat_of(user_id)
            if seat is None:
                raise NotInGame()
            self._need(live, "active")
            events: list[GameEvent] = []
            if live.seats[seat].auto:
                events += await self._set_auto(live, seat, False)
            try:
                events += await self._human_action(live, seat, key, seen_version)
            except ServiceError:
                if events:  # coming off 托管 is a change worth showing
                    self._after_change(live, events)
                raise
            events += await self._advance(live)
            self._after_change(live, events)
            hand = self._private(live, seat, ()) if live.state is not None else None
        return ActResult(
            self._summary(live), tuple(e for e in events if e.visible_to is None), hand
        )

    async def _human_action(
        self, live: LiveGame, seat: int, key: ActionKey, seen_version: int | None
    ) -> list[GameEvent]:
        phase = self.engine.phase(live.state)
        if phase in ("hand_over", "game_over"):
            raise StaleButton("the hand is over")
        if seen_version is not None and seen_version < live.prompt_version.get(seat, 0):
            raise StaleButton(version=seen_version)
        if seat not in self.engine.pending_seats(live.state):
            raise NotYourTurn()
        legal = self.engine.legal_actions(live.state, seat)
        if key not in legal:
            raise IllegalMove(f"{key.kind} {key.arg or ''}".strip(), legal=[k.kind for k in legal])
        try:
            return await self._apply(live, seat, key, then_ai=True)
        except VersionConflict:
            # another process moved the game on: reload and try once more
            await self._reload(live)
            if seat not in self.engine.pending_seats(live.state) or key not in (
                self.engine.legal_actions(live.state, seat)
            ):
                raise StaleButton("someone acted first") from None
            return await self._apply(live, seat, key, then_ai=True)

    async def next_hand(self, game_id: int, user_id: int) -> GameSummary:
        """Deal the next hand (any seated human, after a hand is over)."""
        live = await self._get(game_id)
        async with live.lock, self._moved_on(live):
            if live.seat_of(user_id) is None:
                raise NotInGame()
            self._need(live, "active")
            if self.engine.phase(live.state) != "hand_over":
                raise StaleButton("the hand is still being played")
            seed = self.new_seed()
            state, events = self.engine.next_hand(live.state, seed)
            await self._commit(live, None, {"k": "next", "seed": seed})
            live.state = state
            live.hand_no += 1
            self._bookkeep(live, None, None, self.clock())
            live.delivered.clear()
            commitment = self._commitment(events)
            if commitment:
                await self.store.update_game(live.id, **commitment)
            events = list(events) + await self._advance(live)
            self._after_change(live, events)
        return self._summary(live)

    async def end_game(self, game_id: int, user_id: int) -> GameSummary:
        """End the game between hands (any seated human): totals are final."""
        live = await self._get(game_id)
        async with live.lock, self._moved_on(live):
            if live.seat_of(user_id) is None:
                raise NotInGame()
            self._need(live, "active")
            if self.engine.phase(live.state) not in ("hand_over", "game_over"):
                raise WrongPhase("finish the hand first, or abandon the game")
            await self._commit(live, None, {"k": "end"})
            await self._close(live, "finished")
        return self._summary(live)

    async def set_autoplay(self, game_id: int, user_id: int, on: bool) -> GameSummary:
        """Turn 托管 (auto-play) on or off for the user's seat."""
        live = await self._get(game_id)
        async with live.lock, self._moved_on(live):
            seat = live.seat_of(user_id)
            if seat is None:
                raise NotInGame()
            self._need(live, "active")
            events: list[GameEvent] = []
            if live.seats[seat].auto != on:
                events += await self._set_auto(live, seat, on)
                events += await self._advance(live)
            self._after_change(live, events)
        return self._summary(live)

    # ------------------------------------------------------------------ start-up / shut-down

    async def resume_all(self) -> list[GameSummary]:
        """Load every unfinished game, finish any AI turns, re-arm timers, refresh tables and
        re-deliver every human's hand."""
        loaded_games = await self.store.load_unfinished_games()
        out = []
        for loaded in loaded_games:
            try:
                live = self._games.get(loaded.game.id)
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

    async def close(self) -> None:
        """Cancel timers and let queued deliveries finish."""
        self._closed = True
        for live in self._games.values():
            if live.timer is not None:
                live.timer.cancel()
        await self.idle()
        for live in self._games.values():
            if live.pump is not None:
                live.pump.cancel()
        pumps = [live.pump for live in self._games.values() if live.pump is not None]
        await asyncio.gather(*pumps, return_exceptions=True)

    async def idle(self) -> None:
        """Wait until every queued delivery ran (tests and shut-down)."""
        for live in list(self._games.values()):
            async with live.lock:  # a change in progress queues its deliveries first
                pass
            if live.queue is not None:
                await live.queue.join()

    async def set_table_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the channel's table message of the game (kept across restarts)."""
        live = self._games.get(game_id)
        if live is not None:
            live.table_message_id = message_id
        await self.store.update_game(game_id, table_message_id=message_id)

    # ------------------------------------------------------------------ internals: changes

    async def _apply(
        self,
        live: LiveGame,
        seat: int,
        key: ActionKey,
        *,
        timeout: bool = False,
        then_ai: bool = False,
    ) -> list[GameEvent]:
        """Apply one action and commit it; the state changes only after the commit.

        With ``then_ai`` the AI replies that follow are worked out too and committed in the
        same log entry (one durable write for a press and everything it sets off)."""
        old = live.state
        try:
            state, events = self.engine.apply(old, seat, key)
        except EngineIllegal as error:
            raise IllegalMove(str(error)) from error
        entry: dict[str, Any] = {"k": "act", "kind": key.kind, "arg": key.arg}
        if timeout:
            entry["timeout"] = True
        steps: list[list[Any]] = []
        provisional: list[tuple[int, Any]] = []
        if then_ai:
            steps, provisional, ai_events = self._simulate_ai(live, state)
            if steps:
                entry["ai"] = steps
                events = [*events, *ai_events]
        await self._commit(live, seat, entry)
        now = self.clock()
        live.state = state
        self._bookkeep(live, seat, old, now)
        self._settle_steps(live, state, provisional, now)
        if timeout:
            events = [GameEvent("timeout", seat=seat, data={"kind": key.kind}), *events]
        await self._record_if_over(live)
        await self._maybe_snapshot(live)
        return list(events)

    async def _set_auto(self, live: LiveGame, seat: int, on: bool) -> list[GameEvent]:
        await self._commit(live, seat, {"k": "auto", "on": on})
        live.seats[seat].auto = on
        await self._maybe_snapshot(live)
        return [GameEvent("auto", seat=seat, data={"on": on})]

    def _simulate_ai(
        self, live: LiveGame, state: Any
    ) -> tuple[list[list[Any]], list[tuple[int, Any]], list[GameEvent]]:
        """AI seats and seats on 托管 acting from ``state`` until a human decision is
        needed, in memory: ``(steps for the log, (seat, state after) per step, events)``."""
        steps: list[list[Any]] = []
        provisional: list[tuple[int, Any]] = []
        events: list[GameEvent] = []
        for _ in range(MAX_AUTO_STEPS):
            if self.engine.phase(state) not in ("turn", "claim"):
                break
            robots = [s for s in self.engine.pending_seats(state) if live.seats[s].robot]
            if not robots:
                break
            seat = robots[0]
            try:
                key = self.engine.choose_action(state, seat)
                try:
                    new, evs = self.engine.apply(state, seat, key)
                except EngineIllegal:
                    log.warning(
                        "game %s: AI chose %s illegally; using the safe default", live.id, key
                    )
                    key = self.engine.timeout_action(state, seat)
                    new, evs = self.engine.apply(state, seat, key)
            except asyncio.CancelledError:
                raise
            except Exception:
                # an engine failure must not undo or hide the committed actions before it
                log.exception("game %s: the AI of seat %s failed; the game waits", live.id, seat)
                break
            steps.append([seat, key.kind, key.arg])
            provisional.append((seat, new))
            events += evs
            state = new
        else:  # pragma: no cover - an engine bug
            log.error(
                "game %s: AI did not hand the turn back after %d steps", live.id, MAX_AUTO_STEPS
            )
        return steps, provisional, events

    async def _advance(self, live: LiveGame) -> list[GameEvent]:
        """Let AI seats and seats on 托管 act until a human decision is needed.

        Their actions are applied in memory and committed together as one ``ai`` log entry
        (one durable write instead of one per action); nothing is delivered before it.
        """
        if live.state is None or live.status != "active":
            return []
        steps, provisional, events = self._simulate_ai(live, live.state)
        if not steps:
            return []
        await self._commit(live, None, {"k": "ai", "acts": steps})
        self._settle_steps(live, live.state, provisional, self.clock())
        await self._record_if_over(live)
        await self._maybe_snapshot(live)
        return events

    def _settle_steps(
        self, live: LiveGame, old: Any, provisional: list[tuple[int, Any]], at: float
    ) -> None:
        """After the commit: take the states in order, with the bookkeeping of each."""
        for seat, new in provisional:
            live.state = new
            self._bookkeep(live, seat, old, at)
            old = new

    async def _commit(self, live: LiveGame, seat: int | None, entry: dict[str, Any]) -> None:
        # one writer at a time from this process: SQLite would otherwise make concurrent
        # writers sleep in its busy handler (long tail latency); PostgreSQL loses nothing
        async with self._write_lock:
            live.version = await self.store.append_action(live.id, live.version, seat, entry)

    async def _maybe_snapshot(self, live: LiveGame) -> None:
        """Save a snapshot once ``snapshot_every`` game actions were logged since the last."""
        if not self.snapshot_every or live.state is None:
            return
        done = self.engine.action_count(live.state)
        if done - live.snapshot_at >= self.snapshot_every:
            live.snapshot_at = done
            try:
                async with self._write_lock:
                    await self.store.save_snapshot(live.id, live.version, self._snapshot(live))
            except Exception:  # a snapshot only speeds up loading
                log.exception("game %s: snapshot failed", live.id)

    async def _record_if_over(self, live: LiveGame) -> None:
        """Record a finished hand in the store once (totals, ratings)."""
        if live.state is None or live.recorded >= live.hand_no:
            return
        if self.engine.phase(live.state) not in ("hand_over", "game_over"):
            return
        result = self.engine.hand_result(live.state)
        if result is None:
            return
        players = [
            HandPlayer(
                seat=i,
                user_id=(i + 1) if s.ai or s.user_id is None else s.user_id,
                delta=result.deltas[i] if i < len(result.deltas) else 0,
                is_ai=s.ai or s.user_id is None,
            )
            for i, s in enumerate(live.seats)
        ]
        hand = HandInput(
            guild_id=live.guild_id,
            variant=live.variant,
            hand_no=live.hand_no,
            players=players,
            how=result.how,  # type: ignore[arg-type]
            winners=list(result.winners),
            discarder=result.discarder if result.how in ("discard", "rob_kong") else None,
            points=result.points,
            items=[{"name": i.name, "en": i.en, "value": i.value} for i in result.items],
            seed_reveal=result.seed_reveal,
            game_id=live.id,
        )
        live.recorded = live.hand_no
        if result.scores:  # the engine's running totals (idempotent on a resume)
            live.totals = list(result.scores)
        # written after the reply, in order with the deliveries (a restart records it again
        # if the write never happened; the store refuses a second copy)
        self._enqueue(live, lambda: self._store_hand(live, hand))

    async def _store_hand(self, live: LiveGame, hand: HandInput) -> None:
        try:
            async with self._write_lock:
                recorded = await self.store.record_hand(hand)
        except DuplicateHand:
            return
        except Exception:
            log.exception("game %s: could not record hand %s", live.id, hand.hand_no)
            return
        if recorded.totals is not None and live.hand_no == hand.hand_no:
            live.totals = list(recorded.totals)

    async def _close(self, live: LiveGame, status: str) -> None:
        await self.store.update_game(live.id, status=status)
        log.info("game %s: %s after %d hand(s)", live.id, status, live.hand_no)
        live.status = status
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        summary = self._summary(live)
        self._enqueue(live, lambda: self.delivery.game_ended(summary, status))

    async def _reload(self, live: LiveGame) -> None:
        loaded = await self.store.load_game(live.id)
        fresh = self._live_from_info(loaded.game)
        self._replay(fresh, loaded)
        for name in ("status", "version", "totals", "seats", "state", "hand_no", "cfg"):
            setattr(live, name, getattr(fresh, name))
        live.window_at = fresh.window_at
        live.recorded = max(live.recorded, fresh.recorded)

    # ------------------------------------------------------------------ internals: after

    def _after_change(
        self, live: LiveGame, events: list[GameEvent], *, force_private: bool = False
    ) -> None:
        """Update prompts, re-arm the timer and queue deliveries (call under the lock)."""
        if live.status != "active" or live.state is None:
            return
        self._update_prompts(live)
        self._rearm(live)
        summary = self._summary(live)
        table = self.engine.table_view(live.state)
        public = [e for e in events if e.visible_to is None]
        if public or force_private or events:
            self._enqueue(live, lambda: self.delivery.table_changed(summary, table, public))
        for seat, s in enumerate(live.seats):
            if s.ai or s.user_id is None:
                continue
            mine = tuple(e for e in events if e.visible_to == seat)
            update = self._private(live, seat, mine, table)
            if force_private or mine or live.delivered.get(seat) != update.hand:
                live.delivered[seat] = update.hand
                self._enqueue(live, lambda u=update: self.delivery.hand_changed(summary, u))
        if self.engine.phase(live.state) in ("hand_over", "game_over") and any(
            e.kind in ("hand_ended", "won", "drawn_hand") for e in events
        ):
            result = self.engine.hand_result(live.state)
            if result is not None:
                self._enqueue(live, lambda: self.delivery.hand_ended(summary, result, table))

    def _private(
        self,
        live: LiveGame,
        seat: int,
        events: tuple[GameEvent, ...],
        table: TableView | None = None,
    ) -> PrivateUpdate:
        hand = self.engine.hand_view(live.state, seat)
        hints: tuple[tuple[int, int], ...] = ()
        if live.cfg.get("hints", True) and hand.waits:
            hints = wait_hints(hand, table or self.engine.table_view(live.state))
        user_id = live.seats[seat].user_id or 0
        return PrivateUpdate(seat=seat, user_id=user_id, hand=hand, hints=hints, events=events)

    def _rearm(self, live: LiveGame) -> None:
        """(Re)start the game's timeout for the decision now awaited from humans."""
        if live.timer is not None and live.timer is not asyncio.current_task():
            live.timer.cancel()
        live.timer = None
        live.deadline = None
        if self._closed or live.status != "active" or live.state is None:
            return
        phase = self.engine.phase(live.state)
        if phase not in ("turn", "claim"):
            return
        waiting = [s for s in self.engine.pending_seats(live.state) if not live.seats[s].robot]
        if not waiting:
            return
        key = "turn_timeout" if phase == "turn" else "claim_timeout"
        timeout = float(
            live.cfg.get(key, self.turn_timeout if phase == "turn" else self.claim_timeout)
        )
        live.deadline = live.window_at + timeout
        live.timer = asyncio.create_task(
            self._timer(live, live.version, live.deadline), name=f"mj-timer-{live.id}"
        )

    async def _timer(self, live: LiveGame, version: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - self.clock()))
        try:
            await self._on_timeout(live, version)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: timeout handling failed", live.id)

    async def _on_timeout(self, live: LiveGame, version: int) -> None:
        """The awaited humans ran out of time: safe default, then 托管 until they return."""
        async with live.lock:
            if live.version != version or live.status != "active" or live.state is None:
                return
            live.timer = None
            events: list[GameEvent] = []
            for seat in self.engine.pending_seats(live.state):
                if live.seats[seat].robot:
                    continue
                if seat not in self.engine.pending_seats(live.state):
                    continue
                key = self.engine.timeout_action(live.state, seat)
                try:
                    events += await self._apply(live, seat, key, timeout=True)
                except (IllegalMove, VersionConflict):
                    log.warning("game %s: timeout action %s refused", live.id, key)
                    await self._reload(live)
                    break
                events += await self._set_auto(live, seat, True)
            events += await self._advance(live)
            self._after_change(live, events)

    # ------------------------------------------------------------------ internals: delivery

    def _enqueue(self, live: LiveGame, job: Callable[[], Awaitable[None]]) -> None:
        """Queue a delivery; jobs of one game run in order, one at a time."""
        if live.queue is None:
            live.queue = asyncio.Queue()
        if live.pump is None or live.pump.done():
            live.pump = asyncio.create_task(self._pump(live), name=f"mj-delivery-{live.id}")
        live.queue.put_nowait(job)

    async def _pump(self, live: LiveGame) -> None:
        assert live.queue is not None
        while True:
            job = await live.queue.get()
            try:
                await job()
            except asyncio.CancelledError:
                live.queue.task_done()
                raise
            except Exception:
                log.exception("game %s: delivery failed (the action stays committed)", live.id)
            live.queue.task_done()

    def _lobby_changed(self, live: LiveGame) -> GameSummary:
        summary = self._summary(live)
        self._enqueue(live, lambda: self.delivery.lobby_changed(summary))
        return summary

    # ------------------------------------------------------------------ internals: helpers

    async def _get(self, game_id: int) -> LiveGame:
        live = self._games.get(game_id)
        if live is not None:
            return live
        try:
            loaded = await self.store.load_game(game_id)
        except Exception as error:
            raise NoSuchGame(game_id=game_id) from error
        live = self._live_from_info(loaded.game)
        self._replay(live, loaded)
        return self._games.setdefault(live.id, live)

    def _need(self, live: LiveGame, status: str) -> None:
        if live.status != status:
            raise WrongPhase(status=live.status, need=status)

    def _need_host(self, live: LiveGame, user_id: int) -> None:
        if live.seat_of(user_id) is None:
            raise NotInGame()
        if live.host_id != user_id:
            raise NotHost(host_id=live.host_id)

    async def _save_seats(self, live: LiveGame, seats: list[Seat]) -> None:
        await self.store.update_game(live.id, seats=[s.to_json() for s in seats])
        live.seats = seats

    @staticmethod
    def _ai_seat(seats: list[Seat]) -> Seat:
        taken = {s.name for s in seats}
        name = next(n for n in AI_NAMES if n not in taken)
        return Seat(name=name, ai=True)

    def _timeout(self, server_value: int, builtin: int, which: str) -> float:
        if server_value != builtin:
            return float(server_value)
        return float(self.turn_timeout if which == "turn" else self.claim_timeout)

    async def _remember_player(self, user_id: int, name: str, locale: str | None) -> None:
        try:
            await self.store.upsert_player(
                user_id, display_name=name[:100], locale=(locale or None) and locale[:16]
            )
        except Exception:
            log.exception("could not save player %s", user_id)

    def _commitment(self, events: list[GameEvent]) -> dict[str, Any]:
        for event in events:
            if event.kind == "hand_started" and event.data.get("commitment"):
                return {"seed_commitment": str(event.data["commitment"])[:128]}
        return {}

    def _summary(self, live: LiveGame) -> GameSummary:
        phase = "lobby" if live.state is None else self.engine.phase(live.state)
        return GameSummary(
            id=live.id,
            guild_id=live.guild_id,
            channel_id=live.channel_id,
            variant=live.variant,
            options=dict(live.options),
            seats=tuple(replace(s) for s in live.seats),
            status=live.status,
            version=live.version,
            totals=tuple(live.totals) if live.totals else (0,) * len(live.seats),
            hand_no=live.hand_no,
            phase=phase,
            hints=bool(live.cfg.get("hints", True)),
            turn_timeout=int(live.cfg.get("turn_timeout", self.turn_timeout)),
            claim_timeout=int(live.cfg.get("claim_timeout", self.claim_timeout)),
            deadline=live.deadline,
            table_message_id=live.table_message_id,
        )

    # ------------------------------------------------------------------ the log (gamelog)

    def _live_from_info(self, info: GameInfo) -> LiveGame:
        return LiveGame.from_info(info)

    def _bookkeep(self, live: LiveGame, actor: int | None, old: Any, at: float) -> None:
        gamelog.bookkeep(self.engine, live, actor, old, at)

    def _update_prompts(self, live: LiveGame) -> None:
        gamelog.update_prompts(self.engine, live)

    def _snapshot(self, live: LiveGame) -> dict[str, Any]:
        return gamelog.snapshot_of(self.engine, live)

    def _replay(self, live: LiveGame, loaded: LoadedGame) -> None:
        gamelog.replay(self.engine, live, loaded)
