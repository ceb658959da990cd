"""The hook points of the change path: where the parts around the core — play
(:mod:`services.play`), the database shared with other processes (:mod:`services.cluster`)
— add what they do, without overriding it.

The core (:class:`services.core.GameCore`) calls each hook at one named moment of a change;
alone (one process, SQLite), every hook does nothing and every deadline may fire. The
service (:class:`services.game.GameService`) fills them in when it puts its parts together.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from services.gamelog import LiveGame

#: ``(game, "play" | "session", due)``: a deadline of the game was armed or cleared
DeadlineChanged = Callable[[LiveGame, str, float | None], None]
#: ``(game, "play" | "session", version)``: may this process fire that deadline?
MayFire = Callable[[LiveGame, str, int], Awaitable[bool]]
#: ``(game, version)``: the humans awaited at ``version`` ran out of time
TimedOut = Callable[[LiveGame, int], Awaitable[None]]


def _nothing(_live: LiveGame, _kind: str, _due: float | None) -> None:
    """Alone, a deadline lives in this process's memory only."""


async def _always(_live: LiveGame, _kind: str, _version: int) -> bool:
    """Alone, nobody else could fire a deadline."""
    return True


async def _wait_on(_live: LiveGame, _version: int) -> None:
    """Nobody plays for the humans who ran out of time (a core without play)."""


@dataclass
class Hooks:
    """The moments of a change at which other parts of the service take part.

    - ``deadline_changed``: a game's turn / claim (``play``) or 准备 / 解散 / next-hand
      (``session``) deadline was armed or cleared — processes sharing a database store it;
    - ``may_fire``: a timer ran out — sharing a database, only the process that claims the
      stored deadline fires it;
    - ``timed_out``: the humans awaited ran out of time — play plays the safe default
      (:meth:`services.play.Play.timed_out`).
    """

    deadline_changed: DeadlineChanged = _nothing
    may_fire: MayFire = _always
    timed_out: TimedOut = _wait_on
