"""Hands' results still owed (结果补发): a table of AI and 托管 seats deals the next hand the
moment the last one ended, before that hand's result could be posted; a process killed then
must still post it after the restart.

A result queued for delivery is owed until the delivery returned (``LiveGame.
results_unposted``, in memory). A hand dealt meanwhile notes the owed hands in its ``next``
log entry (``"owed": [3]``) — in the same write as the deal, so it is durable — and the
session keeps the last deal's note (:func:`services.session_state.note_deal`, in every
snapshot). After a restart — or when another process takes the game over, its own process
gone (:mod:`services.cluster`) — those results are rebuilt from the stored log, each as the
game stood when its hand ended, and handed over again before anything of the hand in play;
the delivery posts each result once (it remembers the hands it posted).

**A result that went out is not owed any more, durably.** Once a result's delivery returned,
the last hand whose result went out is kept with the game's remembered messages
(``games.messages["result_posted"]``, the entry the Discord delivery sets when it posts one,
:mod:`cogs.delivery.discord_delivery`; written here when the delivery did not): a later restart, or a process
taking the game over, hands over again only the results after it — the owed note of the last
deal, the hand the game stands at when it is over (:meth:`ResultsOwed.posted`).

**Handed over again, never posted twice.** A result handed over again may already be out:
the process was killed between the send and that note, the owner's send was still under way
when another process took the game over (the owner late, not dead), or Discord made the
message but its answer was lost (a time-out, a 5xx) and the delivery queue sends it again.
Every post of a hand's result carries the same nonce, built from the game and the hand
(:func:`cogs.delivery.discord_delivery.result_nonce`), whichever process sends it and whether it is the
result of the hand in play or of a past one; Discord, asked to enforce it, returns the
message that nonce already made instead of a second one. Discord keeps nonces for a few
minutes only: a result handed over again later than that (a bot down for longer, killed
between its send and the note) may still show twice.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from db.types import ActionRecord, GameInfo
from services import outbox
from services.delivery import Delivery, GameSummary
from services.gamelog import LiveGame, replay_entry
from services.model import HandResult, TableView
from services.recording import with_commitment

if TYPE_CHECKING:
    from services.engine_adapter import GameEngine
    from services.store_adapter import GameStore

log = logging.getLogger(__name__)

#: a past hand's result as handed over again: the game as it stood then, the result, the table
PastResult = tuple[GameSummary, HandResult, TableView]

#: the entry of a game's remembered messages holding the last hand whose result went out
RESULT_POSTED = "result_posted"


def result_posted(messages: Mapping[str, Any], hand: int) -> bool:
    """Whether a game's remembered ``messages`` say the result of ``hand`` went out (the
    last hand posted is at or after it)."""
    posted = messages.get(RESULT_POSTED)
    return isinstance(posted, int) and not isinstance(posted, bool) and posted >= hand


class ResultsOwed:
    """The results owed of the games one service holds (see the module docstring): a plain
    collaborator of the service, which asks it at its hook points — a result to queue, a
    deal's notes, a resume or a takeover."""

    def __init__(
        self,
        engine: GameEngine,
        store: GameStore,
        delivery: Callable[[], Delivery],
        enqueue: Callable[..., None],
        summary: Callable[[LiveGame], GameSummary],
        live_from_info: Callable[[GameInfo], LiveGame],
    ) -> None:
        self.engine = engine
        self.store = store
        self._delivery = delivery
        self._enqueue = enqueue
        self._summary = summary
        self._live_from_info = live_from_info
        #: game → the owed results this process handed over again already
        self._handed: dict[int, set[int]] = {}

    def queue(
        self,
        live: LiveGame,
        summary: GameSummary,
        result: HandResult,
        table: TableView,
        *,
        past: bool = False,
    ) -> None:
        """Queue a hand's result; until its delivery returned the hand is owed
        (``live.results_unposted``), and a hand dealt meanwhile notes it in its ``next``
        entry (:meth:`deal_notes`). ``past``: the result of a hand before the one in play
        (the delivery's ``past_result`` when it has one: the table is not touched)."""
        hand = summary.hand_no
        live.results_unposted.add(hand)
        delivery = self._delivery()
        send = getattr(delivery, "past_result", None) if past else None
        send = send or delivery.hand_ended

        async def deliver() -> None:
            noted = await send(summary, result, table)
            live.results_unposted.discard(hand)
            if noted is True:  # stored with the game's messages by the delivery itself
                live.messages = {**live.messages, RESULT_POSTED: hand}
                return
            await self._note_posted(live, hand)

        self._enqueue(live, deliver, lane=outbox.PUBLIC)  # (not behind the hand DMs)

    def posted(self, live: LiveGame, hand: int) -> bool:
        """Whether the result of ``hand`` is known to have gone out (stored with the game's
        remembered messages: a restart does not hand it over again)."""
        return result_posted(live.messages, hand)

    async def _note_posted(self, live: LiveGame, hand: int) -> None:
        """The result of ``hand`` went out: store it (unless its delivery said it stored it with
        the game's messages itself), merged over what is stored — the later hand stays
        (:mod:`db.message_refs`). A failure is logged: the result went out all the same, and
        a restart may hand it over once more (the delivery posts it once)."""
        if self.posted(live, hand):
            return
        try:
            stored = await self.store.games.merge_messages(live.id, None, {RESULT_POSTED: hand})
        except Exception:
            log.exception("game %s: could not note hand %s's result posted", live.id, hand)
            return
        posted = stored.get(RESULT_POSTED)
        live.messages = {**live.messages, RESULT_POSTED: posted if posted is not None else hand}

    def deal_notes(self, live: LiveGame) -> dict[str, Any]:
        """The ``next`` entry notes the results not gone out yet (durable with the deal: a
        restart hands them over again, :meth:`queue_owed`)."""
        owed = sorted(h for h in live.results_unposted if h <= live.hand_no)
        return {"owed": owed} if owed else {}

    async def queue_owed(self, live: LiveGame) -> None:
        """After a restart (under the lock): the results of earlier hands the last deal
        noted owed are rebuilt from the stored log and handed over again, oldest first,
        before anything of the hand in play (the delivery posts each once)."""
        handed = self._handed.setdefault(live.id, set())
        noted = {h for h in live.session.results_owed if 0 < h < live.hand_no}
        owed = sorted(h for h in noted - handed - live.results_unposted if not self.posted(live, h))
        if not owed:
            return
        handed.update(owed)  # (a takeover, then the resume pass: handed over once)
        stored = await self.store.replays.game_with_log(live.id)
        if stored is None:
            return
        info, records = stored
        for summary, result, table in self._past_results(info, records, owed):
            self.queue(live, summary, result, table, past=True)
        log.info("game %s: results of hands %s handed over again", live.id, owed)

    def queue_ended(self, live: LiveGame) -> None:
        """The hand the game stands at is over (under the lock, taking over a game another
        process held): its result is handed over again — that process may have died before
        posting it, and the next deal would leave it behind (the delivery posts it once)."""
        state = live.state
        if state is None or self.engine.phase(state) not in ("hand_over", "game_over"):
            return
        result = self.engine.hand_result(state)
        if result is None or live.hand_no in live.results_unposted:
            return
        if self.posted(live, live.hand_no):
            return
        self.queue(live, self._summary(live), result, self.engine.table_view(state))

    def _past_results(
        self, info: GameInfo, records: list[ActionRecord], hands: list[int]
    ) -> list[PastResult]:
        """The results of ``hands`` (ended hands of the game), replayed from its whole log."""
        probe = self._live_from_info(info)
        wanted = set(hands)
        out: list[PastResult] = []
        for record in records:
            if not wanted:
                break
            if record.action.get("k") == "next" and probe.hand_no in wanted:
                wanted.discard(probe.hand_no)  # the hand it deals past is over here
                past = self._result_as_ended(probe)
                if past is not None:
                    out.append(past)
            probe.version = record.seq
            replay_entry(
                self.engine, probe, record.seat, record.action, record.created_at.timestamp()
            )
        return out

    def _result_as_ended(self, probe: LiveGame) -> PastResult | None:
        """The result of the hand ``probe`` (a replayed copy) just ended, with the game as
        it stood then: its totals, the hash published when the hand started beside the seed
        reveal, no 准备 to press (the next hand was dealt)."""
        state = probe.state
        if state is None or self.engine.phase(state) not in ("hand_over", "game_over"):
            return None
        result = self.engine.hand_result(state)
        if result is None:
            return None
        if result.scores:
            probe.totals = list(result.scores)
        table = self.engine.table_view(state)
        summary = self._summary(probe)
        if summary.session is not None:
            summary = replace(summary, session=replace(summary.session, ready_open=False))
        reveal = with_commitment(result.seed_reveal, table.commitment)
        return summary, replace(result, seed_reveal=reveal), table
