"""One game held in memory: its :class:`Table` owns the game, its lock and the one path
every change of it takes.

Under the table's ``asyncio.Lock``: the engine applies the action (:meth:`Table.apply`), the
action is appended to the store's log with the version check (:meth:`Table.commit`,
committed before the call returns), robots reply (:mod:`services.autoplay`), and
:meth:`Table.after_change` re-arms the timeout (:mod:`services.deadlines`) and queues what
happened for delivery (:mod:`services.outbox`). Lobby, play and the session call these steps
in the order their command needs; what they and the database shared with other processes add
to a change comes in at the named hook points of :class:`services.hooks.Hooks`.

What every table of a service shares — store, engine, delivery, hooks, settings, clock — is
one :class:`TableContext`, handed to each table when it is made, so a table never reaches
back into the service that holds it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from db.errors import StoreBusy, StoreUnwritable, WriteRolledBack
from db.types import DuplicateHand, HandInput, VersionConflict
from engine.refusal import reason_of
from services import gamelog, outbox, reveal
from services.autoplay import MAX_AUTO_STEPS, run_robots
from services.deadlines import Deadlines, awaited_timeout
from services.delivery import Delivery, GameSummary, PrivateUpdate
from services.engine_adapter import EngineIllegal, GameEngine
from services.errors import (
    IllegalMove,
    NotHost,
    NotInGame,
    StaleButton,
    TableBusy,
    TableUnwritable,
    WrongPhase,
)
from services.gamelog import LiveGame
from services.hints import wait_hints
from services.hooks import Hooks
from services.model import ActionKey, GameEvent, TableView
from services.recording import hand_input
from services.store_adapter import GameStore

if TYPE_CHECKING:
    from services.held import HeldGames
    from services.results_owed import ResultsOwed

log = logging.getLogger(__name__)

#: Seconds a press waits for its commit before it is answered "not recorded": past the
#: store's own bounds (a turn, then the COMMIT: `db.group_commit.WAIT_BOUND` each), for a
#: statement that never returns. Should the commit land after all, the next press finds
#: the game moved on (a version conflict) and reloads it: nothing is doubled.
COMMIT_BOUND = 45.0


class TableContext:
    """What the tables of one service share: the store, the engine, the delivery, the hook
    points, the registry of tables held, the timers and the settings.

    ``turn_timeout`` / ``claim_timeout`` (seconds) are the process defaults used when a server
    kept the built-in ones; ``snapshot_every`` N actions a snapshot is saved; ``ai_pace``
    (seconds) is the default pause between two AI moves shown while a human sits at the table
    (0 shows them at once); ``claim_hold`` (seconds) how long every discard's claim window is
    shown then, whoever may claim (:mod:`services.reveal`; 0: only real windows show, and only
    while someone decides).

    Its methods are the parts of the change path that any copy of a game may need, held or
    not (a summary, the pace, a queued delivery): they take the game and no lock."""

    def __init__(
        self,
        store: GameStore,
        engine: GameEngine,
        delivery: Delivery,
        hooks: Hooks,
        held: HeldGames,
        *,
        turn_timeout: float,
        claim_timeout: float,
        snapshot_every: int,
        clock: Callable[[], float],
        ai_pace: float,
        claim_hold: float,
    ) -> None:
        self.store = store
        self.engine = engine
        self.delivery = delivery
        self.hooks = hooks
        #: the tables held (indexed by channel and player; finished games leave)
        self.held = held
        self.turn_timeout = turn_timeout
        self.claim_timeout = claim_timeout
        self.snapshot_every = snapshot_every
        self.clock = clock
        self.ai_pace = max(0.0, ai_pace)
        self.claim_hold = max(0.0, claim_hold)
        self.holds = random.Random()  # each window's hold (not a secret: only its length)
        self.stopping = asyncio.Event()
        #: this process's name while it shares the database (who stores deadlines); empty alone
        self.holder = ""
        #: set by the service once it has made them (they need the context's own methods)
        self.deadlines: Deadlines
        self.results: ResultsOwed

    # ------------------------------------------------------------------ any copy of a game

    def summary(self, live: LiveGame) -> GameSummary:
        """The game as it is now, for the delivery and the commands' answers."""
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

    def pace(self, live: LiveGame) -> float:
        """Seconds between two AI moves shown while a human sits at the table."""
        try:
            return max(0.0, float(live.cfg.get("ai_pace", self.ai_pace)))
        except (TypeError, ValueError):
            return self.ai_pace

    def enqueue(
        self,
        live: LiveGame,
        job: Callable[[], Awaitable[None]],
        *,
        key: Any = None,
        also: tuple[Any, ...] = (),
        lane: str = outbox.BOTH,
    ) -> None:
        """Queue a delivery; jobs of one game run in order, one at a time, in their ``lane``
        (the channel's jobs do not wait for the hand DMs: :mod:`services.outbox`). A failed
        one is sent again while the delivery says the failure may pass
        (:meth:`resend_delay`); ``key``: what it shows (a newer job with the same key, or
        ``also`` naming it, makes one not yet sent or failed obsolete)."""
        resend = outbox.Resend(self.resend_delay, self.pause)
        outbox.enqueue(live, job, key=key, also=also, resend=resend, lane=lane)

    def resend_delay(self, error: BaseException) -> float | None:
        """Seconds to wait before sending a failed delivery again (the delivery's
        ``resend_delay``: Discord's ``retry_after``, 5xx, network errors), or None: never
        at shut-down (what is still owed is rebuilt at resume), nor when the delivery has
        no such policy or says sending again cannot help."""
        if self.stopping.is_set():
            return None
        ask = getattr(self.delivery, "resend_delay", None)
        return ask(error) if ask is not None else None

    async def pause(self, seconds: float) -> None:
        """Wait between two shown moments (cut short when the service closes)."""
        if seconds <= 0 or self.stopping.is_set():
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stopping.wait(), seconds)

    def deadline_changed(self, live: LiveGame, kind: str, due: float | None) -> None:
        """The game's ``play`` (turn / claim) or ``session`` deadline is now ``due`` (epoch
        seconds; None: none). One process keeps them in memory only; processes sharing a
        database also store them (:mod:`services.cluster`, through :attr:`hooks`)."""
        self.hooks.deadline_changed(live, kind, due)


