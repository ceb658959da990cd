"""The hook points of the change path: where the parts around the core — play
(:mod:`services.play`), the session (:mod:`services.session`), the database shared with
other processes (:mod:`services.cluster`) — add what they do, without overriding it.

A game's table (:class:`services.table.Table`) calls each hook at one named moment of a
change; a core alone (no session, one process) does nothing there, stores no deadline and may
fire every one. The service (:class:`services.game.GameService`) fills them in when it puts its
parts together.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from services.gamelog import LiveGame
from services.session_state import SessionInfo

if TYPE_CHECKING:
    from services.table import Table

#: ``(game, "play" | "session", due)``: a deadline of the game was armed or cleared
DeadlineChanged = Callable[[LiveGame, str, float | None], None]
#: ``(game, "play" | "session", version)``: may this process fire that deadline?
MayFire = Callable[[LiveGame, str, int], Awaitable[bool]]
#: ``(table, version)``: the humans awaited at ``version`` ran out of time (the table: the
#: answer is a change, under its lock)
TimedOut = Callable[["Table", int], Awaitable[None]]
#: ``(game, engine state after the commit, claim windows its change shows)``: deadlines to
#: store with that commit
DeadlinesAfter = Callable[[LiveGame, Any, int], list[Any]]
#: ``(game, seat, log entry)``: deadlines to store with an entry that moves no engine state
DeadlinesWithEntry = Callable[[LiveGame, int | None, dict[str, Any]], list[Any]]


def _nothing(*_args: Any) -> None:
    """Nothing to add at this moment."""


def _none(*_args: Any) -> list[Any]:
    """No deadline stored with the commit (one process keeps them in memory)."""
    return []


def _no_session(_live: LiveGame) -> SessionInfo | None:
    """A summary without a session (a core without one)."""
    return None


async def _always(_live: LiveGame, _kind: str, _version: int) -> bool:
    """Alone, nobody else could fire a deadline."""
    return True


async def _wait_on(_table: Table, _version: int) -> None:
    """Nobody plays for the humans who ran out of time (a core without play)."""


async def _posted(_live: LiveGame) -> None:
    """Nothing to note once an ending went out (a core without a session)."""


@dataclass
class Hooks:
    """The moments of a change at which other parts of the service take part.

    Play and the session:

    - ``timed_out``: the humans awaited ran out of time — play plays the safe default
      (:meth:`services.play.Play.timed_out`);
    - ``settled``: a commit settled (or a copy a snapshot is taken of, at ``at``) — the
      session opens the 准备 check of a hand that is over
      (:meth:`services.session.Session.settled`);
    - ``changed``: a change was shown — the session re-arms its timer;
    - ``describe``: what a game's summary shows of its session;
    - ``closing``: a game is being closed — the session stops its timer;
    - ``hand_stored``: a hand's record was written;
    - ``ending_posted``: a game's ending went out — the session notes it posted;
    - ``resumed``: a game was resumed after a restart (under its lock) — the session shows
      itself as it is and re-arms its timer.

    The database shared with other processes:

    - ``deadlines_after`` / ``deadlines_with_entry``: the deadlines stored in the same
      transaction as a commit (:mod:`services.stored_deadlines`, from the session's state);
    - ``deadline_changed``: a game's turn / claim (``play``) or 准备 / 解散 / next-hand
      (``session``) deadline was armed or cleared — it is stored;
    - ``may_fire``: a timer ran out — only the process that claims the stored deadline
      fires it.
    """

    timed_out: TimedOut = _wait_on
    settled: Callable[[LiveGame, float], None] = _nothing
    changed: Callable[[LiveGame], None] = _nothing
    describe: Callable[[LiveGame], SessionInfo | None] = _no_session
    closing: Callable[[LiveGame], None] = _nothing
    hand_stored: Callable[[LiveGame, int], None] = _nothing
    ending_posted: Callable[[LiveGame], Awaitable[None]] = _posted
    resumed: Callable[[LiveGame], None] = _nothing
    deadlines_after: DeadlinesAfter = _none
    deadlines_with_entry: DeadlinesWithEntry = _none
    deadline_changed: DeadlineChanged = _nothing
    may_fire: MayFire = _always
