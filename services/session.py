"""The session around the hands, as Jiangxi room-card tables play it (房卡麻将).

- **Length**: a game is opened for 4 / 8 / 16 hands or 1 / 2 / 4 rounds (圈) and ends by
  itself when its last hand ends, with the final standings (:mod:`services.session_state`).
- **准备**: after each hand every human presses 准备 (AI seats and seats on 托管 are ready at
  once); the next hand is dealt when all are ready, or when the ready timeout passes — the
  absent then go on 托管.
- **解散**: ending a started game early takes a vote. Any seated human proposes; the other
  humans agree or refuse; silence until the vote timeout agrees; one refusal keeps the game
  going; AI seats agree; a proposer waits two minutes before proposing again. A server
  manager still ends a game at once (:meth:`Session.abandon`, logged).
- **再来一局**: an ended game's players press 再来一局 on its standings: the first press opens
  a lobby with the same variant, options and length, the others join it, and it starts once
  every human of the old game sits in it (or when its host starts it).

**The ending is never lost.** The ``end`` entry marks the game's ending (its last hand's
result, its final standings) owed in the same write (``ending_owed``); the mark is cleared only
once the delivery of the ending returned. A process killed in between — right after the last
hand's last action — leaves it owed, and the next start-up posts it from the stored log
(:meth:`Session.resume_endings`; the delivery posts each message once). Sharing the
database, the deadlines a commit leads to are stored in the same transaction — a hand's
turns and its end, a 准备 press, a 解散 vote, a 托管 toggle
(:mod:`services.stored_deadlines`) — so another process fires them. A
hand's result still owed when the next hand is dealt (a table of AI and 托管 seats deals at
once) is noted in that deal's entry, and a restart posts it (:mod:`services.results_owed`).

Every press is a log entry written under the game's lock with the version check, so it is
applied exactly once, and the session is part of every snapshot: after a restart a ready
check or a vote goes on with the same deadline. One timer per game (besides the turn timer
of :mod:`services.deadlines`) fires what the session waits for: the ready timeout, the vote
timeout, the next hand once everyone is ready, the end of a finished session.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from db.types import VersionConflict
from services import outbox
from services.core import GameCore
from services.delivery import GameSummary
from services.errors import NoSuchGame, NotInGame, ServiceError, StaleButton, WrongPhase
from services.gamelog import LiveGame
from services.lobby import Lobby
from services.logged import logged
from services.model import GameEvent, HandResult
from services.play import Play
from services.recording import hand_input, with_commitment
from services.session_state import (
    PROPOSE_COOLDOWN,
    SessionInfo,
    VoteInfo,
    apply_entry,
    complete,
    open_ready_check,
    progress,
    standings,
)
from services.table import Table

log = logging.getLogger(__name__)


class AlreadyReady(ServiceError):
    """The seat pressed 准备 for this hand already."""

    key = "errors.already_ready"


class VoteCooldown(ServiceError):
    """The seat proposed 解散 less than two minutes ago (``when``: when it may again)."""

    key = "errors.vote_cooldown"


class VoteOpen(ServiceError):
    """A 解散 vote this seat proposed is still open."""

    key = "errors.vote_open"


class AlreadyVoted(ServiceError):
    """The seat answered this vote already (or proposed it)."""

    key = "errors.already_voted"


class RematchClosed(ServiceError):
    """The 再来一局 of this game has started (``game_id``) or the game has none."""

    key = "errors.rematch_closed"


class AlreadyRematch(ServiceError):
    """The user pressed 再来一局 already (``game_id``: the lobby it opened or joined)."""

    key = "errors.already_rematch"


class Session:
    """Length, 准备, 解散 and 再来一局 for :class:`services.game.GameService`: a plain
    collaborator built on the tables' change path and on the lobby and play commands. The
    tables ask it at their hook points (:class:`services.hooks.Hooks`): what a summary shows of
    the session, a hand settled, a change shown, the deadlines stored with a commit, a game
    closing, a hand's record written, an ending posted.

    ``ready_timeout`` / ``vote_timeout`` (seconds) are the bot's defaults, used when the
    server kept the built-in ones (the game's ``setup`` entry holds the server's own)."""

    def __init__(self, core: GameCore, lobby: Lobby, play: Play) -> None:
        self.core = core
        self.lobby = lobby
        self.play = play
        self.ready_timeout = 60.0
        self.vote_timeout = 60.0
        self.propose_cooldown = PROPOSE_COOLDOWN
        #: game → its session timer (the ready timeout, the vote timeout, the next deal…)
        self._timers: dict[int, asyncio.Task[None]] = {}
        #: game → the last hand whose record this process saw written
        self._stored_hands: dict[int, int] = {}
        #: games whose ending this process queued for delivery (resume leaves them alone)
        self._ending_ids: set[int] = set()

    # ------------------------------------------------------------------ queries

    def _history(self, live: LiveGame) -> tuple[dict[str, Any], ...]:
        """The ended hands of the game (the engine's summaries)."""
        if live.state is None:
            return ()
        fn = getattr(self.core.engine, "hand_history", None)
        return tuple(fn(live.state)) if fn is not None else ()

    def _hand_over(self, live: LiveGame) -> bool:
        return live.state is not None and self.core.engine.phase(live.state) in (
            "hand_over",
            "game_over",
        )

    def _complete(self, live: LiveGame) -> bool:
        """The hand is over and it was the session's last."""
        return self._hand_over(live) and complete(live.session.length, self._history(live))

    def ready_open(self, live: LiveGame) -> bool:
        """Whether the 准备 check after the hand in play waits for presses."""
        return (
            live.status == "active"
            and self._hand_over(live)
            and live.session.ready_hand == live.hand_no
            and not self._complete(live)
        )

    def _all_ready(self, live: LiveGame) -> bool:
        ready = live.session.ready
        return all(seat.robot or i in ready for i, seat in enumerate(live.seats))

    def _may_deal(self, live: LiveGame) -> bool:
        """Everyone ready deals the next hand — in an open-ended (old) game only once a
        human pressed 准备 (a table left to 托管 would otherwise play on for ever)."""
        return live.session.length is not None or bool(live.session.ready)

    def _ready_deadline(self, live: LiveGame) -> float:
        return live.session.ready_at + (live.session.ready_timeout or self.ready_timeout)

    def _vote_deadline(self, live: LiveGame) -> float | None:
        vote = live.session.vote
        if vote is None:
            return None
        return vote.at + (live.session.vote_timeout or self.vote_timeout)

    def _voters(self, live: LiveGame) -> list[int]:
        """The human seats a 解散 vote asks (everyone but the proposer; AI seats agree)."""
        vote = live.session.vote
        by = vote.by if vote is not None else None
        return [
            i
            for i, seat in enumerate(live.seats)
            if not seat.ai and seat.user_id is not None and i != by
        ]

    def describe(self, live: LiveGame) -> SessionInfo:
        """The session as a game's summary shows it (length, 准备, the vote, standings,
        再来一局)."""
        s = live.session
        history = self._history(live)
        done = self._hand_over(live) and complete(s.length, history)
        vote = None
        if s.vote is not None:
            voters = tuple(self._voters(live))
            answers = tuple(
                True if seat.ai else s.vote.answers.get(i) for i, seat in enumerate(live.seats)
            )
            vote = VoteInfo(
                no=s.vote.no,
                by=s.vote.by,
                deadline=self._vote_deadline(live) or 0.0,
                answers=answers,
                result=s.vote.result,
                voters=voters,
            )
        totals = list(live.totals) if live.totals else [0] * len(live.seats)
        held = self.core._games.get(s.rematch_game) if s.rematch_game is not None else None
        target = None if held is None else held.live
        closed = target is not None and (
            target.status == "active" or (target.status != "lobby" and target.hand_no > 0)
        )
        return SessionInfo(
            length=s.length,
            progress=progress(s.length, live.hand_no, history) if live.hand_no else None,
            complete=done,
            hands_played=len(history),
            ready_open=self.ready_open(live),
            ready_hand=s.ready_hand,
            ready_deadline=self._ready_deadline(live) if s.ready_hand else None,
            ready=tuple(seat.robot or i in s.ready for i, seat in enumerate(live.seats)),
            vote=vote,
            ended_by=s.ended_by,
            standings=standings(totals, history) if history else (),
            rematch_of=s.rematch_of,
            rematch_game=s.rematch_game,
            rematch_users=tuple(s.rematch_users),
            rematch_closed=closed,
            propose_after=tuple(
                s.proposed_at.get(i, -math.inf) + self.propose_cooldown
                for i in range(len(live.seats))
            ),
        )

    # ------------------------------------------------------------------ 准备

    async def ready(self, game_id: int, user_id: int) -> GameSummary:
        """The user presses 准备 after a hand; the next hand is dealt once every seat is
        ready. A seat on 托管 pressing it comes back."""
        return await self.core._on_fresh_copy(game_id, lambda: self._ready(game_id, user_id))

    async def _ready(self, game_id: int, user_id: int) -> GameSummary:
        """:meth:`ready` on the copy held now."""
        table = await self.core._get(game_id)
        live = table.live
        async with table.lock, table.moved_on():
            seat = table.playing_seat(user_id)
            if not self.ready_open(live):
                raise StaleButton("the next hand is not waiting for 准备")
            if seat in live.session.ready:
                raise AlreadyReady()
            events: list[GameEvent] = []
            if live.seats[seat].auto:
                events += await table.set_auto(seat, False)
            entry = {"k": "rdy", "hand": live.hand_no}
            await table.commit(seat, entry)
            apply_entry(live.session, seat, entry, self.core.clock())
            if self._all_ready(live):
                if events:
                    table.after_change(events, actor=seat)
                await self._deal_next(table)
            elif events:
                table.after_change(events, actor=seat)
            self._session_changed(live)
            self.arm(live)
        return table.summary()

    async def next_hand(self, game_id: int, user_id: int) -> GameSummary:
        """The 下一局 of before sessions: now 准备 (it deals at once when every other seat is
        ready); pressing again changes nothing."""
        try:
            return await self.ready(game_id, user_id)
        except AlreadyReady:
            return await self.core.summary(game_id)

    # ------------------------------------------------------------------ 解散

    async def propose_dissolve(self, game_id: int, user_id: int) -> GameSummary:
        """A seated human proposes ending the game (解散). While another seat's vote is open,
        proposing agrees to it."""
        return await self.core._on_fresh_copy(game_id, lambda: self._propose(game_id, user_id))

    async def _propose(self, game_id: int, user_id: int) -> GameSummary:
        """:meth:`propose_dissolve` on the copy held now."""
        table = await self.core._get(game_id)
        live = table.live
        async with table.lock, table.moved_on():
            seat = table.playing_seat(user_id)
            s = live.session
            if s.vote_open:
                assert s.vote is not None
                if seat == s.vote.by or seat in s.vote.answers:
                    raise VoteOpen()
                await self._answer(table, seat, True)
                return table.summary()
            now = self.core.clock()
            last = s.proposed_at.get(seat)
            if last is not None and now - last < self.propose_cooldown:
                wait = last + self.propose_cooldown
                raise VoteCooldown(seconds=math.ceil(wait - now), when=int(wait))
            entry = {"k": "vote", "op": "propose", "no": s.votes + 1, "at": now}
            await table.commit(seat, entry)
            apply_entry(s, seat, entry, now)
            log.info("game %s: seat %s proposed 解散 (vote %s)", live.id, seat, s.votes)
            if not self._voters(live):
                await self._vote_passed(table)
            else:
                self._session_changed(live)
                self.arm(live)
        return table.summary()

    async def answer_dissolve(
        self, game_id: int, user_id: int, agree: bool, vote_no: int | None = None
    ) -> GameSummary:
        """A human answers the open 解散 vote (``vote_no``: the vote its button was for)."""
        return await self.core._on_fresh_copy(
            game_id, lambda: self._answer_vote(game_id, user_id, agree, vote_no)
        )

    async def _answer_vote(
        self, game_id: int, user_id: int, agree: bool, vote_no: int | None
    ) -> GameSummary:
        """:meth:`answer_dissolve` on the copy held now."""
        table = await self.core._get(game_id)
        async with table.lock, table.moved_on():
            seat = table.playing_seat(user_id)
            vote = table.live.session.vote
            if vote is None or not vote.open or (vote_no is not None and vote_no != vote.no):
                raise StaleButton("that vote is over")
            if seat == vote.by or seat in vote.answers:
                raise AlreadyVoted()
            await self._answer(table, seat, agree)
        return table.summary()

    async def _answer(self, table: Table, seat: int, agree: bool) -> None:
        live = table.live
        vote = live.session.vote
        assert vote is not None
        entry = {"k": "vote", "op": "yes" if agree else "no", "no": vote.no}
        await table.commit(seat, entry)
        apply_entry(live.session, seat, entry, self.core.clock())
        if not agree:
            log.info("game %s: seat %s refused 解散 (vote %s)", live.id, seat, vote.no)
        elif all(v in vote.answers for v in self._voters(live)):
            await self._vote_passed(table)
            return
        self._session_changed(live)
        self.arm(live)

    async def _vote_passed(self, table: Table, *, expired: bool = False) -> None:
        """Everyone agreed (or kept silent until the deadline): the game ends, its standings
        marked 解散."""
        live = table.live
        vote = live.session.vote
        entry: dict[str, Any] = {"k": "end", "why": "vote"}
        if vote is not None:
            entry["no"] = vote.no
        if expired:
            entry["expired"] = True
        await table.commit(None, entry, ending_owed=True)
        apply_entry(live.session, None, entry, self.core.clock())
        log.info("game %s: dissolved by vote%s", live.id, " (timed out)" if expired else "")
        self._session_changed(live)
        await table.close("finished" if self._history(live) else "abandoned")

    async def end_game(self, game_id: int, user_id: int) -> GameSummary:
        """The 结束对局 of before sessions: now a 解散 proposal (it ends the game at once when
        no other human is seated)."""
        return await self.propose_dissolve(game_id, user_id)

    async def abandon(self, game_id: int, user_id: int, *, admin: bool = False) -> GameSummary:
        """A lobby: its host (or a server manager, ``admin``) closes it. A started game: a
        server manager ends it at once (logged); its host proposes 解散 instead (the returned
        game is still ``active`` then)."""
        table = await self.core._get(game_id)
        live = table.live
        if live.status == "active" and not admin:
            table.need_host(user_id)
            return await self.propose_dissolve(game_id, user_id)
        async with table.lock, table.moved_on():
            if live.status not in ("lobby", "active"):
                raise WrongPhase("the game is over")
            if not admin:
                table.need_host(user_id)
            if live.status == "active":
                entry = {"k": "end", "why": "admin", "by": user_id}
                await table.commit(None, entry, ending_owed=True)
                apply_entry(live.session, None, entry, self.core.clock())
                log.info("game %s: ended at once by server manager %s", live.id, user_id)
                self._session_changed(live)
            elif admin:
                log.info("game %s: lobby closed by server manager %s", live.id, user_id)
            await table.close("abandoned")
        return table.summary()

    # ------------------------------------------------------------------ the end

    async def _end_by_length(self, table: Table) -> None:
        live = table.live
        entry = {"k": "end", "why": "length"}
        await table.commit(None, entry, ending_owed=True)
        apply_entry(live.session, None, entry, self.core.clock())
        log.info("game %s: its %s are played", live.id, live.session.length)
        await table.close("finished")

    async def _close_ended(self, table: Table) -> None:
        """The game's ``end`` entry is in the log but the game was never closed (the process
        died between the two writes): close it now."""
        live = table.live
        log.info(
            "game %s: ended (%s) before the restart; closing it", live.id, live.session.ended_by
        )
        played = bool(self._history(live)) and live.session.ended_by != "admin"
        await table.close("finished" if played else "abandoned")

    def closing(self, live: LiveGame) -> None:
        """The game is being closed: its session timer stops; an ended session's ending is
        queued by this process (a resume pass leaves it alone)."""
        timer = self._timers.pop(live.id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()
        if live.session.ended_by is not None:
            self._ending_ids.add(live.id)

    # ------------------------------------------------------------------ the hand's record

    def hand_stored(self, live: LiveGame, hand_no: int) -> None:
        """Hand ``hand_no``'s record was written (or found written): no need to write it
        before the next deal."""
        stored = self._stored_hands
        stored[live.id] = max(stored.get(live.id, 0), hand_no)

    async def _deal_next(self, table: Table) -> None:
        """The ended hand's record (totals, ratings) is written before the next hand is
        dealt, unless its queued write ran already: once the game is past the hand, a restart
        could not rebuild the record (it records the hand the game stands at). A table of AI
        and 托管 seats deals the next hand at once, before the queued write may have run."""
        live = table.live
        if (
            live.state is not None
            and self._hand_over(live)
            and self._stored_hands.get(live.id, 0) < live.hand_no
        ):
            result = self.core.engine.hand_result(live.state)
            if result is not None:
                await table.store_hand(hand_input(live, result))  # a copy is refused
        await self.play.deal_next(table)

    # ------------------------------------------------------------------ the ending is posted

    async def ending_posted(self, live: LiveGame) -> None:
        """The ending's delivery returned: note it posted (``ending_owed`` cleared) — only
        then: a send that failed, or a crash before it, leaves it owed, and the next start-up
        posts it (:meth:`resume_endings`). The delivery remembers what it posted, so a crash
        between its send and this note re-posts at most that one message."""
        self._stored_hands.pop(live.id, None)  # (its records were queued before)
        if live.session.ended_by is None:
            return  # a lobby closed: it owed nothing
        try:
            await self.core.store.games.ending_posted(live.id)
        except Exception:  # posted all the same: the next start-up checks it again
            log.exception("game %s: could not note its ending posted", live.id)

    async def resume_endings(
        self, serves_guild: Callable[[int], bool] | None = None
    ) -> list[GameSummary]:
        """After a restart: every game that ended but whose ending was never known posted —
        the process died right after the last hand's last action, or before the result and
        the final standings went out — gets them now, rebuilt from the stored log: the last
        hand is recorded (a second copy is refused), its result (摊牌, payments, the seed
        reveal) and the final standings are delivered (the delivery posts each once).
        ``serves_guild``: only the games of those servers (see ``resume_all``)."""
        out: list[GameSummary] = []
        for loaded in await self.core.store.games.load_ending_owed():
            info = loaded.game
            if serves_guild is not None and not serves_guild(info.guild_id):
                continue
            if info.id in self._ending_ids:
                continue  # this process closed it: its ending is queued already
            try:
                table = self.core._games.get(info.id)
                if table is None:
                    live = self.core._live_from_info(info)
                    self.core._replay(live, loaded)
                    table = self.core._hold(self.core._new_table(live))
                await self._owe_ending(table)
                out.append(table.summary())
            except Exception:
                log.exception("could not post the ending of game %s", info.id)
        return out

    async def _owe_ending(self, table: Table) -> None:
        live = table.live
        async with table.lock:
            self._ending_ids.add(live.id)
            status = live.status
            await self.core.results.queue_owed(live)
            result: HandResult | None = None
            if live.state is not None and self._hand_over(live):
                await table.record_if_over()
                if not self.core.results.posted(live, live.hand_no):
                    result = self.core.engine.hand_result(live.state)
            summary = table.summary()
            if result is not None:
                view = self.core.engine.table_view(live.state)
                # the reveal shows the hash published when the hand started (the delivery
                # of a game it never refreshed does not know it)
                reveal = with_commitment(result.seed_reveal, live.commitment)
                done = replace(result, seed_reveal=reveal)
                self.core.results.queue(live, summary, done, view)
            table.enqueue(lambda: table.announce_ending(summary, status))
            self.core._games.finished(table)
            log.info("game %s: its ending is posted again after the restart", live.id)

    # ------------------------------------------------------------------ 再来一局

    async def rematch(
        self, game_id: int, user_id: int, name: str, *, locale: str | None = None
    ) -> GameSummary:
        """A player of the ended game ``game_id`` presses 再来一局: the first press opens the
        new lobby (same variant, options and length), the others join it; it starts once
        every human of the old game sits in it. Returns the new lobby."""
        old_table = await self.core._get(game_id)
        old = old_table.live
        async with old_table.lock, old_table.moved_on():
            if old.status not in ("finished", "abandoned"):
                raise WrongPhase("the game is still on")
            seat = old.seat_of(user_id)
            if seat is None:
                raise NotInGame()
            s = old.session
            if user_id in s.rematch_users:
                raise AlreadyRematch(game_id=s.rematch_game)
            target: LiveGame | None = None
            if s.rematch_game is not None:
                try:
                    target = (await self.core._get(s.rematch_game)).live
                except NoSuchGame:
                    target = None
                if target is not None and target.status != "lobby":
                    if target.status == "active" or target.hand_no > 0:
                        raise RematchClosed(game_id=target.id)
                    target = None  # the rematch lobby was closed: open another
            if target is None:
                made = await self.lobby.create_game(
                    old.guild_id,
                    old.channel_id,
                    user_id,
                    name,
                    old.variant,
                    dict(old.options),
                    locale=locale,
                    length=s.length,
                    rematch_of=old.id,
                )
                target = (await self.core._get(made.id)).live
            else:
                await self.lobby.join(target.id, user_id, name, locale=locale)
            entry = {"k": "rematch", "game": target.id, "user": user_id}
            await old_table.commit(seat, entry)
            apply_entry(s, seat, entry, self.core.clock())
            log.info("game %s: %s pressed 再来一局 (game %s)", old.id, user_id, target.id)
            self._session_changed(old)
        await self._start_rematch_if_all_in(target)
        return await self.core.summary(target.id)

    async def join(
        self, game_id: int, user_id: int, name: str, *, locale: str | None = None
    ) -> GameSummary:
        summary = await self.lobby.join(game_id, user_id, name, locale=locale)
        table = self.core._games.get(game_id)
        if table is not None and table.live.session.rematch_of is not None:
            await self._start_rematch_if_all_in(table.live)
            return await self.core.summary(game_id)
        return summary

    async def start(self, game_id: int, user_id: int) -> GameSummary:
        summary = await self.lobby.start(game_id, user_id)
        table = self.core._games.get(game_id)
        if table is not None and table.live.session.rematch_of is not None:
            old = self.core._games.get(table.live.session.rematch_of)
            if old is not None:
                self._session_changed(old.live)  # its 再来一局 button goes
        return summary

    async def _start_rematch_if_all_in(self, new: LiveGame) -> None:
        """Start the rematch lobby once every human of the old game sits in it."""
        if new.status != "lobby" or new.session.rematch_of is None:
            return
        try:
            old = (await self.core._get(new.session.rematch_of)).live
        except NoSuchGame:
            return
        humans = {s.user_id for s in old.seats if not s.ai and s.user_id is not None}
        seated = {s.user_id for s in new.seats if not s.ai}
        host = new.host_id
        if humans and humans <= seated and host is not None:
            with contextlib.suppress(WrongPhase):  # the host started it a moment ago
                await self.start(new.id, host)

    # ------------------------------------------------------------------ after a change

    def changed(self, live: LiveGame) -> None:
        """A change was shown: the session timer is re-armed for what is awaited now."""
        self.arm(live)

    def settled(self, live: LiveGame, at: float) -> None:
        """A commit settled (or will, for the copy a snapshot is taken of): when the hand is
        over its 准备 check opens at ``at`` — before the hand is recorded, so the snapshot
        that may follow holds it, and before the change is shown, with its result."""
        if live.status == "active" and self._hand_over(live):
            open_ready_check(live.session, live.hand_no, at)

    def _session_changed(self, live: LiveGame) -> None:
        """Queue ``session_changed`` for delivery: the ready state on the result message, the
        vote message, the standings' 再来一局."""
        notify = getattr(self.core.delivery, "session_changed", None)
        if notify is None:
            return
        context = self.core.context
        summary = context.summary(live)
        result: HandResult | None = None
        if self._hand_over(live):
            result = self.core.engine.hand_result(live.state)
        context.enqueue(live, lambda: notify(summary, result), lane=outbox.PUBLIC)

    def resumed(self, live: LiveGame) -> None:
        """After a restart (under the lock): show the session as it is, re-arm its timer."""
        if live.status == "active":
            if live.session.vote is not None or self._hand_over(live):
                self._session_changed(live)
            self.arm(live)

    # ------------------------------------------------------------------ the session timer

    def due(self, live: LiveGame) -> float | None:
        """When the session must act next (epoch seconds), or None."""
        if live.status != "active" or live.state is None:
            return None
        now = self.core.clock()
        if live.session.ended_by is not None:
            return now  # ended before a restart, never closed
        due: list[float] = []
        if live.session.vote_open:
            deadline = self._vote_deadline(live)
            if deadline is not None:
                due.append(deadline)
        if self._complete(live):
            due.append(now)
        elif self.ready_open(live):
            if not self._all_ready(live):
                due.append(self._ready_deadline(live))
            elif self._may_deal(live):
                due.append(now)
        return min(due) if due else None

    def arm(self, live: LiveGame) -> None:
        """(Re)start the game's session timer for what the session waits for now."""
        timers = self._timers
        old = timers.pop(live.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if self.core.context.stopping.is_set():
            return
        due = self.due(live)
        self.core.context.deadline_changed(live, "session", due)
        if due is None:
            return
        timers[live.id] = asyncio.create_task(
            self._session_wait(live, due), name=f"mj-session-{live.id}"
        )

    async def _session_wait(self, live: LiveGame, due: float) -> None:
        await asyncio.sleep(max(0.0, due - self.core.clock()))
        await logged(self.fire(live), log, "game %s: session timer failed", live.id)

    async def fire(self, live: LiveGame) -> None:
        """The session timer ran out: act on what is due, unless another process sharing the
        database fires it (the core's :attr:`~services.core.GameCore.hooks`)."""
        if await self.core.hooks.may_fire(live, "session", live.version):
            await self.run(self.core._table_of(live))

    async def run(self, table: Table) -> None:
        """Act on what the session waits for (under the lock), then re-arm its timer."""
        live = table.live
        async with table.lock:
            if self._timers.get(live.id) is asyncio.current_task():
                self._timers.pop(live.id, None)
            if live.status != "active" or self.core.context.stopping.is_set():
                return
            try:
                await self._session_act(table)
            except VersionConflict:
                await table.reload()  # another process moved the game on
            if live.status == "active":
                self.arm(live)

    async def _session_act(self, table: Table) -> None:
        """Whatever is due now: an expired vote passes, a finished session ends, a ready
        check deals the next hand (the absent go on 托管 when it timed out)."""
        live = table.live
        now = self.core.clock()
        s = live.session
        if s.ended_by is not None:
            await self._close_ended(table)
            return
        deadline = self._vote_deadline(live)
        if s.vote_open and deadline is not None and now >= deadline:
            await self._vote_passed(table, expired=True)
            return
        if self._complete(live):
            await self._end_by_length(table)
            return
        if not self.ready_open(live):
            return
        if self._all_ready(live):
            if self._may_deal(live):
                await self._deal_next(table)
                self._session_changed(live)
            return
        if now < self._ready_deadline(live):
            return
        events: list[GameEvent] = []
        for i, seat in enumerate(live.seats):
            if not seat.robot and i not in s.ready:
                events += await table.set_auto(i, True)
        log.info("game %s: 准备 timed out; absent seats on 托管", live.id)
        if events:
            table.after_change(events)
        if self._all_ready(live) and self._may_deal(live):
            await self._deal_next(table)
        self._session_changed(live)

    def close(self) -> list[asyncio.Task[None]]:
        """Shut-down: no session timer fires any more; returns the cancelled tasks."""
        tasks = list(self._timers.values())
        self._timers.clear()
        for task in tasks:
            if task is not asyncio.current_task():
                task.cancel()
        return tasks
