"""Leaderboards (排行榜), player stats (战绩), game history and seasons (赛季) for the cogs.

Pure service code: no Discord types. :class:`StatsService` asks the store and returns
:class:`services.stats_text.Card` values (plus the data behind them); :class:`BoardQuery`
carries a leaderboard's parameters in a button ``custom_id`` (``mj:lb:…``) so paging keeps
working after a restart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Protocol

from db.games import GameRepository
from db.guilds import GuildRepository
from db.hands import HandRepository
from db.leaderboard import LeaderboardRepository
from db.players import PlayerRepository
from db.stats import StatsRepository
from db.types import (
    GameInfo,
    GameSummary,
    HandInfo,
    Leaderboard,
    PlayerStats,
    SeasonInfo,
)
from engine.options import VARIANT_NAMES
from i18n import locale_for, t
from services.stats_text import (
    Card,
    format_game,
    format_history,
    format_leaderboard,
    format_seasons,
    format_stats,
    pages_of,
    rating_series,
)

PERIODS = ("all", "season", "month", "week")
ORDERS = ("points", "rating", "winrate")
VARIANTS = tuple(VARIANT_NAMES)
#: Players on one leaderboard page.
PAGE_SIZE = 10
#: Hands a player needs before the win-rate board ranks them.
MIN_HANDS = 10
#: Games listed by ``/mahjong history`` (one select menu holds 25).
HISTORY_LIMIT = 10
#: Physically recorded hands listed under the games by ``/mahjong history``.
RECORDS_LIMIT = 5
#: Hands shown per page of one game.
HANDS_PER_PAGE = 4
#: Rating-history points drawn on the stats chart.
CHART_POINTS = 100

#: ``mj:lb:<variant|all>:<period>:<by>:<season|0>:<page|me>``
BOARD_ID = re.compile(
    r"mj:lb:(?P<variant>[a-z]+):(?P<period>all|season|month|week):"
    r"(?P<by>points|rating|winrate):(?P<season>\d{1,6}):(?P<page>\d{1,6}|me)"
)
#: ``mj:gh:<game id>:<page>`` (a page of one game's hands).
GAME_ID = re.compile(r"mj:gh:(?P<game>\d{1,19}):(?P<page>\d{1,6})")
#: ``mj:hs:<user id|0>`` (the history select menu; the chosen value is a game id).
HISTORY_ID = re.compile(r"mj:hs:(?P<user>\d{1,20})")
#: ``mj:hp:<user id|0>:<page>`` (a page of the history list).
HISTORY_PAGE_ID = re.compile(r"mj:hp:(?P<user>\d{1,20}):(?P<page>\d{1,6})")


class StatsInputError(ValueError):
    """A parameter the user gave is not valid; the sentence ``stats.error.<key>`` says why.

    A tuple argument is a list of choices, joined the way ``lang`` writes a list (、/ ,)."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(self.text("en"))

    def _say(self, lang: str) -> str:
        sep = t("stats.list_sep", lang)
        args = {k: sep.join(v) if isinstance(v, tuple) else v for k, v in self.params.items()}
        return t(f"stats.error.{self.key}", lang, **args)

    def text(self, lang: str) -> str:
        """The message in ``lang`` (a locale of :data:`i18n.LOCALES`, or ``zh+en``: both
        on two lines)."""
        if lang == "zh+en":
            return f"{self._say('zh')}\n{self._say('en')}"
        return self._say(lang)


