"""The adapter over ``engine.game``: the only module of the service that knows its classes.

Button keys (:class:`services.model.ActionKey`) map to engine actions like this:

==============================  ===========================================
``discard:5m``                  ``Discard(4)``
``win``                         ``Win()`` (自摸, or on a discard / robbed kong)
``pass``                        ``Pass()``
``pong`` / ``kong``             ``Pong()`` / ``Kong()`` (claiming a discard)
``kong:5m``                     ``ConcealedKong(4)`` or ``AddedKong(4)`` (one's turn), or
                                ``IndicatorKong()`` when 5m is the 跌宝牌's kind
``chi:345m``                    ``Chi((2, 3, 4))``
``touji:5m``                    ``KeepDrawing(4)`` (偷机: decline 宝吊头, discard 5m)
``ready:5m``                    ``DeclareReady(4)`` (报听 with the discard 5m)
``next``                        ``NextHand()``
==============================  ===========================================
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from typing import Any

from engine.game import (
    AddedKong,
    Chi,
    ConcealedKong,
    DeclareReady,
    Discard,
    GameState,
    IllegalAction,
    IndicatorKong,
    KeepDrawing,
    Kong,
    NextHand,
    Pass,
    Pong,
    Win,
    legal_actions,
    state_from_json,
    state_to_json,
)
from engine.game import apply as engine_apply
from engine.game import new_game as engine_new_game
from engine.game.events import Event
from engine.game.rules import live_count, rules_of, waits_of
from engine.game.wall import commitment
from engine.tiles import kind_of, tile_str
from services.engine_adapter import EngineIllegal
from services.model import (
    ActionKey,
    GameEvent,
    HandResult,
    HandView,
    MeldInfo,
    Phase,
    PublicSeat,
    ScoreLine,
    TableView,
)
from services.real_showdown import showdown_fields

log = logging.getLogger(__name__)


def key_of(action: Any, state: GameState | None = None) -> ActionKey:
    """The button key of an engine action."""
    if isinstance(action, Discard):
        return ActionKey("discard", tile_str(action.tile))
    if isinstance(action, Win):
        return ActionKey("win")
    if isinstance(action, Pass):
        return ActionKey("pass")
    if isinstance(action, Pong):
        return ActionKey("pong")
    if isinstance(action, Kong):
        return ActionKey("kong")
    if isinstance(action, ConcealedKong | AddedKong):
        return ActionKey("kong", tile_str(action.kind))
    if isinstance(action, IndicatorKong):
        indicator = None if state is None else state.hand.indicator
        return ActionKey("kong", tile_str(indicator >> 2) if indicator is not None else "bao")
    if isinstance(action, Chi):
        return ActionKey("chi", chi_arg(action.tiles))
    if isinstance(action, KeepDrawing):
        return ActionKey("touji", tile_str(action.tile))
    if isinstance(action, DeclareReady):
        return ActionKey("ready", tile_str(action.tile))
    if isinstance(action, NextHand):
        return ActionKey("next")
    raise ValueError(f"unknown engine action {action!r}")


def meld_info(m: Any) -> MeldInfo:
    """The view of an engine meld (``MeldRec``): kinds sorted, who fed it, which tile was
    claimed, and whether it is an added kong (补杠).

    States saved before melds kept ``claimed``/``added``: the engine appended a 补杠's fourth
    tile to the pong's sorted ids, so ids out of order still tell most added kongs."""
    ids = tuple(m.ids)
    claimed = getattr(m, "claimed", None)
    if claimed is None:
        added = m.kind == "kong" and m.fed_by is not None and list(ids) != sorted(ids)
    else:
        added = bool(getattr(m, "added", False))
    return MeldInfo(
        m.kind,
        tuple(sorted(t >> 2 for t in ids)),
        m.fed_by,
        added=added,
        claimed=None if claimed is None else claimed >> 2,
    )


def chi_arg(tiles: tuple[int, ...]) -> str:
    """``(2, 3, 4)`` → ``345m``."""
    return "".join(tile_str(t)[0] for t in sorted(tiles)) + tile_str(tiles[0])[1]


