"""One error handler for every app command: a clear ephemeral answer, and a log line.

Every refusal derives from :class:`engine.refusal.Refusal` (a catalogue key and its
arguments): the service's refusals, the engine's illegal actions (their reasons), and
:class:`UserError` raised from a command or a check. This handler translates any of them into
the user's language (:func:`refusal_text`); anything unexpected is logged with its traceback
and the user gets a short apology with a reference to find the log line. Buttons are not app
commands: they answer their own errors with the same :func:`refusal_text` /
:func:`describe_error` and :func:`send_ephemeral`.
"""

from __future__ import annotations

import logging
import secrets

import discord
from discord import app_commands
from discord.ext import commands

from cogs.game.text import lang_of
from cogs.refusal_text import refusal_text
from cogs.user_error import UserError
from db.errors import StoreBusy, StoreUnwritable
from engine.refusal import Refusal
from i18n import t

log = logging.getLogger(__name__)

__all__ = ["Errors", "UserError", "describe_error", "refusal_text", "send_ephemeral"]


def _permissions(names: list[str], lang: str) -> str:
    return ", ".join(names)


def describe_error(interaction: discord.Interaction, error: Exception) -> str | None:
    """The user-facing text for an expected error, or ``None`` for an unexpected one."""
    lang = lang_of(interaction.locale)
    if isinstance(error, app_commands.CommandInvokeError) and isinstance(error.original, Refusal):
        error = error.original  # a service refusal raised inside a command
    if isinstance(error, Refusal):
        return refusal_text(error, lang)
    original = getattr(error, "original", error)
    if isinstance(original, StoreBusy):  # a stalled commit: nothing was written
        return t("errors.table_busy", lang)
    if isinstance(original, StoreUnwritable):  # disk full, read-only: nothing was written
        return t("errors.db_unwritable", lang)
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return t("errors.command_outdated", lang)
    if isinstance(error, app_commands.MissingPermissions):
        perms = _permissions(error.missing_permissions, lang)
        return t("errors.user_missing_permissions", lang, perms=perms)
    if isinstance(error, app_commands.BotMissingPermissions):
        perms = _permissions(error.missing_permissions, lang)
        return t("errors.bot_missing_permissions_here", lang, perms=perms)
    if isinstance(error, app_commands.NoPrivateMessage):
        return t("errors.server_only_command", lang)
    if isinstance(error, app_commands.CommandOnCooldown):
        return t("errors.cooldown", lang, wait=f"{error.retry_after:.0f}")
    if isinstance(error, app_commands.TransformerError):
        value = repr(error.value)
        value = value if len(value) <= 60 else value[:59] + "…"
        return t("errors.bad_value", lang, value=value)
    if isinstance(error, app_commands.CheckFailure):
        return t("errors.check_failed", lang)
    return None


async def send_ephemeral(interaction: discord.Interaction, text: str) -> None:
    """Answer privately, whether or not the interaction was already acknowledged (cut to
    Discord's 2,000 characters: an error may quote what the user typed)."""
    if len(text) > 2000:
        text = text[:1999] + "…"
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as exc:  # expired token, already answered, …
        log.warning("Could not send the error answer (%s %s)", exc.status, exc.code)


class Errors(commands.Cog):
    """Installs the tree-wide app-command error handler."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._previous = bot.tree.on_error

    async def cog_load(self) -> None:
        self.bot.tree.error(self.on_app_command_error)

    async def cog_unload(self) -> None:
        self.bot.tree.error(self._previous)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Answer every failed app command ephemerally; log what went wrong."""
        command = interaction.command.qualified_name if interaction.command else "?"
        text = describe_error(interaction, error)
        if text is not None:
            log.info("/%s by %s refused: %s", command, interaction.user.id, error)
        else:
            ref = secrets.token_hex(3)
            original = (
                error.original if isinstance(error, app_commands.CommandInvokeError) else error
            )
            log.error(
                "/%s by %s failed (ref %s)",
                command,
                interaction.user.id,
                ref,
                exc_info=(type(original), original, original.__traceback__),
            )
            text = t("errors.failed", lang_of(interaction.locale), ref=ref)
        await send_ephemeral(interaction, text)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    await bot.add_cog(Errors(bot))
