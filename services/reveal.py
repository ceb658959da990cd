"""How a change is shown to the table: its public moments one by one, and the claim window
every discard shows (the public cadence).

A press, and the AI moves it sets off, are committed at once; only the showing waits. While a
human sits at the table the public moments (a discard, a claim, a kong…) are shown
``pace`` seconds apart so people can follow them.

**The public cadence (等待吃碰杠胡…).** The engine opens a claim window only when someone may
claim, and the AI answer at once: left alone, the table would show the window almost only
when a *human* could claim, and "window, then no claim" would tell everyone that a human
passed (with two humans, who, and that they hold a pair of that tile). So with ``hold`` on,
every discard in a hand with humans shows the same window: the table as it is right after
the discard (:func:`window_view`, built from the public view before it, whoever may claim)
for ``hold`` seconds, drawn anew for each discard (:func:`hold_seconds`), and the next public
change waits until that time is up. Only thinking beyond the hold is visible, as in online
apps. Where the variant lets an added kong (补杠) be robbed (抢杠), the engine waits on a
rob window only when someone could win on that tile, so every added kong shows the same
window too (:func:`rob_window_view`), held alike. A draw alone is not a moment of its own
then: it shows with what follows, whether the draw came straight after the discard (nobody
could claim) or after passes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from services.engine_adapter import GameEngine
from services.model import GameEvent, Phase, PublicSeat, TableView

#: the share of ``hold`` a window may be shorter or longer (drawn anew for each discard):
#: a fixed time would make the one window a human thinks in stand out by a few hundred ms
HOLD_JITTER = 1 / 3


@dataclass(frozen=True)
class Moment:
    """One public moment shown before the change's final state, then ``pause`` seconds."""

    phase: Phase
    view: TableView
    events: list[GameEvent]
    pause: float
    #: a discard's claim window (the hold applies to it)
    window: bool = False


def hold_seconds(base: float, rng: random.Random) -> float:
    """The time one discard's window stays up: ``base`` ± :data:`HOLD_JITTER` of it.

    >>> 1.0 <= hold_seconds(1.5, random.Random(0)) <= 2.0
    True
    >>> hold_seconds(0, random.Random(0))
    0.0
    """
    if base <= 0:
        return 0.0
    return base * rng.uniform(1 - HOLD_JITTER, 1 + HOLD_JITTER)


def window_view(before: TableView, discard: GameEvent, *, ready: bool = False) -> TableView:
    """The public table right after ``discard`` (a ``discarded`` event), before anyone claims
    or draws: ``before`` (the table when the discarder's turn was shown) with the tile in
    the discarder's river, one tile fewer in hand and the claim window's wait. It is the
    same view the engine shows when someone may claim; built here, it exists for every
    discard. ``ready``: the discard declared 听 (报听).
    """
    seat = int(discard.data["seat"])
    tile = int(discard.data["tile"])
    s = before.seats[seat]
    return _window(
        before,
        seat,
        tile,
        replace(
            s,
            concealed_count=s.concealed_count - 1,
            river=(*s.river, tile),
            ready=s.ready or ready,
        ),
    )


def rob_window_view(before: TableView, seat: int, tile: int) -> TableView:
    """The public table right after ``seat`` adds ``tile`` (a kind) to its pong (补杠),
    before anyone may rob it (抢杠) or the kong completes: ``before`` (the table when the
    konger's turn was shown) with one tile fewer in its hand and the window's wait. It is
    the view the engine shows when someone may rob the kong; built here, it exists for
    every added kong, so a window after an added kong no longer tells the table that
    somebody waits on that tile."""
    s = before.seats[seat]
    return _window(before, seat, tile, replace(s, concealed_count=s.concealed_count - 1))


def _window(before: TableView, seat: int, tile: int, opener: PublicSeat) -> TableView:
    """``before`` with a claim window open on ``seat``'s ``tile``, ``opener`` that seat as
    it is now: nobody's turn, and nobody named as waited on (who may claim is secret)."""
    seats = list(before.seats)
    seats[seat] = opener
    return replace(
        before,
        phase="claim",
        turn=None,
        seats=tuple(seats),
        last_discard=(seat, tile),
        waiting_on=(),
    )


