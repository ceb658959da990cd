"""Replays, reviews and exports of finished hands (回放 · 复盘 · 导出). No Discord types.

The store holds every game as its seeded action log (:mod:`services.gamelog`). Here that
log is rebuilt with the engine into the documented game log (:mod:`engine.logformat`,
``docs/log-format.md``): every hand with its seed, commitment, engine actions, events and
result. From it:

- :meth:`ReplayService.hand` gives one **finished** hand, replayed with
  :func:`engine.replay.hand_states` (a state per action). A hand is finished when the store
  recorded it (``hands``) *and* the log shows its end; a hand still being played is refused
  (``in_play``) whatever asks for it. A hand whose replay does not give the recorded result
  is refused (``mismatch``) and logged.
- :func:`frame` / :func:`move_lines` describe one step (the picture's model and the move
  list ``12. 上家 bob 打 八条 · 13. alice 碰 八条``), :func:`tiles_lines` the same step in
  words when pictures are off; :meth:`ReplayService.animation` the whole hand as a GIF,
  paced by :mod:`services.replay_steps` and seen from one seat unless all four are asked
  for (摊牌); :meth:`ReplayService.review` the :mod:`engine.review` lines.
- :meth:`ReplayService.export_game` the game log as JSON (finished hands only; the game
  seed only once the game is over), :meth:`ReplayService.export_server` a CSV of the
  server's recorded hands.

Rebuilding and drawing are CPU work: they run in a worker thread (``asyncio.to_thread``),
never on the event loop; rebuilt logs are kept in a small cache keyed by the log's version.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import logging
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from db.types import ActionRecord, GameInfo, HandInfo
from engine.game import ActionError, NextHand, apply, legal_actions, new_game
from engine.game.rules import live_count, rules_of
from engine.game.state import PHASE_OVER, GameState
from engine.game.view import public_view
from engine.logformat import GameLog, LoggedHand, Recorder, dumps
from engine.replay import HandReplay, ReplayError, hand_states
from engine.review import ReviewLine, review_states
from i18n import t
from services.action_codec import Logged, entry_action, read_logged, read_step
from services.engine_views import primary_of
from services.model import ActionKey, MeldInfo, shown_ai_name
from services.picture_words import picture_words
from services.pictures import draw
from services.real_engine import meld_info
from services.replay_steps import hold_ms

if TYPE_CHECKING:  # render (Pillow) is imported when a picture is drawn
    from render.models import MeldKind, MeldView
from services.replay_text import (
    action_text,
    hand_code,
    how_text,
    one,
    parse_code,
    picture_lang,
    result_text,
    tile_word,
    variant_name,
    who,
)

log = logging.getLogger(__name__)

#: The seat view that shows all four hands open.
ALL = 4
#: Move-list lines shown around the current step.
MOVES_BEFORE = 5
MOVES_AFTER = 3
#: Autocomplete lists this many recent hands.
CHOICES = 25


class ReplayRefused(Exception):
    """A replay, review or export that cannot be given; ``key`` names the sentence."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def text(self, lang: str) -> str:
        return t(f"replay.{self.key}", lang, **self.params)


# --------------------------------------------------------------------------- rebuilding


@dataclass
class BuiltLog:
    """A game's store log rebuilt into a :class:`GameLog` (finished hands only)."""

    info: GameInfo
    log: GameLog
    names: list[str]
    #: the hand being played (1-based), 0 when none is
    in_play: int
    #: why rebuilding stopped early (a logged action the engine refuses), else None
    broken: str | None = None

    def hand(self, hand_no: int) -> LoggedHand | None:
        for h in self.log.games[0].hands if self.log.games else []:
            if h.hand == hand_no:
                return h
        return None


def _names(info: GameInfo) -> list[str]:
    names = []
    for i in range(4):
        seat = info.seats[i] if i < len(info.seats) else {}
        names.append(
            str(seat.get("name") or f"#{i + 1}") if isinstance(seat, dict) else f"#{i + 1}"
        )
    return names