@dataclass(frozen=True, slots=True)
class BoardQuery:
    """Which leaderboard: variant (None = all), period, order, season (for ``season``)."""

    variant: str | None = None
    period: str = "all"
    by: str = "points"
    season: int | None = None

    def __post_init__(self) -> None:
        if self.variant is not None and self.variant not in VARIANTS:
            raise StatsInputError("variant", variant=self.variant, choices=VARIANTS)
        if self.period not in PERIODS:
            raise StatsInputError("period", choices=PERIODS)
        if self.by not in ORDERS:
            raise StatsInputError("by", choices=ORDERS)
        if self.season is not None and not 1 <= self.season <= 999_999:
            raise StatsInputError("season")

    def custom_id(self, page: int | str) -> str:
        """The ``custom_id`` of a button that shows ``page`` (a number, or ``me``)."""
        season = self.season if self.period == "season" and self.season else 0
        return f"mj:lb:{self.variant or 'all'}:{self.period}:{self.by}:{season}:{page}"

    @classmethod
    def from_match(cls, match: re.Match[str]) -> tuple[BoardQuery, int | None]:
        """The query and page (None = the asker's page) of a :data:`BOARD_ID` match."""
        variant = match["variant"]
        season = int(match["season"]) or None
        query = cls(
            variant=None if variant == "all" else variant,
            period=match["period"],
            by=match["by"],
            season=season if match["period"] == "season" else None,
        )
        page = None if match["page"] == "me" else int(match["page"])
        return query, page

    @classmethod
    def parse(cls, custom_id: str) -> tuple[BoardQuery, int | None]:
        """Parse a leaderboard button's ``custom_id``; raises ``StatsInputError``."""
        match = BOARD_ID.fullmatch(custom_id)
        if match is None:
            raise StatsInputError("button")
        return cls.from_match(match)


@dataclass(frozen=True, slots=True)
class BoardPage:
    """A leaderboard page ready to show: the card, the store's board and paging facts;
    who asked and in which language (the picture of the page is drawn from these)."""

    card: Card
    board: Leaderboard
    query: BoardQuery
    page: int
    pages: int
    asker_id: int | None = None
    asker_name: str | None = None
    lang: str = "zh"
    min_hands: int = MIN_HANDS

    @property
    def has_prev(self) -> bool:
        return self.page > 0

    @property
    def has_next(self) -> bool:
        return self.page + 1 < self.pages


@dataclass(frozen=True, slots=True)
class StatsAnswer:
    """Stats ready to show: the card and the rating chart's points (oldest first)."""

    card: Card
    stats: PlayerStats
    chart: list[tuple[datetime, float]]


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """A page of the history list: the card, that page's games (latest first), whether a
    later page exists, and whose games (None = the whole server)."""

    card: Card
    games: list[GameSummary]
    page: int = 0
    has_next: bool = False
    user_id: int | None = None

    @property
    def has_prev(self) -> bool:
        return self.page > 0


@dataclass(frozen=True, slots=True)
class GamePage:
    card: Card
    game: GameInfo
    page: int
    pages: int


class StatsStore(Protocol):
    """The part of :class:`db.store.Store` this service uses: leaderboards (排行榜), stats
    (战绩) and history, games, hands, players and seasons."""

    @property
    def leaderboards(self) -> LeaderboardRepository: ...

    @property
    def stats(self) -> StatsRepository: ...

    @property
    def games(self) -> GameRepository: ...

    @property
    def hands(self) -> HandRepository: ...

    @property
    def players(self) -> PlayerRepository: ...

    @property
    def guilds(self) -> GuildRepository: ...