def opens_window(event: GameEvent, kongs: bool) -> bool:
    """Whether the public ``event`` opens a window every player sees held: a discard, or
    (``kongs``: the variant lets a kong be robbed) an added kong — declared (someone may
    rob it) or made at once (nobody may)."""
    if event.kind == "discarded":
        return True
    return kongs and (
        event.kind == "added_kong_declared"
        or (event.kind == "kong" and event.data.get("kind") == "added_kong")
    )


def _window_at(events: list[GameEvent], kongs: bool) -> int | None:
    """Where a window opens in a step's public events (:func:`opens_window`)."""
    return next((i for i, e in enumerate(events) if opens_window(e, kongs)), None)


def _window_of(
    engine: GameEngine, before: Any, events: list[GameEvent], cut: int
) -> tuple[TableView, int]:
    """The window view a step opens at ``events[cut]`` and how many of the step's events
    it shows: a discard and what came before it; an added kong declared (robbable) with
    what came before it; an added kong made at once (nobody may rob it) with only what
    came before it — the kong itself shows when the window is over, as after a rob
    window nobody took."""
    event = events[cut]
    if event.kind == "discarded":
        ready = any(e.kind == "ready" for e in events[: cut + 1])
        return window_view(engine.table_view(before), event, ready=ready), cut + 1
    view = rob_window_view(
        engine.table_view(before), int(event.data["seat"]), int(event.data["tile"])
    )
    return view, cut + 1 if event.kind == "added_kong_declared" else cut


def plan(
    engine: GameEngine,
    steps: list[tuple[int | None, Any, Any, list[GameEvent]]],
    public: list[GameEvent],
    *,
    pace: float,
    hold: float,
    holds: random.Random,
    final_phase: Phase,
    kongs: bool = False,
) -> tuple[list[Moment], list[GameEvent]] | None:
    """The public moments to show one by one before the final state, and the public events
    left for the final state; None when the change is shown at once (no pace and no hold,
    or fewer than two moments without a window to hold).

    ``steps``: ``(actor, state before, state after, events)``; ``public``: the change's
    public events in order (the service's own, a timeout or 托管, go with the next step's);
    ``hold``: the base hold of a discard's window (0: none; :func:`hold_seconds` draws each
    from ``holds``); ``final_phase``: the phase the change ends in; ``kongs``: the variant
    lets an added kong be robbed (抢杠), so every added kong shows a window too, held like a
    discard's. Without a hold only
    steps with public events are moments: a pass in a claim window shows nothing and takes
    no time (who could claim stays secret).
    """
    if pace <= 0 and hold <= 0:
        return None
    moments: list[tuple[Phase, TableView, bool]] = []
    owner: dict[int, int] = {}
    carried: list[GameEvent] = []  # a draw waiting for the next moment
    for _actor, before, state, step_events in steps:
        mine = [e for e in step_events if e.visible_to is None]
        if not mine:
            continue
        cut = _window_at(mine, kongs) if hold > 0 and before is not None else None
        if cut is not None:
            view, taken = _window_of(engine, before, mine, cut)
            for e in [*carried, *mine[:taken]]:
                owner[id(e)] = len(moments)
            moments.append(("claim", view, True))
            carried, mine = [], mine[taken:]
            if not mine:
                continue
        if hold > 0 and all(e.kind == "drew" for e in mine):
            carried += mine
            continue
        for e in [*carried, *mine]:
            owner[id(e)] = len(moments)
        carried = []
        moments.append((engine.phase(state), engine.table_view(state), False))
    last_window = bool(moments) and moments[-1][2]
    # a window is held even as the last moment, unless the change ends in it (a human may
    # claim: the window is the final state, held from when it is shown)
    shown_count = len(moments) - 1
    if last_window and final_phase != "claim":
        shown_count = len(moments)
    if shown_count < 1:
        return None
    groups: list[list[GameEvent]] = [[] for _ in moments]
    final: list[GameEvent] = []
    waiting: list[GameEvent] = []  # the service's own events (timeout, 托管) go first
    for event in public:
        i = owner.get(id(event))
        if i is None:
            waiting.append(event)
            continue
        target = groups[i] if i < shown_count else final
        target += [*waiting, event]
        waiting = []
    final += waiting
    shown = [
        Moment(
            phase=phase,
            view=view,
            events=groups[i],
            pause=max(pace, hold_seconds(hold, holds)) if window else pace,
            window=window,
        )
        for i, (phase, view, window) in enumerate(moments[:shown_count])
    ]
    return shown, final
