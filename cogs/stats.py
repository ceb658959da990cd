"""``/mahjong leaderboard``, ``/mahjong stats``, ``/mahjong history``, ``/mahjong season list``
and ``/mahjong-admin season`` (a new season).

Discord only: the text and the queries are :class:`services.stats.StatsService`'s. Answers
are public in the channel (the server's record), except a picked game's hands, which go to
the one who picked it. Paging buttons edit the message they are on and show the position of
whoever pressed them.

Pictures (the leaderboard page, the rating chart) follow ``MAHJONG_PICTURES`` (the bot's
``mahjong_pictures`` setting, :data:`cogs.pictures.ENABLED`) and the asker's own choice
(``/mahjong pictures``); the text is always in the embed, so screen readers get everything.
A page button keeps its message's form: a leaderboard sent with a picture gets the new
page's picture, one sent as text stays text. A picture that fails to draw is logged and
left out; the answer still goes.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands

from cogs import pictures
from cogs.errors import UserError, send_ephemeral
from cogs.group import CheckedGroup, admin, bind_cog_commands, mahjong
from cogs.stats_views import (
    BoardButton,
    HandsButton,
    HistoryButton,
    HistorySelect,
    board_view,
    card_embed,
    game_view,
    history_page_view,
)
from render.charts import render_rating_chart
from services.stats import BoardPage, BoardQuery, StatsInputError, StatsService
from services.stats_picture import BOARD_FILE, board_alt_text, board_png
from services.stats_text import t

log = logging.getLogger(__name__)

VARIANT_CHOICES = [
    Choice(name=locale_str("Shangrao 上饶", zh="上饶麻将"), value="shangrao"),
    Choice(name=locale_str("Xinyu 新余", zh="新余麻将"), value="xinyu"),
    Choice(name=locale_str("Jiujiang 九江", zh="九江麻将"), value="jiujiang"),
]
PERIOD_CHOICES = [
    Choice(name=locale_str("all time", zh="总榜"), value="all"),
    Choice(name=locale_str("this season", zh="本赛季"), value="season"),
    Choice(name=locale_str("this month", zh="本月"), value="month"),
    Choice(name=locale_str("this week", zh="本周"), value="week"),
]
ORDER_CHOICES = [
    Choice(name=locale_str("points", zh="积分"), value="points"),
    Choice(name=locale_str("rating (openskill)", zh="等级分"), value="rating"),
    Choice(name=locale_str("win rate", zh="胜率"), value="winrate"),
]
CHART_FILE = "rating.png"
#: At most this many unknown names are looked up for one answer (a REST call each)…
MAX_NAME_LOOKUPS = 12
#: …within this many seconds; someone not found is not asked for again for an hour.
NAME_LOOKUP_SECONDS = 4.0
NAME_RETRY_SECONDS = 3600.0
_not_found: dict[int, float] = {}

season_group = CheckedGroup(
    name=locale_str("season", zh="赛季"),
    description=locale_str("Leaderboard seasons", zh="排行榜赛季"),
    parent=mahjong,
)


def service_of(interaction: discord.Interaction) -> StatsService:
    """The bot's stats service (set up by this extension)."""
    service = getattr(interaction.client, "stats_service", None)
    if service is None:
        raise UserError("统计功能没有启用。 · Stats are not enabled.")
    return service


def user_name(user: discord.abc.User) -> str:
    """The name a member shows in this server."""
    return getattr(user, "display_name", None) or user.name


async def _lang(service: StatsService, interaction: discord.Interaction) -> str:
    return await service.language(interaction.guild_id, str(interaction.locale))


def _guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise UserError("请在服务器频道里使用。 · Use this in a server channel.")
    return interaction.guild_id


async def _refuse(interaction: discord.Interaction, text: str) -> None:
    await send_ephemeral(interaction, text)


# ------------------------------------------------------------------ shared handlers


async def wants_pictures(service: StatsService, user_id: int) -> bool:
    """Pictures are on for the bot (``MAHJONG_PICTURES``) and for this user."""
    return pictures.ENABLED and await service.wants_pictures(user_id)


