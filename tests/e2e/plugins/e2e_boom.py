"""Test-only extension (loaded through ``EXTRA_EXTENSIONS``): commands that fail on purpose.

Nothing happens at import; ``setup`` adds ``/e2e-boom`` (raises) and ``/e2e-refuse``
(raises a ``UserError``) to the tree.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    from cogs.errors import UserError

    @app_commands.command(name="e2e-boom", description="Raise an unexpected error (tests)")
    async def boom(interaction: discord.Interaction) -> None:
        raise RuntimeError("deliberate e2e failure")

    @app_commands.command(name="e2e-refuse", description="Raise a UserError (tests)")
    async def refuse(interaction: discord.Interaction) -> None:
        raise UserError("Nope: deliberate refusal")

    bot.tree.add_command(boom)
    bot.tree.add_command(refuse)
