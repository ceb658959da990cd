"""``/mahjong help [topic]`` (帮助): the in-Discord guide, paged, Chinese or English.

The answer is an embed with a topic menu and ◀ ▶ page buttons. Both are ``DynamicItem``\\s
(custom_id ``mj:help:<topic>`` for the menu, ``mj:help:<topic>:<page>`` for a page button),
so a help message keeps working after a restart. Texts are in :mod:`cogs.help.text`; the
``commands`` topic is read from the live command tree, so it lists what is registered.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands

from botcore.client import bot_of
from cogs.components import RoutedView, chosen_values, pressed_button
from cogs.game.text import lang_of
from cogs.group import bind_cog_commands, mahjong
from cogs.help.text import (
    HelpPage,
    paginate,
    static_pages,
    topic_blurb,
    topic_name,
    topic_title,
    topics,
    variant_label,
    word,
)
from i18n import t
from services.core import STORE_DEFAULT_CLAIM, STORE_DEFAULT_TURN

log = logging.getLogger(__name__)

PAGE_ID = r"mj:help:(?P<topic>[a-z]{1,12}):(?P<page>[0-9]{1,3})"
MENU_ID = r"mj:help:(?P<topic>[a-z]{1,12})"
COLOUR = discord.Colour.dark_green()
#: The Discord locale whose command names the ``commands`` topic shows, by our locale.
DISCORD_LOCALES = {"zh": discord.Locale.chinese.value, "zh-TW": discord.Locale.taiwan_chinese.value}

#: Discord's embed limits (description, field value, field name, title, whole embed).
MAX_DESCRIPTION, MAX_FIELD, MAX_FIELD_NAME, MAX_TITLE, MAX_EMBED = 4096, 1024, 256, 256, 6000


def topic_choices() -> list[Choice[str]]:
    """The ``topic`` option's choices (by English name; the translator gives the Chinese):
    every topic of :func:`cogs.help.text.topics`, read from the registry at each call."""
    return [Choice(name=locale_str(topic_name(topic, "en")), value=topic) for topic in topics()]


def page_id(topic: str, page: int) -> str:
    """``mj:help:shangrao:2``."""
    return f"mj:help:{topic}:{page}"


def menu_id(topic: str) -> str:
    """``mj:help:shangrao`` (the topic menu shown on a page of ``topic``)."""
    return f"mj:help:{topic}"


# ---------------------------------------------------------------------------- commands topic


def _localized(payload: dict[str, Any], key: str, locale: str | None) -> str:
    if locale:
        found = (payload.get(f"{key}_localizations") or {}).get(locale)
        if found:
            return str(found)
    return str(payload.get(key, ""))


def _usage(prefix: str, payload: dict[str, Any], locale: str | None, lang: str) -> str:
    params = [o for o in payload.get("options") or [] if o.get("type", 3) not in (1, 2)]
    required = [f"<{_localized(o, 'name', locale)}>" for o in params if o.get("required")]
    optional = [f"[{_localized(o, 'name', locale)}]" for o in params if not o.get("required")]
    shown = required + optional[:4]
    text = " ".join([prefix, *shown])
    if len(optional) > 4:
        text += " " + word("more_options", lang, n=len(optional) - 4)
    return text


async def command_lines(tree: app_commands.CommandTree, lang: str) -> list[str]:
    """One line per registered slash command (subcommands of groups included), with its
    name, parameters and description in ``lang``: ``/麻将 新局 [玩法] [规则] — 在本频道开一局``."""
    locale = DISCORD_LOCALES.get(lang)
    translator = tree.translator
    lines: list[str] = []

    def walk(payload: dict[str, Any], prefix: str) -> None:
        name = f"{prefix} {_localized(payload, 'name', locale)}".strip()
        children = [o for o in payload.get("options") or [] if o.get("type") in (1, 2)]
        if children:
            for child in children:
                walk(child, name)
            return
        usage = _usage("/" + name, payload, locale, lang)
        lines.append(f"`{usage}` — {_localized(payload, 'description', locale)}")

    for cmd in tree.get_commands(type=discord.AppCommandType.chat_input):
        if translator is not None:
            payload = await cmd.get_translated_payload(tree, translator)
        else:
            payload = cmd.to_dict(tree)
        walk(payload, "")
    return lines


# ---------------------------------------------------------------------------- this server


def server_note(lang: str, *, variant: str, turn: float, claim: float, hints: bool) -> str:
    """One line with this server's settings, shown on the "playing" page of the overview."""
    return t(
        "help.server_note",
        lang,
        variant=variant_label(variant, lang),
        turn=f"{turn:g}",
        claim=f"{claim:g}",
        hints=t("help.hints.on" if hints else "help.hints.off", lang),
    )