def _had_picture(interaction: discord.Interaction, filename: str) -> bool:
    """Whether the message a button was pressed on carries the picture ``filename``."""
    message = interaction.message
    if message is None:
        return False
    if any(a.filename == filename for a in message.attachments):
        return True
    return any(e.image and f"attachment://{filename}" == e.image.url for e in message.embeds)


async def board_files(shown: BoardPage, embed: discord.Embed) -> list[discord.File]:
    """The page's picture as a file, shown inside ``embed``; none if drawing fails."""
    try:
        png = await asyncio.to_thread(board_png, shown)
    except Exception:
        log.exception("leaderboard picture failed")
        return []
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    return [discord.File(io.BytesIO(png), filename=BOARD_FILE, description=board_alt_text(shown))]


async def _lookup_name(interaction: discord.Interaction, user_id: int) -> str | None:
    """The name ``user_id`` shows in this server: the member cache, else a member fetch; a
    former member is looked up as a user (their global name)."""
    client = interaction.client
    guild = interaction.guild or (
        client.get_guild(interaction.guild_id) if interaction.guild_id else None
    )
    member = guild.get_member(user_id) if guild is not None else None
    if member is None and guild is not None:
        try:
            member = await guild.fetch_member(user_id)
        except discord.HTTPException:
            member = None
    if member is not None:
        return user_name(member)
    try:
        user = client.get_user(user_id) or await client.fetch_user(user_id)
    except discord.HTTPException:
        return None
    return None if user.bot else user_name(user)


async def resolve_names(
    interaction: discord.Interaction, service: StatsService, user_ids: list[int]
) -> int:
    """Find and keep the names of ranked players the bot has no name for (known only from
    records made before names were kept, or who never used a command), so the picture and
    the text show names instead of ids. Returns how many were found."""
    now = time.monotonic()
    wanted = [
        uid
        for uid in dict.fromkeys(user_ids)
        if now - _not_found.get(uid, -NAME_RETRY_SECONDS) >= NAME_RETRY_SECONDS
    ][:MAX_NAME_LOOKUPS]
    found = 0
    deadline = now + NAME_LOOKUP_SECONDS
    for uid in wanted:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        try:
            name = await asyncio.wait_for(_lookup_name(interaction, uid), remaining)
        except TimeoutError:
            break
        if name:
            await service.remember(uid, name)
            _not_found.pop(uid, None)
            found += 1
        else:
            _not_found[uid] = time.monotonic()
    return found


def _unnamed(shown: BoardPage) -> list[int]:
    entries = [*shown.board.entries, shown.board.me]
    return [e.user_id for e in entries if e is not None and not e.display_name]


async def show_board(
    interaction: discord.Interaction, query: BoardQuery, page: int | None, *, edit: bool
) -> None:
    """Show a leaderboard page: a new message (``edit`` False) or the pressed one updated,
    with its picture when pictures are wanted (see the module docstring)."""
    if interaction.guild_id is None:
        await _refuse(interaction, "请在服务器频道里使用。 · Use this in a server channel.")
        return
    service = service_of(interaction)
    await interaction.response.defer(thinking=not edit)
    lang = await _lang(service, interaction)
    await service.remember(interaction.user.id, user_name(interaction.user))

    async def board() -> BoardPage:
        return await service.leaderboard(
            interaction.guild_id or 0,
            query,
            page=page,
            user_id=interaction.user.id,
            user_name=user_name(interaction.user),
            lang=lang,
        )

    shown = await board()
    unnamed = _unnamed(shown)
    if unnamed and await resolve_names(interaction, service, unnamed):
        shown = await board()  # the same page, now with their names
    embed = card_embed(shown.card)
    if edit:
        picture = pictures.ENABLED and _had_picture(interaction, BOARD_FILE)
    else:
        picture = await wants_pictures(service, interaction.user.id)
    files = await board_files(shown, embed) if picture else []
    await interaction.edit_original_response(
        embed=embed, view=board_view(shown, lang), attachments=files
    )


