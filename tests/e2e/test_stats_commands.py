"""End-to-end: /mahjong leaderboard, stats, history and season through the fake Discord.

The bot's SQLite database is filled with recorded hands (through the store) before the bot
starts; the answers are then checked against what was recorded: order, the asker's own
position, paging (also after a restart), the leaderboard picture redrawn for each page and
left out for a player who chose text only, AI seats never listed, history pages and the
game picker, seasons. Every wait is on a condition (``wait_for``, ``wait_reply``).
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

import pytest
from PIL import Image

from botcore.client import DEFAULT_EXTENSIONS
from db.store import Store
from db.types import HandInput, HandPlayer

from .conftest import BotFactory
from .fake_discord import FakeDiscord
from .fake_discord.state import FakeMessage
from .harness import BotProcess

pytestmark = pytest.mark.e2e

AI_ID = 2  # the game service's id for an AI seat (seat + 1), flagged is_ai
EXTRAS = {900_001 + k: f"Extra{k + 1:02d}" for k in range(14)}
LINE_RX = re.compile(r"`\s*(\d+)\.` (.+?) — \*\*([+−]?\d+) 分\*\*")
START = datetime.now(UTC) - timedelta(days=2)


@dataclass
class Seeded:
    """What went into the bot's database, to compute the expected answers."""

    names: dict[int, str]
    points: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    hands: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    game_id: int = 0
    seed: str = ""
    wall: list[int] = field(default_factory=list)

    def ranking(self) -> list[tuple[str, int]]:
        order = sorted(self.points.items(), key=lambda kv: -kv[1])
        return [(self.names[uid], pts) for uid, pts in order]


def _extensions() -> dict[str, str] | None:
    """Load the stats cog as an extra extension until it is in the default list."""
    return (
        None
        if "cogs.stats.commands" in DEFAULT_EXTENSIONS
        else {"EXTRA_EXTENSIONS": "cogs.stats.commands"}
    )


async def _record(store: Store, seeded: Seeded, hand: HandInput) -> None:
    await store.hands.record(hand)
    for p in hand.players:
        if not p.is_ai:
            seeded.points[p.user_id] += p.delta
            seeded.hands[p.user_id] += 1


def _win(no: int, seats: list[tuple[int, int, bool]], how: str, winner: int, **kw) -> HandInput:
    """seats: (user id, delta, is_ai) per seat."""
    return HandInput(
        guild_id=kw.pop("guild_id"),
        variant=kw.pop("variant", "shangrao"),
        hand_no=no,
        players=[HandPlayer(s, uid, d, ai) for s, (uid, d, ai) in enumerate(seats)],
        how=how,  # type: ignore[arg-type]
        winners=[winner],
        created_at=kw.pop("created_at", START + timedelta(minutes=no)),
        **kw,
    )


