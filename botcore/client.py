"""The Bot class: intents, extensions, command sync. No game logic here."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord
from discord.ext import commands

from botcore.invite import invite_url
from botcore.settings import Settings
from botcore.translator import ZhTranslator

log = logging.getLogger(__name__)

#: Extensions loaded at start-up, in order. Game cogs add their module here.
DEFAULT_EXTENSIONS: tuple[str, ...] = (
    "cogs.group",
    "cogs.errors",
    "cogs.meta",
    "cogs.game",
    "cogs.stats",
    "cogs.replay",
    "cogs.desk",
    "cogs.help",
)


def bot_intents() -> discord.Intents:
    """Only non-privileged intents: guilds and guild messages (no members, no content)."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_messages = True
    intents.dm_messages = True
    return intents


class MahjongBot(commands.Bot):
    """The bot: loads the cogs and syncs the ``/mahjong`` commands in ``setup_hook``."""

    def __init__(self, settings: Settings, extensions: Sequence[str] = DEFAULT_EXTENSIONS) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=bot_intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.settings = settings
        self._invite_logged = False
        # In order, each once (an extension listed in both places loads once).
        self.extensions_to_load: list[str] = list(
            dict.fromkeys([*extensions, *settings.extension_list])
        )

    async def setup_hook(self) -> None:
        await self.tree.set_translator(ZhTranslator())
        for name in self.extensions_to_load:
            await self.load_extension(name)
            log.info("Loaded extension %s", name)
        await self.sync_commands()

    async def sync_commands(self) -> None:
        """Sync app commands: to ``DEV_GUILD_ID`` if set (instant), else globally."""
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("Synced %d command(s) to guild %s", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("Synced %d global command(s)", len(synced))

    async def on_ready(self) -> None:
        user = self.user
        log.info(
            "Bot ready: logged in as %s (id %s) in %d guild(s)",
            user,
            user.id if user else "?",
            len(self.guilds),
        )
        app_id = self.application_id or (user.id if user else None)
        if app_id is not None and not self._invite_logged:
            self._invite_logged = True
            log.info(
                "Invite the bot to a server (scopes bot + applications.commands, with the "
                "channel permissions it needs): %s",
                invite_url(app_id),
            )