async def show_history(
    interaction: discord.Interaction,
    user_id: int | None,
    page: int,
    *,
    edit: bool,
    who: discord.abc.User | None = None,
) -> None:
    """Show a page of the history list: a new message (``edit`` False) or the pressed one
    updated; its select menu then lists that page's games. ``who`` is the player whose
    games these are, when the command named one (their name is kept for later pages)."""
    if interaction.guild_id is None:
        await _refuse(interaction, "请在服务器频道里使用。 · Use this in a server channel.")
        return
    service = service_of(interaction)
    await interaction.response.defer(thinking=not edit)
    lang = await _lang(service, interaction)
    name = user_name(who) if who is not None else None
    if who is not None and not who.bot:
        await service.remember(who.id, name)  # page buttons find the name after a restart
    shown = await service.history(
        interaction.guild_id, user_id=user_id, who=name, lang=lang, page=page
    )
    view = history_page_view(shown, lang)
    if view is None:
        await interaction.edit_original_response(embed=card_embed(shown.card), view=None)
    else:
        await interaction.edit_original_response(embed=card_embed(shown.card), view=view)


async def show_game(
    interaction: discord.Interaction, game_id: int, page: int, *, edit: bool
) -> None:
    """Show one game's hands to the one who asked (a new private message, or the page)."""
    if interaction.guild_id is None:
        await _refuse(interaction, "请在服务器频道里使用。 · Use this in a server channel.")
        return
    service = service_of(interaction)
    if edit:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    lang = await _lang(service, interaction)
    try:
        shown = await service.game(interaction.guild_id, game_id, page=page, lang=lang)
    except StatsInputError as error:
        await _refuse(interaction, error.text(lang))
        return
    await interaction.edit_original_response(
        embed=card_embed(shown.card), view=game_view(shown, lang)
    )


# ----------------------------------------------------------------------------- the cog