class StatsService:
    """Leaderboards, stats, history and seasons of a server, as text cards."""

    def __init__(
        self,
        store: StatsStore,
        *,
        page_size: int = PAGE_SIZE,
        min_hands: int = MIN_HANDS,
        history_limit: int = HISTORY_LIMIT,
        hands_per_page: int = HANDS_PER_PAGE,
        records_limit: int = RECORDS_LIMIT,
    ) -> None:
        self.store = store
        self.page_size = page_size
        self.min_hands = min_hands
        self.history_limit = history_limit
        self.hands_per_page = hands_per_page
        self.records_limit = records_limit

    async def language(self, guild_id: int | None, user_locale: str | None) -> str:
        """``zh`` (简体) or ``zh-TW`` (繁體) for a Chinese-speaking user; otherwise the
        server's language (``en``), or Chinese first with English (``zh+en``) when the server
        speaks Chinese."""
        if str(user_locale or "").startswith("zh"):
            return locale_for(user_locale)
        if guild_id is None:
            return "zh+en"
        settings = await self.store.guilds.settings(guild_id)
        return "en" if (settings.language or "zh").startswith("en") else "zh+en"

    async def wants_pictures(self, user_id: int) -> bool:
        """The player's picture preference (``/mahjong pictures``; on when never set)."""
        player = await self.store.players.get(user_id)
        return True if player is None else bool(player.prefers_images)

    async def remember(self, user_id: int, display_name: str | None) -> None:
        """Keep the player's current display name (only written when it changed)."""
        if not display_name:
            return
        known = await self.store.players.get(user_id)
        if known is None or known.display_name != display_name[:100]:
            await self.store.players.upsert(user_id, display_name=display_name[:100])

    async def _season_exists(self, guild_id: int, season: int | None) -> None:
        """A season not started yet is an error, not an empty table that looks like one."""
        if season is None:
            return
        current = (await self.store.guilds.settings(guild_id)).current_season
        if season > current:
            raise StatsInputError("no_season", season=season, current=current)

    async def leaderboard(
        self,
        guild_id: int,
        query: BoardQuery,
        *,
        page: int | None = 0,
        user_id: int | None = None,
        user_name: str | None = None,
        lang: str = "zh",
        now: datetime | None = None,
    ) -> BoardPage:
        """One page of the server's ranking (``page`` None: the page holding ``user_id``).

        A page past the end shows the last one; humans only (the store never ranks AI seats).
        """
        if query.period == "season":
            await self._season_exists(guild_id, query.season)
        wanted = 0 if page is None else max(page, 0)
        board = await self._board(guild_id, query, wanted, user_id, now)
        pages = pages_of(board.total, self.page_size)
        target = wanted
        if page is None and board.me is not None and board.me.rank is not None:
            target = (board.me.rank - 1) // self.page_size
        target = min(target, pages - 1)
        if target != wanted:
            board = await self._board(guild_id, query, target, user_id, now)
        if query.period == "season" and query.season is None and board.season is not None:
            query = replace(query, season=board.season)  # buttons keep this season
        card = format_leaderboard(
            board,
            lang=lang,
            page_size=self.page_size,
            asker_id=user_id,
            asker_name=user_name,
            min_hands=self.min_hands,
        )
        return BoardPage(
            card=card,
            board=board,
            query=query,
            page=target,
            pages=pages,
            asker_id=user_id,
            asker_name=user_name,
            lang=lang,
            min_hands=self.min_hands,
        )

    async def _board(
        self,
        guild_id: int,
        query: BoardQuery,
        page: int,
        user_id: int | None,
        now: datetime | None,
    ) -> Leaderboard:
        return await self.store.leaderboards.page(
            guild_id,
            variant=query.variant,
            period=query.period,
            by=query.by,
            season=query.season,
            user_id=user_id,
            offset=page * self.page_size,
            limit=self.page_size,
            min_hands=self.min_hands,
            now=now,
        )

    async def stats(
        self,
        guild_id: int,
        user_id: int,
        *,
        name: str,
        variant: str | None = None,
        period: str = "all",
        season: int | None = None,
        lang: str = "zh",
        now: datetime | None = None,
        picture: bool = True,
    ) -> StatsAnswer:
        """A player's stats card and the points of their rating chart (``picture`` False:
        the chart will not be sent, so the card does not mention it)."""
        BoardQuery(variant=variant, period=period, season=season)  # validates
        if period == "season" and season is None:
            season = (await self.store.guilds.settings(guild_id)).current_season
        elif period == "season":
            await self._season_exists(guild_id, season)
        stats = await self.store.stats.player_stats(
            guild_id,
            user_id,
            variant=variant,
            period=period,
            season=season,
            history_limit=CHART_POINTS,
            now=now,
        )
        chart = rating_series(stats)
        shown = picture and len(chart) >= 2
        card = format_stats(stats, name, lang=lang, chart=shown, season=season)
        return StatsAnswer(card=card, stats=stats, chart=chart)

    async def history(
        self,
        guild_id: int,
        *,
        user_id: int | None = None,
        who: str | None = None,
        lang: str = "zh",
        page: int = 0,
    ) -> HistoryPage:
        """Page ``page`` of the server's (or one player's) games, latest first, with totals
        (``history_limit`` a page); the first page also lists the latest hands played with
        real tiles (实体牌局, read by ``store.stats.record_hands``). ``who`` defaults to the
        player's stored name."""
        page = max(page, 0)
        size = self.history_limit
        found = await self.store.stats.recent_games(
            guild_id, user_id=user_id, limit=size + 1, offset=page * size
        )
        games, has_next = found[:size], len(found) > size
        records: list[HandInfo] = []
        if page == 0:
            records = await self.store.stats.record_hands(
                guild_id, user_id=user_id, limit=self.records_limit
            )
        ids = {int(d.get("user_id", 0)) for h in records for d in h.deltas}
        if user_id is not None and who is None:
            ids.add(user_id)
        names = await self.store.players.display_names(ids)
        if user_id is not None and who is None:
            who = names.get(user_id) or f"<@{user_id}>"
        card = format_history(
            games, lang=lang, who=who, records=records, names=names, page=page, has_next=has_next
        )
        return HistoryPage(card=card, games=games, page=page, has_next=has_next, user_id=user_id)

    async def game(
        self, guild_id: int, game_id: int, *, page: int = 0, lang: str = "zh"
    ) -> GamePage:
        """A page of one game's hands: winner, items, payments, fairness seed."""
        game = await self.store.games.get(game_id)
        if game is None or game.guild_id != guild_id:
            raise StatsInputError("no_game", id=game_id)
        hands = await self.store.hands.of_game(game_id)
        pages = pages_of(len(hands), self.hands_per_page)
        page = min(max(page, 0), pages - 1)
        card = format_game(game, hands, page=page, per_page=self.hands_per_page, lang=lang)
        return GamePage(card=card, game=game, page=page, pages=pages)

    async def new_season(self, guild_id: int, *, now: datetime | None = None) -> SeasonInfo:
        """Start the server's next season; the old ones stay queryable by number."""
        return await self.store.guilds.start_season(guild_id, now=now)

    async def seasons(self, guild_id: int, *, lang: str = "zh") -> Card:
        """The server's seasons, the current one marked."""
        settings = await self.store.guilds.settings(guild_id)
        seasons = await self.store.guilds.seasons(guild_id)
        return format_seasons(seasons, settings.current_season, lang)


def game_custom_id(game_id: int, page: int) -> str:
    """The ``custom_id`` of a button that shows ``page`` of game ``game_id``'s hands."""
    return f"mj:gh:{game_id}:{page}"


def history_custom_id(user_id: int | None) -> str:
    """The ``custom_id`` of the history select menu."""
    return f"mj:hs:{user_id or 0}"


def history_page_custom_id(user_id: int | None, page: int) -> str:
    """The ``custom_id`` of a button that shows ``page`` of the history list."""
    return f"mj:hp:{user_id or 0}:{page}"


__all__ = [
    "BOARD_ID",
    "GAME_ID",
    "HISTORY_ID",
    "HISTORY_PAGE_ID",
    "MIN_HANDS",
    "ORDERS",
    "PAGE_SIZE",
    "PERIODS",
    "VARIANTS",
    "BoardPage",
    "BoardQuery",
    "GamePage",
    "HistoryPage",
    "StatsAnswer",
    "StatsInputError",
    "StatsService",
    "StatsStore",
    "game_custom_id",
    "history_custom_id",
    "history_page_custom_id",
]
