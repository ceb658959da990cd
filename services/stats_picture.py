"""A leaderboard page as a picture (排行榜图): :class:`services.stats.BoardPage` →
:class:`render.leaderboard.BoardPicture` → PNG. No Discord types.

The picture says what the embed says (same ranks, values, the asker's own line), in the
reader's language with short labels (``zh+en`` draws Chinese). A Chinese label the shipped
font subset cannot draw is written in English instead, so the picture never shows ``?``
for its own words; only display names can hold characters the font lacks (drawn as ``?``
by :mod:`render.leaderboard`).
"""

from __future__ import annotations

from typing import Any

from db.types import Leaderboard, LeaderboardEntry
from engine.options import VARIANT_NAMES
from i18n import short, t
from render.fonts import covered
from render.leaderboard import BoardPicture, BoardRow, render_leaderboard
from services.stats import BoardPage
from services.stats_text import metric_parts, percent

#: The picture's file name (``attachment://leaderboard.png`` in the embed).
BOARD_FILE = "leaderboard.png"


def drawable(text: str) -> bool:
    """Whether the shipped label font draws every character of ``text``."""
    have = covered()
    return all(ch in have or ch.isspace() for ch in text)


#: The sentences that have a stand-in for the picture, ``stats.picture.<name>`` in the
#: catalogue: their own words needed characters the shipped font subset once lacked (榜 赛 季 积 率 录
#: 页 差 ≥); the stand-in is used only while those stay undrawable.
PICTURE_WORDS: frozenset[str] = frozenset(
    {
        "board_word",
        "period_all",
        "by_points",
        "by_winrate",
        "rate",
        "page",
        "board_empty",
        "short_unranked",
        "short_min_hands",
    }
)


def say(key: str, lang: str, **params: Any) -> str:
    """:func:`i18n.t` for the picture: the sentence ``key`` (``stats.<name>``) in ``lang``
    when the font draws it, else its stand-in ``stats.picture.<name>``, else English."""
    if lang == "en":
        return t(key, "en", **params)
    text = t(key, lang, **params)
    if drawable(text):
        return text
    name = key.removeprefix("stats.")
    if name in PICTURE_WORDS:
        alternative = t(f"stats.picture.{name}", lang, **params)
        if drawable(alternative):
            return alternative
    return t(key, "en", **params)


def variant_word(variant: str, lang: str) -> str:
    """The variant's name in ``lang`` when the font draws it, else in English."""
    if variant not in VARIANT_NAMES:
        return variant
    name = t(f"engine.variant.{variant}", lang)
    return name if lang == "en" or drawable(name) else t(f"engine.variant.{variant}", "en")


def scope_line(board: Leaderboard, lang: str) -> str:
    """``上饶麻将 · 本月 · 按积分`` as the picture words it."""
    variant = (
        say("stats.all_variants", lang)
        if board.variant is None
        else variant_word(board.variant, lang)
    )
    period = say(f"stats.period_{board.period}", lang, season=board.season or 1)
    return " · ".join([variant, period, say(f"stats.by_{board.by}", lang)])


def _name(entry: LeaderboardEntry, fallback: str | None = None) -> str:
    return entry.display_name or fallback or f"#{entry.user_id}"


def _tone(entry: LeaderboardEntry, by: str) -> int:
    if by != "points":
        return 0
    return (entry.points > 0) - (entry.points < 0)


def board_row(entry: LeaderboardEntry, by: str, lang: str, *, me: bool = False) -> BoardRow:
    """One ranked player as a picture row: the ordered value large, the rest below."""
    value, others = metric_parts(entry, by, lang, say=say)
    return BoardRow(
        rank=entry.rank,
        name=_name(entry),
        value=value,
        detail=" · ".join(others),
        tone=_tone(entry, by),
        me=me,
    )


def own_row(page: BoardPage, lang: str) -> BoardRow:
    """The asker's line when they are not on the page (ranked, too few hands, or none)."""
    board, me = page.board, page.board.me
    name = (me.display_name if me else None) or page.asker_name or f"#{page.asker_id}"
    if me is not None and me.rank is not None:
        row = board_row(me, board.by, lang, me=True)
        return BoardRow(row.rank, name, row.value, row.detail, row.tone, me=True)
    if me is None:
        detail = say("stats.short_none", lang)
    elif board.by == "rating":
        detail = say("stats.short_unrated", lang)
    else:
        more = max(0, page.min_hands - me.hands)
        detail = say("stats.short_unranked", lang, hands=me.hands, more=more)
        if board.by == "winrate":
            detail += " · " + say("stats.rate", lang, pct=percent(me.win_rate))
    return BoardRow(rank=None, name=name, value="—", detail=detail, me=True)


def board_picture(page: BoardPage) -> BoardPicture:
    """What the picture of ``page`` shows (the same page as its embed)."""
    board, lang = page.board, short(page.lang)
    asker = page.asker_id
    rows = tuple(
        board_row(e, board.by, lang, me=asker is not None and e.user_id == asker)
        for e in board.entries
    )
    own = None
    if asker is not None and not any(e.user_id == asker for e in board.entries):
        own = own_row(page, lang)
    footer = [say("stats.page", lang, page=page.page + 1, pages=page.pages, total=board.total)]
    if board.by == "winrate":
        footer.append(say("stats.short_min_hands", lang, min=page.min_hands))
    empty = "stats.board_empty_winrate" if board.by == "winrate" else "stats.board_empty"
    return BoardPicture(
        title=say("stats.board_word", lang),
        subtitle=scope_line(board, lang),
        rows=rows,
        own=own,
        own_label=say("stats.you", lang),
        empty=say(empty, lang, min=page.min_hands),
        footer=" · ".join(footer),
    )


def board_png(page: BoardPage) -> bytes:
    """The picture of ``page`` as PNG bytes (about 15 ms: run it off the event loop)."""
    return render_leaderboard(board_picture(page))


def board_alt_text(page: BoardPage) -> str:
    """The picture's description for screen readers (the list itself is the embed's text)."""
    lang = short(page.lang)
    note = t("stats.picture.alt_note", lang)
    return (page.card.title + note)[:1024]


__all__ = [
    "BOARD_FILE",
    "PICTURE_WORDS",
    "board_alt_text",
    "board_picture",
    "board_png",
    "board_row",
    "drawable",
    "own_row",
    "say",
    "scope_line",
    "variant_word",
]
