"""Command names and descriptions in 简体 and 繁體 Chinese, from the ``commands`` catalogue.

Discord shows a command's ``name_localizations`` / ``description_localizations`` to users of
that locale (sent on sync). Commands are written in English, ``locale_str("new", zh="新局")``;
this translator gives Chinese users the ``commands`` catalogue's text for the command,
parameter or choice (``commands.mahjong.new.name`` …, see :func:`command_key`): 简体 for
``zh-CN``, 繁體 for ``zh-TW`` / ``zh-HK``. A string the catalogue lacks falls back to its
``zh_TW=`` / ``zh=`` extra (the ``zh=`` extra is what the catalogue was made from).
"""

from __future__ import annotations

import re

import discord
from discord import app_commands

from i18n import locale_for, t
from i18n.catalog import messages

Location = app_commands.TranslationContextLocation


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "_"


def command_key(
    string: app_commands.locale_str, context: app_commands.TranslationContextTypes
) -> str | None:
    """The catalogue key of a translatable command string, from where it appears:
    ``commands.mahjong.new.name`` / ``.description`` for a command or group,
    ``commands.mahjong.new.param.variant.name`` / ``.description`` for a parameter,
    ``commands.choice.<english words>`` for a choice; ``None`` elsewhere."""
    data = context.data
    location = context.location
    if location in (
        Location.command_name,
        Location.command_description,
        Location.group_name,
        Location.group_description,
    ):
        path = _slug_path(getattr(data, "qualified_name", ""))
        field = (
            "name" if location in (Location.command_name, Location.group_name) else "description"
        )
        return f"commands.{path}.{field}" if path else None
    if location in (Location.parameter_name, Location.parameter_description):
        command = getattr(data, "command", None)
        path = _slug_path(getattr(command, "qualified_name", ""))
        param = getattr(data, "name", "")
        field = "name" if location is Location.parameter_name else "description"
        return f"commands.{path}.param.{param}.{field}" if path and param else None
    if location is Location.choice_name and isinstance(data, app_commands.Choice):
        words = _slug(string.message)  # a choice named without Latin words: by its value
        return f"commands.choice.{words if words != '_' else _slug(str(data.value))}"
    return None


def _slug_path(qualified_name: str) -> str:
    """``mahjong-admin config`` → ``mahjong_admin.config``."""
    return ".".join(_slug(part) for part in qualified_name.split())


class CatalogueTranslator(app_commands.Translator):
    """Translate command strings into Chinese locales from the ``commands`` catalogue."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        ours = locale_for(locale, "en")
        if ours == "en":
            return None  # the English message is the default
        key = command_key(string, context)
        if key is not None and key in messages(ours):
            return t(key, ours)
        extras = string.extras
        found = extras.get("zh_TW") if ours == "zh-TW" else None
        return found or extras.get("zh")


__all__ = ["CatalogueTranslator", "command_key"]