async def seed(fake: FakeDiscord, bot: BotProcess) -> Seeded:
    """18 people (the four fake users and 14 more), an AI seat that wins big, and one
    online game of alice, bob, carol and an AI with two hands and their seeds."""
    alice, bob, carol, dave = (fake.user(n) for n in ("alice", "bob", "carol", "dave"))
    people = {u.id: u.name for u in (alice, bob, carol, dave)}
    seeded = Seeded(names={**people, **EXTRAS})
    store = await Store.open(bot.database_url)
    try:
        gid = fake.guild_id
        for uid, name in seeded.names.items():
            await store.players.upsert(uid, display_name=name)
        no = 0
        for k, uid in enumerate(EXTRAS):  # each extra wins 5(k+1) off alice
            no += 1
            pts = 5 * (k + 1)
            seats = [
                (uid, pts, False),
                (alice.id, -pts, False),
                (carol.id, 0, False),
                (dave.id, 0, False),
            ]
            await _record(store, seeded, _win(no, seats, "discard", 0, guild_id=gid, discarder=1, points=pts, source="record"))  # fmt: skip
        seats = [
            (AI_ID, 1000, True),
            (dave.id, -1000, False),
            (carol.id, 0, False),
            (bob.id, 0, False),
        ]
        await _record(store, seeded, _win(no + 1, seats, "discard", 0, guild_id=gid, discarder=1, points=1000, source="record"))  # fmt: skip
        seats = [
            (bob.id, 33, False),
            (carol.id, -33, False),
            (alice.id, 0, False),
            (dave.id, 0, False),
        ]
        await _record(store, seeded, _win(no + 2, seats, "discard", 0, guild_id=gid, discarder=1, points=33, source="record", variant="xinyu"))  # fmt: skip
        game = await store.games.create(
            gid,
            fake.channel.id,
            "shangrao",
            seats=[
                {"name": "alice", "user_id": alice.id, "ai": False},
                {"name": "bob", "user_id": bob.id, "ai": False},
                {"name": "carol", "user_id": carol.id, "ai": False},
                {"name": "电脑", "user_id": None, "ai": True},
            ],
            status="finished",
        )
        seeded.game_id = game.id
        for hand_no in range(1, 6):  # alice wins the odd hands, bob the even ones
            seed_text = hashlib.sha256(f"e2e-{hand_no}".encode()).hexdigest()
            wall = [(i * 7 + hand_no) % 136 for i in range(136)]
            if hand_no == 1:
                seeded.seed, seeded.wall = seed_text, wall
            odd = hand_no % 2 == 1
            seats = [
                (alice.id, 6 if odd else -2, False),
                (bob.id, -2 if odd else 6, False),
                (carol.id, -2, False),
                (4, -2, True),
            ]
            await _record(
                store,
                seeded,
                _win(
                    hand_no,
                    seats,
                    "self",
                    0 if odd else 1,
                    guild_id=gid,
                    points=2,
                    items=[{"name": "自摸", "en": "Self-drawn", "value": 2}],
                    seed_reveal={
                        "seed": seed_text,
                        "wall": [t >> 2 for t in wall],
                        "wall_ids": wall,
                    },
                    game_id=game.id,
                    source="online",
                    created_at=datetime.now(UTC),
                ),
            )
    finally:
        await store.close()
    return seeded


@pytest.fixture
async def seeded_bot(fake: FakeDiscord, bot_factory: BotFactory) -> tuple[BotProcess, Seeded]:
    proc = bot_factory(env=_extensions())
    seeded = await seed(fake, proc)
    await proc.start_ready()
    return proc, seeded


def board_lines(msg: FakeMessage) -> list[tuple[int, str, int]]:
    """(rank, name, points) of each leaderboard line of the message's embed."""
    description = msg.embeds[0].get("description", "")
    out = []
    for m in LINE_RX.finditer(description):
        out.append((int(m[1]), m[2], int(m[3].replace("−", "-").replace("+", ""))))
    return out


def picture(msg: FakeMessage, filename: str = "leaderboard.png") -> Image.Image | None:
    """The message's picture (attached and shown in its embed), decoded; None if absent."""
    files = [a for a in msg.attachments if a.filename == filename]
    if not files:
        assert "image" not in msg.embeds[0]  # no dangling attachment:// link
        return None
    [file] = files
    assert msg.embeds[0]["image"]["url"] == f"attachment://{filename}"
    img = Image.open(io.BytesIO(file.data))
    img.load()
    assert img.format == "PNG" and img.width == 640
    return img


def select_values(msg: FakeMessage) -> list[str]:
    """The values offered by the history select menu of ``msg``."""
    return [o["value"] for o in msg.find_component(prefix="mj:hs:").get("options", [])]


def own_field(msg: FakeMessage) -> str | None:
    for f in msg.embeds[0].get("fields", []):
        if f["name"].startswith("你的名次"):
            return f["value"]
    return None