def _players(info: GameInfo) -> list[dict[str, Any]]:
    out = []
    for i, name in enumerate(_names(info)):
        seat = info.seats[i] if i < len(info.seats) and isinstance(info.seats[i], dict) else {}
        out.append(
            {
                "seat": i,
                "name": name,
                "ai": bool(seat.get("ai", False)),
                "user_id": None if seat.get("ai") else seat.get("user_id"),
            }
        )
    return out


def _engine_action(state: GameState, seat: int, logged: Logged) -> Any:
    """The engine action of a logged one: the engine's JSON, or the button key of an older
    log (resolved among the seat's legal actions, see :mod:`services.action_codec`)."""
    try:
        indicator = state.hand.indicator >> 2 if state.hand.indicator is not None else None
        return read_logged(logged, legal_actions(state, seat), indicator)
    except ActionError as error:
        if isinstance(logged, ActionKey):
            what = f"{logged.kind} {logged.arg or ''}".strip()
        else:
            what = str(logged.get("type"))
        raise ReplayError(f"seat {seat} may not play {what} here") from error


def build_log(info: GameInfo, records: list[ActionRecord]) -> BuiltLog:
    """Rebuild the store log of a game (see :mod:`services.gamelog`) with the engine."""
    rec: Recorder | None = None
    g: GameState | None = None
    broken = None
    names = _names(info)
    try:
        for record in records:
            entry = record.action if isinstance(record.action, dict) else {}
            kind = entry.get("k")
            if kind == "start":
                g, events = new_game(info.variant, dict(info.options), entry["seed"])
                rec = Recorder(g, events, game_id=info.id, players=_players(info))
                continue
            if g is None or rec is None:
                continue
            if kind == "next":
                g, events = apply(g, 0, NextHand())
                rec.step(0, NextHand(), g, events)
                continue
            steps: list[tuple[int, Logged]] = []
            if kind == "act" and record.seat is not None:
                steps = [(record.seat, entry_action(entry))]
                steps += [read_step(step) for step in entry.get("ai", [])]
            elif kind == "ai":
                steps = [read_step(step) for step in entry.get("acts", [])]
            for seat, logged in steps:
                action = _engine_action(g, seat, logged)
                g, events = apply(g, seat, action)
                rec.step(seat, action, g, events)
    except Exception as error:  # an old log the engine no longer accepts: keep what replays
        broken = f"{type(error).__name__}: {error}"
        log.warning("game %s: the log stops replaying (%s)", info.id, broken)
    over = info.status in ("finished", "abandoned")
    if rec is None:
        return BuiltLog(info, GameLog(info.variant, dict(info.options), []), names, 0, broken)
    game = rec.game(
        reveal_seed=over and broken is None,
        status=info.status,
        created_at=info.created_at.isoformat(),
    )
    in_play = 0
    if g is not None and g.hand.phase != PHASE_OVER and not over and broken is None:
        in_play = g.hand.number + 1
    return BuiltLog(info, GameLog(rec.variant, rec.options, [game]), names, in_play, broken)


# --------------------------------------------------------------------------- one hand


@dataclass
class ReplayHand:
    """A finished hand, checked, with a state per step (``states[0]``: the deal)."""

    code: str
    game_id: int
    hand_no: int
    guild_id: int
    variant: str
    names: list[str]
    logged: LoggedHand
    replay: HandReplay
    record: HandInfo

    @property
    def steps(self) -> int:
        """Actions in the hand (the last step shows the end)."""
        return len(self.logged.actions)

    def seat_of(self, user_id: int) -> int | None:
        """The seat a user played in this game (None for a spectator)."""
        for d in self.record.deltas:
            if int(d.get("user_id", 0)) == user_id and not d.get("is_ai"):
                return int(d.get("seat", 0))
        return None


