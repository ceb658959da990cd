"""The stats cog's components (``cogs.stats.views``) without Discord: ids, paging states,
and cards turned into embeds within Discord's limits."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from cogs.stats.views import (
    HistoryButton,
    board_view,
    card_embed,
    game_view,
    history_page_view,
    history_view,
)
from db.types import GameInfo, GameSummary, Leaderboard
from services.stats import (
    BOARD_ID,
    GAME_ID,
    HISTORY_ID,
    HISTORY_PAGE_ID,
    BoardPage,
    BoardQuery,
    GamePage,
    HistoryPage,
    history_page_custom_id,
)
from services.stats_text import Card, Choice, Field

NOW = datetime(2026, 11, 25, tzinfo=UTC)


def page(number: int, pages: int, query: BoardQuery | None = None) -> BoardPage:
    board = Leaderboard(1, None, "all", "points", None, None, pages * 10, number * 10, [], None)
    return BoardPage(Card("t"), board, query or BoardQuery(), number, pages)


def buttons(view) -> list:  # type: ignore[no-untyped-def]
    return [child.item for child in view.children]


@pytest.mark.parametrize(("number", "pages"), [(0, 1), (0, 2), (1, 2), (4, 9), (8, 9)])
def test_board_buttons(number: int, pages: int) -> None:
    view = board_view(page(number, pages, BoardQuery("xinyu", "season", "rating", 3)), "zh")
    prev, nxt, me = buttons(view)
    ids = [b.custom_id for b in (prev, nxt, me)]
    assert len(set(ids)) == 3
    assert all(BOARD_ID.fullmatch(i) and len(i) <= 100 for i in ids)
    assert prev.disabled == (number == 0)
    assert nxt.disabled == (number + 1 >= pages)
    if not prev.disabled:
        assert BoardQuery.parse(prev.custom_id)[1] == number - 1
    if not nxt.disabled:
        assert BoardQuery.parse(nxt.custom_id)[1] == number + 1
    assert BoardQuery.parse(me.custom_id) == (BoardQuery("xinyu", "season", "rating", 3), None)
    assert view.timeout is None


def _game() -> GameInfo:
    return GameInfo(7, 1, 2, "shangrao", {}, [], "finished", None, [0] * 4, 0, None, NOW, NOW)


def test_game_buttons_only_when_there_is_more_than_one_page() -> None:
    assert game_view(GamePage(Card("t"), _game(), 0, 1), "zh") is None
    view = game_view(GamePage(Card("t"), _game(), 1, 3), "en")
    assert view is not None
    prev, nxt = buttons(view)
    assert (prev.custom_id, nxt.custom_id) == ("mj:gh:7:0", "mj:gh:7:2")
    assert GAME_ID.fullmatch(prev.custom_id) and not prev.disabled and not nxt.disabled
    last = game_view(GamePage(Card("t"), _game(), 2, 3), "zh")
    assert last is not None and buttons(last)[1].disabled


def test_history_select() -> None:
    assert history_view(None, [], "zh") is None
    choices = [Choice(f"#{i}", str(i), "x") for i in range(30)]
    view = history_view(42, choices, "zh")
    assert view is not None
    [select] = buttons(view)
    assert HISTORY_ID.fullmatch(select.custom_id) and select.custom_id == "mj:hs:42"
    assert len(select.options) == 25


def test_card_embed_keeps_discord_limits() -> None:
    card = Card(
        title="标" * 300,
        description="d",
        fields=tuple(Field(f"n{i}", "v" * 2000) for i in range(30)),
        footer="f",
    )
    embed = card_embed(card)
    assert len(embed.title or "") == 256 and 0 < len(embed.fields) < 25
    assert all(len(f.value or "") <= 1024 for f in embed.fields)
    assert len(embed) <= 6000 and embed.footer.text == "f"
    small = card_embed(Card("t", fields=tuple(Field(f"n{i}", "v") for i in range(30))))
    assert len(small.fields) == 25


@pytest.mark.parametrize(("number", "has_next"), [(0, True), (1, True), (3, False)])
def test_history_page_buttons(number: int, has_next: bool) -> None:
    choices = [Choice(f"#{i}", str(i), "x") for i in range(10)]
    view = history_view(42, choices, "zh", page=number, has_next=has_next)
    assert view is not None and view.timeout is None
    select, prev, nxt = buttons(view)
    assert select.custom_id == "mj:hs:42" and [o.value for o in select.options] == [
        str(i) for i in range(10)
    ]
    assert prev.custom_id != nxt.custom_id
    for b in (prev, nxt):
        assert HISTORY_PAGE_ID.fullmatch(b.custom_id) and len(b.custom_id) <= 100
    assert prev.custom_id == f"mj:hp:42:{max(number - 1, 0)}" and prev.disabled == (number == 0)
    assert nxt.custom_id == f"mj:hp:42:{number + 1}" and nxt.disabled == (not has_next)


def test_one_page_of_history_has_no_page_buttons() -> None:
    view = history_view(None, [Choice("#1", "1")], "en")
    assert view is not None and len(buttons(view)) == 1
    # a page past the end: nothing to pick, but the way back
    back = history_view(None, [], "en", page=4)
    assert back is not None
    prev, nxt = buttons(back)
    assert prev.custom_id == "mj:hp:0:3" and not prev.disabled and nxt.disabled


def test_history_page_view_lists_that_pages_games() -> None:
    games = [GameSummary(replace(_game(), id=i), 2) for i in (31, 30, 29)]
    view = history_page_view(HistoryPage(Card("t"), games, 2, True, 7), "zh")
    assert view is not None
    select, prev, nxt = buttons(view)
    assert [o.value for o in select.options] == ["31", "30", "29"]
    assert (prev.custom_id, nxt.custom_id) == ("mj:hp:7:1", "mj:hp:7:3")


async def test_history_button_survives_a_restart() -> None:
    custom_id = history_page_custom_id(None, 12)
    match = HISTORY_PAGE_ID.fullmatch(custom_id)
    assert match is not None
    item = HistoryButton(None, 12, label="下一页").item
    rebuilt = await HistoryButton.from_custom_id(None, item, match)  # type: ignore[arg-type]
    assert (rebuilt.user_id, rebuilt.page, rebuilt.item.custom_id) == (None, 12, custom_id)
    # none of the stats ids can be taken for another: each matches its own template only
    templates = [BOARD_ID, GAME_ID, HISTORY_ID, HISTORY_PAGE_ID]
    assert [bool(t.fullmatch(custom_id)) for t in templates] == [False, False, False, True]


async def test_the_board_picture_goes_into_the_embed_or_is_left_out_when_it_fails(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import discord

    from cogs.stats import views as stats_views

    shown = page(0, 1)
    embed = discord.Embed(title="t")
    [file] = await stats_views.board_files(shown, embed)
    assert file.filename == "leaderboard.png" and file.description
    assert embed.image.url == "attachment://leaderboard.png"

    def broken(_: object) -> bytes:  # the page's picture (drawn off the loop)
        raise OSError("font file unreadable")

    monkeypatch.setattr(stats_views, "render_leaderboard", broken)
    plain = discord.Embed(title="t")
    assert await stats_views.board_files(shown, plain) == []
    assert plain.image.url is None  # no link to a missing attachment
    assert "leaderboard picture failed" in caplog.text


class _Prefs:
    def __init__(self, on: bool) -> None:
        self.on = on

    async def wants_pictures(self, user_id: int) -> bool:
        return self.on


@pytest.mark.parametrize(("switch", "player", "expected"), [
    (True, True, True), (True, False, False), (False, True, False), (False, False, False),
])  # fmt: skip
async def test_pictures_need_the_bot_switch_and_the_players_choice(
    monkeypatch: pytest.MonkeyPatch, switch: bool, player: bool, expected: bool
) -> None:
    from cogs.delivery import pictures
    from cogs.stats import views as stats_views

    monkeypatch.setattr(pictures, "ENABLED", switch)
    assert await stats_views.wants_pictures(_Prefs(player), 1) is expected  # type: ignore[arg-type]


class _Response:
    def __init__(self) -> None:
        self.deferred: list[dict[str, bool]] = []

    async def defer(self, **kw: bool) -> None:
        self.deferred.append(kw)


class _Asking:
    """An interaction as :func:`cogs.stats.views.begin_page` reads it."""

    def __init__(self, guild_id: int | None) -> None:
        self.guild_id = guild_id
        self.locale = "zh-TW"
        self.response = _Response()


@pytest.mark.parametrize(("edit", "private", "deferred"), [
    (True, False, {}),  # the pressed page is updated
    (False, False, {"ephemeral": False, "thinking": True}),  # a new public answer
    (False, True, {"ephemeral": True, "thinking": True}),  # a new private answer (a game)
])  # fmt: skip
async def test_every_page_answer_begins_the_same_way(
    monkeypatch: pytest.MonkeyPatch, edit: bool, private: bool, deferred: dict[str, bool]
) -> None:
    """show_board / show_history / show_game share one start: refused outside a server,
    else acknowledged (updating the page or answering anew) in the answer's language."""
    from cogs.stats import views as stats_views

    refused: list[str] = []

    async def refuse(_interaction: object, text: str) -> None:
        refused.append(text)

    async def lang_of(service: object, _interaction: object) -> str:
        return f"lang of {service}"

    monkeypatch.setattr(stats_views, "_refuse", refuse)
    monkeypatch.setattr(stats_views, "service_of", lambda _interaction: "stats")
    monkeypatch.setattr(stats_views, "answer_lang", lang_of)
    in_dm = _Asking(None)
    assert await stats_views.begin_page(in_dm, edit=edit, private=private) is None  # type: ignore[arg-type]
    assert (
        refused == [stats_views.t("errors.guild_only", "zh-TW")] and in_dm.response.deferred == []
    )
    in_server = _Asking(5)
    begun = await stats_views.begin_page(in_server, edit=edit, private=private)  # type: ignore[arg-type]
    assert begun == ("stats", "lang of stats", 5)
    assert in_server.response.deferred == [deferred]
