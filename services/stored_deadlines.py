"""The deadlines stored with a commit, while processes share the database.

A press (or an AI step) is committed, and the process may die right after answering it —
before its batched deadline writes (:mod:`services.cluster`). So the deadline the commit
leads to goes in the same transaction: the turn / claim (``play``) deadline a commit awaits,
the 准备 (``session``) deadline a hand's last action opens, and those a 准备 press, a 解散
vote, an ``end`` entry or a 托管 toggle set. Another process then fires them. Alone (one
process), nothing is stored: the timers live in memory.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from db.deadlines import DeadlineChange
from services.core import GameCore
from services.deadlines import awaited_timeout
from services.gamelog import LiveGame
from services.reveal import HOLD_JITTER
from services.session import Session
from services.session_state import apply_entry, complete


class StoredDeadlines:
    """Works out the deadlines to store with a commit: the core asks it at its hook points
    ``deadlines_after`` and ``deadlines_with_entry`` (:class:`services.hooks.Hooks`)."""

    def __init__(self, core: GameCore, session: Session) -> None:
        self.core = core
        self.session = session

    def deadlines_after(self, live: LiveGame, after: Any, windows: int = 0) -> list[DeadlineChange]:
        """Sharing the database: the turn / claim (``play``) or 准备 (``session``) deadline
        the game awaits at ``after``, stored in the same transaction as the commit that
        leads there — a process killed right after a press leaves it for another process to
        fire. The committing process then stores the exact one (the paced showing of AI
        moves and the held claim windows start the decision later — ``windows`` of them are
        counted at their longest hold, each being drawn when shown): these are late rather
        than early — at most by the commit's own duration early, and another process fires
        a deadline only ``grace``
        seconds after it is due."""
        if not self.core.shared or live.status != "active" or after is None:
            return []
        now = self.core.clock()
        version = live.version + 1
        engine = self.core.engine
        timeout = awaited_timeout(
            engine, live, self.core.turn_timeout, self.core.claim_timeout, after
        )
        if timeout is not None:
            old = live.state
            same_window = (
                old is not None
                and engine.phase(old) == engine.phase(after) == "claim"
                and engine.window_key(old) == engine.window_key(after)
            )
            if same_window:
                start = live.window_at
            else:  # the AI moves before it may be shown one by one, ``ai_pace`` apart, and
                # every claim window held (the one on show now first)
                moves = engine.action_count(after) - engine.action_count(old) if old else 0
                held = max(0.0, live.hold_until - now)
                longest = self.core.claim_hold * (1 + HOLD_JITTER)
                start = now + self.core.context.pace(live) * max(0, moves)
                start += held + longest * max(0, windows)
            return [DeadlineChange(live.id, "play", version, start + timeout)]
        if engine.phase(after) not in ("hand_over", "game_over"):
            return []
        # the hand ends with this commit: its 准备 check opens now (or the session ends)
        s = live.session
        fn = getattr(engine, "hand_history", None)
        history = tuple(fn(after)) if fn is not None else ()
        if complete(s.length, history) or (
            s.length is not None and all(seat.robot for seat in live.seats)
        ):
            due = now
        else:
            due = now + (s.ready_timeout or self.session.ready_timeout)
        return [DeadlineChange(live.id, "session", version, due)]

    def deadlines_with_entry(
        self, live: LiveGame, seat: int | None, entry: dict[str, Any]
    ) -> list[DeadlineChange]:
        """Sharing the database: the deadlines a 准备 press, a 解散 vote, an ``end`` entry or
        a seat's 托管 (``auto``) leads to, stored in the same transaction as that entry —
        the vote's deadline, the 准备 check still waiting for others, the next hand to deal
        or the ended game to close, the turn of a seat back from 托管. A process killed
        right after acknowledging the press (before its batched deadline writes) leaves
        them for another process to fire. Worked out on a copy of the game with the entry
        applied (the game itself changes only after the commit)."""
        kind = entry.get("k")
        if (
            not self.core.shared
            or live.status != "active"
            or live.state is None
            or kind not in ("rdy", "vote", "end", "auto")
        ):
            return []
        probe = replace(
            live, session=copy.deepcopy(live.session), seats=[replace(s) for s in live.seats]
        )
        if kind == "auto":
            if seat is not None:
                probe.seats[seat].auto = bool(entry.get("on"))
        else:
            apply_entry(probe.session, seat, entry, self.core.clock())
        version = live.version + 1
        out: list[DeadlineChange] = []
        due = self.session.due(probe)
        if due is not None:
            out.append(DeadlineChange(live.id, "session", version, due))
        if kind == "auto":
            timeout = awaited_timeout(
                self.core.engine, probe, self.core.turn_timeout, self.core.claim_timeout
            )
            if timeout is not None:
                out.append(DeadlineChange(live.id, "play", version, live.window_at + timeout))
        return out