async def test_leaderboard_order_own_position_paging_and_restart(
    fake: FakeDiscord, seeded_bot: tuple[BotProcess, Seeded]
) -> None:
    proc, seeded = seeded_bot
    alice, bob = fake.user("alice"), fake.user("bob")
    expected = seeded.ranking()
    assert len(expected) == 18  # humans only

    ix = await fake.slash(alice, "mahjong leaderboard")
    board = await ix.wait_reply()
    assert not board.ephemeral  # the server's ranking is public
    lines = board_lines(board)
    assert [(name, pts) for _, name, pts in lines] == expected[:10]
    assert [rank for rank, _, _ in lines] == list(range(1, 11))
    assert all(pts < 1000 for _, _, pts in lines)  # the AI's big win is not listed
    alice_rank = [name for name, _ in expected].index("alice") + 1
    assert alice_rank > 10
    mine = own_field(board)
    assert mine is not None and f"{alice_rank}." in mine and "alice" in mine
    assert "1/2" in board.embeds[0]["footer"]["text"]
    first = picture(board)  # the page as a picture too; the text stays in the embed
    assert first is not None
    [attachment] = board.attachments
    assert attachment.description and attachment.description.startswith("排行榜")  # alt text

    next_id = next(c for c in board.custom_ids() if c.endswith(":1"))
    press = await fake.click(alice, board, next_id)
    await press.wait_ack()
    await fake.wait_for(lambda: "2/2" in board.text(), what="page 2")
    page2 = board_lines(board)
    assert [(name, pts) for _, name, pts in page2] == expected[10:]
    assert own_field(board) is None  # alice is on this page, marked in the list
    assert any(
        "alice" in line and "◀ 你" in line for line in board.embeds[0]["description"].splitlines()
    )
    second = picture(board)  # redrawn: eight rows and no own line is a shorter picture
    assert second is not None and second.height < first.height

    await proc.restart()  # the buttons are DynamicItems: they still work
    prev_id = next(c for c in board.custom_ids() if c.endswith(":0"))
    press = await fake.click(bob, board, prev_id)
    await press.wait_ack()
    await fake.wait_for(lambda: "1/2" in board.text(), what="page 1 again")
    assert [(name, pts) for _, name, pts in board_lines(board)] == expected[:10]
    bob_line = next(line for line in board.embeds[0]["description"].splitlines() if "bob" in line)
    assert "◀ 你" in bob_line  # the presser's own position
    again = picture(board)  # bob is on page 1: ten rows, no own line
    assert again is not None and second.height < again.height < first.height

    me_id = next(c for c in board.custom_ids() if c.endswith(":me"))
    press = await fake.click(alice, board, me_id)
    await press.wait_ack()
    await fake.wait_for(lambda: "2/2" in board.text(), what="alice's page")


async def test_text_only_players_get_no_picture_and_pages_keep_their_form(
    fake: FakeDiscord, seeded_bot: tuple[BotProcess, Seeded]
) -> None:
    _, seeded = seeded_bot
    alice, dave = fake.user("alice"), fake.user("dave")
    off = await fake.slash(dave, "mahjong pictures", {"on": False})
    await off.wait_ack()

    text_board = await (await fake.slash(dave, "mahjong leaderboard")).wait_reply()
    assert picture(text_board) is None and text_board.attachments == []
    assert [(n, p) for _, n, p in board_lines(text_board)] == seeded.ranking()[:10]
    stats = await (await fake.slash(dave, "mahjong stats")).wait_reply()
    assert stats.attachments == [] and "image" not in stats.embeds[0]
    assert "等级分走势" not in stats.text()  # the card does not point at a missing chart

    picture_board = await (await fake.slash(alice, "mahjong leaderboard")).wait_reply()
    assert picture(picture_board) is not None
    # dave pages alice's picture board: it stays a picture; alice pages dave's: it stays text
    press = await fake.click(dave, picture_board, next(
        c for c in picture_board.custom_ids() if c.endswith(":1")
    ))  # fmt: skip
    await press.wait_ack()
    await fake.wait_for(lambda: "2/2" in picture_board.text(), what="page 2 of the picture")
    assert picture(picture_board) is not None
    press = await fake.click(alice, text_board, next(
        c for c in text_board.custom_ids() if c.endswith(":1")
    ))  # fmt: skip
    await press.wait_ack()
    await fake.wait_for(lambda: "2/2" in text_board.text(), what="page 2 as text")
    assert picture(text_board) is None

    on = await fake.slash(dave, "mahjong pictures", {"on": True})
    await on.wait_ack()
    board = await (await fake.slash(dave, "mahjong leaderboard")).wait_reply()
    assert picture(board) is not None


