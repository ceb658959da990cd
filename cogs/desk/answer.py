"""The ``/mahjong score`` answer as Discord shows it: the hand picture and the embed with the
items, the total and who pays (or why the hand is not a win); the language helpers."""

from __future__ import annotations

from typing import Any

import discord

from cogs.desk.text import (
    answer_title,
    context_lines,
    item_line,
    payment_lines,
    total_line,
)
from cogs.refusal_text import translated
from i18n import LOCALES, locale_for, t
from render.models import HandPicture, MeldView
from services.desk import DeskAnswer, primary_wildcard

COLOUR_WIN = discord.Colour.dark_green()
COLOUR_NO = discord.Colour.dark_red()
COLOUR_PENDING = discord.Colour.gold()


def lang_of(locale: Any) -> str:
    """``zh`` (简体) or ``zh-TW`` (繁體) for a Chinese Discord locale, else ``en``."""
    return locale_for(locale, "en")


def guild_lang(language: str | None) -> str:
    """The server's ``language`` setting as one of :data:`i18n.LOCALES` (``zh+en`` and
    unknown values show Chinese: record embeds are written in one language)."""
    return language if language in LOCALES else "zh"


# ----------------------------------------------------------------------------- pictures


def hand_picture(answer: DeskAnswer) -> HandPicture:
    """The winning hand: concealed tiles with the winning tile set apart, melds, the 宝."""
    ctx = answer.context
    concealed = list(ctx.hand.concealed)
    winning = ctx.hand.winning
    if winning is not None and winning in concealed:
        concealed.remove(winning)
    melds = tuple(MeldView(m.kind.value, m.tiles) for m in ctx.hand.melds)
    return HandPicture(
        concealed=tuple(concealed),
        drawn=winning,
        melds=melds,
        wildcards=ctx.wildcards,
        flowers=ctx.flowers,
        primary_wildcard=primary_wildcard(ctx.variant, ctx.wildcards),
    )


def answer_embed(answer: DeskAnswer, lang: str) -> discord.Embed:
    """The calculator's answer: items with values, the total and who pays; or why not."""
    embed = discord.Embed(
        title=answer_title(answer, lang),
        description="\n".join(context_lines(answer, lang)),
        colour=COLOUR_WIN if answer.legal else COLOUR_NO,
    )
    items = "\n".join(item_line(i) for i in answer.items) or t("desk.no_items", lang)
    embed.add_field(name=t("desk.items", lang), value=items[:1024], inline=False)
    if answer.legal:
        embed.add_field(
            name=t("desk.total", lang),
            value=total_line(answer.points, answer.unit, lang),
            inline=False,
        )
        embed.add_field(
            name=t("desk.payments", lang),
            value="\n".join(payment_lines(answer, lang))[:1024],
            inline=False,
        )
    else:
        why = str(translated(answer.reason, lang)) or "—"  # the engine's Reason, in ``lang``
        embed.add_field(name=t("desk.why", lang), value=why[:1024], inline=False)
    return embed
