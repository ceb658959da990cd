"""The pages of the leaderboard, stats and history answers: their embeds, their persistent
components, and what a press shows.

Every button and select here is a ``DynamicItem``: its ``custom_id`` carries what it shows
(``mj:lb:…`` a leaderboard page, ``mj:hs:…`` the history select, ``mj:hp:…`` a page of the
history list, ``mj:gh:…`` a page of one game's hands), so they keep working after a restart.
A press shows its page here (:func:`show_board`, :func:`show_history`, :func:`show_game`),
the same functions the commands of :mod:`cogs.stats.commands` answer with.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import time
from typing import Any, NamedTuple, TypedDict, Unpack

import discord

from botcore.client import bot_of
from cogs.components import RoutedView, chosen_values, pressed_button
from cogs.delivery import pictures
from cogs.errors import UserError, send_ephemeral
from i18n import locale_for, short, t
from render.leaderboard import render_leaderboard
from services.pictures import draw
from services.stats import (
    BOARD_ID,
    GAME_ID,
    HISTORY_ID,
    HISTORY_PAGE_ID,
    BoardPage,
    BoardQuery,
    GamePage,
    HistoryPage,
    StatsInputError,
    StatsService,
    game_custom_id,
    history_custom_id,
    history_page_custom_id,
)
from services.stats_picture import BOARD_FILE, board_alt_text, board_picture
from services.stats_text import Card, Choice, history_choices

log = logging.getLogger(__name__)

COLOUR = discord.Colour.dark_green()
GREY = discord.ButtonStyle.secondary
BLUE = discord.ButtonStyle.primary
EMBED_LIMIT = 6000


def card_embed(card: Card, *, colour: discord.Colour = COLOUR) -> discord.Embed:
    """A :class:`Card` as an embed, cut to Discord's limits (6,000 characters in all)."""
    title = card.title[:256]
    description = card.description[:4096]
    footer = card.footer[:2048]
    embed = discord.Embed(title=title, description=description or None, colour=colour)
    room = EMBED_LIMIT - len(title) - len(description) - len(footer)
    for f in card.fields[:25]:
        name, value = f.name[:256], (f.value or "—")[:1024]
        if len(name) + len(value) > room:
            break
        room -= len(name) + len(value)
        embed.add_field(name=name, value=value, inline=f.inline)
    if footer:
        embed.set_footer(text=footer)
    return embed


class PageLook(TypedDict, total=False):
    """How a page button looks: its label and emoji, and whether it is greyed out (no such
    page). Left out: no label, no emoji, enabled."""

    label: str | None
    emoji: str | None
    disabled: bool


def page_button(
    custom_id: str, *, style: discord.ButtonStyle = GREY, **look: Unpack[PageLook]
) -> discord.ui.Button[Any]:
    """The button a page item wraps (◀ / ▶ / 📍); ``custom_id`` says which page it shows."""
    return discord.ui.Button(custom_id=custom_id, style=style, **look)


def pressed_look(item: discord.ui.Item[Any]) -> PageLook:
    """The look a page item rebuilt from a press keeps: the pressed button's label."""
    return PageLook(label=pressed_button(item).label)


def prev_next_looks(lang: str, *, has_prev: bool, has_next: bool) -> tuple[PageLook, PageLook]:
    """◀ 上一页 and ▶ 下一页, each greyed out when there is no such page."""
    return (
        PageLook(emoji="◀", label=_l("prev", lang), disabled=not has_prev),
        PageLook(emoji="▶", label=_l("next", lang), disabled=not has_next),
    )


class BoardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BOARD_ID):
    """Prev / Next / my position on a leaderboard; shows the page in its ``custom_id``."""

    def __init__(
        self,
        query: BoardQuery,
        page: int | None,
        *,
        style: discord.ButtonStyle = GREY,
        **look: Unpack[PageLook],
    ) -> None:
        self.query = query
        self.page = page
        custom_id = query.custom_id("me" if page is None else page)
        super().__init__(page_button(custom_id, style=style, **look))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> BoardButton:
        query, page = BoardQuery.from_match(match)
        return cls(query, page, **pressed_look(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await show_board(interaction, self.query, self.page, edit=True)


class HistorySelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=HISTORY_ID):
    """Pick one game of a history list to see its hands (answered privately)."""

    def __init__(self, user_id: int | None, choices: list[Choice] | None = None, **kw: Any) -> None:
        self.user_id = user_id
        options = [
            discord.SelectOption(label=c.label, value=c.value, description=c.description or None)
            for c in (choices or [])
        ] or [discord.SelectOption(label="—", value="0")]
        super().__init__(
            discord.ui.Select(
                custom_id=history_custom_id(user_id),
                options=options[:25],
                placeholder=kw.get("placeholder"),
                min_values=1,
                max_values=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HistorySelect:
        return cls(int(match["user"]) or None)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = chosen_values(interaction)
        game_id = int(values[0]) if values and str(values[0]).isdigit() else 0
        await show_game(interaction, game_id, 0, edit=False)


class HistoryButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=HISTORY_PAGE_ID):
    """Previous / next page of the history list (the select then lists that page)."""

    def __init__(self, user_id: int | None, page: int, **look: Unpack[PageLook]) -> None:
        self.user_id = user_id
        self.page = page
        super().__init__(page_button(history_page_custom_id(user_id, page), **look))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HistoryButton:
        return cls(int(match["user"]) or None, int(match["page"]), **pressed_look(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await show_history(interaction, self.user_id, self.page, edit=True)


class HandsButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=GAME_ID):
    """Previous / next page of one game's hands."""

    def __init__(self, game_id: int, page: int, **look: Unpack[PageLook]) -> None:
        self.game_id = game_id
        self.page = page
        super().__init__(page_button(game_custom_id(game_id, page), **look))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HandsButton:
        return cls(int(match["game"]), int(match["page"]), **pressed_look(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await show_game(interaction, self.game_id, self.page, edit=True)


def board_view(page: BoardPage, lang: str) -> discord.ui.View:
    """◀ / ▶ / 📍 buttons of a leaderboard page (custom ids differ: prev ≠ next ≠ me)."""
    view = RoutedView()
    prev_page = max(page.page - 1, 0)
    next_page = page.page + 1 if page.has_next else max(page.page + 1, 1)
    if prev_page == next_page:  # one page: keep the ids distinct
        next_page += 1
    prev_look, next_look = prev_next_looks(lang, has_prev=page.has_prev, has_next=page.has_next)
    view.add_item(BoardButton(page.query, prev_page, **prev_look))
    view.add_item(BoardButton(page.query, next_page, **next_look))
    view.add_item(BoardButton(page.query, None, emoji="📍", style=BLUE, label=_l("me", lang)))
    return view


def history_view(
    user_id: int | None,
    choices: list[Choice],
    lang: str,
    *,
    page: int = 0,
    has_next: bool = False,
) -> discord.ui.View | None:
    """The select menu of a history page (its games), then ◀ / ▶ when there is more than
    one page; None when there is nothing to pick and no other page."""
    paged = page > 0 or has_next
    if not choices and not paged:
        return None
    view = RoutedView()
    if choices:
        view.add_item(
            HistorySelect(user_id, choices, placeholder=t("stats.history_pick", lang)[:150])
        )
    if paged:
        prev_look, next_look = prev_next_looks(lang, has_prev=page > 0, has_next=has_next)
        view.add_item(HistoryButton(user_id, max(page - 1, 0), **prev_look))
        view.add_item(HistoryButton(user_id, page + 1, **next_look))
    return view


def history_page_view(page: HistoryPage, lang: str) -> discord.ui.View | None:
    """:func:`history_view` for a :class:`HistoryPage`."""
    return history_view(
        page.user_id,
        history_choices(page.games, lang),
        lang,
        page=page.page,
        has_next=page.has_next,
    )


def game_view(page: GamePage, lang: str) -> discord.ui.View | None:
    """◀ / ▶ under a game's hands (None when everything fits on one page)."""
    if page.pages <= 1:
        return None
    view = RoutedView()
    prev_page = max(page.page - 1, 0)
    next_page = min(page.page + 1, page.pages - 1)
    if prev_page == next_page:
        next_page = prev_page + 1
    prev_look, next_look = prev_next_looks(
        lang, has_prev=page.page > 0, has_next=page.page + 1 < page.pages
    )
    view.add_item(HandsButton(page.game.id, prev_page, **prev_look))
    view.add_item(HandsButton(page.game.id, next_page, **next_look))
    return view


# ------------------------------------------------------------------ what a press shows

#: At most this many unknown names are looked up for one answer (a REST call each)…
MAX_NAME_LOOKUPS = 12
#: …within this many seconds; someone not found is not asked for again for an hour.
NAME_LOOKUP_SECONDS = 4.0
NAME_RETRY_SECONDS = 3600.0
_not_found: dict[int, float] = {}


def service_of(interaction: discord.Interaction) -> StatsService:
    """The bot's stats service."""
    return bot_of(interaction.client).stats_service


def user_name(user: discord.abc.User) -> str:
    """The name a member shows in this server."""
    return getattr(user, "display_name", None) or user.name


async def answer_lang(service: StatsService, interaction: discord.Interaction) -> str:
    """The language of an answer: the server's setting, else the asker's locale."""
    return await service.language(interaction.guild_id, str(interaction.locale))


def server_id(interaction: discord.Interaction) -> int:
    """The server the interaction came from (stats are per server; refused in DMs)."""
    if interaction.guild_id is None:
        raise UserError(t("errors.guild_only", locale_for(interaction.locale)))
    return interaction.guild_id


async def _refuse(interaction: discord.Interaction, text: str) -> None:
    await send_ephemeral(interaction, text)


class PageAnswer(NamedTuple):
    """What every page answer starts from: the stats service, the answer's language and the
    server whose record it shows."""

    service: StatsService
    lang: str
    guild_id: int


async def begin_page(
    interaction: discord.Interaction, *, edit: bool, private: bool = False
) -> PageAnswer | None:
    """The start every page answer shares: refuse outside a server (stats are per server),
    acknowledge the interaction — the pressed message is updated when ``edit``, else a new
    message follows (``private``: seen only by the asker) — and find the answer's language.
    None when refused."""
    guild_id = interaction.guild_id
    if guild_id is None:
        await _refuse(interaction, t("errors.guild_only", locale_for(interaction.locale)))
        return None
    service = service_of(interaction)
    if edit:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=private, thinking=True)
    return PageAnswer(service, await answer_lang(service, interaction), guild_id)


# ------------------------------------------------------------------ shared handlers


async def wants_pictures(service: StatsService, user_id: int) -> bool:
    """Pictures are on for the bot (``MAHJONG_PICTURES``) and for this user."""
    return pictures.ENABLED and await service.wants_pictures(user_id)


def _had_picture(interaction: discord.Interaction, filename: str) -> bool:
    """Whether the message a button was pressed on carries the picture ``filename``."""
    message = interaction.message
    if message is None:
        return False
    if any(a.filename == filename for a in message.attachments):
        return True
    return any(e.image and f"attachment://{filename}" == e.image.url for e in message.embeds)


async def board_files(shown: BoardPage, embed: discord.Embed) -> list[discord.File]:
    """The page's picture as a file, shown inside ``embed``; none if drawing fails."""
    try:
        png = await draw(render_leaderboard, board_picture(shown))  # board_png, off the loop
    except Exception:
        log.exception("leaderboard picture failed")
        return []
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    return [discord.File(io.BytesIO(png), filename=BOARD_FILE, description=board_alt_text(shown))]


async def _lookup_name(interaction: discord.Interaction, user_id: int) -> str | None:
    """The name ``user_id`` shows in this server: the member cache, else a member fetch; a
    former member is looked up as a user (their global name)."""
    client = interaction.client
    guild = interaction.guild or (
        client.get_guild(interaction.guild_id) if interaction.guild_id else None
    )
    member = guild.get_member(user_id) if guild is not None else None
    if member is None and guild is not None:
        try:
            member = await guild.fetch_member(user_id)
        except discord.HTTPException:
            member = None
    if member is not None:
        return user_name(member)
    try:
        user = client.get_user(user_id) or await client.fetch_user(user_id)
    except discord.HTTPException:
        return None
    return None if user.bot else user_name(user)


async def resolve_names(
    interaction: discord.Interaction, service: StatsService, user_ids: list[int]
) -> int:
    """Find and keep the names of ranked players the bot has no name for (known only from
    records made before names were kept, or who never used a command), so the picture and
    the text show names instead of ids. Returns how many were found."""
    now = time.monotonic()
    wanted = [
        uid
        for uid in dict.fromkeys(user_ids)
        if now - _not_found.get(uid, -NAME_RETRY_SECONDS) >= NAME_RETRY_SECONDS
    ][:MAX_NAME_LOOKUPS]
    found = 0
    deadline = now + NAME_LOOKUP_SECONDS
    for uid in wanted:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        try:
            name = await asyncio.wait_for(_lookup_name(interaction, uid), remaining)
        except TimeoutError:
            break
        if name:
            await service.remember(uid, name)
            _not_found.pop(uid, None)
            found += 1
        else:
            _not_found[uid] = time.monotonic()
    return found


def _unnamed(shown: BoardPage) -> list[int]:
    entries = [*shown.board.entries, shown.board.me]
    return [e.user_id for e in entries if e is not None and not e.display_name]


async def show_board(
    interaction: discord.Interaction, query: BoardQuery, page: int | None, *, edit: bool
) -> None:
    """Show a leaderboard page: a new message (``edit`` False) or the pressed one updated,
    with its picture when pictures are wanted (see the module docstring)."""
    begun = await begin_page(interaction, edit=edit)
    if begun is None:
        return
    service, lang, guild_id = begun
    await service.remember(interaction.user.id, user_name(interaction.user))

    async def board() -> BoardPage:
        return await service.leaderboard(
            guild_id,
            query,
            page=page,
            user_id=interaction.user.id,
            user_name=user_name(interaction.user),
            lang=lang,
        )

    shown = await board()
    unnamed = _unnamed(shown)
    if unnamed and await resolve_names(interaction, service, unnamed):
        shown = await board()  # the same page, now with their names
    embed = card_embed(shown.card)
    if edit:
        picture = pictures.ENABLED and _had_picture(interaction, BOARD_FILE)
    else:
        picture = await wants_pictures(service, interaction.user.id)
    files = await board_files(shown, embed) if picture else []
    await interaction.edit_original_response(
        embed=embed, view=board_view(shown, lang), attachments=files
    )


async def show_history(
    interaction: discord.Interaction,
    user_id: int | None,
    page: int,
    *,
    edit: bool,
    who: discord.abc.User | None = None,
) -> None:
    """Show a page of the history list: a new message (``edit`` False) or the pressed one
    updated; its select menu then lists that page's games. ``who`` is the player whose
    games these are, when the command named one (their name is kept for later pages)."""
    begun = await begin_page(interaction, edit=edit)
    if begun is None:
        return
    service, lang, guild_id = begun
    name = user_name(who) if who is not None else None
    if who is not None and not who.bot:
        await service.remember(who.id, name)  # page buttons find the name after a restart
    shown = await service.history(guild_id, user_id=user_id, who=name, lang=lang, page=page)
    await interaction.edit_original_response(
        embed=card_embed(shown.card), view=history_page_view(shown, lang)
    )


async def show_game(
    interaction: discord.Interaction, game_id: int, page: int, *, edit: bool
) -> None:
    """Show one game's hands to the one who asked (a new private message, or the page)."""
    begun = await begin_page(interaction, edit=edit, private=True)
    if begun is None:
        return
    service, lang, guild_id = begun
    try:
        shown = await service.game(guild_id, game_id, page=page, lang=lang)
    except StatsInputError as error:
        await _refuse(interaction, error.text(lang))
        return
    await interaction.edit_original_response(
        embed=card_embed(shown.card), view=game_view(shown, lang)
    )


def _l(key: str, lang: str) -> str:
    """A page button's label (上一页 / 下一页 / 我的名次); ``zh+en`` shows Chinese."""
    return t(f"stats.button.{key}", short(lang))


__all__ = [
    "BoardButton",
    "HandsButton",
    "HistoryButton",
    "HistorySelect",
    "answer_lang",
    "board_files",
    "board_view",
    "card_embed",
    "game_view",
    "history_page_view",
    "history_view",
    "resolve_names",
    "server_id",
    "service_of",
    "show_board",
    "show_game",
    "show_history",
    "user_name",
    "wants_pictures",
]
