"""A game's action log: the game held in memory, replaying the log, snapshots, and the
bookkeeping each action needs (when the awaited decision began, stale buttons).

The log of a game (``actions`` table) holds small JSON entries:

- ``{"k": "start", "seed": hex, "cfg": {...}}`` — the first hand is dealt from ``seed``;
- ``{"k": "act", "a": {"type": "discard", "tile": 4}, "ai": [[seat, action], ...]}`` — a
  seat's action and the AI replies it set off, each in the engine's own action JSON
  (:func:`engine.game.action_to_json`; ``"timeout": true`` when the bot played it);
- ``{"k": "ai", "acts": [[seat, action], ...]}`` — AI seats and seats on 托管 acting in
  a row (one entry, one durable write);
- ``{"k": "auto", "on": true}`` — the seat goes on / comes off 托管;
- ``{"k": "next", "seed": hex}`` — the next hand is dealt (``"owed": [3]``: the results not
  yet posted then, :func:`services.session_state.note_deal`);
- ``{"k": "seats", "why": "join"}`` — a lobby's seats changed (the game row holds them,
  written with the same version check, so two processes never both take the last seat);
- logs written before the engine's action JSON hold button keys instead, and still load:
  ``{"k": "act", "kind": "discard", "arg": "5m", "ai": [[seat, kind, arg], ...]}`` (read by
  :func:`services.action_codec.entry_action` / :func:`~services.action_codec.read_step`);
- ``{"k": "end"}`` — the players ended the game (``"why"``: see :mod:`services.session_state`,
  whose entries — ``setup``, ``rdy``, ``vote``, ``rematch`` — the session keeps beside these).
"""

from __future__ import annotations

import asyncio
import copy
import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from db.types import GameInfo, LoadedGame
from services.action_codec import entry_action, read_step
from services.engine_adapter import GameEngine
from services.model import ActionKey, HandView, Seat
from services.session_state import SessionState, apply_entry, note_deal, open_ready_check

log = logging.getLogger(__name__)


@dataclass
class LiveGame:
    """A game held in memory (the cache in front of the store), rebuilt from the log; its
    :class:`services.table.Table` holds it with its lock and changes it."""

    id: int
    guild_id: int
    channel_id: int
    variant: str
    options: dict[str, Any]
    status: str
    version: int
    totals: list[int]
    seats: list[Seat]
    table_message_id: int | None = None
    #: SHA-256 of (seed, wall) published at the current hand's start (kept on the game row)
    commitment: str | None = None
    #: where the game is played (its thread, or the channel itself); None = not decided yet
    thread_id: int | None = None
    #: the remembered messages as loaded with the game (the delivery keeps them up to
    #: date itself, :mod:`cogs.delivery.message_ids`); the service reads ``result_posted``
    messages: dict[str, Any] = field(default_factory=dict)
    state: Any = None
    hand_no: int = 0
    cfg: dict[str, Any] = field(default_factory=dict)
    window_at: float = 0.0  # when the awaited decision began (deadline = this + timeout)
    deadline: float | None = None
    recorded: int = 0  # last hand number recorded in the store
    snapshot_at: int = 0  # engine action count at the last snapshot
    timer: asyncio.Task[None] | None = None
    delivered: dict[int, HandView] = field(default_factory=dict)
    legal: dict[int, tuple[ActionKey, ...]] = field(default_factory=dict)
    prompt_version: dict[int, int] = field(default_factory=dict)
    #: seat → the version at which its current alert episode began (see :func:`bookkeep`)
    episodes: dict[int, int] = field(default_factory=dict)
    #: seat → (asked, its episode) when the last change was shown (see
    #: :meth:`services.table.Table.end_waited_episodes`)
    asked_last: dict[int, tuple[bool, int | None]] = field(default_factory=dict)
    #: ``(actor seat or None, state before, state after, events)`` of each step since the
    #: last delivery (state before: None for a deal)
    steps: list[tuple[int | None, Any, Any, list[Any]]] = field(default_factory=list)
    #: until when (clock seconds) the claim window last shown publicly stays up: the next
    #: public change waits for it (:meth:`services.table.Table.show_change`)
    hold_until: float = 0.0
    #: created by this process (the start-up resume pass leaves it alone)
    fresh: bool = False
    #: what the table last showed (see :meth:`services.table.Table.show_change`): a change that shows
    #: nothing new to the table (a pass in a claim window) does not touch the table
    public_seen: Any = None
    #: the session: length, 准备 check, 解散 vote, 再来一局 (see :mod:`services.session`)
    session: SessionState = field(default_factory=SessionState)
    #: its deliveries' lanes, by name (:class:`services.outbox.Lane`)
    outbox_lanes: dict[str, Any] = field(default_factory=dict)
    #: hands whose result was queued for delivery and has not gone out yet (noted owed in
    #: the ``next`` entry of a hand dealt meanwhile: :mod:`services.session`)
    results_unposted: set[int] = field(default_factory=set)
    #: what each delivery key last showed: key → sequence number of its newest queued job
    #: (a job being sent again is dropped once a newer one is queued; see services.outbox)
    outbox_keys: dict[Any, int] = field(default_factory=dict)

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.user_id == user_id and not seat.ai:
                return i
        return None

    @property
    def host_id(self) -> int | None:
        for seat in self.seats:
            if not seat.ai and seat.user_id is not None:
                return seat.user_id
        return None

    @classmethod
    def from_info(cls, info: GameInfo) -> LiveGame:
        """A game as the store row describes it (no state yet: see :func:`replay`)."""
        return cls(
            id=info.id,
            guild_id=info.guild_id,
            channel_id=info.channel_id,
            variant=info.variant,
            options=dict(info.options),
            status=info.status,
            version=info.version,
            totals=list(info.totals),
            seats=[Seat.from_json(s) for s in info.seats],
            table_message_id=info.table_message_id,
            commitment=info.seed_commitment,
            thread_id=info.thread_id,
            messages=dict(info.messages or {}),
        )


