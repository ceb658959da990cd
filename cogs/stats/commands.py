"""``/mahjong leaderboard``, ``/mahjong stats``, ``/mahjong history``, ``/mahjong season list``,
``/mahjong-admin season`` (a new season) and ``/mahjong-sessions`` (场次战绩,
:mod:`cogs.stats.sessions`: ``/mahjong`` holds Discord's most, 25 subcommands).

Discord only: the text and the queries are :class:`services.stats.StatsService`'s. Answers
are public in the channel (the server's record), except a picked game's hands, which go to
the one who picked it. Paging buttons edit the message they are on and show the position of
whoever pressed them.

Pictures (the leaderboard page, the rating chart) follow ``MAHJONG_PICTURES`` (the bot's
``mahjong_pictures`` setting, :data:`cogs.delivery.pictures.ENABLED`) and the asker's own choice
(``/mahjong pictures``); the text is always in the embed, so screen readers get everything.
A page button keeps its message's form: a leaderboard sent with a picture gets the new
page's picture, one sent as text stays text. A picture that fails to draw is logged and
left out; the answer still goes.
"""

from __future__ import annotations

import functools
import io
import logging

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands

from botcore.client import MahjongBot
from cogs.errors import UserError
from cogs.group import CheckedGroup, admin, bind_cog_commands, mahjong
from cogs.stats.sessions import (
    CardButton,
    SessionsButton,
    SessionsSelect,
    ShareButton,
    sessions_command,
)
from cogs.stats.views import (
    BoardButton,
    HandsButton,
    HistoryButton,
    HistorySelect,
    answer_lang,
    card_embed,
    server_id,
    show_board,
    show_history,
    user_name,
    wants_pictures,
)
from cogs.variant_choices import variant_choices
from i18n import short, t
from render.charts import render_rating_chart
from services.pictures import draw
from services.stats import BoardQuery, StatsInputError, StatsService

log = logging.getLogger(__name__)

VARIANT_CHOICES = variant_choices()
PERIOD_CHOICES = [
    Choice(name=locale_str("all time"), value="all"),
    Choice(name=locale_str("this season"), value="season"),
    Choice(name=locale_str("this month"), value="month"),
    Choice(name=locale_str("this week"), value="week"),
]
ORDER_CHOICES = [
    Choice(name=locale_str("points"), value="points"),
    Choice(name=locale_str("rating (openskill)"), value="rating"),
    Choice(name=locale_str("win rate"), value="winrate"),
]
CHART_FILE = "rating.png"
season_group = CheckedGroup(
    name=locale_str("season"),
    description=locale_str("Leaderboard seasons"),
    parent=mahjong,
)


# ----------------------------------------------------------------------------- the cog


class Stats(commands.Cog):
    """Leaderboards, player stats, history and seasons."""

    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot
        self.service: StatsService = bot.stats_service

    async def cog_load(self) -> None:
        bind_cog_commands(self)

    @mahjong.command(
        name=locale_str("leaderboard"),
        description=locale_str("The server's ranking"),
    )
    @app_commands.rename(
        variant=locale_str("variant"),
        period=locale_str("period"),
        by=locale_str("by"),
        season=locale_str("season"),
    )
    @app_commands.describe(
        variant=locale_str("One variant (default: all)"),
        period=locale_str("Time span (default: all time)"),
        by=locale_str("Order by (default: points)"),
        season=locale_str("Season number for period=season (default: current)"),
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
        server_id(interaction)
        if season is not None and period != "season":
            period = "season"
        try:
            query = BoardQuery(variant=variant, period=period, by=by, season=season)
        except StatsInputError as error:
            raise UserError(error.text(await answer_lang(self.service, interaction))) from error
        await show_board(interaction, query, 0, edit=False)

    @mahjong.command(
        name=locale_str("stats"),
        description=locale_str("A player's stats and rating"),
    )
    @app_commands.rename(
        user=locale_str("user"),
        variant=locale_str("variant"),
        period=locale_str("period"),
        season=locale_str("season"),
    )
    @app_commands.describe(
        user=locale_str("Whose stats (default: yours)"),
        variant=locale_str("One variant (default: all)"),
        period=locale_str("Time span (default: all time)"),
        season=locale_str("Season number (default: current)"),
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
        guild_id = server_id(interaction)
        target = user or interaction.user
        if season is not None:
            period = "season"
        try:
            BoardQuery(variant=variant, period=period, season=season)
        except StatsInputError as error:
            raise UserError(error.text(await answer_lang(self.service, interaction))) from error
        await interaction.response.defer(thinking=True)
        lang = await answer_lang(self.service, interaction)
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
                title = t("picture.rating_chart", short(lang))  # 等级分 / 等級分 / Rating
                png = await draw(functools.partial(render_rating_chart, title=title), answer.chart)
            except Exception:
                log.exception("rating chart failed")
        if png is not None:
            embed.set_image(url=f"attachment://{CHART_FILE}")
            file = discord.File(io.BytesIO(png), filename=CHART_FILE, description=answer.card.title)
            await interaction.edit_original_response(embed=embed, attachments=[file])
        else:
            await interaction.edit_original_response(embed=embed)

    @mahjong.command(
        name=locale_str("history"),
        description=locale_str("Recent games; pick one to see its hands"),
    )
    @app_commands.rename(user=locale_str("user"))
    @app_commands.describe(
        user=locale_str(
            "Only games of this player (default: the whole server)",
        )
    )
    async def history(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        """The server's (or a player's) games with final totals, a page at a time, and a
        picker of that page's games."""
        server_id(interaction)
        await show_history(interaction, user.id if user else None, 0, edit=False, who=user)

    @admin.command(
        name=locale_str("season"),
        description=locale_str("Start a new leaderboard season (Manage Server)"),
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def season_new(self, interaction: discord.Interaction) -> None:
        """Start the next season; the old ones stay on ``leaderboard period:season season:N``."""
        guild_id = server_id(interaction)
        await interaction.response.defer(thinking=True)
        lang = await answer_lang(self.service, interaction)
        season = await self.service.new_season(guild_id)
        log.info("Guild %s started season %s (by %s)", guild_id, season.number, interaction.user.id)
        await interaction.edit_original_response(
            content=t("stats.season_started", lang, number=season.number)
        )

    @season_group.command(
        name=locale_str("list"),
        description=locale_str("The server's seasons"),
    )
    async def season_list(self, interaction: discord.Interaction) -> None:
        """List the seasons, the current one marked."""
        guild_id = server_id(interaction)
        await interaction.response.defer(thinking=True)
        lang = await answer_lang(self.service, interaction)
        card = await self.service.seasons(guild_id, lang=lang)
        await interaction.edit_original_response(embed=card_embed(card))


async def setup(bot: MahjongBot) -> None:
    """Extension entry point: register the persistent items and add the cog over the bot's
    stats service."""
    bot.add_dynamic_items(BoardButton, HistorySelect, HistoryButton, HandsButton)
    bot.add_dynamic_items(SessionsButton, SessionsSelect, CardButton, ShareButton)
    if bot.tree.get_command(sessions_command.name) is None:
        bot.tree.add_command(sessions_command)
    await bot.add_cog(Stats(bot))


__all__ = ["Stats", "season_group", "setup"]
