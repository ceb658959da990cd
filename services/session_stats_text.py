"""The words of a player's sessions (场次战绩) and of a session's result card (战绩卡): the
text cards, the picker's options and the card picture's model. No Discord types.

``lang`` is a locale of :data:`i18n.LOCALES` or ``zh+en`` (the text then says both, Chinese
first; the picture draws Chinese). Names are the seats' as the game kept them (an AI seat
in the reader's language); a 大赢家 is marked 🏆 in text and with a badge on the picture.
"""

from __future__ import annotations

from collections.abc import Sequence

from db.types import SessionLine, SessionRecord, SessionTally
from i18n import short, t
from render.session_card import CardRow, SessionCardPicture
from services.model import Seat
from services.stats_picture import say, variant_word
from services.stats_text import (
    DESCRIPTION_LIMIT,
    MEDALS,
    Card,
    Choice,
    clip,
    day,
    person,
    signed,
    variant_name,
)

#: How a session ended, as its log's ``end`` entry says (``length``: all its hands played).
ENDINGS = ("length", "vote", "admin")
TOP_MARK = "🏆"


def ending(record: SessionRecord) -> str | None:
    """Why the session ended: ``length`` (played out), ``vote`` (解散), ``admin`` (a server
    manager ended it); None when its log does not say (a game recorded before sessions)."""
    for entry in reversed(record.tail):
        if entry.get("k") == "end":
            why = entry.get("why")
            return why if why in ENDINGS else None
    return None


def ending_mark(record: SessionRecord, lang: str) -> str:
    """`` · 解散`` / `` · 管理员结束`` after a session that did not play out, else empty."""
    why = ending(record)
    return t(f"stats.session_ended_{why}", short(lang)) if why in ("vote", "admin") else ""


def line_name(line: SessionLine, lang: str) -> str:
    """A player as the text shows them (Markdown-safe; an AI seat by its label)."""
    return person(line.user_id, line.name, is_ai=line.is_ai, lang=short(lang))


def plain_name(line: SessionLine, lang: str) -> str:
    """A player as the picture and the picker show them (no Markdown, no mention)."""
    if line.is_ai:
        return (
            Seat(line.name, ai=True).shown_name(short(lang))
            if line.name
            else t("stats.ai", short(lang))
        )
    return line.name or f"#{line.user_id}"


def players_text(record: SessionRecord, lang: str, *, me: int | None = None) -> str:
    """``🏆 **alice** +30 · bob −10 · 🤖 电脑一 −20``: best first, the 大赢家 marked, ``me``
    in bold."""
    parts = []
    for line in record.lines:
        name = line_name(line, lang)
        if me is not None and line.user_id == me and not line.is_ai:
            name = f"**{name}**"
        mark = f"{TOP_MARK} " if line.top else ""
        parts.append(f"{mark}{name} {signed(line.total)}")
    return " · ".join(parts)


def session_head(record: SessionRecord, lang: str) -> str:
    """``**#12** · 上饶麻将 · 2026-11-20 · 8 局``, then how it ended when not played out."""
    return t(
        "stats.session_line",
        short(lang),
        id=record.game_id,
        variant=variant_name(record.variant, lang),
        date=day(record.ended_at),
        hands=record.hands,
        ended=ending_mark(record, lang),
    )