class Table:
    """One game held in memory: the game (:attr:`live`), its lock (:attr:`lock`) and the
    change path — check who asks, let the engine step, commit with the version check, then
    show the change (robots, deadlines, deliveries). No Discord types in or out."""

    def __init__(self, live: LiveGame, context: TableContext) -> None:
        self.live = live
        self.context = context
        #: every change of the game, and every look that must see it whole, holds it
        self.lock = asyncio.Lock()

    @property
    def id(self) -> int:
        return self.live.id

    @property
    def engine(self) -> GameEngine:
        return self.context.engine

    def __repr__(self) -> str:
        return f"Table({self.live.id}, {self.live.status}, v{self.live.version})"

    # ------------------------------------------------------------------ checks

    def need(self, status: str) -> None:
        if self.live.status != status:
            raise WrongPhase(status=self.live.status, need=status)

    def playing_seat(self, user_id: int) -> int:
        """The seat of ``user_id`` in a game under way (NotInGame / WrongPhase otherwise)."""
        seat = self.live.seat_of(user_id)
        if seat is None:
            raise NotInGame()
        self.need("active")
        return seat

    def need_host(self, user_id: int) -> None:
        live = self.live
        if live.seat_of(user_id) is None:
            raise NotInGame()
        if live.host_id != user_id:
            raise NotHost(host_id=live.host_id)

    @contextlib.asynccontextmanager
    async def moved_on(self) -> AsyncIterator[None]:
        """Another process (shard) wrote first: reload the game and refuse as stale."""
        try:
            yield
        except VersionConflict:
            await self.reload()
            raise StaleButton("someone acted first") from None

    # ------------------------------------------------------------------ the engine steps

    async def apply(
        self,
        seat: int,
        key: ActionKey,
        *,
        timeout: bool = False,
        then_ai: bool = False,
    ) -> list[GameEvent]:
        """Apply one action and commit it; the state changes only after the commit.

        With ``then_ai`` the AI replies that follow are worked out too and committed in the
        same log entry (one durable write for a press and everything it sets off)."""
        live, engine = self.live, self.engine
        old = live.state
        try:
            state, events = engine.apply(old, seat, key)
        except EngineIllegal as error:
            raise IllegalMove(reason_of(error)) from error
        # the log holds the engine's own action JSON (services.action_codec)
        entry: dict[str, Any] = {"k": "act", "a": engine.log_action(old, seat, key)}
        if timeout:
            entry["timeout"] = True
        steps: list[list[Any]] = []
        provisional: list[tuple[int, Any, list[GameEvent]]] = []
        own = list(events)
        if then_ai:
            steps, provisional, ai_events = self._simulate_ai(state)
            if steps:
                entry["ai"] = steps
                events = [*events, *ai_events]
        after = provisional[-1][1] if provisional else state

        def settle(target: LiveGame, at: float) -> None:
            target.state = state
            self._bookkeep(target, seat, old, at)
            target.steps.append((seat, old, state, own))
            self._settle_steps(target, state, provisional, at)

        snapshot = self._snapshot_due(after, settle)
        windows = self.windows_shown(events, after)
        await self.commit(seat, entry, after=after, snapshot=snapshot, windows=windows)
        settle(live, self.context.clock())
        if timeout:
            # a claim that timed out passes quietly: who could claim is never public
            quiet = engine.phase(old) == "claim"
            note = GameEvent(
                "timeout", seat=seat, visible_to=seat if quiet else None, data={"kind": key.kind}
            )
            events = [note, *events]
        await self.record_if_over()
        return list(events)

    async def set_auto(self, seat: int, on: bool) -> list[GameEvent]:
        """The seat goes on / comes off 托管 (committed before this returns)."""

        def settle(target: LiveGame, _at: float) -> None:
            target.seats[seat].auto = on

        snapshot = self._snapshot_due(self.live.state, settle)
        await self.commit(seat, {"k": "auto", "on": on}, snapshot=snapshot)
        settle(self.live, 0.0)
        return [GameEvent("auto", seat=seat, data={"on": on})]

    def _simulate_ai(
        self, state: Any
    ) -> tuple[list[list[Any]], list[tuple[int, Any, list[GameEvent]]], list[GameEvent]]:
        """AI seats and seats on 托管 acting from ``state`` until a human decision is
        needed, in memory: ``(steps for the log, (seat, state after, its events) per step,
        events)``.
        A failing AI plays the safe default (see :mod:`services.autoplay`)."""
        live = self.live
        run = run_robots(self.engine, live.seats, state, live.id, max_steps=MAX_AUTO_STEPS)
        return run.steps, run.provisional, run.events

    async def advance(self) -> list[GameEvent]:
        """Let AI seats and seats on 托管 act until a human decision is needed.

        Their actions are applied in memory and committed together as one ``ai`` log entry
        (one durable write instead of one per action); nothing is delivered before it.
        """
        live = self.live
        if live.state is None or live.status != "active":
            return []
        steps, provisional, events = self._simulate_ai(live.state)
        if not steps:
            return []
        old = live.state

        def settle(target: LiveGame, at: float) -> None:
            self._settle_steps(target, old, provisional, at)

        after = provisional[-1][1]
        snapshot = self._snapshot_due(after, settle)
        windows = self.windows_shown(events, after)
        await self.commit(
            None, {"k": "ai", "acts": steps}, after=after, snapshot=snapshot, windows=windows
        )
        settle(live, self.context.clock())
        await self.record_if_over()
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

    def bookkeep(self, actor: int | None, old: Any, at: float) -> None:
        """After a step the command made itself (a deal): see :func:`gamelog.bookkeep`."""
        self._bookkeep(self.live, actor, old, at)

    def _bookkeep(self, live: LiveGame, actor: int | None, old: Any, at: float) -> None:
        gamelog.bookkeep(self.engine, live, actor, old, at)

    def commitment(self, events: list[GameEvent], *, keep: bool = False) -> dict[str, Any]:
        """The fairness hash a new hand published (for the game row); with ``keep`` the game
        keeps it too, so the hand's record stores the hash as published (history shows that
        one)."""
        for event in events:
            if event.kind == "hand_started" and event.data.get("commitment"):
                published = str(event.data["commitment"])[:128]
                if keep:
                    self.live.commitment = published
                return {"seed_commitment": published}
        return {}

    # ------------------------------------------------------------------ the commit

    async def commit(
        self,
        seat: int | None,
        entry: dict[str, Any],
        *,
        after: Any = None,
        snapshot: tuple[int, dict[str, Any]] | None = None,
        windows: int = 0,
        **changes: Any,
    ) -> None:
        """Append ``entry`` to the log if the game is still at ``live.version`` (else
        `VersionConflict`, nothing written); ``changes``: game columns (seats, status…)
        written in the same compare-and-set; ``after``: the engine state the entry leads to
        (its deadlines are stored in the same transaction: the context's hooks);
        ``snapshot``: from :meth:`_snapshot_due`, stored in the same transaction too;
        ``windows``: the claim windows the change will show (:meth:`windows_shown`: a
        deadline stored with the commit waits for them)."""
        # no lock here: on SQLite the store's writers take turns and presses arriving
        # together share one commit (db.group_commit); PostgreSQL commits games in parallel
        live, context = self.live, self.context
        extra: dict[str, Any] = {}
        if changes:
            extra["changes"] = changes
        stored = context.hooks.deadlines_after(live, after, windows) if after is not None else []
        stored += context.hooks.deadlines_with_entry(live, seat, entry)
        if stored:
            extra.update(deadlines=stored, holder=context.holder)
        if snapshot is not None:
            extra["snapshot"] = snapshot[1]
        try:
            async with asyncio.timeout(COMMIT_BOUND):  # (a cancellation still cancels)
                live.version = await context.store.games.append_action(
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
        self, after: Any, settle: Callable[[LiveGame, float], None]
    ) -> tuple[int, dict[str, Any]] | None:
        """The snapshot to store with the next entry, once ``snapshot_every`` game actions
        were logged since the last: ``(engine action count, snapshot)`` of the game as it
        will be after the entry (``after``: its engine state; ``settle``: what the commit
        is followed by, run here on a copy of the game, :func:`services.gamelog.prospect`),
        or None. Stored in the entry's own transaction: no write of its own."""
        context = self.context
        if not context.snapshot_every or after is None:
            return None
        done = self.engine.action_count(after)
        if done - self.live.snapshot_at < context.snapshot_every:
            return None
        ahead = gamelog.prospect(self.live)
        at = context.clock()
        settle(ahead, at)
        context.hooks.settled(ahead, at)  # as record_if_over settles the game itself
        return done, gamelog.snapshot_of(self.engine, ahead)

    async def record_if_over(self) -> None:
        """The commit settled (the hooks: the session's 准备 check opens when the hand is
        over, so the snapshot that may follow holds it); record a finished hand in the
        store once (totals, ratings)."""
        live, engine = self.live, self.engine
        self.context.hooks.settled(live, self.context.clock())
        if live.state is None or live.recorded >= live.hand_no:
            return
        if engine.phase(live.state) not in ("hand_over", "game_over"):
            return
        result = engine.hand_result(live.state)
        if result is None:
            return
        hand = hand_input(live, result)
        live.recorded = live.hand_no
        if result.scores:  # the engine's running totals (idempotent on a resume)
            live.totals = list(result.scores)
        # written after the reply, in order with the deliveries (a restart records it again
        # if the write never happened; the store refuses a second copy)
        self.enqueue(lambda: self.store_hand(hand), lane=outbox.PUBLIC)

    async def store_hand(self, hand: HandInput) -> None:
        live, context = self.live, self.context
        try:
            recorded = await context.store.hands.record(hand)
        except DuplicateHand:
            return
        except Exception:
            log.exception("game %s: could not record hand %s", live.id, hand.hand_no)
            return
        if recorded.totals is not None and live.hand_no == hand.hand_no:
            live.totals = list(recorded.totals)
        context.hooks.hand_stored(live, hand.hand_no)

    async def close(self, status: str) -> None:
        """The game ends (``finished`` / ``abandoned``): written with the version check,
        its timers stopped, its ending queued; kept held a while, then let go."""
        live, context = self.live, self.context
        context.hooks.closing(live)
        # only if nobody changed the game meanwhile (another process): VersionConflict else
        await context.store.games.update(live.id, status=status, expected_version=live.version)
        log.info("game %s: %s after %d hand(s)", live.id, status, live.hand_no)
        live.status = status
        context.held.finished(self)  # kept a while, then let go (services.held)
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        context.deadline_changed(live, "play", None)
        context.deadline_changed(live, "session", None)
        summary = self.summary()
        self.enqueue(lambda: self.announce_ending(summary, status))

    async def announce_ending(self, summary: GameSummary, status: str) -> None:
        """Deliver the game's ending (the final standings); once delivered, the session
        notes it posted (the hooks)."""
        await self.context.delivery.game_ended(summary, status)
        await self.context.hooks.ending_posted(self.live)

    async def reload(self) -> None:
        """Take the game as stored (another process wrote it): the log is replayed into a
        fresh copy and what it decides is taken over; what only this process knows (its
        deliveries, its timers) stays."""
        live, context = self.live, self.context
        loaded = await context.store.games.load(live.id)
        fresh = LiveGame.from_info(loaded.game)
        gamelog.replay(self.engine, fresh, loaded)
        for name in ("status", "version", "totals", "seats", "state", "hand_no", "cfg", "session"):
            setattr(live, name, getattr(fresh, name))
        live.window_at = fresh.window_at
        live.episodes = fresh.episodes
        live.steps.clear()
        live.recorded = max(live.recorded, fresh.recorded)
        if context.held.get(live.id) is self:
            context.held.reindex(self)  # its seats may have changed

    # ------------------------------------------------------------------ after a change

    def after_change(
        self,
        events: list[GameEvent],
        *,
        force_private: bool = False,
        actor: int | None = None,
    ) -> bool:
        """Show a change (:meth:`show_change`); around it, the hooks — a hand that ended
        opens its 准备 check first (shown with its result), and the session timer is re-armed
        after every change. Returns True when the change is shown in moments."""
        hooks = self.context.hooks
        hooks.settled(self.live, self.context.clock())
        shown = self.show_change(events, force_private=force_private, actor=actor)
        hooks.changed(self.live)
        return shown

    def show_change(
        self,
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
        live, context, engine = self.live, self.context, self.engine
        steps, live.steps = live.steps, []
        if live.status != "active" or live.state is None:
            return False
        gamelog.update_prompts(engine, live)
        self.end_waited_episodes(actor)
        public = [e for e in events if e.visible_to is None]
        phase = engine.phase(live.state)
        humans = self.humans_seated()  # nobody to show moments to, else
        hold = context.claim_hold if humans else 0.0
        kongs = engine.kongs_robbable(live.state)  # every added kong shows a window too
        plan = None
        if humans:
            plan = reveal.plan(
                engine,
                steps,
                public,
                pace=context.pace(live),
                hold=hold,
                holds=context.holds,
                final_phase=phase,
                kongs=kongs,
            )
        shown: list[reveal.Moment] = []
        if plan is not None:
            shown, public = plan
            waits = sum(m.pause for m in shown) + max(0.0, live.hold_until - context.clock())
            live.window_at = max(live.window_at, context.clock() + waits)
        self.rearm()
        summary = self.summary()
        table = engine.table_view(live.state)
        held = False  # the next public change waits for the window on show to be up
        for moment in shown:
            if not held and hold > 0:
                held = True
                self.enqueue(self._hold_over, lane=outbox.PUBLIC)
            shown_as = replace(summary, phase=moment.phase, deadline=None)
            job = partial(context.delivery.table_changed, shown_as, moment.view, moment.events)
            self.enqueue(job, lane=outbox.PUBLIC)
            self.enqueue(partial(context.pause, moment.pause), lane=outbox.PUBLIC)
        # the table is edited only when it shows something new: an edit when one seat passes
        # in a claim window the others still decide on would tell the table someone could
        # claim (and when they answered)
        seen = (table, summary.totals, tuple(s.auto for s in summary.seats), summary.deadline)
        if public or force_private or plan is not None or seen != live.public_seen:
            live.public_seen = seen
            if not held and hold > 0:
                self.enqueue(self._hold_over, lane=outbox.PUBLIC)
            self.enqueue(
                lambda: context.delivery.table_changed(summary, table, public), lane=outbox.PUBLIC
            )
            if hold > 0 and phase == "claim" and any(reveal.opens_window(e, kongs) for e in public):
                # a human may claim (or rob the kong): the window shown now is held like any
                # other
                until = reveal.hold_seconds(hold, context.holds)
                self.enqueue(lambda: self._hold_from_now(until), lane=outbox.PUBLIC)
        dealt = any(e.kind == "hand_started" for e in events)
        for seat, s in enumerate(live.seats):
            if s.ai or s.user_id is None:
                continue
            mine = tuple(e for e in events if e.visible_to == seat)
            update = self.private(seat, mine, table)
            if force_private or mine or live.delivered.get(seat) != update.hand:
                live.delivered[seat] = update.hand
                self.enqueue(
                    partial(context.delivery.hand_changed, summary, update),
                    lane=outbox.PRIVATE,
                    **_hand_keys(seat, update, dealt, live.hand_no),
                )
        if engine.phase(live.state) in ("hand_over", "game_over") and any(
            e.kind in ("hand_ended", "won", "drawn_hand") for e in events
        ):
            result = engine.hand_result(live.state)
            if result is not None:
                context.results.queue(live, summary, result, table)
        return plan is not None

    def humans_seated(self) -> bool:
        """Whether a human sits at the table: moments and claim windows are shown (held)
        only to humans (:meth:`show_change`)."""
        return not all(s.ai for s in self.live.seats)

    def windows_shown(self, events: list[GameEvent], after: Any) -> int:
        """How many claim windows showing ``events`` (a change leading to ``after``) holds
        on the table — a discard's, or an added kong's the variant lets be robbed — when a
        human sits at the table (:meth:`show_change`; none are held for AI alone)."""
        if not self.humans_seated():
            return 0
        kongs = self.engine.kongs_robbable(after)
        return sum(1 for e in events if e.visible_to is None and reveal.opens_window(e, kongs))

    def end_waited_episodes(self, actor: int | None) -> None:
        """A seat that was not asked when the last change was shown, and did not make this
        one, waited on the others: its episode is over (asked again now, it gets a new
        alert). Its own press keeps it (a kong the others may rob, then its replacement
        draw); :func:`services.gamelog.track_episodes` handles the steps in between."""
        live, engine = self.live, self.engine
        pending = set(engine.pending_seats(live.state))
        if engine.phase(live.state) not in ("turn", "claim"):
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

    async def _hold_over(self) -> None:
        """Wait until the claim window on show has been up its hold time."""
        await self.context.pause(self.live.hold_until - self.context.clock())

    async def _hold_from_now(self, seconds: float) -> None:
        self.live.hold_until = self.context.clock() + seconds

    def private(
        self,
        seat: int,
        events: tuple[GameEvent, ...],
        table: TableView | None = None,
        *,
        state: Any = None,
    ) -> PrivateUpdate:
        """The seat's hand now (or at ``state``, one of the moments of a change), with its
        alert episode when it is asked to decide."""
        live, engine = self.live, self.engine
        now = state is None or state is live.state
        state = live.state if state is None else state
        hand = engine.hand_view(state, seat)
        hints: tuple[tuple[int, int], ...] = ()
        if live.cfg.get("hints", True) and hand.waits:
            hints = wait_hints(hand, table or engine.table_view(state))
        user_id = live.seats[seat].user_id or 0
        alert = live.episodes.get(seat, 0) if hand.legal and now else 0
        kind = ("turn" if engine.phase(state) == "turn" else "claim") if alert else ""
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

    def summary(self) -> GameSummary:
        """The game as it is now."""
        return self.context.summary(self.live)

    def enqueue(
        self,
        job: Callable[[], Awaitable[None]],
        *,
        key: Any = None,
        also: tuple[Any, ...] = (),
        lane: str = outbox.BOTH,
    ) -> None:
        """Queue a delivery of this game (:meth:`TableContext.enqueue`)."""
        self.context.enqueue(self.live, job, key=key, also=also, lane=lane)

    # ------------------------------------------------------------------ after a restart

    async def resume(self) -> None:
        """After a restart: finish any AI turns, re-arm the timers, refresh the table and
        re-deliver every human's hand, and deliver again a result the restart may have
        left unposted; the session shows itself as it is (the hooks)."""
        live, context = self.live, self.context
        async with self.lock:
            events: list[GameEvent] = []
            if live.status == "active" and live.state is not None:
                await self.record_if_over()
                events = await self.advance()
            summary = self.summary()
            if live.state is None:
                self.enqueue(lambda: context.delivery.lobby_changed(summary))
                return
            # results a deal at once left owed go first (the table is refreshed after them)
            await context.results.queue_owed(live)
            view = self.engine.table_view(live.state)
            self.enqueue(lambda: context.delivery.refresh(summary, view))
            live.delivered.clear()
            self.after_change(events, force_private=True)
            self._result_owed(events)
            context.hooks.resumed(live)

    def _result_owed(self, events: list[GameEvent]) -> None:
        """A hand that ended before the restart: its result (摊牌, payments, the seed
        reveal) is delivered again unless the change just made delivers it or it is known
        to have gone out (:mod:`services.results_owed`) — the process may have died after
        the last action was committed and before the result went out (the delivery posts it
        once: it remembers what it showed)."""
        live, engine, results = self.live, self.engine, self.context.results
        if live.state is None or live.status != "active":
            return
        if engine.phase(live.state) not in ("hand_over", "game_over"):
            return
        if any(e.kind in ("hand_ended", "won", "drawn_hand") for e in events):
            return  # after_change queued it
        if results.posted(live, live.hand_no):
            return  # it went out before (services.results_owed)
        result = engine.hand_result(live.state)
        if result is None:
            return
        results.queue(live, self.summary(), result, engine.table_view(live.state))

    # ------------------------------------------------------------------ asked by the delivery

    def decision_open(self, seat: int, prompt: int) -> bool | None:
        """Whether ``seat`` is still asked the decision its hand update of prompt version
        ``prompt`` showed, as committed (:meth:`services.game.GameService.decision_open`);
        None before the first deal."""
        live = self.live
        if live.state is None:
            return None
        if live.status != "active" or not 0 <= seat < len(live.seats):
            return False
        if live.seats[seat].robot or not live.legal.get(seat):
            return False
        return live.prompt_version.get(seat, 0) == prompt

    # ------------------------------------------------------------------ the timeout

    def rearm(self) -> None:
        """(Re)start the game's timeout for the decision now awaited from humans."""
        live, context = self.live, self.context
        timeout = awaited_timeout(self.engine, live, context.turn_timeout, context.claim_timeout)
        context.deadlines.arm(live, timeout)
        context.deadline_changed(live, "play", live.deadline)

    async def deadline_expired(self, version: int) -> None:
        """The turn / claim timer armed at ``version`` ran out: the humans' time is up
        (the hooks: play answers it), unless another process sharing the database fires
        it."""
        hooks = self.context.hooks
        if await hooks.may_fire(self.live, "play", version):
            await hooks.timed_out(self, version)


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
