"""AI turn-taking: AI seats and seats on 托管 (auto-play) acting until a human must decide.

Pure (no store, no delivery): given a state, work out in memory what the robots play. The
service commits the steps as one log entry and only then takes the states over.

A robot never stalls a game: when its AI raises, or chooses something the engine refuses,
the seat plays the safe default instead (the move a timeout plays: discard the drawn tile,
pass a claim) and the failure is logged with the game id.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from services.engine_adapter import EngineIllegal, GameEngine
from services.model import ActionKey, GameEvent, Seat

log = logging.getLogger(__name__)

#: Guard against an engine that never hands the turn back to a human.
MAX_AUTO_STEPS = 2000


@dataclass
class RobotRun:
    """What the robots played from a state, in order.

    ``steps``: ``[seat, engine action JSON]`` per action, for the log; ``provisional``: ``(seat,
    state after, events of that action)`` per action; ``events``: everything the actions
    produced, in order.
    """

    steps: list[list[Any]] = field(default_factory=list)
    provisional: list[tuple[int, Any, list[GameEvent]]] = field(default_factory=list)
    events: list[GameEvent] = field(default_factory=list)


def safe_key(engine: GameEngine, state: Any, seat: int, game_id: int) -> ActionKey:
    """The safe default of ``seat``: what a timeout plays (discard the drawn tile, pass a
    claim). Should the engine fail to name it, a pass, else the first legal discard, else
    the first legal action."""
    try:
        return engine.timeout_action(state, seat)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception(
            "game %s: no safe default for seat %s; taking a plain legal move", game_id, seat
        )
    legal = engine.legal_actions(state, seat)
    for kind in ("pass", "discard"):
        for key in legal:
            if key.kind == kind:
                return key
    if not legal:
        raise EngineIllegal(f"seat {seat} has no legal action")
    return legal[0]


def robot_move(
    engine: GameEngine, state: Any, seat: int, game_id: int, level: str | None = None
) -> tuple[ActionKey, Any, list[GameEvent]]:
    """The AI's move for ``seat`` applied to ``state``: ``(key, new state, events)``, played
    at ``level`` (:data:`services.model.AI_LEVELS`; ``None``: the engine's default AI).

    When the AI raises, or chooses something the engine refuses, the seat plays
    :func:`safe_key` instead (logged with the game id). Raises only when even that fails.
    """
    try:
        key = engine.choose_action(state, seat, level)
        new, events = engine.apply(state, seat, key)
        return key, new, list(events)
    except asyncio.CancelledError:
        raise
    except EngineIllegal as error:
        log.warning(
            "game %s: the AI of seat %s chose an illegal move (%s); playing the safe default",
            game_id,
            seat,
            error,
        )
    except Exception:
        log.exception("game %s: the AI of seat %s failed; playing the safe default", game_id, seat)
    key = safe_key(engine, state, seat, game_id)
    new, events = engine.apply(state, seat, key)
    return key, new, list(events)


def run_robots(
    engine: GameEngine,
    seats: Sequence[Seat],
    state: Any,
    game_id: int,
    *,
    max_steps: int = MAX_AUTO_STEPS,
) -> RobotRun:
    """AI seats and seats on 托管 acting from ``state`` until a human decision is needed
    (or the hand is over), in memory."""
    run = RobotRun()
    for _ in range(max_steps):
        if engine.phase(state) not in ("turn", "claim"):
            break
        robots = [s for s in engine.pending_seats(state) if seats[s].robot]
        if not robots:
            break
        seat = robots[0]
        try:
            key, new, events = robot_move(engine, state, seat, game_id, seats[seat].play_level)
        except asyncio.CancelledError:
            raise
        except Exception:
            # the engine cannot even play the safe default: keep what was worked out so far
            # (the actions committed before it are never undone or hidden)
            log.exception(
                "game %s: seat %s cannot play even the safe default; the game waits",
                game_id,
                seat,
            )
            break
        run.steps.append([seat, engine.log_action(state, seat, key)])
        run.provisional.append((seat, new, events))
        run.events += events
        state = new
    else:  # pragma: no cover - an engine bug
        log.error("game %s: AI did not hand the turn back after %d steps", game_id, max_steps)
    return run