async def test_pictures_switched_off_for_the_bot(
    fake: FakeDiscord, bot_factory: BotFactory
) -> None:
    """``MAHJONG_PICTURES=false``: text only, for everyone, on every page."""
    proc = bot_factory(env={**(_extensions() or {}), "MAHJONG_PICTURES": "false"})
    seeded = await seed(fake, proc)
    await proc.start_ready()
    alice = fake.user("alice")
    board = await (await fake.slash(alice, "mahjong leaderboard")).wait_reply()
    assert picture(board) is None and board.attachments == []
    assert [(n, p) for _, n, p in board_lines(board)] == seeded.ranking()[:10]
    stats = await (await fake.slash(alice, "mahjong stats")).wait_reply()
    assert stats.attachments == [] and stats.embeds[0]["title"].startswith("alice")


async def test_win_rate_board_and_rating_board_exclude_ai(
    fake: FakeDiscord, seeded_bot: tuple[BotProcess, Seeded]
) -> None:
    _, seeded = seeded_bot
    bob = fake.user("bob")
    ix = await fake.slash(bob, "mahjong leaderboard", {"by": "winrate"})
    board = await ix.wait_reply()
    text = board.embeds[0]["description"]
    qualified = {seeded.names[uid] for uid, n in seeded.hands.items() if n >= 10}
    assert qualified and all(name in text for name in qualified)
    assert "Extra01" not in text  # one hand only
    mine = own_field(board)
    assert mine is not None and f"还差 {10 - seeded.hands[bob.id]} 局" in mine

    ix = await fake.slash(bob, "mahjong leaderboard", {"by": "rating"})
    board = await ix.wait_reply()
    assert "电脑" not in board.text() and "AI" not in board.embeds[0]["description"]
    ratings = [
        float(x) for x in re.findall(r"\*\*等级分 (-?\d+\.\d)\*\*", board.embeds[0]["description"])
    ]
    assert len(ratings) == 10 and ratings == sorted(ratings, reverse=True)


async def test_stats_with_rating_chart(
    fake: FakeDiscord, seeded_bot: tuple[BotProcess, Seeded]
) -> None:
    _, seeded = seeded_bot
    bob, carol = fake.user("bob"), fake.user("carol")
    carol.locale = "zh-CN"
    ix = await fake.slash(carol, "mahjong stats", {"user": bob})
    reply = await ix.wait_reply()
    embed = reply.embeds[0]
    assert embed["title"].startswith("bob 的战绩")
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["局数"] == str(seeded.hands[bob.id])
    assert fields["总积分"] == f"+{seeded.points[bob.id]}"
    assert "33 分" in fields["最大一手"]
    [picture] = reply.attachments
    assert picture.filename == "rating.png" and embed["image"]["url"] == "attachment://rating.png"
    img = Image.open(io.BytesIO(picture.data))
    assert img.format == "PNG" and img.size == (640, 280)


async def test_history_pick_a_game_shows_its_hands_privately(
    fake: FakeDiscord, seeded_bot: tuple[BotProcess, Seeded]
) -> None:
    _, seeded = seeded_bot
    alice, dave = fake.user("alice"), fake.user("dave")
    ix = await fake.slash(dave, "mahjong history")
    listing = await ix.wait_reply()
    text = listing.embeds[0]["description"]
    assert f"#{seeded.game_id}" in text and "alice +14" in text and "bob +6" in text
    assert "carol −10" in text and "5 局" in text
    [records] = [f for f in listing.embeds[0]["fields"] if f["name"].startswith("实体牌局记录")]
    assert "bob +33 · carol −33" in records["value"]  # the latest hand played with tiles
    [select] = [c for c in listing.custom_ids() if c.startswith("mj:hs:")]
    press = await fake.click(alice, listing, select, values=[str(seeded.game_id)])
    detail = await press.wait_reply()
    assert detail.ephemeral and detail.visible_to is alice
    shown = detail.text()
    assert "第 1 局" in shown and "第 4 局" in shown and "第 5 局" not in shown
    assert "胡牌：alice" in shown and "胡牌：bob" in shown and "自摸 ×2" in shown
    assert "alice +6" in shown and "bob −2" in shown
    digest = hashlib.sha256(f"{seeded.seed}:{','.join(map(str, seeded.wall))}".encode()).hexdigest()
    assert seeded.seed in shown and digest in shown

    next_id = next(c for c in detail.custom_ids() if c == f"mj:gh:{seeded.game_id}:1")
    press = await fake.click(alice, detail, next_id)
    await press.wait_ack()
    await fake.wait_for(lambda: "第 5 局" in detail.text(), what="the second page of hands")
    assert "第 1 局" not in detail.text()
    assert not any(c.startswith("mj:hp:") for c in listing.custom_ids())  # one page only