def bookkeep(engine: GameEngine, live: LiveGame, actor: int | None, old: Any, at: float) -> None:
    """After an action (``live.version`` is its seq): when the awaited decision began
    (``window_at``, for the timeout), each seat's prompt version (stale buttons) and its
    alert episode (:func:`track_episodes`)."""
    new = live.state
    track_episodes(engine, live, actor, new, old)
    same_window = (
        old is not None
        and engine.phase(old) == engine.phase(new) == "claim"
        and engine.window_key(old) == engine.window_key(new)
    )
    if not same_window:
        live.window_at = at
    before = set() if old is None else set(engine.pending_seats(old))
    for seat in engine.pending_seats(new):
        if seat not in before or seat == actor or actor is None:
            live.prompt_version[seat] = live.version


def track_episodes(
    engine: GameEngine, live: LiveGame, actor: int | None, new: Any, old: Any = None
) -> None:
    """Alert episodes: one turn alert per decision a seat is asked for, where consecutive
    decisions in one turn count once (draw → kong → discard, claim → pong → discard).

    An episode begins (at ``live.version``) when a seat becomes pending and has none open;
    it stays open while the seat is pending, and through a claim window in between (a kong
    that others may rob); it ends when another seat holds the turn or the hand is over. A new
    hand (``actor`` None) ends every episode. A seat that answers a claim window without
    taking the tile (a pass, or its claim's timeout) ends its episode there: the turn it may
    draw next is a new decision, alerted on its own — the claim's alert was already
    answered, and a player who let the window run out may well be away."""
    if actor is None:
        live.episodes.clear()
    phase = engine.phase(new)
    pending = set(engine.pending_seats(new)) if phase in ("turn", "claim") else set()
    if (
        actor is not None
        and actor >= 0
        and old is not None
        and engine.phase(old) == "claim"
        and actor in engine.pending_seats(old)
        and not _took_the_tile(engine, old, new, actor)
    ):
        live.episodes.pop(actor, None)
    for seat in list(live.episodes):
        if seat not in pending and phase != "claim":
            del live.episodes[seat]
    for seat in sorted(pending):
        live.episodes.setdefault(seat, live.version)


def _took_the_tile(engine: GameEngine, old: Any, new: Any, seat: int) -> bool:
    """Whether ``seat``'s answer to a claim window made a meld of the tile (chi, pong, kong)
    rather than letting it go (a claim left waiting on a higher one has not: if it is granted
    later, the turn it brings is a decision of its own)."""
    melds_before = len(engine.hand_view(old, seat).melds)
    return len(engine.hand_view(new, seat).melds) > melds_before


def update_prompts(engine: GameEngine, live: LiveGame) -> None:
    """A seat whose legal actions changed starts a new decision (buttons drawn before are
    stale)."""
    for seat in range(len(live.seats)):
        legal = engine.legal_actions(live.state, seat)
        if legal != live.legal.get(seat):
            live.legal[seat] = legal
            live.prompt_version[seat] = live.version


def settle_prompts(engine: GameEngine, live: LiveGame) -> None:
    """After a replay: note each seat's legal actions. A seat keeps the prompt version the
    replayed log gave it (when it was last asked), so a hand message drawn since then — by
    the process that holds the game, when another process loads it to serve a press (DM
    presses all arrive on shard 0) — is not refused as stale; a seat the log did not reach
    (it was asked before the snapshot) starts a decision here."""
    for seat in range(len(live.seats)):
        legal = engine.legal_actions(live.state, seat)
        live.legal[seat] = legal
        if legal and seat not in live.prompt_version:
            live.prompt_version[seat] = live.version