def check_against_record(logged: LoggedHand, replay: HandReplay, record: HandInfo) -> list[str]:
    """Differences between the replayed hand and what the store recorded for it."""
    problems = list(replay.problems)
    r = replay.final.hand.result or {}
    winners = [w["seat"] for w in r.get("winners", [])]
    if winners != list(record.winner_seats):
        problems.append(f"winners {winners} ≠ recorded {list(record.winner_seats)}")
    if r.get("how") != record.how:
        problems.append(f"how {r.get('how')} ≠ recorded {record.how}")
    points = sum(int(w.get("points", 0)) for w in r.get("winners", []))
    if points != record.points:
        problems.append(f"points {points} ≠ recorded {record.points}")
    deltas = list(r.get("deltas", []))
    for d in record.deltas:
        seat = int(d.get("seat", -1))
        if not 0 <= seat < len(deltas) or deltas[seat] != int(d.get("delta", 0)):
            problems.append(f"seat {seat} change ≠ recorded {d.get('delta')}")
            break
    seed = (record.seed_reveal or {}).get("seed")
    if seed is not None and seed != logged.seed:
        problems.append("seed ≠ the revealed one")
    published = (record.seed_reveal or {}).get("commitment")
    if published is not None and published != logged.commitment:
        problems.append("commitment ≠ the one published at the hand's start")
    return problems


#: the meld kinds a picture draws as such (any other kong is drawn as a plain kong)
_DRAWN_MELDS: dict[str, MeldKind] = {
    "chi": "chi",
    "pong": "pong",
    "kong": "kong",
    "concealed_kong": "concealed_kong",
    "indicator_kong": "indicator_kong",
}


def _meld_view(owner: int, m: MeldInfo) -> MeldView:
    from render import MeldView, feeder_offset

    return MeldView(
        _DRAWN_MELDS.get(m.kind, "kong"),
        tuple(m.tiles),
        fed_from=feeder_offset(owner, m.from_seat),
        claimed=m.claimed,
        added=m.added,
    )


def frame(
    rh: ReplayHand, step: int, view: int, lang: str = "zh", advice: ReviewLine | None = None
) -> Any:
    """The picture model (:class:`render.replay.ReplayFrame`) of ``step`` (0: the deal),
    seen from ``view`` (a seat, or :data:`ALL`: every hand open); its words are in
    :func:`picture_lang` (the reader's language; ``zh+en``: 简体). With a review line
    (``advice``, 复盘) its seat's hand rings the tile played and the one suggested, and the
    caption says the advice."""
    from render import HandPicture, SeatView, TablePicture, four_seats
    from render.replay import ReplayFrame

    lang = picture_lang(lang)

    step = clamp_step(rh, step)
    state = rh.replay.states[step]
    h = state.hand
    rules = rules_of(state.variant, state.options)
    last = None
    if step > 0:
        who_, action = rh.logged.actions[step - 1].seat, rh.logged.actions[step - 1].action
        if action.type in ("discard", "declare_ready", "keep_drawing"):
            last = who_
    seats = four_seats(
        SeatView(
            name=shown_ai_name(rh.names[i], lang),
            score=state.scores[i],
            concealed_count=len(s.hand),
            melds=tuple(_meld_view(i, meld_info(m)) for m in s.melds),
            river=tuple(x >> 2 for x in s.river),
            flowers=len(s.flowers),
            dealer=i == h.dealer,
            ready=s.ready,
        )
        for i, s in enumerate(h.seats)
    )
    primary = primary_of(public_view(state))  # 南昌 正精 (the engine's rule, not a copy of it)
    table = TablePicture(
        seats=seats,
        viewer=view if view != ALL else 0,
        turn=h.turn if h.phase == "turn" else None,
        wall_left=live_count(h, rules.reserve),
        hand_number=rh.hand_no,
        bao_indicator=h.indicator >> 2 if h.indicator is not None else None,
        wildcards=h.wildcards,
        primary_wildcard=primary,
        last_discard=last,
        words=picture_words(lang, state.variant),
    )
    shown = range(4) if view == ALL else [view]
    hands = []
    for i in shown:
        kinds, drawn = _concealed(h, i)
        label = who(rh.names, i, None if view == ALL else view, lang)
        played, suggested = advice_tiles(rh, advice, i)
        hand = HandPicture(
            concealed=tuple(kinds),
            drawn=drawn,
            wildcards=h.wildcards,
            words=picture_words(lang),
            played=played,
            suggested=suggested,
            primary_wildcard=primary,
        )
        hands.append((label, hand))
    shown_caption = caption(rh, step, lang)
    if advice is not None:
        shown_caption = f"{rh.code} · {advice.step}. {advice.text(one(lang))}"
    return ReplayFrame(
        table=table, caption=shown_caption, hands=tuple(hands), hold_ms=hold_ms(rh, step)
    )


