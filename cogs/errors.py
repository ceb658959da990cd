"""One error handler for every app command: a clear ephemeral answer, and a log line.

Raise :class:`UserError` from a command (or a check) to show its text to the user as is;
anything unexpected is logged with its traceback and the user gets a short apology with a
reference to find the log line. Views answer their own errors (``View.on_error``); they can
reuse :func:`send_ephemeral` and :func:`describe_error`.
"""

from __future__ import annotations

import logging
import secrets

import discord
from discord import app_commands
from discord.ext import commands

from cogs.user_error import UserError

log = logging.getLogger(__name__)


def _zh(interaction: discord.Interaction) -> bool:
    return str(interaction.locale).startswith("zh")


def describe_error(interaction: discord.Interaction, error: Exception) -> str | None:
    """The user-facing text for an expected error, or ``None`` for an unexpected one."""
    zh = _zh(interaction)
    if isinstance(error, UserError):
        return error.message
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return (
            "这个命令已过期或不存在（Discord 还在显示旧版本），请稍后再试。"
            if zh
            else "This command is out of date or unknown (Discord still shows an old version). "
            "Please try again in a minute."
        )
    if isinstance(error, app_commands.MissingPermissions):
        perms = ", ".join(error.missing_permissions)
        return f"你需要以下权限：{perms}" if zh else f"You need these permissions: {perms}."
    if isinstance(error, app_commands.BotMissingPermissions):
        perms = ", ".join(error.missing_permissions)
        return (
            f"机器人在这里缺少权限：{perms}"
            if zh
            else f"The bot is missing permissions here: {perms}."
        )
    if isinstance(error, app_commands.NoPrivateMessage):
        return (
            "这个命令只能在服务器频道里用。"
            if zh
            else "This command only works in a server channel."
        )
    if isinstance(error, app_commands.CommandOnCooldown):
        wait = f"{error.retry_after:.0f}"
        return f"太快了，请 {wait} 秒后再试。" if zh else f"Slow down — try again in {wait} s."
    if isinstance(error, app_commands.TransformerError):
        value = repr(error.value)
        value = value if len(value) <= 60 else value[:59] + "…"
        return f"参数无效：{value}" if zh else f"That value is not valid: {value}."
    if isinstance(error, app_commands.CheckFailure):
        return "你现在不能用这个命令。" if zh else "You can't use this command here or now."
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
        self.bot.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

    async def cog_unload(self) -> None:
        self.bot.tree.on_error = self._previous  # type: ignore[method-assign]

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
            text = (
                f"出错了，已记录（编号 {ref}）。请稍后再试。"
                if _zh(interaction)
                else f"Something went wrong; it has been logged (ref {ref}). Please try again."
            )
        await send_ephemeral(interaction, text)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    await bot.add_cog(Errors(bot))
