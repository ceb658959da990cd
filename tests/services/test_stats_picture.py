"""The leaderboard page as a picture (``services.stats_picture``): the same rows as the
embed, the asker's own line, words the shipped font can draw, and a real page from the
store rendered to PNG."""

from __future__ import annotations

import io
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from PIL import Image

from db.store import Store
from db.types import HandInput, HandPlayer, Leaderboard, LeaderboardEntry
from i18n import _PLURALS
from i18n.catalog import read_domain
from render.fonts import covered
from render.leaderboard import layout
from services.stats import BoardPage, BoardQuery, StatsService
from services.stats_picture import (
    PICTURE_WORDS,
    board_alt_text,
    board_picture,
    board_png,
    drawable,
    say,
)
from services.stats_text import Card, format_leaderboard

#: The stats sentences (not the picture's stand-ins) as ``{name: (zh, en)}``.
ZH, EN = read_domain("zh", "stats"), read_domain("en", "stats")
ZH_TW = read_domain("zh-TW", "stats")
STRINGS = {
    k.removeprefix("stats."): (ZH[k], EN[k]) for k in ZH if not k.startswith("stats.picture.")
}

GUILD = 5


def entry(rank: int | None, uid: int, name: str | None, points: int, hands: int = 12):
    return LeaderboardEntry(
        rank, uid, name, hands, hands // 3, points, (hands // 3) / hands, 25.0, 8.0, 1.0 + rank if rank else None
    )  # fmt: skip


def page(
    entries: list[LeaderboardEntry],
    me: LeaderboardEntry | None,
    *,
    by: str = "points",
    asker: int | None = 1,
    lang: str = "zh",
    total: int = 30,
    number: int = 1,
    variant: str | None = None,
) -> BoardPage:
    board = Leaderboard(GUILD, variant, "all", by, None, None, total, number * 10, entries, me)
    card = format_leaderboard(board, lang=lang, asker_id=asker, asker_name="Asker")
    return BoardPage(card, board, BoardQuery(variant, "all", by), number, 3, asker, "Asker", lang)


def ranked(n: int, start: int = 11) -> list[LeaderboardEntry]:
    return [entry(start + i, 100 + i, f"P{i}", 40 - 15 * i) for i in range(n)]


def test_rows_are_the_pages_entries_in_order() -> None:
    entries = ranked(5)
    view = board_picture(page(entries, None, asker=None))
    assert [r.rank for r in view.rows] == [11, 12, 13, 14, 15]
    assert [r.name for r in view.rows] == ["P0", "P1", "P2", "P3", "P4"]
    assert [r.tone for r in view.rows] == [1, 1, 1, -1, -1]  # +40 +25 +10 −5 −20
    assert view.rows[0].value.startswith("+40") and view.rows[3].value.startswith("−5")
    assert "12" in view.rows[0].detail  # the hands
    assert not any(r.me for r in view.rows) and view.own is None
    assert "2/3" in view.footer


def test_the_asker_on_the_page_is_marked_there() -> None:
    entries = ranked(4)
    view = board_picture(page(entries, entries[2], asker=entries[2].user_id))
    assert [r.me for r in view.rows] == [False, False, True, False]
    assert view.own is None


def test_the_asker_off_the_page_gets_their_own_line() -> None:
    me = entry(27, 1, None, -30)
    view = board_picture(page(ranked(10), me, asker=1))
    assert view.own is not None and view.own.me
    assert (view.own.rank, view.own.name, view.own.tone) == (27, "Asker", -1)
    assert view.own.value.startswith("−30")


@pytest.mark.parametrize("by", ["winrate", "rating"])
def test_an_unranked_asker_is_told_why(by: str) -> None:
    me = entry(None, 1, "Me", 5, hands=3)
    view = board_picture(page(ranked(3), me, by=by, asker=1))
    assert view.own is not None and view.own.rank is None and view.own.name == "Me"
    if by == "winrate":
        assert "7" in view.own.detail  # 10 − 3 hands still to play
        assert "10" in view.footer  # the minimum
    else:
        assert view.own.detail == say("stats.short_unrated", "zh")


def test_rating_and_win_rate_values_lead_their_rows() -> None:
    rating = board_picture(page(ranked(2), None, by="rating", asker=None))
    assert [r.value.split()[-1] for r in rating.rows] == ["12.0", "13.0"]
    assert {r.tone for r in rating.rows} == {0}
    rate = board_picture(page(ranked(2), None, by="winrate", asker=None))
    assert all(r.value.endswith("33.3%") for r in rate.rows)


def test_a_taiwan_picture_is_traditional_where_the_font_draws_it() -> None:
    """zh-TW words the shipped font draws stay 繁體; the others fall back to English."""
    view = board_picture(page(ranked(2), None, lang="zh-TW", variant="xinyu", asker=None))
    assert view.subtitle.split(" · ")[0] in ("新餘麻將", "Xinyu")
    for key in ("board_word", "you"):
        tw = say(f"stats.{key}", "zh-TW")
        assert tw in (ZH_TW[f"stats.{key}"], EN[f"stats.{key}"])
        assert drawable(tw)


