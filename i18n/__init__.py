"""The bot's text layer: every user-facing sentence, by key, in 简体中文, 繁體中文 and English.

``t(key, locale, **args)`` gives one sentence; ``locale`` is one of :data:`LOCALES`
(``zh``, ``zh-TW``, ``en``) or ``zh+en`` (both, Chinese first — public lines of a server
set to both). Placeholders are ``str.format`` fields (``{name}``). An unknown key, or one
missing in the asked locale, raises :class:`KeyError` (never prints the key).

Texts the engine owns (scoring-item names, variant names, variant help facts, refusal
reasons) are data in :mod:`engine`; they are reached through the same ``t`` by their
engine id under the ``engine.`` prefix (see :mod:`i18n.engine_texts`).

``locale_for(discord_locale, fallback)`` turns a Discord locale into one of ours. This
package imports nothing of the project except :mod:`engine` (for the engine's texts).
"""

from __future__ import annotations

import string
from typing import Any

from i18n.catalog import DEFAULT_LOCALE, LOCALES, messages
from i18n.engine_texts import ENGINE_PREFIX, engine_text

__all__ = [
    "BOTH",
    "DEFAULT_LOCALE",
    "LANGUAGE_NAMES",
    "LOCALES",
    "SERVER_LANGUAGES",
    "locale_for",
    "pair",
    "short",
    "t",
]

#: Chinese and English together, Chinese first (a server's ``zh+en`` public lines).
BOTH = "zh+en"
#: What a server's ``language`` setting may be (its public lines).
SERVER_LANGUAGES: tuple[str, ...] = (*LOCALES, BOTH)
#: Each language by its own name (never translated: a reader finds their language).
LANGUAGE_NAMES: dict[str, str] = {
    "zh": "简体中文",
    "zh-TW": "繁體中文",
    "en": "English",
    BOTH: "中文 + English",
}


def _raw(key: str, locale: str) -> str:
    if key.startswith(ENGINE_PREFIX):
        return engine_text(key[len(ENGINE_PREFIX) :], locale)
    table = messages(locale)
    if key not in table:
        raise KeyError(f"no text {key!r} in locale {locale!r}")
    return table[key]


def t(key: str, locale: str = DEFAULT_LOCALE, /, **args: Any) -> str:
    """The sentence ``key`` in ``locale`` with ``args`` filled in (``str.format``)."""
    if locale == BOTH:
        zh, en = t(key, "zh", **args), t(key, "en", **args)
        return zh if zh == en else f"{zh} · {en}"
    text = _raw(key, locale)
    if not args:
        return text
    return _PLURALS.vformat(text, (), args) if "|" in text else text.format(**args)


class _Plurals(string.Formatter):
    """``{n:hand|hands}`` → ``1 hand`` / ``3 hands``: the count with the word in the form
    its number takes (English); any other field formats as ``str.format`` does.

    >>> _PLURALS.format("{n:hand|hands} · {p:point|points}", n=1, p=3)
    '1 hand · 3 points'
    """

    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" in format_spec:
            one, many = format_spec.split("|", 1)
            return f"{value} {one if value in (1, -1) else many}"
        return str(super().format_field(value, format_spec))


_PLURALS = _Plurals()


def pair(zh: str, en: str, locale: str) -> str:
    """Join two already-translated halves the way ``t`` does for ``zh+en``."""
    if locale == BOTH:
        return zh if zh == en else f"{zh} · {en}"
    return en if locale == "en" else zh


def short(locale: str) -> str:
    """The locale for a short label (a button, a seat mark): ``zh+en`` shows Chinese only."""
    return "zh" if locale == BOTH else locale


def locale_for(discord_locale: Any, fallback: str = DEFAULT_LOCALE) -> str:
    """One of :data:`LOCALES` for a Discord locale (``discord.Locale`` or its value).

    ``zh-TW`` (and ``zh-HK``) → ``zh-TW`` (繁體); any other Chinese → ``zh`` (简体);
    any other language → ``en`` (the bot's only other language); none known → ``fallback``.
    """
    value = str(getattr(discord_locale, "value", discord_locale) or "")
    if not value:
        return fallback
    if value in ("zh-TW", "zh-HK", "zh_TW", "zh_HK"):
        return "zh-TW"
    if value.startswith("zh"):
        return "zh"
    return "en"
