"""Chinese localisations of command names and descriptions.

Write command names and descriptions as ``locale_str("new", zh="新局")``; this translator
returns the ``zh`` extra for Chinese locales, so Discord shows 简体/繁體 users the Chinese
text (Discord sends ``name_localizations`` / ``description_localizations`` on sync).
"""

from __future__ import annotations

import discord
from discord import app_commands

CHINESE_LOCALES = frozenset({discord.Locale.chinese, discord.Locale.taiwan_chinese})


class ZhTranslator(app_commands.Translator):
    """Translate ``locale_str`` values that carry a ``zh=`` extra into Chinese locales."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        if locale not in CHINESE_LOCALES:
            return None
        return string.extras.get("zh")