def test_english_picture() -> None:
    view = board_picture(page(ranked(2), None, lang="en", variant="xinyu", asker=None))
    assert view.title == "Leaderboard"
    assert view.subtitle == "Xinyu · all time · by points"
    assert view.rows[0].value == "+40 pts" and "page 2/3" in view.footer


@pytest.mark.parametrize("lang", ["zh", "zh-TW", "zh+en", "en"])
@pytest.mark.parametrize("by", ["points", "rating", "winrate"])
@pytest.mark.parametrize("variant", [None, "shangrao", "jiujiang", "nanchang"])
def test_the_pictures_own_words_are_all_drawable(lang: str, by: str, variant: str | None) -> None:
    """Only names may turn into ``?``: every label the picture writes is in the font."""
    for me in (entry(40, 1, "Me", -3), entry(None, 1, "Me", 1, hands=2), None):
        view = board_picture(page(ranked(3), me, by=by, lang=lang, variant=variant))
        rows = [*view.rows, *([view.own] if view.own else [])]
        words = [view.title, view.subtitle, view.own_label, view.empty, view.footer]
        words += [r.value for r in rows] + [r.detail for r in rows]
        assert all(drawable(w) for w in words), [w for w in words if not drawable(w)]


def fill(text: str, params: dict[str, Any]) -> str:
    """Format a catalogue sentence as :func:`i18n.t` does (``{n:hand|hands}`` plurals)."""
    return _PLURALS.vformat(text, (), params)


def test_say_falls_back_to_english_only_for_words_the_font_lacks() -> None:
    have = covered()
    for key, (zh, en) in STRINGS.items():
        params = {"n": 1, "pct": "1%", "r": "1", "min": 1, "more": 1, "hands": 1, "name": "x",
                  "season": 2, "page": 1, "pages": 2, "total": 3, "scope": "s"}  # fmt: skip
        try:
            zh_text, en_text = fill(zh, params), fill(en, params)
        except KeyError:
            continue
        other = fill(ZH[f"stats.picture.{key}"], params) if key in PICTURE_WORDS else ""
        expected = en_text
        if all(c in have or c.isspace() for c in zh_text):
            expected = zh_text
        elif other and all(c in have or c.isspace() for c in other):
            expected = other
        assert say(f"stats.{key}", "zh", **params) == expected, key
        assert say(f"stats.{key}", "en", **params) == en_text


def test_the_picture_words_are_drawable_today() -> None:
    """The stand-in words keep the picture Chinese with today's font subset (if the font
    lost characters, the English fallback would still keep ``?`` out of the picture)."""
    for key in PICTURE_WORDS:
        assert key in STRINGS
        assert drawable(ZH[f"stats.picture.{key}"]), key


def test_alt_text_names_the_board() -> None:
    shown = page(ranked(1), None)
    assert board_alt_text(shown).startswith(shown.card.title)
    assert "text" in board_alt_text(page(ranked(1), None, lang="en"))


def test_an_empty_page_draws() -> None:
    empty = page([], None, asker=None, total=0, number=0)
    view = board_picture(empty)
    assert view.rows == () and view.empty
    img = Image.open(io.BytesIO(board_png(empty)))
    assert img.size == (640, layout(view).height)


async def test_a_page_from_the_store_as_a_picture(store: Store) -> None:
    rng = random.Random(3)
    people = list(range(2001, 2016))
    names = {uid: f"名{uid - 2000}" if uid % 2 else f"𝓟𝓵𝓪𝔂𝓮𝓻{uid}" for uid in people}
    for uid, name in names.items():
        await store.players.upsert(uid, display_name=name)
    start = datetime(2026, 11, 1, tzinfo=UTC)
    for no in range(40):
        seated = rng.sample(people, 4)
        pts = rng.randrange(1, 20)
        await store.hands.record(
            HandInput(
                guild_id=GUILD,
                variant="shangrao",
                hand_no=no + 1,
                players=[
                    HandPlayer(s, u, pts * 3 if s == 0 else -pts) for s, u in enumerate(seated)
                ],
                how="self",
                winners=[0],
                points=pts,
                source="record",
                created_at=start + timedelta(minutes=no),
            )
        )
    service = StatsService(store, page_size=5)
    asker = people[-1]
    shown = await service.leaderboard(GUILD, BoardQuery(), page=1, user_id=asker, user_name="me")
    view = board_picture(shown)
    assert [(r.rank, r.name) for r in view.rows] == [
        (e.rank, e.display_name) for e in shown.board.entries
    ]
    assert [r.rank for r in view.rows] == list(range(6, 11))
    on_page = asker in [e.user_id for e in shown.board.entries]
    assert (view.own is None) == on_page
    img = Image.open(io.BytesIO(board_png(shown)))
    assert img.format == "PNG" and img.size == (640, layout(view).height)


def test_a_board_page_without_asker_fields_still_draws() -> None:
    """``BoardPage`` built the old way (five fields) gets the defaults."""
    board = Leaderboard(GUILD, None, "all", "points", None, None, 1, 0, ranked(1, start=1), None)
    shown = BoardPage(Card("t"), board, BoardQuery(), 0, 1)
    view = board_picture(shown)
    assert view.own is None and view.rows[0].rank == 1
