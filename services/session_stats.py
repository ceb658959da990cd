"""A player's sessions (场次战绩) and the result card of one (战绩卡), for the cogs.

Pure service code: no Discord types. :class:`SessionStats` asks the store
(``store.stats.sessions`` / ``session`` / ``session_tally``, :mod:`db.sessions`) and returns
pages and cards; the words are :mod:`services.session_stats_text`'s. A room-card table's
战绩: every session the player sat in — when, the variant, the hands played, who sat, each
player's total and the 大赢家 (the top total; a tie shares it) — with their count of
sessions, of 大赢家 titles and their points over them.

Buttons carry what they show in their ``custom_id`` so they work after a restart:

- ``mj:zj:<user>:<page>`` — a page of ``user``'s sessions;
- ``mj:zk:<user>`` — the picker of a page's sessions (the chosen value is a game id);
- ``mj:zc:<game>`` — the 战绩卡 of session ``game``, shown to the presser (on a page's
  pick and on the final standings);
- ``mj:zs:<game>`` — 分享: post that card in the channel for everyone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from db.players import PlayerRepository
from db.stats import StatsRepository
from db.types import SessionRecord, SessionTally
from services.session_stats_text import format_card, format_sessions
from services.stats import StatsInputError
from services.stats_text import Card, pages_of

#: Sessions on one page of ``/mahjong-sessions`` (each lists every player).
SESSIONS_PER_PAGE = 5
#: The card picture's file name (``attachment://zhanji.png``).
CARD_FILE = "zhanji.png"

SESSIONS_PAGE_ID = re.compile(r"mj:zj:(?P<user>\d{1,20}):(?P<page>\d{1,6})")
SESSIONS_PICK_ID = re.compile(r"mj:zk:(?P<user>\d{1,20})")
CARD_ID = re.compile(r"mj:zc:(?P<game>\d{1,19})")
SHARE_ID = re.compile(r"mj:zs:(?P<game>\d{1,19})")


def sessions_page_id(user_id: int, page: int) -> str:
    return f"mj:zj:{user_id}:{page}"


def sessions_pick_id(user_id: int) -> str:
    return f"mj:zk:{user_id}"


def card_id(game_id: int) -> str:
    return f"mj:zc:{game_id}"


def share_id(game_id: int) -> str:
    return f"mj:zs:{game_id}"


@dataclass(frozen=True, slots=True)
class SessionsPage:
    """A page of a player's sessions: its card, its sessions (latest first), the player's
    tally, which page of how many, and whose sessions."""

    card: Card
    sessions: tuple[SessionRecord, ...]
    tally: SessionTally
    user_id: int
    page: int = 0
    pages: int = 1

    @property
    def has_prev(self) -> bool:
        return self.page > 0

    @property
    def has_next(self) -> bool:
        return self.page + 1 < self.pages


@dataclass(frozen=True, slots=True)
class SessionCard:
    """One session's 战绩卡: the record, its text (the embed, and the whole card when
    pictures are off) and the language it is written in."""

    record: SessionRecord
    card: Card
    lang: str


class SessionStore(Protocol):
    """The part of :class:`db.store.Store` this service uses: its stats and players."""

    @property
    def stats(self) -> StatsRepository: ...

    @property
    def players(self) -> PlayerRepository: ...


class SessionStats:
    """A player's sessions, a page at a time, and one session's card."""

    def __init__(self, store: SessionStore, *, per_page: int = SESSIONS_PER_PAGE) -> None:
        self.store = store
        self.per_page = per_page

    async def page(
        self,
        guild_id: int,
        user_id: int,
        *,
        who: str | None = None,
        page: int = 0,
        lang: str = "zh",
    ) -> SessionsPage:
        """Page ``page`` of the person's ended sessions in the server, latest first; a page
        past the end shows the last one. ``who``: the name the title shows (default: the
        player's stored name, else a mention)."""
        if who is None:
            names = await self.store.players.display_names({user_id})
            who = names.get(user_id) or f"<@{user_id}>"
        tally = await self.store.stats.session_tally(guild_id, user_id)
        pages = pages_of(tally.sessions, self.per_page)
        page = min(max(page, 0), pages - 1)
        found = await self.store.stats.sessions(
            guild_id, user_id, limit=self.per_page, offset=page * self.per_page
        )
        card = format_sessions(
            found, tally, who=who, user_id=user_id, page=page, pages=pages, lang=lang
        )
        return SessionsPage(card, tuple(found), tally, user_id, page, pages)

    async def card(self, guild_id: int, game_id: int, *, lang: str = "zh") -> SessionCard:
        """The 战绩卡 of session ``game_id``; :class:`services.stats.StatsInputError`
        (``no_session``) when the server has no such ended session."""
        record = await self.store.stats.session(guild_id, game_id)
        if record is None:
            raise StatsInputError("no_session", id=game_id)
        return SessionCard(record, format_card(record, lang), lang)


__all__ = [
    "CARD_FILE",
    "CARD_ID",
    "SESSIONS_PAGE_ID",
    "SESSIONS_PER_PAGE",
    "SESSIONS_PICK_ID",
    "SHARE_ID",
    "SessionCard",
    "SessionStats",
    "SessionStore",
    "SessionsPage",
    "card_id",
    "sessions_page_id",
    "sessions_pick_id",
    "share_id",
]
