"""The message catalogues: gettext ``.po`` files read with :mod:`babel`, once, on first use.

``i18n/locales/<zh|zh_TW|en>/LC_MESSAGES/<domain>.po`` — the msgid is a symbolic dotted key
(``game.not_your_turn``), the msgstr its text. Every domain of a locale is merged into one
table; a key defined in two domains of the same locale is an error (raised at load).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

#: The bot's languages: 简体中文 (the default), 繁體中文 (Discord's ``zh-TW``), English.
LOCALES: tuple[str, ...] = ("zh", "zh-TW", "en")
DEFAULT_LOCALE = "zh"
LOCALES_DIR = Path(__file__).parent / "locales"


def locale_dir(locale: str) -> str:
    """The catalogue folder of a locale: ``zh-TW`` lives in ``zh_TW`` (gettext's spelling)."""
    return locale.replace("-", "_")


def domains(locale: str = DEFAULT_LOCALE) -> tuple[str, ...]:
    """The catalogue domains (one ``.po`` file per area) present for ``locale``."""
    folder = LOCALES_DIR / locale_dir(locale) / "LC_MESSAGES"
    return tuple(sorted(p.stem for p in folder.glob("*.po")))


def read_domain(locale: str, domain: str) -> dict[str, str]:
    """One ``.po`` file as ``{key: text}``; untranslated (empty) entries are left out."""
    path = LOCALES_DIR / locale_dir(locale) / "LC_MESSAGES" / f"{domain}.po"
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=locale_dir(locale), domain=domain)
    out: dict[str, str] = {}
    for message in catalog:
        if not message.id or not isinstance(message.id, str):
            continue  # the header, or a plural entry (not used)
        if isinstance(message.string, str) and message.string:
            out[message.id] = message.string
    return out


@cache
def messages(locale: str) -> dict[str, str]:
    """Every key of ``locale`` across its domains (read once, then cached)."""
    if locale not in LOCALES:
        raise KeyError(f"unknown locale {locale!r} (known: {', '.join(LOCALES)})")
    merged: dict[str, str] = {}
    owner: dict[str, str] = {}
    for domain in domains(locale):
        for key, text in read_domain(locale, domain).items():
            if key in merged:
                raise ValueError(
                    f"{locale}: key {key!r} is in both {owner[key]}.po and {domain}.po"
                )
            merged[key] = text
            owner[key] = domain
    return merged


def reload() -> None:
    """Forget the cached catalogues (after editing a ``.po`` file in a running process)."""
    messages.cache_clear()