def format_sessions(
    records: Sequence[SessionRecord],
    tally: SessionTally,
    *,
    who: str,
    user_id: int,
    page: int = 0,
    pages: int = 1,
    lang: str = "zh",
) -> Card:
    """A page of a player's sessions: their tally (sessions, 大赢家 titles, points), then
    each session — when, variant, hands, every player's total, the 大赢家 marked."""
    title = t("stats.sessions_title", short(lang), who=who)
    summary = t(
        "stats.sessions_summary",
        lang,
        sessions=tally.sessions,
        tops=tally.tops,
        points=signed(tally.points),
    )
    footer = []
    if pages > 1:
        footer.append(t("stats.sessions_page", lang, page=page + 1, pages=pages))
    if not records:
        empty = t("stats.sessions_past_end" if tally.sessions else "stats.sessions_empty", lang)
        return Card(title=title, description=f"{summary}\n\n{empty}", footer=" · ".join(footer))
    blocks = [f"{session_head(r, lang)}\n{players_text(r, lang, me=user_id)}" for r in records]
    return Card(
        title=title,
        description=clip(summary + "\n\n" + "\n\n".join(blocks), DESCRIPTION_LIMIT),
        footer=" · ".join([*footer, t("stats.sessions_pick", lang)]),
    )


def session_choices(records: Sequence[SessionRecord], lang: str = "zh") -> list[Choice]:
    """The picker's options (at most 25): one per session, its players in the description."""
    lang1 = short(lang)
    out = []
    for r in records[:25]:
        label = f"#{r.game_id} · {variant_name(r.variant, lang1)} · {day(r.ended_at)}"
        desc = " · ".join(
            f"{TOP_MARK if x.top else ''}{plain_name(x, lang1)} {signed(x.total)}" for x in r.lines
        )
        out.append(
            Choice(label=clip(label, 100), value=str(r.game_id), description=clip(desc, 100))
        )
    return out


# ------------------------------------------------------------------------------ 战绩卡


def format_card(record: SessionRecord, lang: str = "zh") -> Card:
    """The card as text: every player's rank, name and total, the 大赢家 marked; the
    variant, hands played and date."""
    lang1 = short(lang)
    lines = []
    for x in record.lines:
        medal = MEDALS.get(x.rank, "")
        line = f"{medal}`{x.rank}.` {line_name(x, lang)} **{signed(x.total)}**".lstrip()
        if x.top:
            line += f" · {TOP_MARK} {t('stats.session_top', lang1)}"
        lines.append(line)
    return Card(
        title=t("stats.card_title", lang1, variant=variant_name(record.variant, lang)),
        description=clip("\n".join(lines), DESCRIPTION_LIMIT),
        footer=t(
            "stats.card_footer",
            lang1,
            id=record.game_id,
            hands=record.hands,
            date=day(record.ended_at),
        )
        + ending_mark(record, lang1),
    )


def card_picture(record: SessionRecord, lang: str = "zh") -> SessionCardPicture:
    """What the card picture shows, in ``lang`` (``zh+en``: Chinese)."""
    lang = short(lang)
    why = ending(record)
    stamp = t(f"session.picture.ended_{why}", lang) if why in ("vote", "admin") else ""
    return SessionCardPicture(
        title=say("stats.card_title", lang, variant=variant_word(record.variant, lang)),
        subtitle=say("stats.card_subtitle", lang, hands=record.hands, date=day(record.ended_at)),
        rows=tuple(CardRow(x.rank, plain_name(x, lang), x.total, x.top) for x in record.lines),
        top_word=say("stats.session_top", lang),
        stamp=stamp,
        footer=f"#{record.game_id}",
    )


def card_alt_text(record: SessionRecord, lang: str = "zh") -> str:
    """The picture's description for screen readers: the whole card in one line."""
    lang = short(lang)
    players = " · ".join(
        f"{x.rank}. {plain_name(x, lang)} {signed(x.total)}"
        + (f" ({t('stats.session_top', lang)})" if x.top else "")
        for x in record.lines
    )
    head = t("stats.card_title", lang, variant=variant_name(record.variant, lang))
    tail = t("stats.card_subtitle", lang, hands=record.hands, date=day(record.ended_at))
    return clip(f"{head} · {tail}: {players}", 1024)


__all__ = [
    "ENDINGS",
    "card_alt_text",
    "card_picture",
    "ending",
    "ending_mark",
    "format_card",
    "format_sessions",
    "players_text",
    "session_choices",
    "session_head",
]
