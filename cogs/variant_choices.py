"""The variant choices of every slash command, from the engine's variant registry.

One list for ``/mahjong new``, ``/mahjong rules``, ``/mahjong leaderboard``… so a new variant
(one folder under ``engine/variants/``) shows up everywhere at once. The English name is
``<title> <简体 short name>`` (``Shangrao 上饶``); the translator finds the Chinese in the
``commands`` catalogue (``commands.choice.<name>``) or, for a variant not in it yet, in the
variant's own titles.
"""

from __future__ import annotations

from discord.app_commands import Choice, locale_str

from engine import variants


def variant_choices() -> list[Choice[str]]:
    """One :class:`Choice` per registered variant, in the registry's order (the value is the
    variant's name)."""
    return [
        Choice(
            name=locale_str(f"{v.title.en} {v.short.zh}", zh=v.title.zh, zh_TW=v.title.zh_TW),
            value=v.name,
        )
        for v in variants.all()
    ]


__all__ = ["variant_choices"]