def prospect(live: LiveGame) -> LiveGame:
    """A copy of the game at its next version, to run an entry's bookkeeping ahead of its
    commit (the snapshot stored with it, :meth:`services.table.Table._snapshot_due`)
    without touching ``live``: what the bookkeeping changes is copied."""
    ahead = copy.copy(live)
    ahead.version = live.version + 1
    ahead.seats = [copy.copy(seat) for seat in live.seats]
    ahead.episodes = dict(live.episodes)
    ahead.prompt_version = dict(live.prompt_version)
    ahead.steps = []
    ahead.session = copy.deepcopy(live.session)
    return ahead


def snapshot_of(engine: GameEngine, live: LiveGame) -> dict[str, Any]:
    """The snapshot stored beside the log: engine state, 托管 flags, table settings."""
    return {
        "engine": engine.encode_state(live.state) if live.state is not None else None,
        "auto": [s.auto for s in live.seats],
        "cfg": live.cfg,
        "hand_no": live.hand_no,
        "window_at": live.window_at,
        "episodes": {str(seat): v for seat, v in live.episodes.items()},
        "session": live.session.to_json(),
    }


def replay(engine: GameEngine, live: LiveGame, loaded: LoadedGame) -> None:
    """Rebuild the state from the newest snapshot and the log after it."""
    snap = loaded.snapshot
    if snap is not None:
        data = snap.state
        if data.get("engine") is not None:
            live.state = engine.decode_state(data["engine"])
            live.snapshot_at = engine.action_count(live.state)
        for seat, on in zip(live.seats, data.get("auto", []), strict=False):
            seat.auto = bool(on)
        live.cfg = dict(data.get("cfg", {}))
        live.hand_no = int(data.get("hand_no", 0))
        live.window_at = float(data.get("window_at", 0.0))
        episodes = data.get("episodes")
        if isinstance(episodes, dict):
            live.episodes = {int(seat): int(v) for seat, v in episodes.items()}
        if "session" in data:
            live.session = SessionState.from_json(data["session"])
    live.version = snap.seq if snap is not None else 0
    for record in loaded.actions:
        live.version = record.seq
        replay_entry(engine, live, record.seat, record.action, record.created_at.timestamp())
    live.version = loaded.game.version
    if live.state is not None and engine.phase(live.state) in ("hand_over", "game_over"):
        # the hand ended before the snapshot was taken: its 准备 check opened then
        if loaded.actions:
            last: datetime | None = loaded.actions[-1].created_at
        else:
            last = snap.created_at if snap is not None else None
        if last is not None:
            open_ready_check(live.session, live.hand_no, last.timestamp())
    if live.state is not None:
        # a finished hand is recorded again on resume (a duplicate is refused)
        live.recorded = live.hand_no - 1
        settle_prompts(engine, live)
        if snap is not None and not loaded.actions and "episodes" not in snap.state:
            # an older snapshot without episodes: the seats asked now begin one here
            track_episodes(engine, live, -1, live.state)


def _steps(engine: GameEngine, live: LiveGame, steps: list[tuple[int, Any]], at: float) -> None:
    """Apply logged actions (``(seat, engine action JSON or an older log's button key)``)."""
    for step_seat, logged in steps:
        old = live.state
        live.state, _ = engine.apply_logged(old, step_seat, logged, events=False)
        bookkeep(engine, live, step_seat, old, at)


def replay_entry(
    engine: GameEngine, live: LiveGame, seat: int | None, entry: dict[str, Any], at: float
) -> None:
    """Apply one log entry (see the module docstring) to the game held in memory."""
    kind = entry.get("k")
    if kind == "start":
        live.cfg = dict(entry.get("cfg", {}))
        live.state, _ = engine.new_game(live.variant, live.options, entry["seed"], events=False)
        live.hand_no = 1
        bookkeep(engine, live, None, None, at)
    elif kind == "next":
        live.state, _ = engine.next_hand(live.state, entry["seed"], events=False)
        live.hand_no += 1
        bookkeep(engine, live, None, None, at)
        note_deal(live.session, entry)
    elif kind == "act" and seat is not None:
        _steps(engine, live, [(seat, entry_action(entry))], at)
        _steps(engine, live, [read_step(step) for step in entry.get("ai", [])], at)
    elif kind == "ai":
        _steps(engine, live, [read_step(step) for step in entry.get("acts", [])], at)
    elif kind == "auto" and seat is not None:
        live.seats[seat].auto = bool(entry.get("on"))
    elif kind == "seats":
        pass  # a lobby's seats changed: the game row holds them as they are now
    elif not apply_entry(live.session, seat, entry, at) and kind != "end":
        log.warning("game %s: unknown log entry %r", live.id, entry)
    if live.state is not None and engine.phase(live.state) in ("hand_over", "game_over"):
        open_ready_check(live.session, live.hand_no, at)  # the hand ended here
