"""The server settings as ``/mahjong-admin config`` shows them, in the reader's language.

Each line names a setting as the command's own parameter is named for the reader (Discord
shows ``出牌時限`` to a 繁體 client, ``turn_timeout`` to an English one), then its value in
words; the rule options stay as typed (``scoring=classic``), in a code span, since that is
how the ``options`` parameter takes them.
"""

from __future__ import annotations

from typing import Any

from cogs.game.session_text import length_label
from cogs.game.text import t, variant_name
from engine import variants
from i18n import LANGUAGE_NAMES

#: The settings in the order shown: (parameter name, how its value reads).
SETTINGS: tuple[str, ...] = (
    "variant",
    "turn_timeout",
    "claim_timeout",
    "hints",
    "language",
    "thread",
    "ai_pace",
    "length",
    "ready_timeout",
    "vote_timeout",
)


def setting_label(name: str, lang: str) -> str:
    """A setting by the config command's parameter name in ``lang`` (``出牌時限``)."""
    if lang == "en":
        return name
    try:
        return t(f"commands.mahjong_admin.config.param.{name}.name", lang)
    except KeyError:
        return name


def settings_lines(current: Any, ai_pace_default: float, lang: str) -> list[str]:
    """One line per setting, ``出牌時限：60 秒``, then each variant's stored rule options."""
    seconds = {"turn_timeout", "claim_timeout", "ready_timeout", "vote_timeout"}
    values: dict[str, str] = {
        "variant": variant_name(current.default_variant, lang),
        "hints": t("game.config_on" if current.hints else "game.config_off", lang),
        "language": LANGUAGE_NAMES.get(current.language, current.language),
        "thread": t("game.config_on" if current.thread else "game.config_off", lang),
        "ai_pace": t("game.config_seconds", lang, n=f"{ai_pace_default:g}")
        + t("game.config_default", lang)
        if current.ai_pace is None
        else t("game.config_seconds", lang, n=f"{current.ai_pace:g}"),
        "length": length_label(current.length, lang),
    }
    for name in seconds:
        values[name] = t("game.config_seconds", lang, n=getattr(current, name))
    lines = [
        t("game.config_line", lang, name=setting_label(name, lang), value=values[name])
        for name in SETTINGS
    ]
    for v in variants.names():
        if current.rule_options.get(v):
            typed = " ".join(f"{k}={val}" for k, val in current.rule_options[v].items())
            lines.append(
                t("game.config_line", lang, name=variant_name(v, lang), value=f"`{typed}`")
            )
    return lines
