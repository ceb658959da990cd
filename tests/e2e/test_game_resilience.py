"""End-to-end: a player whose DMs are closed is never left without a way to see their hand,
and is told when it is their turn.

Discord lets the bot edit an ephemeral reply for 15 minutes; the bot process here is told
that it lives a few seconds (``EPHEMERAL_LIFETIME_SECONDS``) so the lapse can be shown. Edits
never notify, so each of their turns brings one mention in the game's thread (never a claim:
that would tell the table who may claim a discard).
"""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from cogs.game.text import t
from db.store import Store
from services.gamelog import LiveGame, replay
from services.real_engine import RealEngine

from .fake_discord import FakeDiscord, FakeMessage, FakeUser
from .game_driver import (
    check_privacy,
    click_ok,
    hand_message,
    open_game,
    parse_id,
    start_bot,
    table_message,
)
from .test_game_discord import decisions

pytestmark = pytest.mark.e2e

#: how long the bot under test believes an ephemeral reply stays editable
LIFETIME = 6.0
#: seconds a claim window waits for Bob: while he does not play (he has no hand open), a
#: discard he could claim passes on its own, quietly (the deal decides whether one comes)
CLAIM_WINDOW = "3"
ENGINE = RealEngine()
WEBHOOK_EDIT = r"webhooks/\d+/(?P<token>[^/]+)/messages/@original$"


async def game_now(store: Store, gid: int) -> tuple[str, tuple[int, ...], int, int]:
    """``(phase, seats of humans whose decision is awaited, hand no, version)`` from the
    bot's database (the action log is committed before the bot answers)."""
    loaded = await store.games.load(gid)
    live = LiveGame.from_info(loaded.game)
    replay(ENGINE, live, loaded)
    if live.state is None:
        return "lobby", (), 0, live.version
    phase = ENGINE.phase(live.state)
    waiting = tuple(s for s in ENGINE.pending_seats(live.state) if not live.seats[s].robot)
    return phase, waiting if phase in ("turn", "claim") else (), live.hand_no, live.version


def is_ping(msg: FakeMessage, user: FakeUser) -> bool:
    """The "your turn" alert for ``user`` (``alert_turn_public``) in any public language."""
    heads = {
        t("game.alert_turn_public", lang, mention=user.mention, hand="", deadline="").split(" · ")[
            0
        ]
        for lang in ("zh", "en", "zh+en")
    }
    return any(msg.content.startswith(head) for head in heads) and "🀄" in msg.content


def pings(fake: FakeDiscord, user: FakeUser) -> list[FakeMessage]:
    """Every turn alert for ``user`` in the game's thread (taken away ones too)."""
    return [m for m in fake.guild_messages(include_deleted=True) if is_ping(m, user)]


def no_win(msg: FakeMessage) -> str | None:
    """A player who never ends the hand: pass claims, else discard the drawn tile (blue),
    else the first discard."""
    buttons = [b for b in msg.buttons() if not b.get("disabled")]
    kinds = {b["custom_id"]: parse_id(b["custom_id"])[1] for b in buttons}
    for cid, kind in kinds.items():
        if kind == "pass":
            return cid
    discards = [b for b in buttons if kinds[b["custom_id"]] == "discard"]
    for b in discards:
        if b.get("style") == 1:
            return b["custom_id"]
    return discards[0]["custom_id"] if discards else None


class Players:
    """Alice (DMs open, seat 0) and Bob (DMs closed, seat 1) at one table with two AIs."""

    def __init__(self, fake: FakeDiscord, store: Store, gid: int) -> None:
        self.fake = fake
        self.store = store
        self.gid = gid
        self.alice = fake.user("alice")
        self.bob = fake.user("bob")
        self.pressed: set[str] = set()
        self.bob_tokens: set[str] = set()  # tokens of Bob's presses on his ephemeral hand

    async def press(self, user: FakeUser, msg: FakeMessage | None) -> bool:
        """Press :func:`no_win` on the newest version of ``msg`` once per version."""
        if msg is None:
            return False
        current = self.fake.messages[msg.id]
        cid = no_win(current)
        if cid is None:
            return False
        stamp = f"{current.id}:{len(current.history)}:{cid}"
        if stamp in self.pressed:
            return False
        self.pressed.add(stamp)
        ix = await click_ok(self.fake, user, current, cid)
        if current.ephemeral:
            self.bob_tokens.add(ix.token)
        return True

    async def next_hand_if_over(self, phase: str, hand_no: int) -> None:
        if phase != "hand_over":
            return
        cid = f"mj:{self.gid}:next:{hand_no}"
        stamp = f"next:{hand_no}"
        table = table_message(self.fake, self.gid)
        if table is not None and stamp not in self.pressed and cid in table.custom_ids():
            self.pressed.add(stamp)
            await click_ok(self.fake, self.alice, table, cid)

    async def drive(self, done, *, bob_plays: bool, what: str, timeout: float = 60) -> None:
        """Play (Alice always, Bob from his ephemeral reply when ``bob_plays``; Next hand
        when a hand ends) until ``await done(phase, waiting)`` is true."""
        loop = asyncio.get_running_loop()
        end = loop.time() + self.fake.scaled(timeout)
        while True:
            phase, waiting, hand_no, _version = await game_now(self.store, self.gid)
            if await done(phase, waiting):
                return
            assert loop.time() < end, f"timed out waiting for {what}"
            acted = await self.next_hand_if_over(phase, hand_no) or False
            if 0 in waiting:
                acted = await self.press(self.alice, hand_message(self.fake, self.alice, self.gid))
            if 1 in waiting and bob_plays:
                mine = hand_message(self.fake, self.bob, self.gid, ephemeral=True)
                acted = await self.press(self.bob, mine) or acted
            if not acted:
                await asyncio.sleep(0.05)

    async def open_hand_from_table(self) -> FakeMessage:
        """Bob presses 🀄 My hand on the table message: his hand, ephemeral."""
        table = table_message(self.fake, self.gid)
        assert table is not None
        button = next(b for b in table.buttons() if b["custom_id"] == f"mj:{self.gid}:hand")
        assert "🀄" in button["label"]
        ix = await click_ok(self.fake, self.bob, table, button["custom_id"])
        reply = await ix.wait_reply()
        assert reply.ephemeral and reply.visible_to is self.bob
        assert "手牌" in reply.text() or "Tiles" in reply.text()
        return reply

    def reply_edits(self) -> list[str]:
        """Tokens of the bot's edits of Bob's ephemeral replies (made with the token of one
        of his interactions); Alice's pressed DM gets its picture by an ``@original`` edit
        too, and is not his reply."""
        mine = {ix.token for ix in self.fake.interactions.values() if ix.user is self.bob}
        out = []
        for call in self.fake.calls_to("PATCH", WEBHOOK_EDIT):
            m = re.search(WEBHOOK_EDIT, call.path)
            if m and m.group("token") in mine:
                out.append(m.group("token"))
        return out

    def renewed_edits(self) -> list[str]:
        """Tokens of the bot's edits of an ephemeral reply made with one of Bob's presses."""
        out = []
        for call in self.fake.calls_to("PATCH", WEBHOOK_EDIT):
            m = re.search(WEBHOOK_EDIT, call.path)
            if m and m.group("token") in self.bob_tokens:
                out.append(m.group("token"))
        return out