#: how many (state, seat) results :func:`_legal` keeps (the states of the last few changes)
LEGAL_MEMO_SIZE = 64
_legal_memo: dict[tuple[int, int], tuple[GameState, tuple[Any, ...]]] = {}
_keys_memo: dict[tuple[int, int], tuple[GameState, tuple[ActionKey, ...]]] = {}


def _legal(state: GameState, seat: int) -> tuple[Any, ...]:
    """``legal_actions(state, seat)``, worked out once per state and seat.

    States are immutable, so one press — validating it, the AI's choice, the hands and
    prompts drawn after it — asks the engine once per seat and state, not once per
    question. Keyed by the state's identity (the state is kept beside the result, so the
    key is never reused while held)."""
    key = (id(state), seat)
    hit = _legal_memo.get(key)
    if hit is not None and hit[0] is state:
        return hit[1]
    if len(_legal_memo) >= LEGAL_MEMO_SIZE:
        _legal_memo.clear()
    found = tuple(legal_actions(state, seat))
    _legal_memo[key] = (state, found)
    return found


def _find_ai() -> Callable[[GameState, int], Any] | None:
    """The engine's AI ``choose_action(state, seat)``, wherever it lives."""
    for module_name in ("engine.ai", "engine.game.ai", "engine.ai.player"):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        chooser = getattr(module, "choose_action", None)
        if callable(chooser):
            return chooser
    return None


def _fallback_choice(state: GameState, seat: int) -> Any:
    """A plain legal choice when the engine's AI is missing: win, else pass, else discard
    the drawn tile (or the first legal discard)."""
    legal = _legal(state, seat)
    for action in legal:
        if isinstance(action, Win | NextHand):
            return action
    for action in legal:
        if isinstance(action, Pass):
            return action
    drawn = state.hand.seats[seat].drawn
    for action in legal:
        if isinstance(action, Discard) and drawn is not None and action.tile == drawn >> 2:
            return action
    for action in legal:
        if isinstance(action, Discard):
            return action
    return legal[0]


