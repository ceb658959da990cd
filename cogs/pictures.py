"""Pictures from :mod:`render` as ``discord.File`` lists (empty when rendering fails or is
switched off); the text beside them is always sent, so a picture is never the only copy.

The table picture takes the public view only: concealed tiles as counts.

Game pictures are rendered off the event loop (:func:`hand_png`, :func:`table_png`: worker
processes of :mod:`render.pool`, a press's answer first, tables last); the ``*_files``
helpers render in the caller (commands that are not on a game's hot path).
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
from typing import Any

import discord

from cogs.session_text import picture_round_label
from services.delivery import GameSummary
from services.model import HandResult, HandView, MeldInfo, TableView

log = logging.getLogger(__name__)

#: ``MAHJONG_PICTURES=false`` turns pictures off (text only); the game cog sets this from
#: the bot's settings at start-up.
ENABLED = os.environ.get("MAHJONG_PICTURES", "1").strip().lower() not in ("0", "false", "off", "no")
MELD_KINDS = ("chi", "pong", "kong", "concealed_kong", "indicator_kong")


def _melds(melds: tuple[MeldInfo, ...], owner: int | None = None) -> tuple[Any, ...]:
    """Render melds of seat ``owner``: a claimed one turns its claimed tile towards the
    feeder (上家 left, 对家 middle, 下家 right); without an owner or a feeder (old saved
    games) it is drawn upright."""
    from render import MeldView, feeder_offset

    return tuple(
        MeldView(
            m.kind if m.kind in MELD_KINDS else "kong",
            tuple(m.tiles),
            fed_from=None if owner is None else feeder_offset(owner, m.from_seat),
            claimed=m.claimed,
            added=m.added,
        )
        for m in melds
    )


def _file(data: bytes, name: str) -> list[discord.File]:
    return [discord.File(io.BytesIO(data), filename=name)]


def files_of(data: bytes | None, name: str) -> list[discord.File]:
    """``data`` (PNG bytes from :func:`hand_png` / :func:`table_png`) as a fresh file list
    (a ``discord.File`` is spent once sent); empty without data."""
    return _file(data, name) if data else []


# ---------------------------------------------------------------------------- off the loop
#
# The event loop never renders a game picture: :mod:`render.pool` does, in worker processes,
# by priority — the answer to a press first, then hand DMs, then tables (which may lag).

#: seconds a press's answer waits for its hand picture before it answers without it
ANSWER_PICTURE_BUDGET = 0.25
#: seconds a hand DM waits for its picture before it is sent with the text alone
PRIVATE_PICTURE_BUDGET = 3.0
#: seconds a table edit waits for its picture before it shows the text alone (under load
#: the picture lags, the text never does; the next edit brings the picture back)
TABLE_PICTURE_BUDGET = 8.0


def start_pool() -> None:
    """Start the picture workers (at start-up, so the first picture does not wait)."""
    if ENABLED:
        from render import pool

        pool.shared().start()


async def close_pool() -> None:
    from render import pool

    await pool.close_shared()


async def _render(fn: Any, model: Any, priority: int, budget: float | None) -> bytes | None:
    from render import pool

    job = pool.shared().render(fn, model, priority=priority)
    try:
        return await (job if budget is None else asyncio.wait_for(job, budget))
    except TimeoutError:
        return None
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("picture failed (%s)", getattr(fn, "__name__", fn))
        return None


def hand_picture(hand: HandView) -> Any:
    """What the hand picture shows (:class:`render.HandPicture`)."""
    from render import HandPicture

    return HandPicture(
        concealed=tuple(hand.concealed),
        drawn=hand.drawn,
        melds=_melds(hand.melds, hand.seat),
        bao=hand.bao,
        flowers=hand.flowers,
    )


async def hand_png(
    hand: HandView, *, urgent: bool = False, budget: float | None = PRIVATE_PICTURE_BUDGET
) -> bytes | None:
    """The player's hand as PNG bytes, rendered off the loop (None when pictures are off,
    the render failed, or it took longer than ``budget`` seconds). ``urgent``: a press's
    answer waits for it (before any DM or table picture)."""
    if not ENABLED:
        return None
    from render import pool, render_hand

    priority = pool.URGENT if urgent else pool.PRIVATE
    return await _render(render_hand, hand_picture(hand), priority, budget)


async def table_png(
    game: GameSummary, table: TableView | None, *, budget: float | None = TABLE_PICTURE_BUDGET
) -> bytes | None:
    """The public table as PNG bytes, rendered off the loop, after every waiting answer and
    hand picture (None when off, failed, or later than ``budget`` seconds)."""
    if not ENABLED or table is None:
        return None
    from render import pool, render_table

    return await _render(render_table, table_picture(game, table), pool.TABLE, budget)


def hand_files(hand: HandView) -> list[discord.File]:
    """The player's own hand as ``hand.png`` (private: DMs and ephemeral replies only)."""
    if not ENABLED:
        return []
    try:
        from render import render_hand

        return _file(render_hand(hand_picture(hand)), "hand.png")
    except Exception:
        log.exception("hand picture failed")
        return []


