"""The 战绩卡 button the final standings carry, apart from the stats commands.

The game's views and the delivery draw it; they must not import the stats extension, which
imports the bot (an import circle). It is a plain button: a press is routed by its
``custom_id`` (``mj:zc:<game>``) to :class:`cogs.stats.sessions.CardButton`, a
``DynamicItem`` registered with the bot, so it works after a restart like every other.
"""

from __future__ import annotations

import discord

from i18n import short, t
from services.session_stats import card_id


def card_button(game_id: int, lang: str) -> discord.ui.Button[discord.ui.View]:
    """战绩卡: session ``game_id``'s result card, shown to the presser with 分享."""
    return discord.ui.Button(
        label=t("stats.button.card", short(lang)),
        emoji="🏆",
        style=discord.ButtonStyle.secondary,
        custom_id=card_id(game_id),
    )
