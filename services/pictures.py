"""What the game pictures show, built from the service's views (no Discord, no pixels).

The picture models of :mod:`render` are filled here from :mod:`services.model` values —
public information only on the table — so the bot (``cogs.delivery.pictures``, which renders them in
the picture workers and sends them as files) and the load test (``benchmarks.loadtest``)
draw the same pictures.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from i18n import short, t
from services.delivery import GameSummary
from services.model import HandView, MeldInfo, TableView
from services.picture_words import picture_words
from services.session_state import SessionInfo

if TYPE_CHECKING:
    from render.models import MeldKind

MELD_KINDS: tuple[MeldKind, ...] = ("chi", "pong", "kong", "concealed_kong", "indicator_kong")

#: What waits for a picture drawn off the loop, as a priority of the picture workers
#: (:mod:`render.pool`): ``answer`` — an interaction answered with it within Discord's 3 s
#: (the scoring desk), first, with a press's own picture; ``reply`` — a deferred reply (a stats
#: card, a leaderboard page, a replay step), with the hand DMs; ``bulk`` — heavy and patient (a
#: replay animation), with the tables, last.
Wait = Literal["answer", "reply", "bulk"]
_PRIORITY: dict[str, str] = {"answer": "URGENT", "reply": "PRIVATE", "bulk": "TABLE"}

#: Whether :func:`draw` uses the picture workers: set by the bot once it started them
#: (``cogs.delivery.pictures.start_pool``); until then, or with pictures off, a worker thread draws.
#: With ``PICTURE_WORKERS=0`` the pool itself draws in a thread (in priority order).
USE_POOL = False


async def draw(fn: Callable[[Any], bytes], model: Any, *, wait: Wait = "reply") -> bytes:
    """``fn(model)`` — a renderer of :mod:`render` (a top-level function, or a
    ``functools.partial`` of one) and its picture model — as PNG/GIF bytes, never drawn on the
    event loop: in the picture workers by ``wait`` priority, or in a thread without them."""
    if not USE_POOL:
        return await asyncio.to_thread(fn, model)
    from render import pool

    return await pool.shared().render(fn, model, priority=getattr(pool, _PRIORITY[wait]))


def _kind(kind: str) -> MeldKind:
    """A meld kind the pictures know (anything else is drawn as a kong)."""
    return next((k for k in MELD_KINDS if k == kind), "kong")


def meld_views(melds: tuple[MeldInfo, ...], owner: int | None = None) -> tuple[Any, ...]:
    """Render melds of seat ``owner``: a claimed one turns its claimed tile towards the
    feeder (上家 left, 对家 middle, 下家 right); without an owner or a feeder (old saved
    games) it is drawn upright."""
    from render import MeldView, feeder_offset

    return tuple(
        MeldView(
            _kind(m.kind),
            tuple(m.tiles),
            fed_from=None if owner is None else feeder_offset(owner, m.from_seat),
            claimed=m.claimed,
            added=m.added,
        )
        for m in melds
    )


def round_label(game: GameSummary, lang: str = "zh") -> str:
    """Beside ``第3局`` on the table picture: ``共8局`` (hands) or ``第1/2圈`` (rounds)."""
    info = getattr(game, "session", None)
    progress = info.progress if isinstance(info, SessionInfo) else None
    if progress is not None and progress.hands:
        return t("session.picture_hands", lang, hands=progress.hands)
    if progress is not None and progress.rounds:
        return t("session.picture_rounds", lang, round=progress.round_no, rounds=progress.rounds)
    return ""


def hand_picture(hand: HandView, lang: str = "zh") -> Any:
    """What the hand picture shows (:class:`render.HandPicture`), in the player's ``lang``."""
    from render import HandPicture

    return HandPicture(
        concealed=tuple(hand.concealed),
        drawn=hand.drawn,
        melds=meld_views(hand.melds, hand.seat),
        wildcards=hand.wildcards,
        primary_wildcard=hand.primary_wildcard,
        flowers=hand.flowers,
        words=picture_words(lang),
    )


def table_picture(game: GameSummary, table: TableView, lang: str = "zh") -> Any:
    """What the table picture shows (:class:`render.TablePicture`): public information only,
    with its words in ``lang``. In a claim window no seat is highlighted and the centre shows
    the same neutral wait, whoever may claim."""
    from render import SeatView, TablePicture, four_seats

    seats = four_seats(
        SeatView(
            name=game.seats[ps.seat].shown_name(lang) if ps.seat < len(game.seats) else "?",
            score=game.totals[ps.seat] if ps.seat < len(game.totals) else 0,
            concealed_count=ps.concealed_count,
            melds=meld_views(ps.melds, ps.seat),
            river=tuple(ps.river),
            flowers=ps.flowers,
            dealer=ps.dealer,
            auto=ps.seat < len(game.seats) and game.seats[ps.seat].auto,
            ready=ps.ready,
        )
        for ps in table.seats
    )
    return TablePicture(
        seats=seats,
        viewer=0,
        turn=table.turn if table.phase == "turn" else None,
        wall_left=table.wall_left,
        hand_number=table.hand_no,
        bao_indicator=table.bao_indicator,
        wildcards=table.wildcards,
        primary_wildcard=table.primary_wildcard,
        last_discard=table.last_discard[0] if table.last_discard else None,
        claim_wait=table.phase == "claim",
        round_label=round_label(game, short(lang)),  # 共8局 / 第1/2圈 (its length)
        words=picture_words(lang, game.variant),
    )
