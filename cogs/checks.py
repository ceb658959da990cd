"""Run-time checks for every command: what Discord's client enforces is checked again here.

Discord's client keeps a command from members without its ``default_member_permissions``
and keeps option values inside their declared choices, ranges and lengths — but a server can
re-grant a command to anyone in its integration settings, and a forged request skips the
client altogether. So:

- :func:`check_declared_options` refuses any option value outside what the command
  declares (choices, min/max value, min/max length, type), before the command runs;
  :class:`cogs.group.CheckedGroup` calls it for every ``/mahjong`` command.
- :func:`require_manager` refuses a member without Manage Server (or Administrator) in the
  channel (``interaction.permissions``, which Discord computes with roles and overwrites).
- :func:`missing_game_permissions` lists what the bot itself lacks in the channel
  (``interaction.app_permissions``) to run a game there; :func:`threads_allowed` says
  whether it may play the game in a thread (else it falls back to the channel).
- :func:`clip` / :func:`echo` keep user input quoted in an answer short, and any answer
  within Discord's 2,000 characters.
"""

from __future__ import annotations

from typing import Any, TypeGuard

import discord
from discord import app_commands

from botcore.invite import GAME_PERMISSIONS, THREAD_PERMISSIONS
from cogs.game.text import lang_of, t, word
from cogs.user_error import UserError

#: Discord's limit for a message's text.
MAX_CONTENT = 2000
#: The longest piece of user input an answer quotes.
MAX_ECHO = 60


def _lang(interaction: discord.Interaction) -> str:
    return lang_of(interaction.locale)


def say(key: str, lang: str, **params: Any) -> str:
    """The sentence ``errors.<key>`` in ``lang``."""
    return t(f"errors.{key}", lang, **params)


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis marks the cut)."""
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


def echo(value: object, limit: int = MAX_ECHO) -> str:
    """A user's value quoted for an answer: short, and code-formatted without breaking out."""
    text = str(value).replace("`", "ˋ").replace("\n", " ")
    return f"`{clip(text, limit)}`"


# ------------------------------------------------------------------- declared options


def _number(value: object) -> TypeGuard[int | float]:
    """A number (``True``/``False`` are not)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def _option_problem(param: app_commands.Parameter, value: object, lang: str) -> str | None:
    name = param.display_name
    kind = param.type
    if param.choices:
        allowed = [c.value for c in param.choices]
        if value not in allowed:
            shown = ", ".join(f"`{v}`" for v in allowed)
            return say("option_choice", lang, name=name, allowed=shown, value=echo(value))
        return None
    if kind is discord.AppCommandOptionType.string:
        if not isinstance(value, str):
            return say("option_type", lang, name=name, value=echo(value))
        low = param.min_value if param.min_value is not None else 0
        high = param.max_value if param.max_value is not None else 6000
        if not low <= len(value) <= high:
            return say("option_length", lang, name=name, low=low, high=high, length=len(value))
    elif kind in (discord.AppCommandOptionType.integer, discord.AppCommandOptionType.number):
        integer = kind is discord.AppCommandOptionType.integer
        if not _number(value) or (integer and not isinstance(value, int)):
            return say("option_type", lang, name=name, value=echo(value))
        least, most = param.min_value, param.max_value
        if (least is not None and value < least) or (most is not None and value > most):
            shown_low = "−∞" if least is None else least
            shown_high = "∞" if most is None else most
            return say(
                "option_range", lang, name=name, low=shown_low, high=shown_high, value=echo(value)
            )
    elif kind is discord.AppCommandOptionType.boolean and not isinstance(value, bool):
        return say("option_type", lang, name=name, value=echo(value))
    return None


def declared_option_problems(interaction: discord.Interaction) -> list[str]:
    """Every option value of this command call outside what the command declares."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return []
    lang = _lang(interaction)
    namespace = interaction.namespace
    problems = []
    for param in command.parameters:
        value = getattr(namespace, param.display_name, None)
        if value is None:
            continue
        problem = _option_problem(param, value, lang)
        if problem is not None:
            problems.append(problem)
    return problems


def check_declared_options(interaction: discord.Interaction) -> None:
    """Refuse (:class:`UserError`) a call whose options Discord's client would not send."""
    problems = declared_option_problems(interaction)
    if problems:
        text = say("refused", _lang(interaction)) + "\n" + "\n".join(problems)
        raise UserError(clip(text))


# ------------------------------------------------------------------------- who may


def is_manager(interaction: discord.Interaction) -> bool:
    """Manage Server or Administrator, in this channel (Discord's own computation)."""
    if interaction.guild_id is None:
        return False
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)


def require_manager(interaction: discord.Interaction) -> None:
    """Refuse (:class:`UserError`) a member without Manage Server."""
    if not is_manager(interaction):
        raise UserError(say("not_manager", _lang(interaction)))


# --------------------------------------------------------------------- the bot's own


def missing_game_permissions(perms: discord.Permissions, *, pictures: bool = True) -> list[str]:
    """The channel permissions the bot lacks to run a game (``attach_files`` only matters
    when the bot sends pictures)."""
    needed = [p for p in GAME_PERMISSIONS if pictures or p != "attach_files"]
    return [p for p in needed if not getattr(perms, p, False)]


def threads_allowed(perms: discord.Permissions) -> bool:
    """Whether the bot may play a game in a public thread of this channel."""
    return all(getattr(perms, p, False) for p in THREAD_PERMISSIONS)


def permission_names(names: list[str], lang: str) -> str:
    """``Attach Files, Embed Links`` (or the Chinese names), as Discord's settings show them."""
    return t("errors.word_separator", lang).join(word("permission", n, lang) for n in names)


def bot_missing_text(missing: list[str], lang: str) -> str:
    """The answer when the bot lacks ``missing`` in the channel."""
    return say("bot_missing", lang, perms=permission_names(missing, lang))


__all__ = [
    "MAX_CONTENT",
    "MAX_ECHO",
    "bot_missing_text",
    "check_declared_options",
    "clip",
    "declared_option_problems",
    "echo",
    "is_manager",
    "missing_game_permissions",
    "permission_names",
    "require_manager",
    "threads_allowed",
]