def table_picture(game: GameSummary, table: TableView) -> Any:
    """What the table picture shows (:class:`render.TablePicture`): public information only.
    In a claim window no seat is highlighted and the centre shows the same neutral wait,
    whoever may claim."""
    from render import SeatView, TablePicture

    seats = tuple(
        SeatView(
            name=game.seats[ps.seat].name if ps.seat < len(game.seats) else "?",
            score=game.totals[ps.seat] if ps.seat < len(game.totals) else 0,
            concealed_count=ps.concealed_count,
            melds=_melds(ps.melds, ps.seat),
            river=tuple(ps.river),
            flowers=ps.flowers,
            dealer=ps.dealer,
            auto=ps.seat < len(game.seats) and game.seats[ps.seat].auto,
            ready=ps.ready,
        )
        for ps in table.seats
    )
    return TablePicture(
        seats=seats,  # type: ignore[arg-type]
        viewer=0,
        turn=table.turn if table.phase == "turn" else None,
        wall_left=table.wall_left,
        hand_number=table.hand_no,
        bao_indicator=table.bao_indicator,
        bao=table.bao,
        last_discard=table.last_discard[0] if table.last_discard else None,
        claim_wait=table.phase == "claim",
        round_label=picture_round_label(game),  # 共8局 / 第1/2圈 (the session's length)
    )


def table_files(game: GameSummary, table: TableView | None) -> list[discord.File]:
    """The public table as ``table.png``."""
    if not ENABLED or table is None:
        return []
    try:
        from render import render_table

        return _file(render_table(table_picture(game, table)), "table.png")
    except Exception:
        log.exception("table picture failed")
        return []


def result_files(game: GameSummary, result: HandResult) -> list[discord.File]:
    """The result (winner's hand, items, changes) as ``result.png``."""
    if not ENABLED:
        return []
    try:
        from render import ResultPicture, ScoreItem, SeatChange, render_result

        changes = tuple(
            SeatChange(
                name=game.seats[i].name if i < len(game.seats) else "?",
                delta=d,
                total=result.scores[i] if i < len(result.scores) else None,
                winner=i in result.winners,
            )
            for i, d in enumerate(result.deltas)
        )
        winner = game.seats[result.winners[0]].name if result.winners else None
        picture = ResultPicture(
            changes=changes,
            winner=winner,
            concealed=tuple(result.winner_concealed),
            winning_tile=result.winning_tile,
            melds=_melds(result.winner_melds, result.winners[0] if result.winners else None),
            items=tuple(ScoreItem(i.name, i.value) for i in result.items),
            total=str(result.points),
        )
        return _file(render_result(picture), "result.png")
    except Exception:
        log.exception("result picture failed")
        return []