def advice_tiles(
    rh: ReplayHand, advice: ReviewLine | None, seat: int
) -> tuple[int | None, int | None]:
    """The kinds a review line rings on ``seat``'s hand: (played, suggested), for a discard
    the analysis would have made otherwise (``discard``, ``deal_in``); else none."""
    if advice is None or rh.logged.actions[advice.step - 1].seat != seat:
        return None, None
    played, suggested = advice.data.get("played"), advice.data.get("suggested")
    if not isinstance(played, int) or not isinstance(suggested, int):
        return None, None
    return played, suggested


def _concealed(h: Any, seat: int) -> tuple[list[int], int | None]:
    """The seat's concealed kinds, sorted, and the tile it just drew (set apart) while it is
    to play."""
    s = h.seats[seat]
    kinds = sorted(x >> 2 for x in s.hand)
    drawn = None
    if s.drawn is not None and h.turn == seat and h.phase == "turn" and s.drawn in s.hand:
        drawn = s.drawn >> 2
        kinds.remove(drawn)
    return kinds, drawn


def animation_frames(rh: ReplayHand, view: int, lang: str = "zh") -> tuple[Any, ...]:
    """Every step of the hand as frames seen from ``view`` (a seat: only its own hand open;
    :data:`ALL`: 摊牌, all four), each held by what it shows."""
    return tuple(frame(rh, s, view, lang) for s in range(rh.steps + 1))


def tiles_lines(rh: ReplayHand, step: int, view: int, lang: str) -> list[str]:
    """The tiles of ``step`` in words, for a reader without pictures: each seat's melds and
    river, and the concealed hand of ``view`` (every hand for :data:`ALL`), with the tile
    just drawn apart — what the picture shows."""
    lang1 = one(lang)
    step = clamp_step(rh, step)
    h = rh.replay.states[step].hand
    viewer = None if view == ALL else view
    shown = range(4) if view == ALL else [view]
    lines = []
    for i, s in enumerate(h.seats):
        parts = []
        if i in shown:
            kinds, drawn = _concealed(h, i)
            hand = " ".join(tile_word(k, lang1) for k in kinds)
            if drawn is not None:
                hand += " ｜ " + t("replay.tiles_drawn", lang1, tile=tile_word(drawn, lang1))
            parts.append(t("replay.tiles_hand", lang1, tiles=hand or "—"))
        else:
            parts.append(t("replay.tiles_count", lang1, n=len(s.hand)))
        if s.melds:
            melds = "  ".join(
                " ".join(tile_word(k, lang1) for k in meld_info(m).tiles) for m in s.melds
            )
            parts.append(t("replay.tiles_melds", lang1, tiles=melds))
        river = " ".join(tile_word(x >> 2, lang1) for x in s.river)
        parts.append(t("replay.tiles_river", lang1, tiles=river or "—"))
        lines.append(f"**{who(rh.names, i, viewer, lang1)}** · " + " · ".join(parts))
    return lines


def clamp_step(rh: ReplayHand, step: int) -> int:
    return max(0, min(int(step), rh.steps))


def move_text(rh: ReplayHand, n: int, viewer: int | None, lang: str) -> str:
    """``12. 上家 bob 打 八条`` for action ``n`` (1-based)."""
    a = rh.logged.actions[n - 1]
    before = rh.replay.states[n - 1]
    return f"{n}. {who(rh.names, a.seat, viewer, lang)} {action_text(a.action, before, lang)}"


def caption(rh: ReplayHand, step: int, lang: str) -> str:
    head = t("replay.step", one(lang), step=step, steps=rh.steps)
    if step == 0:
        return f"{rh.code} · {head} · {t('replay.deal', one(lang))}"
    return f"{rh.code} · {head} · {move_text(rh, step, None, lang).split('. ', 1)[1]}"


