"""``/mahjong-sessions`` (场次战绩): a player's sessions a page at a time, and the result card
(战绩卡) of one, with 分享 to post it in the channel.

The pages are public, like the other stats answers (the server's record). A picked session's
card goes to the one who picked it, with 分享: pressing that posts the same card in the
channel for everyone. The final standings of a session carry the 战绩卡 button too
(``mj:zc:<game>``, drawn by :mod:`cogs.game.session`), which answers the same way.

The card is a picture (:mod:`render.session_card`, drawn in the picture workers) when the bot
draws pictures (``MAHJONG_PICTURES``) and the presser wants them (``/mahjong pictures``); its
text is always in the embed (all of it when there is no picture). Every item is a
``DynamicItem`` (ids in :mod:`services.session_stats`): they work after a restart.
"""

from __future__ import annotations

import io
import logging
import re
from typing import Any, Unpack

import discord
from discord import app_commands
from discord.app_commands import locale_str

from cogs.checks import check_declared_options
from cogs.components import RoutedView, chosen_values
from cogs.errors import send_ephemeral
from cogs.stats.views import (
    BLUE,
    PageLook,
    begin_page,
    card_embed,
    page_button,
    pressed_look,
    prev_next_looks,
    server_id,
    service_of,
    user_name,
    wants_pictures,
)
from i18n import short, t
from render.session_card import render_session_card
from services.pictures import draw
from services.session_stats import (
    CARD_FILE,
    CARD_ID,
    SESSIONS_PAGE_ID,
    SESSIONS_PICK_ID,
    SHARE_ID,
    SessionCard,
    SessionsPage,
    SessionStats,
    card_id,
    sessions_page_id,
    sessions_pick_id,
    share_id,
)
from services.session_stats_text import card_alt_text, card_picture, session_choices
from services.stats import StatsInputError
from services.stats_text import person

log = logging.getLogger(__name__)


def sessions_of(interaction: discord.Interaction) -> SessionStats:
    """The sessions service over the bot's store."""
    return SessionStats(service_of(interaction).store)


# ------------------------------------------------------------------------------ items


class SessionsButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=SESSIONS_PAGE_ID):
    """Previous / next page of a player's sessions (the picker then lists that page)."""

    def __init__(self, user_id: int, page: int, **look: Unpack[PageLook]) -> None:
        self.user_id = user_id
        self.page = page
        super().__init__(page_button(sessions_page_id(user_id, page), **look))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SessionsButton:
        return cls(int(match["user"]), int(match["page"]), **pressed_look(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await show_sessions(interaction, self.user_id, self.page, edit=True)


class SessionsSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SESSIONS_PICK_ID):
    """Pick one session of a page to see its 战绩卡 (answered privately, with 分享)."""

    def __init__(self, user_id: int, options: list[discord.SelectOption] | None = None) -> None:
        self.user_id = user_id
        super().__init__(
            discord.ui.Select(
                custom_id=sessions_pick_id(user_id),
                options=(options or [discord.SelectOption(label="—", value="0")])[:25],
                min_values=1,
                max_values=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SessionsSelect:
        return cls(int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = chosen_values(interaction)
        game_id = int(values[0]) if values and str(values[0]).isdigit() else 0
        await show_card(interaction, game_id, public=False)


class CardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=CARD_ID):
    """战绩卡: session ``game``'s card, shown to the presser with 分享."""

    def __init__(self, game_id: int, **look: Unpack[PageLook]) -> None:
        self.game_id = game_id
        super().__init__(page_button(card_id(game_id), **look))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CardButton:
        return cls(int(match["game"]), **pressed_look(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await show_card(interaction, self.game_id, public=False)


class ShareButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=SHARE_ID):
    """分享: post session ``game``'s card in the channel, for everyone."""

    def __init__(self, game_id: int, **look: Unpack[PageLook]) -> None:
        self.game_id = game_id
        super().__init__(page_button(share_id(game_id), style=BLUE, **look))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ShareButton:
        return cls(int(match["game"]), **pressed_look(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await show_card(interaction, self.game_id, public=True)


def sessions_view(shown: SessionsPage, lang: str) -> discord.ui.View | None:
    """The picker of the page's sessions, then ◀ / ▶ when there is more than one page."""
    choices = session_choices(shown.sessions, lang)
    if not choices and shown.pages <= 1:
        return None
    view = RoutedView()
    if choices:
        options = [
            discord.SelectOption(label=c.label, value=c.value, description=c.description or None)
            for c in choices
        ]
        select = SessionsSelect(shown.user_id, options)
        select.item.placeholder = t("stats.sessions_pick", short(lang))[:150]
        view.add_item(select)
    if shown.pages > 1:
        prev_look, next_look = prev_next_looks(
            short(lang), has_prev=shown.has_prev, has_next=shown.has_next
        )
        view.add_item(SessionsButton(shown.user_id, max(shown.page - 1, 0), **prev_look))
        view.add_item(SessionsButton(shown.user_id, shown.page + 1, **next_look))
    return view


def share_view(game_id: int, lang: str) -> discord.ui.View:
    """分享 under a privately shown card."""
    view = RoutedView()
    view.add_item(ShareButton(game_id, emoji="📣", label=t("stats.button.share", short(lang))))
    return view


# ---------------------------------------------------------------------------- the command


def _declared_options(interaction: discord.Interaction) -> bool:
    """Refuse option values the declaration forbids (as :class:`cogs.group.CheckedGroup`)."""
    check_declared_options(interaction)
    return True


@app_commands.command(
    name=locale_str("mahjong-sessions"),
    description=locale_str("A player's sessions: totals, top scorer, result cards"),
)
@app_commands.guild_only()
@app_commands.check(_declared_options)
@app_commands.rename(user=locale_str("user"))
@app_commands.describe(user=locale_str("Whose sessions (default: yours)"))
async def sessions_command(
    interaction: discord.Interaction, user: discord.User | None = None
) -> None:
    """场次战绩: every session the player sat in, latest first, a page at a time — when,
    variant, hands, every player's total, the 大赢家 — with their tally (sessions, 大赢家
    titles, points), and a picker for a session's 战绩卡.

    A command of its own beside ``/mahjong`` and ``/mahjong-admin``: ``/mahjong`` already
    holds the 25 subcommands Discord allows a group."""
    server_id(interaction)
    target = user or interaction.user
    await show_sessions(interaction, target.id, 0, edit=False, who=target)


# ------------------------------------------------------------------------ what is shown


async def show_sessions(
    interaction: discord.Interaction,
    user_id: int,
    page: int,
    *,
    edit: bool,
    who: discord.abc.User | None = None,
) -> None:
    """Show a page of ``user_id``'s sessions: a new message (``edit`` False) or the pressed
    one updated. ``who`` is the member the command named (their name is kept for the pages
    shown after a restart)."""
    begun = await begin_page(interaction, edit=edit)
    if begun is None:
        return
    service, lang, guild_id = begun
    name = user_name(who) if who is not None else None
    if who is not None and not who.bot:
        await service.remember(who.id, name)
    shown = await sessions_of(interaction).page(guild_id, user_id, who=name, page=page, lang=lang)
    await interaction.edit_original_response(
        embed=card_embed(shown.card), view=sessions_view(shown, lang)
    )


async def card_files(card: SessionCard, embed: discord.Embed) -> list[discord.File]:
    """The card's picture as a file shown inside ``embed``; none if drawing fails."""
    try:
        png = await draw(render_session_card, card_picture(card.record, card.lang))
    except Exception:
        log.exception("result card picture failed")
        return []
    embed.set_image(url=f"attachment://{CARD_FILE}")
    alt = card_alt_text(card.record, card.lang)
    return [discord.File(io.BytesIO(png), filename=CARD_FILE, description=alt)]


async def show_card(interaction: discord.Interaction, game_id: int, *, public: bool) -> None:
    """Session ``game_id``'s 战绩卡: to the presser alone with 分享 (``public`` False), or
    posted in the channel for everyone, saying who shared it."""
    begun = await begin_page(interaction, edit=False, private=not public)
    if begun is None:
        return
    service, lang, guild_id = begun
    try:
        card = await sessions_of(interaction).card(guild_id, game_id, lang=lang)
    except StatsInputError as error:
        if public:  # the thinking message is the channel's: it says why
            await interaction.edit_original_response(content=error.text(lang))
        else:
            await send_ephemeral(interaction, error.text(lang))
        return
    embed = card_embed(card.card, colour=discord.Colour.gold())
    files: list[discord.File] = []
    if await wants_pictures(service, interaction.user.id):
        files = await card_files(card, embed)
    if public:
        who = person(interaction.user.id, user_name(interaction.user))
        await interaction.edit_original_response(
            content=t("stats.card_shared", short(lang), name=who),
            embed=embed,
            attachments=files,
        )
        return
    await interaction.edit_original_response(
        embed=embed, attachments=files, view=share_view(game_id, lang)
    )


__all__ = [
    "CardButton",
    "SessionsButton",
    "SessionsSelect",
    "ShareButton",
    "card_files",
    "sessions_command",
    "sessions_of",
    "sessions_view",
    "share_view",
    "show_card",
    "show_sessions",
]