class Stats(commands.Cog):
    """Leaderboards, player stats, history and seasons."""

    def __init__(
        self, bot: commands.Bot, service: StatsService, *, owns_store: bool = False
    ) -> None:
        self.bot = bot
        self.service = service
        self._owns_store = owns_store

    async def cog_load(self) -> None:
        bind_cog_commands(self)

    async def cog_unload(self) -> None:
        if self._owns_store:
            await self.service.store.close()  # type: ignore[attr-defined]

    @mahjong.command(
        name=locale_str("leaderboard", zh="排行榜"),
        description=locale_str("The server's ranking", zh="本服务器的排行榜"),
    )
    @app_commands.rename(
        variant=locale_str("variant", zh="玩法"),
        period=locale_str("period", zh="时间"),
        by=locale_str("by", zh="排序"),
        season=locale_str("season", zh="赛季"),
    )
    @app_commands.describe(
        variant=locale_str("One variant (default: all)", zh="只看一种玩法（默认全部）"),
        period=locale_str("Time span (default: all time)", zh="时间范围（默认总榜）"),
        by=locale_str("Order by (default: points)", zh="排序方式（默认积分）"),
        season=locale_str(
            "Season number for period=season (default: current)", zh="赛季编号（默认当前赛季）"
        ),
    )
    @app_commands.choices(variant=VARIANT_CHOICES, period=PERIOD_CHOICES, by=ORDER_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        variant: str | None = None,
        period: str = "all",
        by: str = "points",
        season: app_commands.Range[int, 1, 999_999] | None = None,
    ) -> None:
        """Post the first page of the ranking, with the asker's own position."""
        _guild(interaction)
        if season is not None and period != "season":
            period = "season"
        try:
            query = BoardQuery(variant=variant, period=period, by=by, season=season)
        except StatsInputError as error:
            raise UserError(error.text(await _lang(self.service, interaction))) from error
        await show_board(interaction, query, 0, edit=False)

    @mahjong.command(
        name=locale_str("stats", zh="战绩"),
        description=locale_str("A player's stats and rating", zh="玩家的战绩和等级分"),
    )
    @app_commands.rename(
        user=locale_str("user", zh="玩家"),
        variant=locale_str("variant", zh="玩法"),
        period=locale_str("period", zh="时间"),
        season=locale_str("season", zh="赛季"),
    )
    @app_commands.describe(
        user=locale_str("Whose stats (default: yours)", zh="谁的战绩（默认自己）"),
        variant=locale_str("One variant (default: all)", zh="只看一种玩法（默认全部）"),
        period=locale_str("Time span (default: all time)", zh="时间范围（默认全部）"),
        season=locale_str("Season number (default: current)", zh="赛季编号（默认当前赛季）"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES, period=PERIOD_CHOICES)
    async def stats(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        variant: str | None = None,
        period: str = "all",
        season: app_commands.Range[int, 1, 999_999] | None = None,
    ) -> None:
        """Hands, wins, shares, average win, biggest hand, favourite variant, rating chart."""
        guild_id = _guild(interaction)
        target = user or interaction.user
        if season is not None:
            period = "season"
        try:
            BoardQuery(variant=variant, period=period, season=season)
        except StatsInputError as error:
            raise UserError(error.text(await _lang(self.service, interaction))) from error
        await interaction.response.defer(thinking=True)
        lang = await _lang(self.service, interaction)
        name = user_name(target)
        await self.service.remember(target.id, None if target.bot else name)
        picture = await wants_pictures(self.service, interaction.user.id)
        answer = await self.service.stats(
            guild_id,
            target.id,
            name=name,
            variant=variant,
            period=period,
            season=season,
            lang=lang,
            picture=picture,
        )
        embed = card_embed(answer.card)
        png = None
        if picture and len(answer.chart) >= 2:
            try:
                png = await asyncio.to_thread(render_rating_chart, answer.chart)
            except Exception:
                log.exception("rating chart failed")
        if png is not None:
            embed.set_image(url=f"attachment://{CHART_FILE}")
            file = discord.File(io.BytesIO(png), filename=CHART_FILE, description=answer.card.title)
            await interaction.edit_original_response(embed=embed, attachments=[file])
        else:
            await interaction.edit_original_response(embed=embed)

    @mahjong.command(
        name=locale_str("history", zh="历史"),
        description=locale_str(
            "Recent games; pick one to see its hands", zh="最近的对局，可查看每一手"
        ),
    )
    @app_commands.rename(user=locale_str("user", zh="玩家"))
    @app_commands.describe(
        user=locale_str(
            "Only games of this player (default: the whole server)",
            zh="只看这位玩家的对局（默认全服）",
        )
    )
    async def history(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        """The server's (or a player's) games with final totals, a page at a time, and a
        picker of that page's games."""
        _guild(interaction)
        await show_history(interaction, user.id if user else None, 0, edit=False, who=user)

    @admin.command(
        name=locale_str("season", zh="新赛季"),
        description=locale_str(
            "Start a new leaderboard season (Manage Server)", zh="开始新赛季（需要管理服务器权限）"
        ),
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def season_new(self, interaction: discord.Interaction) -> None:
        """Start the next season; the old ones stay on ``leaderboard period:season season:N``."""
        guild_id = _guild(interaction)
        await interaction.response.defer(thinking=True)
        lang = await _lang(self.service, interaction)
        season = await self.service.new_season(guild_id)
        log.info("Guild %s started season %s (by %s)", guild_id, season.number, interaction.user.id)
        await interaction.edit_original_response(
            content=t("season_started", lang, number=season.number)
        )

    @season_group.command(
        name=locale_str("list", zh="列表"),
        description=locale_str("The server's seasons", zh="本服务器的赛季"),
    )
    async def season_list(self, interaction: discord.Interaction) -> None:
        """List the seasons, the current one marked."""
        guild_id = _guild(interaction)
        await interaction.response.defer(thinking=True)
        lang = await _lang(self.service, interaction)
        card = await self.service.seasons(guild_id, lang=lang)
        await interaction.edit_original_response(embed=card_embed(card))


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: share (or open) the store, register the persistent items."""
    from db.store import Store

    store: Any = getattr(bot, "store", None)
    owns = store is None
    if store is None:
        url = getattr(getattr(bot, "settings", None), "database_url", None)
        store = await Store.open(url)
        bot.store = store  # type: ignore[attr-defined]
    settings = getattr(bot, "settings", None)
    if settings is not None:
        pictures.ENABLED = bool(getattr(settings, "mahjong_pictures", pictures.ENABLED))
    service = StatsService(store)
    bot.stats_service = service  # type: ignore[attr-defined]
    bot.add_dynamic_items(BoardButton, HistorySelect, HistoryButton, HandsButton)
    await bot.add_cog(Stats(bot, service, owns_store=owns))


__all__ = [
    "Stats",
    "board_files",
    "season_group",
    "setup",
    "show_board",
    "show_game",
    "show_history",
    "wants_pictures",
]