async def server_settings_note(interaction: discord.Interaction, lang: str) -> str | None:
    """:func:`server_note` for the interaction's server, or ``None`` outside a server. A
    timeout left at the store's default means the bot's own default (as the lobby does)."""
    if interaction.guild_id is None:
        return None
    bot = bot_of(interaction.client)
    service = bot.game_service
    try:
        settings = await bot.store.guilds.settings(interaction.guild_id)
    except Exception:  # the guide must open even when the database is unwell
        log.exception("help: could not read the settings of guild %s", interaction.guild_id)
        return None
    turn = float(settings.turn_timeout)
    if settings.turn_timeout == STORE_DEFAULT_TURN:
        turn = float(service.turn_timeout)
    claim = float(settings.claim_timeout)
    if settings.claim_timeout == STORE_DEFAULT_CLAIM:
        claim = float(service.claim_timeout)
    return server_note(
        lang, variant=settings.default_variant, turn=turn, claim=claim, hints=settings.hints
    )


# ---------------------------------------------------------------------------- pages and view

#: The overview page that the server's settings are added to (timeouts, 托管).
SERVER_PAGE = 1


async def topic_pages(
    topic: str, lang: str, tree: app_commands.CommandTree | None
) -> list[HelpPage]:
    """The pages of ``topic`` in ``lang``; ``commands`` needs the command ``tree``."""
    if topic != "commands":
        return static_pages(topic, lang)
    lines = await command_lines(tree, lang) if tree is not None else []
    title = topic_name("commands", lang)
    intro = word("commands_intro", lang)
    return [HelpPage(title, f"{intro}\n{chunk}") for chunk in paginate(lines, 3600)]


def help_embed(topic: str, page: HelpPage, index: int, count: int, lang: str) -> discord.Embed:
    """The embed of one page (within Discord's limits: the body is cut if it is too long)."""
    embed = discord.Embed(
        title=f"{topic_title(topic, lang)} · {page.title}"[:MAX_TITLE],
        description=page.body[:MAX_DESCRIPTION],
        colour=COLOUR,
    )
    for name, value in page.fields:
        embed.add_field(name=name[:MAX_FIELD_NAME], value=value[:MAX_FIELD], inline=False)
    footer = word("page", lang, page=index + 1, pages=count) + " · " + word("footer_hint", lang)
    embed.set_footer(text=footer)
    return embed


class HelpPageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=PAGE_ID):
    """◀ / ▶: show page ``page`` of ``topic``."""

    def __init__(
        self,
        topic: str,
        page: int,
        *,
        label: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        self.topic = topic if topic in topics() else "overview"
        self.page = page
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=page_id(topic, page),
                disabled=disabled,
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HelpPageButton:
        return cls(match["topic"], int(match["page"]), label=pressed_button(item).label)

    async def callback(self, interaction: discord.Interaction) -> None:
        await show_help(interaction, self.topic, self.page, edit=True)


class HelpTopicMenu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=MENU_ID):
    """The topic menu: jump to the first page of the chosen topic."""

    def __init__(self, topic: str, lang: str = "en", *, row: int | None = None) -> None:
        self.topic = topic if topic in topics() else "overview"
        options = [
            discord.SelectOption(
                label=topic_name(topic, lang),
                value=topic,
                description=topic_blurb(topic, lang),
                default=topic == self.topic,
            )
            for topic in topics()
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=menu_id(self.topic),
                options=options,
                placeholder=word("menu", lang),
                min_values=1,
                max_values=1,
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HelpTopicMenu:
        return cls(match["topic"], lang_of(interaction.locale))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = chosen_values(interaction)
        chosen = str(values[0]) if values else self.topic
        await show_help(interaction, chosen if chosen in topics() else "overview", 0, edit=True)


def help_view(topic: str, index: int, count: int, lang: str) -> discord.ui.View:
    """The topic menu, and ◀ ▶ when the topic has more than one page. At either end the
    button that leads nowhere is disabled (its id is the current page, so ids stay unique)."""
    view = RoutedView()
    view.add_item(HelpTopicMenu(topic, lang, row=0))
    if count > 1:
        prev_page, next_page = max(index - 1, 0), min(index + 1, count - 1)
        view.add_item(HelpPageButton(topic, prev_page, label="◀", disabled=index == 0, row=1))
        view.add_item(
            HelpPageButton(topic, next_page, label="▶", disabled=index >= count - 1, row=1)
        )
    return view


async def render_help(
    topic: str,
    page: int,
    lang: str,
    tree: app_commands.CommandTree | None,
    server: str | None = None,
) -> tuple[discord.Embed, discord.ui.View]:
    """The embed and view of ``page`` of ``topic`` (an out-of-range page shows the last);
    ``server`` (:func:`server_note`) is added to the overview's timeouts page."""
    topic = topic if topic in topics() else "overview"
    pages = await topic_pages(topic, lang, tree)
    index = min(max(page, 0), len(pages) - 1)
    if server and topic == "overview" and index == SERVER_PAGE:
        pages[index] = dataclasses.replace(pages[index], body=f"{pages[index].body}\n\n{server}")
    return help_embed(topic, pages[index], index, len(pages), lang), help_view(
        topic, index, len(pages), lang
    )


async def show_help(
    interaction: discord.Interaction,
    topic: str,
    page: int = 0,
    *,
    edit: bool = False,
    public: bool = False,
) -> None:
    """Answer with a help page. ``edit``: a press on a help message: the user's own
    (ephemeral) message is turned to the page; a public one is left as it is and the page
    comes as a new private message."""
    lang = lang_of(interaction.locale)
    tree = bot_of(interaction.client).tree
    server = None
    if topic == "overview" and page == SERVER_PAGE:
        server = await server_settings_note(interaction, lang)
    embed, view = await render_help(topic, page, lang, tree, server)
    message = interaction.message
    if edit and message is not None and message.flags.ephemeral:
        await interaction.response.edit_message(embed=embed, view=view)
    else:
        await interaction.response.send_message(embed=embed, view=view, ephemeral=not public)


class Help(commands.Cog):
    """``/mahjong help``."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        bind_cog_commands(self)
        refresh_topic_choices()

    @mahjong.command(
        name=locale_str("help"),
        description=locale_str(
            "How to play here: starting a game, the rules, hand notation, commands",
        ),
    )
    @app_commands.describe(
        topic=locale_str("What to read first"),
        public=locale_str("Show it to the whole channel"),
    )
    @app_commands.rename(topic=locale_str("topic"), public=locale_str("public"))
    @app_commands.choices(topic=topic_choices())
    async def help(
        self, interaction: discord.Interaction, topic: str | None = None, public: bool = False
    ) -> None:
        """Show the first page of ``topic`` (default: getting started), privately."""
        await show_help(interaction, topic or "overview", 0, public=public)


def refresh_topic_choices() -> None:
    """Read the ``topic`` choices again from the registry, so a variant registered after this
    module was imported (``MAHJONG_VARIANTS``, a plug-in) is offered; called when the cog
    loads, before the command tree is synced."""
    app_commands.choices(topic=topic_choices())(Help.help)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: the persistent help items and the cog."""
    bot.add_dynamic_items(HelpPageButton, HelpTopicMenu)
    await bot.add_cog(Help(bot))