def move_lines(rh: ReplayHand, step: int, view: int, lang: str) -> list[tuple[int, str]]:
    """The moves around ``step``: ``(number, text)``; the current one is ``step``."""
    viewer = None if view == ALL else view
    lo = max(1, step - MOVES_BEFORE)
    hi = min(rh.steps, max(step, 1) + MOVES_AFTER)
    return [(n, move_text(rh, n, viewer, lang)) for n in range(lo, hi + 1)]


def end_text(rh: ReplayHand, lang: str) -> str:
    return result_text(
        rh.replay.final.hand.result, [shown_ai_name(n, lang) for n in rh.names], lang
    )


# --------------------------------------------------------------------------- exports


CSV_FIELDS = (
    "date",
    "code",
    "game",
    "hand",
    "source",
    "variant",
    "season",
    "players",
    "winner",
    "how",
    "discarder",
    "points",
    "items",
    "changes",
)


def _seat_names(
    hand: HandInfo, game: GameInfo | None, names: dict[int, str | None]
) -> dict[int, str]:
    out: dict[int, str] = {}
    seat_names = _names(game) if game is not None else []
    for d in hand.deltas:
        seat = int(d.get("seat", 0))
        if seat < len(seat_names):
            out[seat] = seat_names[seat]
        elif d.get("is_ai"):
            out[seat] = f"AI {seat + 1}"
        else:
            uid = int(d.get("user_id", 0))
            out[seat] = names.get(uid) or str(uid)
    return out


