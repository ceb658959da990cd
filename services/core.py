"""The core of the game service: the games held in memory and the one path every change
takes.

Under the game's ``asyncio.Lock``: the engine applies the action, the action is appended to
the store's log with the version check (committed before the call returns), robots reply
(:mod:`services.autoplay`), the timeout is re-armed (:mod:`services.deadlines`) and what
happened is queued for delivery (:mod:`services.outbox`). The lobby and play commands built
on it are in :mod:`services.lobby` and :mod:`services.play`; the session and the database
shared with other processes take part at the core's named hook points
(:mod:`services.hooks`), not by overriding it; :class:`services.game.GameService` puts them
together.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from functools import partial
from typing import Any, TypeVar

from db.errors import StoreBusy, StoreUnwritable, WriteRolledBack
from db.types import (
    DuplicateHand,
    GameInfo,
    GameNotFound,
    HandInput,
    LoadedGame,
    VersionConflict,
)
from engine.refusal import reason_of
from services import gamelog, outbox, reveal
from services.autoplay import MAX_AUTO_STEPS, run_robots
from services.deadlines import Deadlines, awaited_timeout
from services.delivery import Delivery, GameSummary, NullDelivery, PrivateUpdate
from services.engine_adapter import EngineIllegal, GameEngine
from services.errors import (
    GameUnreadable,
    IllegalMove,
    NoSuchGame,
    NotHost,
    NotInGame,
    ServiceError,
    StaleButton,
    TableBusy,
    TableUnwritable,
    WrongPhase,
)
from services.gamelog import LiveGame
from services.held import HeldGames
from services.hints import wait_hints
from services.hooks import Hooks
from services.model import ActionKey, GameEvent, TableView
from services.recording import hand_input
from services.results_owed import ResultsOwed
from services.resume_state import ResumeState
from services.store_adapter import GameStore

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Seconds a press waits for its commit before it is answered "not recorded": past the
#: store's own bounds (a turn, then the COMMIT: `db.group_commit.WAIT_BOUND` each), for a
#: statement that never returns. Should the commit land after all, the next press finds
#: the game moved on (a version conflict) and reloads it: nothing is doubled.
COMMIT_BOUND = 45.0

SEATS = 4
#: Built-in defaults of a server's timeouts; a server that kept them gets the process settings.
STORE_DEFAULT_TURN = 60
STORE_DEFAULT_CLAIM = 15


class GameCore:
    """The games held in memory and the change path; no Discord types in or out.

    ``turn_timeout`` / ``claim_timeout`` (seconds) are the process defaults used when a server
    kept the built-in ones; ``snapshot_every`` N actions a snapshot is saved; ``ai_pace``
    (seconds) is the default pause between two AI moves shown while a human sits at the table
    (see :meth:`_after_change`; 0 shows them at once); ``claim_hold`` (seconds) how long every
    discard's claim window is shown then, whoever may claim (:mod:`services.reveal`; 0: only
    real windows show, and only while someone decides).
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
        ai_pace: float = 0.0,
        claim_hold: float = 0.0,
    ) -> None:
        self.store = store
        self.engine = engine
        self.delivery: Delivery = delivery or NullDelivery()
        self.turn_timeout = turn_timeout
        self.claim_timeout = claim_timeout
        self.snapshot_every = snapshot_every
        self.clock = clock
        self.new_seed = new_seed
        self.ai_pace = max(0.0, ai_pace)
        self.claim_hold = max(0.0, claim_hold)
        self._holds = random.Random()  # each window's hold (not a secret: only its length)
        self._stopping = asyncio.Event()
        self._games = HeldGames()  # indexed by channel and player; finished games leave
        #: how far the resume after a restart got (a miss may be a game still loading)
        self.resume_state = ResumeState()
        self._index_lock = asyncio.Lock()
        self._deadlines = Deadlines(lambda: self.clock(), self._deadline_expired)
        #: where other parts take part in a change (:mod:`services.hooks`)
        self.hooks = Hooks()
        #: True once this process shares the database with others (:mod:`services.cluster`)
        self.shared = False
        #: this process's name while it shares the database (who stores deadlines); empty alone
        self.holder = ""
        #: the results still owed (结果补发): asked when a result is queued, a hand dealt, a
        #: game resumed or taken over
        self.results = ResultsOwed(
            engine,
            store,
            lambda: self.delivery,
            self._enqueue,
            self._summary,
            self._live_from_info,
        )

    # ------------------------------------------------------------------ look-ups

    def game_in_channel(self, channel_id: int) -> int | None:
        """The unfinished game of a channel (or of its thread), or None."""
        return self._games.in_channel(channel_id)

    def game_of_player(self, guild_id: int, user_id: int) -> int | None:
        """The unfinished game of this server the user sits in, or None."""
        return self._games.of_player(guild_id, user_id)

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

    # ------------------------------------------------------------------ changes

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
            raise IllegalMove(reason_of(error)) from error
        # the log holds the engine's own action JSON (services.action_codec)
        entry: dict[str, Any] = {"k": "act", "a": self.engine.log_action(old, seat, key)}
        if timeout:
            entry["timeout"] = True
        steps: list[list[Any]] = []
        provisional: list[tuple[int, Any, list[GameEvent]]] = []
        own = list(events)
        if then_ai:
            steps, provisional, ai_events = self._simulate_ai(live, state)
            if steps:
                entry["ai"] = steps
                events = [*events, *ai_events]
        after = provisional[-1][1] if provisional else state

        def settle(target: LiveGame, at: float) -> None:
            target.state = state
            self._bookkeep(target, seat, old, at)
            target.steps.append((seat, old, state, own))
            self._settle_steps(target, state, provisional, at)

        snapshot = self._snapshot_due(live, after, settle)
        await self._commit(live, seat, entry, after=after, snapshot=snapshot)
        settle(live, self.clock())
        if timeout:
            # a claim that timed out passes quietly: who could claim is never public
            quiet = self.engine.phase(old) == "claim"
            note = GameEvent(
                "timeout", seat=seat, visible_to=seat if quiet else None, data={"kind": key.kind}
            )
            events = [note, *events]
        await self._record_if_over(live)
        return list(events)

    async def _set_auto(self, live: LiveGame, seat: int, on: bool) -> list[GameEvent]:
        def settle(target: LiveGame, _at: float) -> None:
            target.seats[seat].auto = on

        snapshot = self._snapshot_due(live, live.state, settle)
        await self._commit(live, seat, {"k": "auto", "on": on}, snapshot=snapshot)
        settle(live, 0.0)
        return [GameEvent("auto", seat=seat, data={"on": on})]

    def _simulate_ai(
        self, live: LiveGame, state: Any
    ) -> tuple[list[list[Any]], list[tuple[int, Any, list[GameEvent]]], list[GameEvent]]:
        """AI seats and seats on 托管 acting from ``state`` until a human decision is
        needed, in memory: ``(steps for the log, (seat, state after, its events) per step,
        events)``.
        A failing AI plays the safe default (see :mod:`services.autoplay`)."""
        run = run_robots(self.engine, live.seats, state, live.id, max_steps=MAX_AUTO_STEPS)
        return run.steps, run.provisional, run.events

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
        old = live.state

        def settle(target: LiveGame, at: float) -> None:
            self._settle_steps(target, old, provisional, at)

        after = provisional[-1][1]
        snapshot = self._snapshot_due(live, after, settle)
        await self._commit(live, None, {"k": "ai", "acts": steps}, after=after, snapshot=snapshot)
        settle(live, self.clock())
        await self._record_if_over(live)
        return events

    def _settle_steps(
        self,
        live: LiveGame,
        old: Any,
        provisional: list[tuple[int, Any, list[GameEvent]]],
        at: float,
    ) -> None:
        """After the commit: take the states in order, with the bookkeeping of each."""
        for seat, new, events in provisional:
            live.state = new
            self._bookkeep(live, seat, old, at)
            live.steps.append((seat, old, new, events))
            old = new

    async def _commit(
        self,
        live: LiveGame,
        seat: int | None,
        entry: dict[str, Any],
        *,
        after: Any = None,
        snapshot: tuple[int, dict[str, Any]] | None = None,
        **changes: Any,
    ) -> None:
        """Append ``entry`` to the log if the game is still at ``live.version`` (else
        `VersionConflict`, nothing written); ``changes``: game columns (seats, status…)
        written in the same compare-and-set; ``after``: the engine state the entry leads to
        (its deadlines are stored in the same transaction: :attr:`hooks`);
        ``snapshot``: from :meth:`_snapshot_due`, stored in the same transaction too."""
        # no lock here: on SQLite the store's writers take turns and presses arriving
        # together share one commit (db.group_commit); PostgreSQL commits games in parallel
        extra: dict[str, Any] = {}
        if changes:
            extra["changes"] = changes
        stored = self.hooks.deadlines_after(live, after) if after is not None else []
        stored += self.hooks.deadlines_with_entry(live, seat, entry)
        if stored:
            extra.update(deadlines=stored, holder=self._holder_name())
        if snapshot is not None:
            extra["snapshot"] = snapshot[1]
        try:
            async with asyncio.timeout(COMMIT_BOUND):  # (a cancellation still cancels)
                live.version = await self.store.games.append_action(
                    live.id, live.version, seat, entry, **extra
                )
        except TimeoutError as error:  # a database that stopped answering: answer anyway
            log.error(
                "game %s: the commit did not finish in %.0f s: given up", live.id, COMMIT_BOUND
            )
            raise TableBusy() from error
        except StoreUnwritable as error:  # not written, and pressing again will not help
            log.warning("game %s: press not recorded: %s", live.id, error)
            raise TableUnwritable(error.why) from error
        except (StoreBusy, WriteRolledBack) as error:  # not written: the player presses again
            log.warning("game %s: commit stalled (%s); press not recorded", live.id, error)
            raise TableBusy() from error
        if snapshot is not None:
            live.snapshot_at = snapshot[0]

    def _snapshot_due(
        self, live: LiveGame, after: Any, settle: Callable[[LiveGame, float], None]
    ) -> tuple[int, dict[str, Any]] | None:
        """The snapshot to store with the next entry, once ``snapshot_every`` game actions
        were logged since the last: ``(engine action count, snapshot)`` of the game as it
        will be after the entry (``after``: its engine state; ``settle``: what the commit
        is followed by, run here on a copy of the game, :func:`services.gamelog.prospect`),
        or None. Stored in the entry's own transaction: no write of its own."""
        if not self.snapshot_every or after is None:
            return None
        done = self.engine.action_count(after)
        if done - live.snapshot_at < self.snapshot_every:
            return None
        ahead = gamelog.prospect(live)
        at = self.clock()
        settle(ahead, at)
        self.hooks.settled(ahead, at)  # as _record_if_over settles the game itself
        return done, self._snapshot(ahead)

    async def _record_if_over(self, live: LiveGame) -> None:
        """The commit settled (:attr:`hooks`: the session's 准备 check opens when the hand
        is over, so the snapshot that may follow holds it); record a finished hand in the
        store once (totals, ratings)."""
        self.hooks.settled(live, self.clock())
        if live.state is None or live.recorded >= live.hand_no:
            return
        if self.engine.phase(live.state) not in ("hand_over", "game_over"):
            return
        result = self.engine.hand_result(live.state)
        if result is None:
            return
        hand = hand_input(live, result)
        live.recorded = live.hand_no
        if result.scores:  # the engine's running totals (idempotent on a resume)
            live.totals = list(result.scores)
        # written after the reply, in order with the deliveries (a restart records it again
        # if the write never happened; the store refuses a second copy)
        self._enqueue(live, lambda: self._store_hand(live, hand))

    async def _store_hand(self, live: LiveGame, hand: HandInput) -> None:
        try:
            recorded = await self.store.hands.record(hand)
        except DuplicateHand:
            return
        except Exception:
            log.exception("game %s: could not record hand %s", live.id, hand.hand_no)
            return
        if recorded.totals is not None and live.hand_no == hand.hand_no:
            live.totals = list(recorded.totals)
        self.hooks.hand_stored(live, hand.hand_no)

    async def _close(self, live: LiveGame, status: str) -> None:
        self.hooks.closing(live)
        # only if nobody changed the game meanwhile (another process): VersionConflict else
        await self.store.games.update(live.id, status=status, expected_version=live.version)
        log.info("game %s: %s after %d hand(s)", live.id, status, live.hand_no)
        live.status = status
        self._games.finished(live)  # kept a while, then let go (services.held)
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        self._deadline_changed(live, "play", None)
        self._deadline_changed(live, "session", None)
        summary = self._summary(live)
        self._enqueue(live, lambda: self._announce_ending(live, summary, status))

    async def _announce_ending(self, live: LiveGame, summary: GameSummary, status: str) -> None:
        """Deliver the game's ending (the final standings); once delivered, the session
        notes it posted (:attr:`hooks`)."""
        await self.delivery.game_ended(summary, status)
        await self.hooks.ending_posted(live)

    async def _reload(self, live: LiveGame) -> None:
        loaded = await self.store.games.load(live.id)
        fresh = self._live_from_info(loaded.game)
        self._replay(fresh, loaded)
        for name in ("status", "version", "totals", "seats", "state", "hand_no", "cfg", "session"):
            setattr(live, name, getattr(fresh, name))
        live.window_at = fresh.window_at
        live.episodes = fresh.episodes
        live.steps.clear()
        live.recorded = max(live.recorded, fresh.recorded)
        if self._games.get(live.id) is live:
            self._games.reindex(live)  # its seats may have changed

    # ------------------------------------------------------------------ after a change

    def _after_change(
        self,
        live: LiveGame,
        events: list[GameEvent],
        *,
        force_private: bool = False,
        actor: int | None = None,
    ) -> bool:
        """Show a change (:meth:`_show_change`); around it, :attr:`hooks` — a hand that ended
        opens its 准备 check first (shown with its result), and the session timer is re-armed
        after every change. Returns True when the change is shown in moments."""
        self.hooks.settled(live, self.clock())
        shown = self._show_change(live, events, force_private=force_private, actor=actor)
        self.hooks.changed(live)
        return shown

    def _show_change(
        self,
        live: LiveGame,
        events: list[GameEvent],
        *,
        force_private: bool = False,
        actor: int | None = None,
    ) -> bool:
        """Update prompts, re-arm the timer and queue deliveries (call under the lock).

        While a human sits at the table, the public moments of the steps taken (a discard, a
        claim, a kong…) are shown one by one, ``ai_pace`` seconds apart, before the final
        state, the hands and the alerts (everything is committed already: only the showing
        waits, and the awaited decision's timeout starts when it is shown). With a
        ``claim_hold`` every discard shows its claim window that long, and the next public
        change waits for it (:mod:`services.reveal`). Returns True when the change is shown
        in moments. ``actor``: the seat whose press made the change."""
        steps, live.steps = live.steps, []
        if live.status != "active" or live.state is None:
            return False
        self._update_prompts(live)
        self._end_waited_episodes(live, actor)
        public = [e for e in events if e.visible_to is None]
        phase = self.engine.phase(live.state)
        humans = not all(s.ai for s in live.seats)  # nobody to show moments to, else
        hold = self.claim_hold if humans else 0.0
        plan = None
        if humans:
            plan = reveal.plan(
                self.engine,
                steps,
                public,
                pace=self._pace(live),
                hold=hold,
                holds=self._holds,
                final_phase=phase,
            )
        shown: list[reveal.Moment] = []
        if plan is not None:
            shown, public = plan
            waits = sum(m.pause for m in shown) + max(0.0, live.hold_until - self.clock())
            live.window_at = max(live.window_at, self.clock() + waits)
        self._rearm(live)
        summary = self._summary(live)
        table = self.engine.table_view(live.state)
        held = False  # the next public change waits for the window on show to be up
        for moment in shown:
            if not held and hold > 0:
                held = True
                self._enqueue(live, lambda: self._hold_over(live))
            shown_as = replace(summary, phase=moment.phase, deadline=None)
            job = partial(self.delivery.table_changed, shown_as, moment.view, moment.events)
            self._enqueue(live, job)
            self._enqueue(live, partial(self._pause, moment.pause))
        # the table is edited only when it shows something new: an edit when one seat passes
        # in a claim window the others still decide on would tell the table someone could
        # claim (and when they answered)
        seen = (table, summary.totals, tuple(s.auto for s in summary.seats), summary.deadline)
        if public or force_private or plan is not None or seen != live.public_seen:
            live.public_seen = seen
            if not held and hold > 0:
                self._enqueue(live, lambda: self._hold_over(live))
            self._enqueue(live, lambda: self.delivery.table_changed(summary, table, public))
            if hold > 0 and phase == "claim" and any(e.kind == "discarded" for e in public):
                # a human may claim: the window shown now is held like any other
                until = reveal.hold_seconds(hold, self._holds)
                self._enqueue(live, lambda: self._hold_from_now(live, until))
        dealt = any(e.kind == "hand_started" for e in events)
        for seat, s in enumerate(live.seats):
            if s.ai or s.user_id is None:
                continue
            mine = tuple(e for e in events if e.visible_to == seat)
            update = self._private(live, seat, mine, table)
            if force_private or mine or live.delivered.get(seat) != update.hand:
                live.delivered[seat] = update.hand
                self._enqueue(
                    live,
                    partial(self.delivery.hand_changed, summary, update),
                    **_hand_keys(seat, update, dealt, live.hand_no),
                )
        if self.engine.phase(live.state) in ("hand_over", "game_over") and any(
            e.kind in ("hand_ended", "won", "drawn_hand") for e in events
        ):
            result = self.engine.hand_result(live.state)
            if result is not None:
                self.results.queue(live, summary, result, table)
        return plan is not None

    def _end_waited_episodes(self, live: LiveGame, actor: int | None) -> None:
        """A seat that was not asked when the last change was shown, and did not make this
        one, waited on the others: its episode is over (asked again now, it gets a new
        alert). Its own press keeps it (a kong the others may rob, then its replacement
        draw); :func:`services.gamelog.track_episodes` handles the steps in between."""
        pending = set(self.engine.pending_seats(live.state))
        if self.engine.phase(live.state) not in ("turn", "claim"):
            pending = set()
        for seat, (asked, episode) in live.asked_last.items():
            if asked or seat == actor or live.episodes.get(seat) != episode:
                continue
            live.episodes.pop(seat, None)
            if seat in pending:
                live.episodes[seat] = live.version
        live.asked_last = {
            seat: (seat in pending, live.episodes.get(seat)) for seat in range(len(live.seats))
        }

    def _pace(self, live: LiveGame) -> float:
        """Seconds between two AI moves shown while a human sits at the table."""
        try:
            return max(0.0, float(live.cfg.get("ai_pace", self.ai_pace)))
        except (TypeError, ValueError):
            return self.ai_pace

    async def _hold_over(self, live: LiveGame) -> None:
        """Wait until the claim window on show has been up its hold time."""
        await self._pause(live.hold_until - self.clock())

    async def _hold_from_now(self, live: LiveGame, seconds: float) -> None:
        live.hold_until = self.clock() + seconds

    async def _pause(self, seconds: float) -> None:
        """Wait between two shown moments (cut short when the service closes)."""
        if seconds <= 0 or self._stopping.is_set():
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopping.wait(), seconds)

    def _private(
        self,
        live: LiveGame,
        seat: int,
        events: tuple[GameEvent, ...],
        table: TableView | None = None,
        *,
        state: Any = None,
    ) -> PrivateUpdate:
        """The seat's hand now (or at ``state``, one of the moments of a change), with its
        alert episode when it is asked to decide."""
        now = state is None or state is live.state
        state = live.state if state is None else state
        hand = self.engine.hand_view(state, seat)
        hints: tuple[tuple[int, int], ...] = ()
        if live.cfg.get("hints", True) and hand.waits:
            hints = wait_hints(hand, table or self.engine.table_view(state))
        user_id = live.seats[seat].user_id or 0
        alert = live.episodes.get(seat, 0) if hand.legal and now else 0
        kind = ("turn" if self.engine.phase(state) == "turn" else "claim") if alert else ""
        return PrivateUpdate(
            seat=seat,
            user_id=user_id,
            hand=hand,
            hints=hints,
            events=events,
            prompt=live.prompt_version.get(seat, 0),
            alert=alert,
            alert_kind=kind,
        )

    def _rearm(self, live: LiveGame) -> None:
        """(Re)start the game's timeout for the decision now awaited from humans."""
        timeout = awaited_timeout(self.engine, live, self.turn_timeout, self.claim_timeout)
        self._deadlines.arm(live, timeout)
        self._deadline_changed(live, "play", live.deadline)

    def _deadline_changed(self, live: LiveGame, kind: str, due: float | None) -> None:
        """The game's ``play`` (turn / claim) or ``session`` deadline is now ``due`` (epoch
        seconds; None: none). One process keeps them in memory only; processes sharing a
        database also store them (:mod:`services.cluster`, through :attr:`hooks`)."""
        self.hooks.deadline_changed(live, kind, due)

    def _holder_name(self) -> str:
        """Who stores deadlines (:mod:`services.cluster`); empty alone."""
        return self.holder

    async def _deadline_expired(self, live: LiveGame, version: int) -> None:
        """The turn / claim timer armed at ``version`` ran out: the humans' time is up
        (:attr:`hooks`: play answers it), unless another process sharing the database
        fires it."""
        if await self.hooks.may_fire(live, "play", version):
            await self.hooks.timed_out(live, version)

    # ------------------------------------------------------------------ delivery

    def _enqueue(
        self,
        live: LiveGame,
        job: Callable[[], Awaitable[None]],
        *,
        key: Any = None,
        also: tuple[Any, ...] = (),
    ) -> None:
        """Queue a delivery; jobs of one game run in order, one at a time. A failed one is
        sent again while the delivery says the failure may pass (:meth:`_resend_delay`);
        ``key``: what it shows (a newer job with the same key, or ``also`` naming it, makes
        one not yet sent or failed obsolete: :mod:`services.outbox`)."""
        resend = outbox.Resend(self._resend_delay, self._pause)
        outbox.enqueue(live, job, key=key, also=also, resend=resend)

    def _resend_delay(self, error: BaseException) -> float | None:
        """Seconds to wait before sending a failed delivery again (the delivery's
        ``resend_delay``: Discord's ``retry_after``, 5xx, network errors), or None: never
        at shut-down (what is still owed is rebuilt at resume), nor when the delivery has
        no such policy or says sending again cannot help."""
        if self._stopping.is_set():
            return None
        ask = getattr(self.delivery, "resend_delay", None)
        return ask(error) if ask is not None else None

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

    # ------------------------------------------------------------------ helpers

    async def _get(self, game_id: int) -> LiveGame:
        live = self._games.get(game_id)
        if live is not None:
            return live
        try:
            loaded = await self.store.games.load(game_id)
        except GameNotFound as error:
            raise NoSuchGame(game_id=game_id) from error
        except StoreBusy as error:
            raise TableBusy() from error
        except Exception as error:  # there may well be a game: it could not be read
            log.exception("game %s: could not be loaded", game_id)
            raise GameUnreadable(game_id=game_id) from error
        live = self._live_from_info(loaded.game)
        try:
            self._replay(live, loaded)
        except Exception as error:
            log.exception("game %s: its log could not be replayed", game_id)
            raise GameUnreadable(game_id=game_id) from error
        self.resume_state.loaded(live.id)
        return self._games.setdefault(live.id, live)

    def _need(self, live: LiveGame, status: str) -> None:
        if live.status != status:
            raise WrongPhase(status=live.status, need=status)

    def _playing_seat(self, live: LiveGame, user_id: int) -> int:
        """The seat of ``user_id`` in a game under way (NotInGame / WrongPhase otherwise)."""
        seat = live.seat_of(user_id)
        if seat is None:
            raise NotInGame()
        self._need(live, "active")
        return seat

    @contextlib.asynccontextmanager
    async def _moved_on(self, live: LiveGame) -> AsyncIterator[None]:
        """Another process (shard) wrote first: reload the game and refuse as stale."""
        try:
            yield
        except VersionConflict:
            await self._reload(live)
            raise StaleButton("someone acted first") from None

    def _need_host(self, live: LiveGame, user_id: int) -> None:
        if live.seat_of(user_id) is None:
            raise NotInGame()
        if live.host_id != user_id:
            raise NotHost(host_id=live.host_id)

    def _commitment(self, events: list[GameEvent], live: LiveGame | None = None) -> dict[str, Any]:
        """The fairness hash a new hand published (for the game row); ``live`` keeps it
        too, so the hand's record stores the hash as published (history shows that one)."""
        for event in events:
            if event.kind == "hand_started" and event.data.get("commitment"):
                published = str(event.data["commitment"])[:128]
                if live is not None:
                    live.commitment = published
                return {"seed_commitment": published}
        return {}

    def _summary(self, live: LiveGame) -> GameSummary:
        phase = "lobby" if live.state is None else self.engine.phase(live.state)
        return GameSummary(
            id=live.id,
            guild_id=live.guild_id,
            channel_id=live.channel_id,
            variant=live.variant,
            options=dict(live.options),
            seats=tuple(s.copy() for s in live.seats),
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
            thread_id=live.thread_id,
            use_thread=bool(live.cfg.get("thread", False)),
            messages=dict(live.messages),
            session=self.hooks.describe(live),
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


def _hand_keys(seat: int, update: PrivateUpdate, dealt: bool, hand_no: int) -> dict[str, Any]:
    """The outbox keys of a seat's hand update. A hand the delivery has not shown yet is
    skipped for a newer one (under load the DM would replay the AI's moves one by one,
    seconds late, offering buttons of moments past):

    - any newer hand replaces a moment that asks the seat nothing;
    - a moment that asks the seat to decide is replaced only by a newer hand of the same
      decision (its alert episode), so every decision still gets its alert
      (:mod:`cogs.delivery.alerts`; a hand DM that a press's answer already showed newer is not
      edited back: :meth:`cogs.delivery.hand_dm.HandMessages.update_hand`);
    - the deal (the hand's new DM, which notifies by itself) is never skipped."""
    moments = ("hand", seat)
    if dealt:
        return {"key": ("hand", seat, "deal", hand_no), "also": (moments,)}
    if not update.alert_kind:
        return {"key": moments}
    return {"key": ("hand", seat, "asks", update.alert), "also": (moments,)}
