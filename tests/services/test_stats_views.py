"""The stats cog's components (``cogs.stats_views``) without Discord: ids, paging states,
and cards turned into embeds within Discord's limits."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cogs.stats_views import board_view, card_embed, game_view, history_view
from db.types import GameInfo, Leaderboard
from services.stats import BOARD_ID, GAME_ID, HISTORY_ID, BoardPage, BoardQuery, GamePage
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
