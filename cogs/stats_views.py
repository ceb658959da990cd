"""Embeds and persistent components of the leaderboard, stats and history answers.

Every button and select here is a ``DynamicItem``: its ``custom_id`` carries what it shows
(``mj:lb:…`` a leaderboard page, ``mj:hs:…`` the history select, ``mj:hp:…`` a page of the
history list, ``mj:gh:…`` a page of one game's hands), so they keep working after a restart.
The presses go to :mod:`cogs.stats`.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from services.stats import (
    BOARD_ID,
    GAME_ID,
    HISTORY_ID,
    HISTORY_PAGE_ID,
    BoardPage,
    BoardQuery,
    GamePage,
    HistoryPage,
    game_custom_id,
    history_custom_id,
    history_page_custom_id,
)
from services.stats_text import Card, Choice, history_choices, t

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


class BoardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BOARD_ID):
    """Prev / Next / my position on a leaderboard; shows the page in its ``custom_id``."""

    def __init__(
        self,
        query: BoardQuery,
        page: int | None,
        *,
        label: str | None = None,
        emoji: str | None = None,
        style: discord.ButtonStyle = GREY,
        disabled: bool = False,
    ) -> None:
        self.query = query
        self.page = page
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji=emoji,
                style=style,
                custom_id=query.custom_id("me" if page is None else page),
                disabled=disabled,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> BoardButton:
        query, page = BoardQuery.from_match(match)
        return cls(query, page, label=item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.stats import show_board

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
        cls, interaction: discord.Interaction, item: discord.ui.Select[Any], match: re.Match[str]
    ) -> HistorySelect:
        return cls(int(match["user"]) or None)

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.stats import show_game

        values = (interaction.data or {}).get("values") or []
        game_id = int(values[0]) if values and str(values[0]).isdigit() else 0
        await show_game(interaction, game_id, 0, edit=False)


class HistoryButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=HISTORY_PAGE_ID):
    """Previous / next page of the history list (the select then lists that page)."""

    def __init__(
        self,
        user_id: int | None,
        page: int,
        *,
        label: str | None = None,
        emoji: str | None = None,
        disabled: bool = False,
    ) -> None:
        self.user_id = user_id
        self.page = page
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji=emoji,
                style=GREY,
                custom_id=history_page_custom_id(user_id, page),
                disabled=disabled,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> HistoryButton:
        return cls(int(match["user"]) or None, int(match["page"]), label=item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.stats import show_history

        await show_history(interaction, self.user_id, self.page, edit=True)


class HandsButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=GAME_ID):
    """Previous / next page of one game's hands."""

    def __init__(
        self,
        game_id: int,
        page: int,
        *,
        label: str | None = None,
        emoji: str | None = None,
        disabled: bool = False,
    ) -> None:
        self.game_id = game_id
        self.page = page
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji=emoji,
                style=GREY,
                custom_id=game_custom_id(game_id, page),
                disabled=disabled,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> HandsButton:
        return cls(int(match["game"]), int(match["page"]), label=item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.stats import show_game

        await show_game(interaction, self.game_id, self.page, edit=True)


def board_view(page: BoardPage, lang: str) -> discord.ui.View:
    """◀ / ▶ / 📍 buttons of a leaderboard page (custom ids differ: prev ≠ next ≠ me)."""
    view = discord.ui.View(timeout=None)
    prev_page = max(page.page - 1, 0)
    next_page = page.page + 1 if page.has_next else max(page.page + 1, 1)
    if prev_page == next_page:  # one page: keep the ids distinct
        next_page += 1
    view.add_item(
        BoardButton(
            page.query, prev_page, emoji="◀", disabled=not page.has_prev, label=_l("prev", lang)
        )
    )
    view.add_item(
        BoardButton(
            page.query, next_page, emoji="▶", disabled=not page.has_next, label=_l("next", lang)
        )
    )
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
    view = discord.ui.View(timeout=None)
    if choices:
        view.add_item(HistorySelect(user_id, choices, placeholder=t("history_pick", lang)[:150]))
    if paged:
        view.add_item(
            HistoryButton(
                user_id, max(page - 1, 0), emoji="◀", label=_l("prev", lang), disabled=page == 0
            )
        )
        view.add_item(
            HistoryButton(
                user_id, page + 1, emoji="▶", label=_l("next", lang), disabled=not has_next
            )
        )
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
    view = discord.ui.View(timeout=None)
    prev_page = max(page.page - 1, 0)
    next_page = min(page.page + 1, page.pages - 1)
    if prev_page == next_page:
        next_page = prev_page + 1
    view.add_item(
        HandsButton(
            page.game.id, prev_page, emoji="◀", label=_l("prev", lang), disabled=page.page == 0
        )
    )
    view.add_item(
        HandsButton(
            page.game.id,
            next_page,
            emoji="▶",
            label=_l("next", lang),
            disabled=page.page + 1 >= page.pages,
        )
    )
    return view


_LABELS = {"prev": ("上一页", "Prev"), "next": ("下一页", "Next"), "me": ("我的名次", "Me")}


def _l(key: str, lang: str) -> str:
    zh, en = _LABELS[key]
    return en if lang == "en" else zh


__all__ = [
    "BoardButton",
    "HandsButton",
    "HistoryButton",
    "HistorySelect",
    "board_view",
    "card_embed",
    "game_view",
    "history_page_view",
    "history_view",
]