async def _more_games(proc: BotProcess, fake: FakeDiscord, count: int) -> list[int]:
    """``count`` more finished games of bob and carol (one hand each); returns every game
    of the server, latest first, as the store orders them."""
    bob, carol = fake.user("bob"), fake.user("carol")
    store = await Store.open(proc.database_url)
    try:
        for k in range(count):
            seats = [
                {"name": "bob", "user_id": bob.id, "ai": False},
                {"name": "carol", "user_id": carol.id, "ai": False},
            ]
            game = await store.games.create(
                fake.guild_id, fake.channel.id, "jiujiang", seats=seats, status="finished"
            )
            players = [(bob.id, k + 1, False), (carol.id, -(k + 1), False)]
            hand = _win(1, players, "discard", 0, guild_id=fake.guild_id, discarder=1)
            await store.hands.record(
                replace(hand, variant="jiujiang", game_id=game.id, points=k + 1)
            )
        games = await store.stats.recent_games(fake.guild_id, limit=100)
    finally:
        await store.close()
    return [g.game.id for g in games]


async def test_history_pages_survive_a_restart_and_the_select_follows_the_page(
    fake: FakeDiscord, bot_factory: BotFactory
) -> None:
    proc = bot_factory(env=_extensions())
    seeded = await seed(fake, proc)
    latest_first = await _more_games(proc, fake, 12)
    assert len(latest_first) == 13 and seeded.game_id in latest_first
    await proc.start_ready()
    alice, dave = fake.user("alice"), fake.user("dave")

    listing = await (await fake.slash(dave, "mahjong history")).wait_reply()
    assert select_values(listing) == [str(i) for i in latest_first[:10]]
    assert "第 1 页" in listing.embeds[0]["footer"]["text"]
    prev_id, next_id = "mj:hp:0:0", "mj:hp:0:1"
    assert listing.find_component(custom_id=prev_id).get("disabled")
    assert not listing.find_component(custom_id=next_id).get("disabled")

    await (await fake.click(alice, listing, next_id)).wait_ack()
    await fake.wait_for(lambda: "第 2 页" in listing.text(), what="history page 2")
    assert select_values(listing) == [str(i) for i in latest_first[10:]]
    description = listing.embeds[0]["description"]
    assert all(f"**#{i}**" in description for i in latest_first[10:])
    assert not any(f"**#{i}**" in description for i in latest_first[:10])
    assert not any(
        f["name"].startswith("实体牌局记录") for f in listing.embeds[0].get("fields", [])
    )
    assert listing.find_component(custom_id="mj:hp:0:2").get("disabled")  # the last page

    older = latest_first[-1]  # a game picked from page 2
    detail = await (await fake.click(alice, listing, values=[str(older)], custom_id="mj:hs:0")).wait_reply()  # fmt: skip
    assert detail.ephemeral and f"对局 #{older} ·" in detail.embeds[0]["title"]

    await proc.restart()  # the page buttons are DynamicItems: they still work
    await (await fake.click(dave, listing, "mj:hp:0:0")).wait_ack()
    await fake.wait_for(lambda: "第 1 页" in listing.text(), what="history page 1 again")
    assert select_values(listing) == [str(i) for i in latest_first[:10]]

    bob = fake.user("bob")  # one player's games page the same way, under their name
    mine = await (await fake.slash(alice, "mahjong history", {"user": bob})).wait_reply()
    assert mine.embeds[0]["title"].endswith("bob")
    bob_next = f"mj:hp:{bob.id}:1"
    await (await fake.click(alice, mine, bob_next)).wait_ack()
    await fake.wait_for(lambda: "第 2 页" in mine.text(), what="bob's page 2")
    assert mine.embeds[0]["title"].endswith("bob") and select_values(mine)


