"""``/mahjong ping`` and ``/mahjong about``: is the bot alive, what is it."""

from __future__ import annotations

import discord
from discord.app_commands import locale_str
from discord.ext import commands

from cogs.group import bind_cog_commands, mahjong

ABOUT_ZH = "在 Discord 上打江西麻将（上饶、新余、九江）：开局、出牌、算分、排行榜。"
ABOUT_EN = (
    "Play Jiangxi mahjong (Shangrao, Xinyu, Jiujiang) on Discord: games, scoring, leaderboards."
)


def is_chinese(interaction: discord.Interaction) -> bool:
    """Whether to answer this user in Chinese (their Discord client language)."""
    return str(interaction.locale).startswith("zh")


class Meta(commands.Cog):
    """Health check and information commands."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        bind_cog_commands(self)

    @mahjong.command(
        name=locale_str("ping"),
        description=locale_str("Check that the bot answers", zh="检查机器人是否在线"),
    )
    async def ping(self, interaction: discord.Interaction) -> None:
        """Answer ``pong`` privately."""
        await interaction.response.send_message("pong", ephemeral=True)

    @mahjong.command(
        name=locale_str("about"),
        description=locale_str("What this bot does", zh="关于这个机器人"),
    )
    async def about(self, interaction: discord.Interaction) -> None:
        """Describe the bot privately, Chinese first."""
        zh = is_chinese(interaction)
        embed = discord.Embed(
            title="江西麻将 · Jiangxi Mahjong",
            description=f"{ABOUT_ZH}\n{ABOUT_EN}" if zh else f"{ABOUT_EN}\n{ABOUT_ZH}",
            colour=discord.Colour.dark_green(),
        )
        embed.add_field(
            name="玩法" if zh else "Variants",
            value="上饶 Shangrao · 新余 Xinyu · 九江 Jiujiang",
            inline=False,
        )
        embed.add_field(
            name="新手" if zh else "New here?",
            value="`/mahjong help`：开局、规则、手牌写法、全部命令"
            if zh
            else "`/mahjong help`: starting a game, the rules, hand notation, every command",
            inline=False,
        )
        embed.set_footer(text=f"discord.py {discord.__version__}")
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    await bot.add_cog(Meta(bot))