def server_csv(
    hands: list[HandInfo], games: dict[int, GameInfo], names: dict[int, str | None]
) -> str:
    """The hands as CSV text (one row per hand; ``;`` inside a cell)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_FIELDS)
    for h in hands:
        game = games.get(h.game_id) if h.game_id is not None else None
        seat_names = _seat_names(h, game, names)
        items = []
        for item in h.items:
            if isinstance(item, dict):
                items.append(f"{item.get('name', '')} {item.get('value', '')}".strip())
            else:
                items.append(str(item))
        changes = "; ".join(
            f"{seat_names.get(int(d.get('seat', 0)), '?')} {int(d.get('delta', 0)):+d}"
            for d in h.deltas
        )
        w.writerow(
            [
                h.created_at.strftime("%Y-%m-%d %H:%M"),
                hand_code(h.game_id, h.hand_no) if h.game_id is not None else "",
                h.game_id or "",
                h.hand_no,
                h.source,
                h.variant,
                h.season,
                "; ".join(seat_names[s] for s in sorted(seat_names)),
                "; ".join(seat_names.get(s, "?") for s in h.winner_seats),
                h.how,
                "" if h.discarder_seat is None else seat_names.get(h.discarder_seat, "?"),
                h.points,
                "; ".join(items),
                changes,
            ]
        )
    return buf.getvalue()


# --------------------------------------------------------------------------- the service


class ReplayService:
    """Finished hands of a server: replay, review, animation, export."""

    def __init__(self, store: Any, *, cache_size: int = 16) -> None:
        self.store = store
        self.cache_size = cache_size
        self._logs: OrderedDict[tuple[int, int], BuiltLog] = OrderedDict()
        self._hands: OrderedDict[tuple[int, int], ReplayHand] = OrderedDict()

    def _remember(self, cache: OrderedDict[Any, Any], key: Any, value: Any) -> None:
        cache[key] = value
        cache.move_to_end(key)
        while len(cache) > self.cache_size:
            cache.popitem(last=False)

    async def built(self, game_id: int) -> BuiltLog | None:
        """The game's log rebuilt (cached per log version), or None for no such game."""
        found = await self.store.replays.game_with_log(game_id)
        if found is None:
            return None
        info, records = found
        key = (game_id, info.version)
        cached = self._logs.get(key)
        if cached is not None and cached.info.status == info.status:
            return cached
        built = await asyncio.to_thread(build_log, info, records)
        self._remember(self._logs, key, built)
        return built

    async def hand(self, guild_id: int | None, code: str) -> ReplayHand:
        """The finished hand ``code`` (``#12-3``) of this server, replayed and checked.
        Raises :class:`ReplayRefused` (``bad_code``, ``no_hand``, ``in_play``, ``mismatch``)."""
        if guild_id is None:
            raise ReplayRefused("guild_only")
        parsed = parse_code(code)
        if parsed is None:
            raise ReplayRefused("bad_code", code=_quote(code))
        game_id, hand_no = parsed
        shown = hand_code(game_id, hand_no)
        record = await self.store.replays.online_hand(game_id, hand_no)
        if record is None or record.guild_id != guild_id:
            if record is None:
                built = await self.built(game_id)
                if (
                    built is not None
                    and built.info.guild_id == guild_id
                    and built.in_play == hand_no
                ):
                    raise ReplayRefused("in_play", code=shown)
            raise ReplayRefused("no_hand", code=shown)
        key = (game_id, hand_no)
        cached = self._hands.get(key)
        if cached is not None and cached.record.id == record.id:
            return cached  # checked finished when it was built; a finished hand stays so
        built = await self.built(game_id)
        if built is None or built.info.guild_id != guild_id:
            raise ReplayRefused("no_hand", code=shown)
        if built.in_play == hand_no:  # never a hand being played, whatever the store says
            raise ReplayRefused("in_play", code=shown)
        logged = built.hand(hand_no)
        if logged is None:
            log.error(
                "game %s hand %s: recorded but not in the rebuilt log (%s)",
                game_id,
                hand_no,
                built.broken or "no end in the log",
            )
            raise ReplayRefused("mismatch", code=shown)
        try:
            replay = await asyncio.to_thread(
                hand_states, built.log.variant, built.log.options, logged
            )
        except ReplayError as error:
            log.error("game %s hand %s does not replay: %s", game_id, hand_no, error)
            raise ReplayRefused("mismatch", code=shown) from error
        problems = check_against_record(logged, replay, record)
        if problems:
            log.error(
                "game %s hand %s: the replay differs from the record: %s",
                game_id,
                hand_no,
                "; ".join(problems),
            )
            raise ReplayRefused("mismatch", code=shown)
        rh = ReplayHand(
            code=shown,
            game_id=game_id,
            hand_no=hand_no,
            guild_id=guild_id,
            variant=built.info.variant,
            names=built.names,
            logged=logged,
            replay=replay,
            record=record,
        )
        self._remember(self._hands, key, rh)
        return rh

    async def choices(self, guild_id: int | None, typed: str, lang: str) -> list[tuple[str, str]]:
        """Autocomplete: the server's recent finished hands as ``(label, code)``; only hands
        the store recorded (so finished), filtered by what was typed."""
        if guild_id is None:
            return []
        game_filter = None
        digits = "".join(ch for ch in (typed or "").split("-")[0] if ch.isdigit())
        if digits and len(digits) <= 18:
            game_filter = int(digits)
        hands = await self.store.replays.recent_online_hands(
            guild_id, limit=CHOICES, game_id=game_filter
        )
        if not hands and game_filter is not None:
            hands = await self.store.replays.recent_online_hands(guild_id, limit=CHOICES)
        typed_code = (typed or "").strip().lstrip("#")
        out = []
        for h in hands:
            if h.game_id is None:
                continue
            code = hand_code(h.game_id, h.hand_no)
            if typed_code and not code.lstrip("#").startswith(typed_code) and game_filter is None:
                continue
            how = result_how(h, lang)
            label = f"{code} · {variant_name(h.variant, one(lang))} · {h.created_at:%m-%d %H:%M} · {how}"
            out.append((label[:100], code))
        return out[:CHOICES]

    async def review(
        self, guild_id: int | None, code: str, seat: int
    ) -> tuple[ReplayHand, list[ReviewLine]]:
        """The :mod:`engine.review` lines of ``seat`` (0–3) in the finished hand ``code``."""
        if not 0 <= seat < 4:
            raise ReplayRefused("bad_seat")
        rh = await self.hand(guild_id, code)
        actions = [(a.seat, a.action) for a in rh.logged.actions]
        lines = await asyncio.to_thread(review_states, rh.replay.states, actions, seat)
        return rh, lines

    async def review_line(
        self, guild_id: int | None, code: str, seat: int, step: int
    ) -> tuple[ReplayHand, ReviewLine | None]:
        """The review line of ``seat`` at ``step`` of the hand ``code`` (None when the
        analysis agreed with that play)."""
        rh, lines = await self.review(guild_id, code, seat)
        return rh, next((line for line in lines if line.step == step), None)

    async def picture(
        self, rh: ReplayHand, step: int, view: int, lang: str, advice: ReviewLine | None = None
    ) -> bytes:
        """The PNG of one step (drawn in the picture workers, with the hand DMs), with a
        review line's advice drawn when given."""
        from render.replay import render_frame

        model = frame(rh, step, view, lang, advice)
        return await draw(render_frame, model, wait="reply")

    async def animation(self, rh: ReplayHand, lang: str, view: int = ALL) -> bytes:
        """The whole hand as a looping GIF seen from ``view`` (a seat, or :data:`ALL`:
        every hand open), paced per step (drawn off the loop)."""
        from render.replay import render_animation

        # the frames are worked out in a thread, the GIF drawn in the picture workers, last
        frames = await asyncio.to_thread(animation_frames, rh, view, lang)
        return await draw(render_animation, frames, wait="bulk")

    async def export_game(self, guild_id: int | None, game_id: int) -> tuple[bytes, int, bool]:
        """The game's log as JSON bytes, how many hands it holds, and whether the game is
        still going (then only its finished hands, without the game seed)."""
        if guild_id is None:
            raise ReplayRefused("guild_only")
        built = await self.built(game_id)
        if built is None or built.info.guild_id != guild_id:
            raise ReplayRefused("no_game", id=game_id)
        hands = sum(len(g.hands) for g in built.log.games)
        if not hands:
            raise ReplayRefused("no_finished", id=game_id)
        going = built.info.status not in ("finished", "abandoned")
        published = {
            h.hand_no: (h.seed_reveal or {}).get("commitment")
            for h in await self.store.replays.game_hands(game_id)
        }
        games = []
        for g in built.log.games:  # the hash as published when each hand began
            hands_ = [replace(h, commitment=published.get(h.hand) or h.commitment) for h in g.hands]
            games.append(replace(g, hands=hands_))
        out = replace(built.log, games=games)
        text = await asyncio.to_thread(dumps, out)
        return text.encode("utf-8"), hands, going

    async def export_server(self, guild_id: int | None) -> tuple[bytes, int]:
        """The server's recorded hands as CSV bytes (UTF-8 with a BOM, for spreadsheets)."""
        if guild_id is None:
            raise ReplayRefused("guild_only")

        hands, games = await self.store.replays.server_hands(guild_id)
        if not hands:
            raise ReplayRefused("no_hands")
        people = {
            int(d.get("user_id", 0))
            for h in hands
            for d in h.deltas
            if not d.get("is_ai") and d.get("user_id") is not None
        }
        names = await self.store.players.display_names(people)
        text = await asyncio.to_thread(server_csv, hands, games, names)
        return ("\ufeff" + text).encode("utf-8"), len(hands)


def result_how(h: HandInfo, lang: str) -> str:
    """How a stored hand ended, in ``lang`` (自摸 / 点炮 / 抢杠 / 流局)."""
    return how_text(h.how, one(lang))


def _quote(text: str) -> str:
    text = str(text).replace("`", "ˋ").replace("\n", " ")
    return f"`{text[:40]}`"


def log_json(built: BuiltLog) -> dict[str, Any]:
    """The rebuilt log as a JSON-ready dict (tests, tools)."""
    data: dict[str, Any] = json.loads(dumps(built.log))
    return data


__all__ = [
    "ALL",
    "BuiltLog",
    "ReplayHand",
    "ReplayRefused",
    "ReplayService",
    "animation_frames",
    "build_log",
    "caption",
    "check_against_record",
    "end_text",
    "frame",
    "log_json",
    "move_lines",
    "server_csv",
    "tiles_lines",
]