async def test_new_season_needs_manage_server_and_old_seasons_stay(
    fake: FakeDiscord, seeded_bot: tuple[BotProcess, Seeded]
) -> None:
    _, seeded = seeded_bot
    owner, bob = fake.owner, fake.user("bob")
    refused = await (await fake.slash(bob, "mahjong-admin season", force=True)).wait_reply()
    assert refused.ephemeral and "Manage Server" in refused.text()

    started = await (await fake.slash(owner, "mahjong-admin season")).wait_reply()
    assert "第 2 赛季" in started.text()

    empty = await (await fake.slash(bob, "mahjong leaderboard", {"period": "season"})).wait_reply()
    assert board_lines(empty) == [] and "第2赛季" in empty.embeds[0]["title"]
    old = await (
        await fake.slash(bob, "mahjong leaderboard", {"period": "season", "season": 1})
    ).wait_reply()
    assert [(n, p) for _, n, p in board_lines(old)] == seeded.ranking()[:10]
    listing = await (await fake.slash(bob, "mahjong season list")).wait_reply()
    assert "第 2 赛季" in listing.text() and "（当前）" in listing.text()


async def test_a_played_hand_reaches_leaderboard_stats_and_history(
    fake: FakeDiscord, bot_factory: BotFactory
) -> None:
    """One human and three AI seats play a real hand; the answers show what was recorded."""
    from .game_driver import game_env, hand_message, open_game, play_hand

    env = game_env()
    if "cogs.stats.commands" not in DEFAULT_EXTENSIONS:
        env["EXTRA_EXTENSIONS"] = ",".join(
            filter(None, [env.get("EXTRA_EXTENSIONS"), "cogs.stats.commands"])
        )
    proc = bot_factory(env=env)
    await proc.start_ready()
    alice, bob = fake.user("alice"), fake.user("bob")
    gid, _ = await open_game(fake, alice, [], variant="xinyu")
    await fake.wait_for(lambda: hand_message(fake, alice, gid), 10, what="alice's hand DM")
    await play_hand(fake, [alice], gid)

    store = await Store.open(proc.database_url)
    try:

        async def recorded() -> list:
            return await store.hands.of_game(gid)

        hands: list = []
        deadline = asyncio.get_running_loop().time() + fake.scaled(30)
        while not hands:  # recorded in the hand's last transaction: usually already there
            hands = await recorded()
            if not hands:
                assert asyncio.get_running_loop().time() < deadline, "the hand was not recorded"
                await asyncio.sleep(0.05)
        game = await store.games.get(gid)
    finally:
        await store.close()
    [hand] = hands
    alice_delta = next(d["delta"] for d in hand.deltas if d["user_id"] == alice.id)
    assert sum(1 for d in hand.deltas if d["is_ai"]) == 3

    board = await (await fake.slash(bob, "mahjong leaderboard")).wait_reply()
    assert [(n, p) for _, n, p in board_lines(board)] == [("alice", alice_delta)]
    assert "bob" in (own_field(board) or "")  # no hands yet: said so, not ranked
    assert "🤖" not in board.text() and "电脑" not in board.text()

    stats = await (await fake.slash(alice, "mahjong stats")).wait_reply()
    fields = {f["name"]: f["value"] for f in stats.embeds[0]["fields"]}
    assert next(v for k, v in fields.items() if k.startswith("局数")) == "1"

    listing = await (await fake.slash(alice, "mahjong history")).wait_reply()
    assert f"#{gid}" in listing.embeds[0]["description"]
    [select] = [c for c in listing.custom_ids() if c.startswith("mj:hs:")]
    detail = await (await fake.click(alice, listing, select, values=[str(gid)])).wait_reply()
    reveal = hand.seed_reveal
    assert reveal and reveal["seed"] in detail.text()
    wall = reveal.get("wall_ids") or reveal["wall"]
    digest = hashlib.sha256(f"{reveal['seed']}:{','.join(map(str, wall))}".encode()).hexdigest()
    assert digest in detail.text()
    assert game is not None and game.seed_commitment == digest  # what was published
    assert reveal["commitment"] == digest  # kept with the hand, as published: shown, checked
    assert "✅" in detail.text()
