"""End-to-end: the leaderboard picture shows names, not ids (issue 12, item 8).

Players known only from records — hands played with real tiles, recorded before the bot kept
names, by people who never used a command themselves — used to be drawn as ``#<id>``. The
bot now keeps the names a record names when it is made, and looks up (server member, else
user) and keeps the name of any ranked player it has none for when it draws the board.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from botcore.client import DEFAULT_EXTENSIONS
from db.store import Store
from db.types import HandInput, HandPlayer
from services.stats import BoardQuery, StatsService
from services.stats_picture import board_picture, board_png

from .fake_discord import FakeDiscord, FakeUser
from .harness import BotProcess

pytestmark = pytest.mark.e2e

EXTENSIONS = ",".join(
    ext for ext in ("cogs.stats.commands", "cogs.desk.commands") if ext not in DEFAULT_EXTENSIONS
)
ENV = {"EXTRA_EXTENSIONS": EXTENSIONS} if EXTENSIONS else None


def _names(proc: BotProcess) -> dict[int, str | None]:
    return dict(proc.rows("SELECT user_id, display_name FROM players"))


async def test_leaderboard_picture_names_players_known_only_from_records(
    fake: FakeDiscord, bot_factory: Any
) -> None:
    proc = bot_factory(env=ENV)
    alice, bob, carol, dave = (fake.user(n) for n in ("alice", "bob", "carol", "dave"))
    store = await Store.open(proc.database_url)
    try:  # three table records, from before names were kept: no player has a name
        start = datetime.now(UTC) - timedelta(days=1)
        for no, (winner, pts) in enumerate(((bob, 9), (carol, 6), (dave, 3)), 1):
            losers = [u for u in (alice, bob, carol, dave) if u is not winner]
            players = [HandPlayer(0, winner.id, pts)] + [
                HandPlayer(i, u.id, -pts // 3) for i, u in enumerate(losers, 1)
            ]
            await store.hands.record(
                HandInput(
                    guild_id=fake.guild_id,
                    variant="xinyu",
                    hand_no=no,
                    players=players,
                    how="self",
                    winners=[0],
                    points=pts,
                    source="record",
                    created_at=start + timedelta(minutes=no),
                )
            )
    finally:
        await store.close()
    await proc.start_ready()
    assert _names(proc) == {}

    board = await (await fake.slash(alice, "mahjong leaderboard")).wait_reply()
    [png] = [a for a in board.attachments if a.filename == "leaderboard.png"]
    # the names were found (member look-ups) and kept
    assert _names(proc) == {u.id: u.name for u in (alice, bob, carol, dave)}
    for user in (bob, carol, dave):
        assert user.name in board.embeds[0]["description"]
        assert str(user.id) not in board.embeds[0]["description"]
    assert fake.calls_to("GET", rf"^/guilds/{fake.guild_id}/members/{bob.id}$")

    # the picture drawn is the one of the page with those names: same bytes
    store = await Store.open(proc.database_url, migrate=False)
    try:
        page = await StatsService(store).leaderboard(
            fake.guild_id, BoardQuery(), user_id=alice.id, user_name="alice", lang="zh+en"
        )
    finally:
        await store.close()
    picture = board_picture(page)
    shown = [row.name for row in picture.rows]
    assert shown == ["bob", "carol", "dave", "alice"], shown
    assert not any(name.startswith("#") for name in shown)
    assert board_png(page) == png.data

    # asked again, nobody is looked up twice
    calls = len(fake.calls_to("GET", r"^/guilds/\d+/members/\d+$"))
    again = await (await fake.slash(bob, "mahjong leaderboard")).wait_reply()
    assert again.attachments
    assert len(fake.calls_to("GET", r"^/guilds/\d+/members/\d+$")) == calls


async def test_a_record_keeps_the_names_it_names(fake: FakeDiscord, bot_factory: Any) -> None:
    proc = bot_factory(env=ENV)
    await proc.start_ready()
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    eve = FakeUser(id=fake.bot_user.id + 77, name="eve")
    fake.users.append(eve)  # a member who never used the bot
    ix = await fake.slash(
        alice,
        "mahjong record",
        {
            "player1": alice, "player2": bob, "player3": carol, "player4": eve,
            "winner": eve, "how": "discard", "discarder": bob, "points": 5,
            "variant": "xinyu",
        },
    )  # fmt: skip
    await ix.wait_reply()
    names = _names(proc)
    assert {uid: names.get(uid) for uid in (alice.id, bob.id, carol.id, eve.id)} == {
        alice.id: "alice",
        bob.id: "bob",
        carol.id: "carol",
        eve.id: "eve",
    }
