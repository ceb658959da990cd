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
from render.fonts import covered
from render.leaderboard import BoardPicture, BoardRow, render_leaderboard
from services.stats import BoardPage
from services.stats_text import metric_parts, percent, short, t

#: The picture's file name (``attachment://leaderboard.png`` in the embed).
BOARD_FILE = "leaderboard.png"


def drawable(text: str) -> bool:
    """Whether the shipped label font draws every character of ``text``."""
    have = covered()
    return all(ch in have or ch.isspace() for ch in text)


#: Chinese words for the picture where the text's own words need characters the shipped
#: font subset lacks (榜 赛 季 积 率 录 页 差 ≥); used only while those stay undrawable.
PICTURE_WORDS: dict[str, str] = {
    "board_word": "排行",
    "period_all": "全部时间",
    "by_points": "按分数",
    "by_winrate": "按胜局百分比",
    "rate": "胜 {pct}",
    "page": "{page}/{pages} · 共 {total} 人",
    "board_empty": "这段时间还没有对局。",
    "short_unranked": "{hands} 局 · 再打 {more} 局进入排名",
    "short_min_hands": "至少打满 {min} 局才排名",
}


def say(key: str, lang: str, **params: Any) -> str:
    """:func:`services.stats_text.t` for the picture (``lang`` ``zh`` or ``en``): the
    text's Chinese when the font draws it, else :data:`PICTURE_WORDS`, else English."""
    if lang == "en":
        return t(key, "en", **params)
    zh = t(key, "zh", **params)
    if drawable(zh):
        return zh
    if key in PICTURE_WORDS:
        alternative = PICTURE_WORDS[key].format(**params)
        if drawable(alternative):
            return alternative
    return t(key, "en", **params)


def _pair(pair: tuple[str, str], lang: str) -> str:
    return pair[1] if lang == "en" or not drawable(pair[0]) else pair[0]


def scope_line(board: Leaderboard, lang: str) -> str:
    """``上饶麻将 · 本月 · 按积分`` as the picture words it."""
    variant = (
        say("all_variants", lang)
        if board.variant is None
        else _pair(VARIANT_NAMES.get(board.variant, (board.variant, board.variant)), lang)
    )
    period = say(f"period_{board.period}", lang, season=board.season or 1)
    return " · ".join([variant, period, say(f"by_{board.by}", lang)])


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
        detail = say("short_none", lang)
    elif board.by == "rating":
        detail = say("short_unrated", lang)
    else:
        more = max(0, page.min_hands - me.hands)
        detail = say("short_unranked", lang, hands=me.hands, more=more)
        if board.by == "winrate":
            detail += " · " + say("rate", lang, pct=percent(me.win_rate))
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
    footer = [say("page", lang, page=page.page + 1, pages=page.pages, total=board.total)]
    if board.by == "winrate":
        footer.append(say("short_min_hands", lang, min=page.min_hands))
    empty = "board_empty_winrate" if board.by == "winrate" else "board_empty"
    return BoardPicture(
        title=say("board_word", lang),
        subtitle=scope_line(board, lang),
        rows=rows,
        own=own,
        own_label=say("you", lang),
        empty=say(empty, lang, min=page.min_hands),
        footer=" · ".join(footer),
    )


def board_png(page: BoardPage) -> bytes:
    """The picture of ``page`` as PNG bytes (about 15 ms: run it off the event loop)."""
    return render_leaderboard(board_picture(page))


def board_alt_text(page: BoardPage) -> str:
    """The picture's description for screen readers (the list itself is the embed's text)."""
    lang = short(page.lang)
    note = "（名单见消息文字）" if lang != "en" else " (the list is in the message text)"
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
]