async def test_closed_dms_get_one_mention_per_turn(fake: FakeDiscord, bot_factory) -> None:
    proc = await start_bot(
        bot_factory, EPHEMERAL_LIFETIME_SECONDS=str(LIFETIME), CLAIM_TIMEOUT_SECONDS=CLAIM_WINDOW
    )
    alice, bob = fake.user("alice"), fake.user("bob")
    fake.close_dms(bob)
    # 新余: seat 0 (Alice) deals, so Bob is not asked before Alice's first discard
    gid, _lobby = await open_game(fake, alice, [bob], variant="xinyu")
    store = await Store.open(proc.database_url, migrate=False)
    try:
        await closed_dm_story(fake, Players(fake, store, gid))
    finally:
        await store.close()
    # every turn of Bob's brought exactly one mention (taken away once he acted), also a
    # turn right after a claim window he let go (one decision, whose claim part could not
    # be mentioned); no claim brought any, and nothing else mentioned him but the notice
    turns = [e for e in decisions(proc, gid)[1] if "turn" in e["phases"]]
    assert len(pings(fake, bob)) == len(turns) >= 2
    mentions = fake.notifications.of(bob)
    assert len(mentions) == len(turns) + 1 and all(n.kind == "mention" for n in mentions)
    check_privacy(fake)


async def closed_dm_story(fake: FakeDiscord, players: Players) -> None:
    bob, gid = players.bob, players.gid
    await fake.wait_for_message(
        lambda m: bob.mention in m.content and "/mahjong hand" in m.content, timeout=10
    )
    assert fake.dms(bob) == []
    await fake.wait_for(
        lambda: (
            (table := table_message(fake, gid)) is not None
            and f"mj:{gid}:hand" in table.custom_ids()
        ),
        10,
        what="the table's My hand button",
    )

    # 1. Bob never opened his hand: on his turn, one short mention in the game's thread
    async def bob_turn(phase: str, waiting: tuple[int, ...]) -> bool:
        return phase == "turn" and 1 in waiting

    await players.drive(bob_turn, bob_plays=False, what="Bob's turn")
    await fake.wait_for(lambda: pings(fake, bob), 10, what="the alert for Bob")
    [ping] = pings(fake, bob)
    assert "1m" not in ping.content and "一万" not in ping.content  # never a tile
    assert ping.channel_id == table_message(fake, gid).channel_id  # in the game's thread

    # 2. he opens it from the table and plays from it: each press renews it (the bot edits
    #    his reply with the token of his latest press); the mention goes once he acted
    await players.open_hand_from_table()

    async def renewed(phase: str, waiting: tuple[int, ...]) -> bool:
        return bool(players.renewed_edits()) and 1 not in waiting and 0 in waiting

    await players.drive(renewed, bob_plays=True, what="an edit through Bob's latest press")
    await fake.wait_for(lambda: fake.messages[ping.id].deleted, 10, what="the mention gone")
    edits = len(players.reply_edits())

    # 3. his reply lapses (nothing to wait on but the clock: a lower bound, never a race):
    #    it is edited no more, and his next turn still brings one mention
    last_press = max(ix.acked_at or 0.0 for ix in fake.interactions.values() if ix.user is bob)
    await asyncio.sleep(max(0.0, last_press + LIFETIME + 1.5 - time.monotonic()))
    seen = len(pings(fake, bob))

    async def pinged_again(phase: str, waiting: tuple[int, ...]) -> bool:
        return len(pings(fake, bob)) > seen and phase == "turn" and 1 in waiting

    await players.drive(pinged_again, bob_plays=False, what="the next mention")
    assert len(players.reply_edits()) == edits  # the lapsed reply stays
    _phase, waiting, _hand, before = await game_now(players.store, gid)
    assert 1 in waiting

    # the table's My hand works: a fresh ephemeral hand that plays
    reply = await players.open_hand_from_table()
    assert await players.press(bob, reply)
    assert (await game_now(players.store, gid))[3] > before
    await fake.wait_for(
        lambda: all(fake.messages[m.id].deleted for m in pings(fake, bob)),
        10,
        what="every mention taken away once he acted",
    )
