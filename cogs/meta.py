"""``/mahjong ping`` and ``/mahjong about``: is the bot alive, what is it."""

from __future__ import annotations

import discord
from discord.app_commands import locale_str
from discord.ext import commands

from cogs.game.text import lang_of, t
from cogs.group import bind_cog_commands, mahjong
from engine import variants


def variants_line(lang: str) -> str:
    """``上饶 Shangrao · 新余 Xinyu · 九江 Jiujiang`` (from the variant registry)."""
    chinese = lang if lang != "en" else "zh"
    return " · ".join(
        f"{t(f'engine.variant.{name}.short', chinese)} {t(f'engine.variant.{name}.short', 'en')}"
        for name in variants.names()
    )


class Meta(commands.Cog):
    """Health check and information commands."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        bind_cog_commands(self)

    @mahjong.command(
        name=locale_str("ping"),
        description=locale_str("Check that the bot answers"),
    )
    async def ping(self, interaction: discord.Interaction) -> None:
        """Answer ``pong`` privately."""
        await interaction.response.send_message("pong", ephemeral=True)

    @mahjong.command(
        name=locale_str("about"),
        description=locale_str("What this bot does"),
    )
    async def about(self, interaction: discord.Interaction) -> None:
        """Describe the bot privately, Chinese first."""
        lang = lang_of(interaction.locale)
        other = "zh" if lang == "en" else "en"
        embed = discord.Embed(
            title=t("game.about_title", lang),
            description=f"{t('game.about', lang)}\n{t('game.about', other)}",
            colour=discord.Colour.dark_green(),
        )
        embed.add_field(
            name=t("game.about_variants", lang), value=variants_line(lang), inline=False
        )
        embed.add_field(
            name=t("game.about_new", lang), value=t("game.about_new_text", lang), inline=False
        )
        embed.set_footer(text=f"discord.py {discord.__version__}")
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    await bot.add_cog(Meta(bot))
