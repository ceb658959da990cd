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

from services import pictures as service_pictures
from services.delivery import GameSummary
from services.model import HandResult, HandView, TableView
from services.picture_words import picture_words
from services.pictures import hand_picture, meld_views, table_picture

log = logging.getLogger(__name__)

#: ``MAHJONG_PICTURES=false`` turns pictures off (text only); the game cog sets this from
#: the bot's settings at start-up.
ENABLED = os.environ.get("MAHJONG_PICTURES", "1").strip().lower() not in ("0", "false", "off", "no")


def _file(data: bytes, name: str) -> list[discord.File]:
    return [discord.File(io.BytesIO(data), filename=name)]


def files_of(data: bytes | None, name: str) -> list[discord.File]:
    """``data`` (PNG bytes from :func:`hand_png` / :func:`table_png`) as a fresh file list
    (a ``discord.File`` is spent once sent); empty without data."""
    return _file(data, name) if data else []


# ---------------------------------------------------------------------------- off the loop
#
# The event loop never renders a game picture: :mod:`render.pool` does, in worker processes,
# by priority — the picture of a press's answer first (it goes with the answer, or follows it
# when late: ``INLINE_WAIT``), then hand DMs, then tables (which may lag).

#: seconds a press's answer waits for the pressed hand's new picture, so that the answer
#: carries it and no second edit follows (``PICTURE_INLINE_WAIT_MS``, set from the bot's
#: settings at start-up; 0: the answer never waits, the picture always follows it)
INLINE_WAIT = 0.04
#: seconds a hand DM waits for its picture before it is sent with the text alone
PRIVATE_PICTURE_BUDGET = 3.0
#: seconds a table edit waits for its picture before it shows the text alone. Under load
#: fewer table pictures rather than late ones: a picture the workers would not finish in
#: time is not drawn at all (:meth:`render.pool.PicturePool.expected_wait`), and the text
#: goes at once and stays current; the next edit brings a picture back. With a table's
#: longest spacing between edits (``cogs.table_edits.TABLE_MAX_INTERVAL``, 5 s) and the
#: edit's request, a table never shows a picture more than 10 s behind the game.
TABLE_PICTURE_BUDGET = 3.0


def start_pool() -> None:
    """Start the picture workers (at start-up, so the first picture does not wait); the
    pictures of commands (desk, stats, replay: :func:`services.pictures.draw`) use them too."""
    if ENABLED:
        from render import pool

        pool.shared().start()
        service_pictures.USE_POOL = True


async def close_pool() -> None:
    from render import pool

    service_pictures.USE_POOL = False
    await pool.close_shared()


#: seconds a hand's result (摊牌) or the final standings waits for its picture before it is
#: posted with the text alone
RESULT_PICTURE_BUDGET = 8.0


async def render_png(fn: Any, model: Any) -> bytes | None:
    """``fn(model)`` (a renderer of :mod:`render` and its frozen picture model) as PNG
    bytes, rendered in the picture workers, never on the event loop: with the hand DMs,
    before the tables (None when the render failed or took longer than
    :data:`RESULT_PICTURE_BUDGET`)."""
    from render import pool

    return await _render(fn, model, pool.PRIVATE, RESULT_PICTURE_BUDGET)


async def _render(
    fn: Any, model: Any, priority: int, budget: float | None, *, home: int | None = None
) -> bytes | None:
    from render import pool

    job = pool.shared().render(fn, model, priority=priority, home=home)
    try:
        return await (job if budget is None else asyncio.wait_for(job, budget))
    except TimeoutError:
        return None
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("picture failed (%s)", getattr(fn, "__name__", fn))
        return None


async def hand_png(
    hand: HandView,
    *,
    urgent: bool = False,
    budget: float | None = PRIVATE_PICTURE_BUDGET,
    lang: str = "zh",
) -> bytes | None:
    """The player's hand as PNG bytes, rendered off the loop (None when pictures are off,
    the render failed, or it took longer than ``budget`` seconds). ``urgent``: a press's
    answer waits for it (before any DM or table picture). ``lang``: the player's language."""
    if not ENABLED:
        return None
    from render import pool, render_hand

    priority = pool.URGENT if urgent else pool.PRIVATE
    return await _render(render_hand, hand_picture(hand, lang), priority, budget)


def hand_model(hand: HandView, lang: str = "zh") -> Any:
    """What the player's hand picture shows (a frozen :class:`render.HandPicture`, equal for
    equal pictures), or None when pictures are off."""
    return hand_picture(hand, lang) if ENABLED else None


async def table_png(
    game: GameSummary,
    table: TableView | None,
    *,
    budget: float | None = TABLE_PICTURE_BUDGET,
    lang: str = "zh",
) -> bytes | None:
    """The public table as PNG bytes, rendered off the loop, after every waiting answer and
    hand picture (None when off, failed, or later than ``budget`` seconds). ``lang``: the
    server's language (the picture's badges and centre lines)."""
    if not ENABLED or table is None:
        return None
    from render import pool, render_table

    if budget is not None and pool.shared().expected_wait(pool.TABLE) > budget:
        return None  # it would come too late: the text alone, now
    model = table_picture(game, table, lang)
    return await _render(render_table, model, pool.TABLE, budget, home=game.id)


def hand_files(hand: HandView, lang: str = "zh") -> list[discord.File]:
    """The player's own hand as ``hand.png`` (private: DMs and ephemeral replies only)."""
    if not ENABLED:
        return []
    try:
        from render import render_hand

        return _file(render_hand(hand_picture(hand, lang)), "hand.png")
    except Exception:
        log.exception("hand picture failed")
        return []


def table_files(game: GameSummary, table: TableView | None, lang: str = "zh") -> list[discord.File]:
    """The public table as ``table.png`` (its words in ``lang``)."""
    if not ENABLED or table is None:
        return []
    try:
        from render import render_table

        return _file(render_table(table_picture(game, table, lang)), "table.png")
    except Exception:
        log.exception("table picture failed")
        return []


def result_files(game: GameSummary, result: HandResult, lang: str = "zh") -> list[discord.File]:
    """The result (winner's hand, items, changes) as ``result.png`` (its words in ``lang``)."""
    if not ENABLED:
        return []
    try:
        from render import ResultPicture, ScoreItem, SeatChange, render_result

        changes = tuple(
            SeatChange(
                name=game.seats[i].shown_name(lang) if i < len(game.seats) else "?",
                delta=d,
                total=result.scores[i] if i < len(result.scores) else None,
                winner=i in result.winners,
            )
            for i, d in enumerate(result.deltas)
        )
        winner = game.seats[result.winners[0]].shown_name(lang) if result.winners else None
        picture = ResultPicture(
            changes=changes,
            winner=winner,
            concealed=tuple(result.winner_concealed),
            winning_tile=result.winning_tile,
            melds=meld_views(result.winner_melds, result.winners[0] if result.winners else None),
            items=tuple(ScoreItem(i.name, i.value) for i in result.items),
            total=str(result.points),
            words=picture_words(lang),
        )
        return _file(render_result(picture), "result.png")
    except Exception:
        log.exception("result picture failed")
        return []