class RealEngine:
    """:class:`services.engine_adapter.GameEngine` over ``engine.game``."""

    def __init__(self) -> None:
        self._ai = _find_ai()

    # -- game flow

    def new_game(
        self, variant: str, options: dict[str, Any], seed: str
    ) -> tuple[GameState, list[GameEvent]]:
        state, events = engine_new_game(variant, options, seed)
        return state, self._events(events)

    def next_hand(self, state: GameState, seed: str) -> tuple[GameState, list[GameEvent]]:
        # each hand's seed derives from the game seed, so ``seed`` is not needed here
        new, events = engine_apply(state, 0, NextHand())
        return new, self._events(events)

    def phase(self, state: GameState) -> Phase:
        phase = state.hand.phase
        if phase in ("claim", "rob"):
            return "claim"
        if phase == "over":
            return "hand_over"
        return "turn"

    def pending_seats(self, state: GameState) -> tuple[int, ...]:
        h = state.hand
        if h.phase == "turn":
            return (h.turn,)
        if h.phase in ("claim", "rob") and h.claim is not None:
            c = h.claim
            order = [(c.from_seat + i) % 4 for i in range(1, 4)]
            return tuple(s for s in order if c.options[s] is not None and c.responses[s] is None)
        return ()

    def action_count(self, state: GameState) -> int:
        """Actions applied in the whole game so far."""
        return state.actions

    def window_key(self, state: GameState) -> tuple[int, int] | None:
        """The open claim window (discarder, physical tile), or None."""
        c = state.hand.claim
        return None if c is None else (c.from_seat, c.tile)

    def legal_actions(self, state: GameState, seat: int) -> tuple[ActionKey, ...]:
        if state.hand.phase == "over":
            return ()
        key = (id(state), seat)
        hit = _keys_memo.get(key)
        if hit is not None and hit[0] is state:
            return hit[1]
        if len(_keys_memo) >= LEGAL_MEMO_SIZE:
            _keys_memo.clear()
        keys = tuple(key_of(a, state) for a in _legal(state, seat))
        _keys_memo[key] = (state, keys)
        return keys

    def _action_for(self, state: GameState, seat: int, key: ActionKey) -> Any:
        """The engine action a key names (the engine checks that it is legal)."""
        direct = self._parse(key, state)
        if direct is not None and not isinstance(direct, ConcealedKong):
            return direct
        for action in _legal(state, seat):  # a kong: concealed, added or indicator
            if key_of(action, state) == key:
                return action
        return None

    def apply(
        self, state: GameState, seat: int, key: ActionKey
    ) -> tuple[GameState, list[GameEvent]]:
        action = self._action_for(state, seat, key)
        if action is None or isinstance(action, NextHand):
            raise EngineIllegal(self._why(state, seat, key))
        try:
            new, events = engine_apply(state, seat, action)
        except IllegalAction as error:
            raise EngineIllegal(error.reason) from error
        return new, self._events(events)

    def _why(self, state: GameState, seat: int, key: ActionKey) -> str:
        """The engine's own explanation when the key names a real action, else a plain one."""
        action = self._parse(key, state)
        if action is not None:
            try:
                engine_apply(state, seat, action)
            except IllegalAction as error:
                return error.reason
        return f"{key.kind} {key.arg or ''}".strip() + " is not possible now"

    @staticmethod
    def _parse(key: ActionKey, state: GameState | None = None) -> Any:
        try:
            tile = kind_of(key.arg) if key.arg and key.kind != "chi" else None
            simple = {"win": Win, "pass": Pass, "pong": Pong, "next": NextHand}
            if key.kind in simple:
                return simple[key.kind]() if key.arg is None else None
            if key.kind == "chi" and key.arg and len(key.arg) == 4:
                suit = key.arg[-1]
                return Chi(tuple(sorted(kind_of(f"{d}{suit}") for d in key.arg[:3])))  # type: ignore[arg-type]
            if key.kind == "kong":
                return Kong() if tile is None else ConcealedKong(tile)
            if key.kind == "discard" and tile is not None:
                return Discard(tile)
            if key.kind == "touji" and tile is not None:
                return KeepDrawing(tile)
            if key.kind == "ready" and tile is not None:
                return DeclareReady(tile)
        except ValueError:
            return None
        return None

    def choose_action(self, state: GameState, seat: int) -> ActionKey:
        action = None
        if self._ai is not None:
            try:
                action = self._ai(state, seat)
            except Exception:
                log.exception("engine AI failed; using the plain choice")
        if action is None or action not in _legal(state, seat):
            action = _fallback_choice(state, seat)
        return key_of(action, state)

    def timeout_action(self, state: GameState, seat: int) -> ActionKey:
        legal = _legal(state, seat)
        if state.hand.phase in ("claim", "rob"):
            for action in legal:
                if isinstance(action, Pass):
                    return key_of(action, state)
        drawn = state.hand.seats[seat].drawn
        if drawn is not None:
            for action in legal:
                if isinstance(action, Discard) and action.tile == drawn >> 2:
                    return key_of(action, state)
        return self.choose_action(state, seat)

    # -- views

    def table_view(self, state: GameState) -> TableView:
        h = state.hand
        rules = rules_of(state.variant, state.options)
        seats = tuple(
            PublicSeat(
                seat=i,
                concealed_count=len(s.hand),
                melds=tuple(meld_info(m) for m in s.melds),
                river=tuple(t >> 2 for t in s.river),
                flowers=len(s.flowers),
                dealer=i == h.dealer,
                ready=s.ready,
            )
            for i, s in enumerate(h.seats)
        )
        last = None
        if h.claim is not None:
            last = (h.claim.from_seat, h.claim.tile >> 2)
        return TableView(
            hand_no=h.number + 1,
            phase=self.phase(state),
            dealer=h.dealer,
            turn=h.turn if h.phase == "turn" else None,
            wall_left=live_count(h, rules.reserve),  # at hand end too: the wall left
            seats=seats,
            bao_indicator=h.indicator >> 2 if h.indicator is not None else None,
            bao=h.bao,
            last_discard=last,
            # the turn's seat only: who may claim a discard is never public
            waiting_on=(h.turn,) if h.phase == "turn" else (),
            commitment=commitment(h.seed, h.wall) if h.wall else None,
        )

    def hand_view(self, state: GameState, seat: int) -> HandView:
        h = state.hand
        s = h.seats[seat]
        kinds = [t >> 2 for t in s.hand]
        drawn = None
        if s.drawn is not None and h.turn == seat and h.phase == "turn":
            drawn = s.drawn >> 2
            kinds.remove(drawn)
        waits: tuple[int, ...] = ()
        if len(s.hand) % 3 == 1 and h.phase != "over":
            counts = [0] * 34
            for k in kinds:
                counts[k] += 1
            try:
                waits = tuple(waits_of(counts, h.bao))
            except Exception:  # hints are a help, never a failure
                waits = ()
        claim_tile = claim_from = None
        claim_rob = False
        if h.claim is not None and h.claim.options[seat] is not None:
            claim_tile = h.claim.tile >> 2
            claim_from = h.claim.from_seat
            claim_rob = h.claim.kind == "rob"
        return HandView(
            seat=seat,
            concealed=tuple(sorted(kinds)),
            drawn=drawn,
            melds=tuple(meld_info(m) for m in s.melds),
            legal=self.legal_actions(state, seat),
            waits=waits,
            flowers=len(s.flowers),
            bao=h.bao,
            claim_tile=claim_tile,
            claim_from=claim_from,
            claim_rob=claim_rob,
        )

    def hand_result(self, state: GameState) -> HandResult | None:
        h = state.hand
        r = h.result
        if h.phase != "over" or r is None:
            return None
        winners = r.get("winners", [])
        items: list[ScoreLine] = []
        for w in winners:
            items += [ScoreLine(i["name"], i.get("en", ""), str(i["value"])) for i in w["items"]]
        points = sum(int(w.get("points", 0)) for w in winners)
        winning_tile = None
        concealed: tuple[int, ...] = ()
        melds: tuple[MeldInfo, ...] = ()
        hand_text = ""
        if winners:
            hand_text = str(winners[0].get("hand", ""))
            seat = h.seats[winners[0]["seat"]]
            melds = tuple(meld_info(m) for m in seat.melds)
            kinds = sorted(t >> 2 for t in seat.hand)
            if "+" in hand_text:
                try:
                    winning_tile = kind_of(hand_text.rsplit("+", 1)[1].strip())
                except ValueError:
                    winning_tile = None
            if winning_tile is not None and winning_tile in kinds:
                kinds.remove(winning_tile)
            concealed = tuple(kinds)
        return HandResult(
            hand_no=h.number + 1,
            how=r["how"],
            winners=tuple(w["seat"] for w in winners),
            discarder=r.get("payer"),
            points=points,
            items=tuple(items),
            deltas=tuple(r["deltas"]),
            winning_tile=winning_tile,
            winner_concealed=concealed,
            winner_melds=melds,
            seed_reveal={
                "seed": h.seed,
                "wall": [t >> 2 for t in h.wall],
                "wall_ids": list(h.wall),
            },
            notes=tuple(f"{p[0]}→{p[1]} {p[2]} {p[3]}" for p in r.get("payments", [])),
            winner_hand=hand_text,
            payments=tuple(tuple(p) for p in r.get("payments", [])),
            scores=tuple(state.scores),
            winner_points=tuple(int(w.get("points", 0)) for w in winners),
            **showdown_fields(state),
        )

    def hand_history(self, state: GameState) -> tuple[dict[str, Any], ...]:
        """One summary per ended hand of the game (see :func:`services.session_state.tally`)."""
        return tuple(dict(h) for h in state.history)

    # -- codecs

    def encode_state(self, state: GameState) -> dict[str, Any]:
        return state_to_json(state)

    def decode_state(self, data: dict[str, Any]) -> GameState:
        return state_from_json(data)

    @staticmethod
    def _events(events: list[Event]) -> list[GameEvent]:
        out = []
        for e in events:
            seat = e.data.get("seat") if isinstance(e.data.get("seat"), int) else None
            out.append(GameEvent(e.kind, seat=seat, visible_to=e.visible_to, data=dict(e.data)))
        return out
