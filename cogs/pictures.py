"""Pictures from :mod:`render` as ``discord.File`` lists (empty when rendering fails or is
switched off); the text beside them is always sent, so a picture is never the only copy.

The table picture takes the public view only: concealed tiles as counts.
"""

from __future__ import annotations

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


def hand_files(hand: HandView) -> list[discord.File]:
    """The player's own hand as ``hand.png`` (private: DMs and ephemeral replies only)."""
    if not ENABLED:
        return []
    try:
        from render import HandPicture, render_hand

        picture = HandPicture(
            concealed=tuple(hand.concealed),
            drawn=hand.drawn,
            melds=_melds(hand.melds, hand.seat),
            bao=hand.bao,
            flowers=hand.flowers,
        )
        return _file(render_hand(picture), "hand.png")
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
