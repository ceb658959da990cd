"""End-to-end: ``/mahjong score`` and ``/mahjong record`` through the real bot process.

The calculator's answer for every RULES §6 vector equals ``engine.score.score_line``; a bad
hand gets the pointed error; a record counts only once all four players confirmed, once.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from botcore.client import DEFAULT_EXTENSIONS
from cogs.desk.text import item_line
from cogs.refusal_text import translated
from db.store import Store
from engine.scoring import score_line
from i18n import t

from .fake_discord import MANAGE_GUILD, FakeDiscord, FakeMessage, FakeUser
from .fake_discord.state import snowflake
from .harness import BotProcess

pytestmark = pytest.mark.e2e

DESK_ENV = (
    {} if "cogs.desk.commands" in DEFAULT_EXTENSIONS else {"EXTRA_EXTENSIONS": "cogs.desk.commands"}
)
VECTORS_ENV = "MAHJONG_VECTORS_DIR"
CONCURRENT = 4  # slash commands in flight at once


def load_vectors() -> list[dict[str, Any]]:
    env = os.environ.get(VECTORS_ENV)
    folder = Path(env) if env else Path(__file__).resolve().parents[3] / "shared" / "vectors"
    files = sorted(folder.glob("*.jsonl"))
    if not files:
        raise FileNotFoundError(f"no scoring vectors (*.jsonl) in {folder}; set {VECTORS_ENV}")
    return [
        json.loads(line)
        for path in files
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


def slash_options(vector: dict[str, Any]) -> dict[str, Any]:
    """The ``/mahjong score`` options asking what ``vector`` asks."""
    opts: dict[str, Any] = {"hand": vector["hand"], "variant": vector["variant"]}
    opts["win"] = vector.get("win") or "self"
    if vector.get("bao"):
        opts["bao"] = vector["bao"]
    for name in ("flown", "kong_draws", "flowers"):
        if vector.get(name):
            opts[name] = vector[name]
    pairs = []
    for key, value in (vector.get("options") or {}).items():
        shown = (
            "none" if value is None else str(value).lower() if isinstance(value, bool) else value
        )
        pairs.append(f"{key}={shown}")
    if pairs:
        opts["options"] = " ".join(pairs)
    for flag in vector.get("flags") or []:
        opts[flag] = True
    return opts


def fields_of(message: FakeMessage) -> dict[str, str]:
    [embed] = message.embeds
    return {f["name"]: f["value"] for f in embed.get("fields", [])}


def answer_of(message: FakeMessage) -> dict[str, Any]:
    """What the reply says, in ``score_line`` terms: legal, points, item lines, reason."""
    fields = fields_of(message)
    total = fields.get(t("desk.total", "en"))
    points = 0
    if total is not None:
        m = re.fullmatch(r"\*\*(\d+)\*\* \w+", total)
        assert m, total
        points = int(m.group(1))
    items = fields[t("desk.items", "en")]
    return {
        "legal": total is not None,
        "points": points,
        "items": [] if items == t("desk.no_items", "en") else items.split("\n"),
        "reason": fields.get(t("desk.why", "en"), ""),
    }


@pytest.fixture
async def desk_bot(bot_factory) -> BotProcess:
    proc = bot_factory(env=DESK_ENV)
    await proc.start_ready()
    return proc


async def test_calculator_equals_score_line_for_every_vector(
    fake: FakeDiscord, desk_bot: BotProcess
) -> None:
    vectors = load_vectors()
    assert len(vectors) >= 100
    alice = fake.user("alice")
    gate = asyncio.Semaphore(CONCURRENT)

    async def ask(vector: dict[str, Any]) -> tuple[dict[str, Any], FakeMessage]:
        async with gate:
            ix = await fake.slash(alice, "mahjong score", slash_options(vector))
            return vector, await ix.wait_reply(timeout=15)

    answers = await asyncio.gather(*(ask(v) for v in vectors))
    mismatches = []
    for vector, reply in answers:
        expected = score_line(vector)
        assert "error" not in expected, expected
        want = {
            "legal": expected["legal"],
            "points": expected["points"],
            "items": [item_line(i) for i in expected["items"]],
            # the engine's reason as an English reader sees it (its catalogue text)
            "reason": translated(expected.get("reason", ""), "en"),
        }
        got = answer_of(reply)
        if got != want:
            mismatches.append((vector["id"], want, got))
        assert not reply.ephemeral
        assert [a.filename for a in reply.attachments] == ["hand.png"]
        assert reply.attachments[0].data.startswith(b"\x89PNG")
    assert mismatches == []


async def test_bad_hand_gets_the_pointed_error(fake: FakeDiscord, desk_bot: BotProcess) -> None:
    bob = fake.user("bob")
    ix = await fake.slash(
        bob, "mahjong score", {"hand": "123m 45x6p 789s 11z 555s +3m", "variant": "xinyu"}
    )
    reply = await ix.wait_reply()
    assert reply.ephemeral and reply.visible_to is bob
    assert "【45x】" in reply.content
    assert "123m 456p 789s 11z [555s] +3m" in reply.content  # an example
    assert "`hand`" in reply.content

    ix = await fake.slash(
        bob, "mahjong score", {"hand": "123m456m789p234s99s +9s", "bao": "indicator:0p"}
    )
    reply = await ix.wait_reply()
    assert reply.ephemeral and "`bao`" in reply.content and "0p" in reply.content

    players = {
        f"player{i}": fake.user(n) for i, n in enumerate(("alice", "bob", "carol", "dave"), 1)
    }
    ix = await fake.slash(
        bob,
        "mahjong record",
        {**players, "winner": bob, "how": "self", "hand": "123m 45x6p 789s 11z 555s +3m",
         "variant": "xinyu"},
    )  # fmt: skip
    reply = await ix.wait_reply()
    assert reply.ephemeral and "【45x】" in reply.content
    # a winner without how the hand was won is asked for it, never taken as 自摸
    ix = await fake.slash(
        bob, "mahjong record", {**players, "winner": bob, "hand": "123m456m789p234s99s +9s"}
    )
    reply = await ix.wait_reply()
    assert reply.ephemeral and "(how)" in reply.content and "自摸" in reply.content
    ix = await fake.slash(
        bob,
        "mahjong record",
        {**players, "winner": bob, "how": "self", "hand": "123m456m78p5p234s99s +9s", "bao": "5p"},
    )
    reply = await ix.wait_reply()
    assert reply.ephemeral and "宝吊" in reply.content  # not a legal win, and why
    assert fake.channel_messages() == []


async def test_indicator_and_server_default_variant(
    fake: FakeDiscord, desk_bot: BotProcess
) -> None:
    """No variant given: the server's default (shangrao); the indicator 4p makes 5p the 宝."""
    ix = await fake.slash(
        fake.user("carol"), "mahjong score", {"hand": "123m456m789p234s9s5p +9s", "bao": "ind:4p"}
    )
    reply = await ix.wait_reply()
    expected = score_line(
        {"variant": "shangrao", "hand": "123m456m789p234s9s5p +9s", "bao": "5p", "win": "self"}
    )
    assert answer_of(reply)["points"] == expected["points"] > 0
    payments = fields_of(reply)[t("desk.payments", "en")]
    assert payments.count(f"pays {expected['points']} points") == 3


async def test_autocomplete_offers_variants_and_options(
    fake: FakeDiscord, desk_bot: BotProcess
) -> None:
    dave = fake.user("dave")
    ix = await fake.autocomplete(dave, "mahjong score", {"hand": "", "variant": "上饶"}, "variant")
    await ix.wait_ack()
    assert ix.response_type == 8
    assert [c["value"] for c in ix.response_data["choices"]] == ["shangrao"]
    ix = await fake.autocomplete(
        dave, "mahjong score", {"variant": "shangrao", "options": "scoring=x"}, "options"
    )
    await ix.wait_ack()
    assert [c["value"] for c in ix.response_data["choices"]] == ["scoring=xingchen"]
    ix = await fake.autocomplete(dave, "mahjong score", {"hand": "123m 4x5p"}, "hand")
    await ix.wait_ack()
    [choice] = ix.response_data["choices"]
    assert choice["name"].startswith("⚠") and "4x" in choice["name"]


async def test_full_payment_with_the_rest_of_the_table(
    fake: FakeDiscord, desk_bot: BotProcess
) -> None:
    """九江: the others' 发 / kongs / 中白 (吃兴家) and 黄庄 + 跟庄 (×4 per 炮) reach every seat's
    payment; a rule of another variant gets a pointed refusal; ``others`` autocompletes."""
    carol = fake.user("carol")
    options = {
        "hand": "234m567m345p678s11s +8s",
        "variant": "jiujiang",
        "others": "下家 发2 [9999m]; 对家 (1111p) [中中中]",
        "streak": "黄庄 跟庄",
    }
    reply = await (await fake.slash(carol, "mahjong score", options)).wait_reply(timeout=15)
    assert answer_of(reply)["points"] == 3
    payments = fields_of(reply)[t("desk.payments", "en")].split("\n")
    assert payments == [
        "next player pays 24 points (3 pao + 3 eaten (吃兴家), ×4 per pao)",
        "player opposite pays 24 points (3 pao + 3 eaten (吃兴家), ×4 per pao)",
        "previous player pays 12 points (3 pao, ×4 per pao)",
        "the winner gets 60 points in all",
    ]

    refused = await fake.slash(
        carol, "mahjong score", {**options, "variant": "xinyu", "hand": "123m456m789p234s99s +9s"}
    )
    reply = await refused.wait_reply()
    assert (
        reply.ephemeral
        and "`streak`" in reply.content
        and "not a rule of Xinyu" in reply.content  # the variant's title, from the registry
    )

    ix = await fake.autocomplete(
        carol, "mahjong score", {"variant": "jiujiang", "others": "下家 [99x9m]"}, "others"
    )
    await ix.wait_ack()
    [choice] = ix.response_data["choices"]
    assert choice["name"].startswith("⚠") and "99x" in choice["name"]


async def _board(bot: BotProcess, guild_id: int) -> dict[int, int]:
    store = await Store.open(bot.database_url, migrate=False)
    try:
        board = await store.leaderboards.page(guild_id, min_hands=1, limit=50)
        return {e.user_id: e.points for e in board.entries}
    finally:
        await store.close()


async def test_record_counts_only_after_every_player_confirmed(
    fake: FakeDiscord, desk_bot: BotProcess
) -> None:
    alice, bob, carol, dave = (fake.user(n) for n in ("alice", "bob", "carol", "dave"))
    ix = await fake.slash(
        alice,
        "mahjong record",
        {
            "player1": alice, "player2": bob, "player3": carol, "player4": dave,
            "winner": bob, "how": "self", "hand": "123m456m789p234s99s +9s",
            "variant": "shangrao", "bao": "5p",
        },
    )  # fmt: skip
    msg = await ix.wait_reply()
    assert not msg.ephemeral
    [rid] = {c.split(":")[2] for c in msg.custom_ids()}
    confirm, void = f"mj:rec:{rid}:confirm", f"mj:rec:{rid}:void"
    assert msg.custom_ids() == [confirm, void]
    assert bob.mention in msg.content and alice.mention not in msg.content  # reporter confirmed

    await desk_bot.restart()  # the buttons survive a restart
    for user in (bob, carol):
        click = await fake.click(user, msg, confirm)
        await click.wait_ack()
        assert click.response_type == 7
    assert await _board(desk_bot, fake.guild_id) == {}

    # dave double-clicks: two presses on the same message at once; the hand counts once
    first = await fake.click(dave, msg, confirm)
    second = await fake.click(dave, msg, confirm)
    await first.wait_ack()
    await second.wait_ack()
    notes = await fake.wait_for(
        lambda: [m for m in first.followups + second.followups if m.content],
        what="the answer to the second press",
    )
    assert len(notes) == 1 and notes[0].ephemeral and "confirmed" in notes[0].content
    board = await _board(desk_bot, fake.guild_id)
    assert board == {alice.id: -4, bob.id: 12, carol.id: -4, dave.id: -4}
    # confirm is gone once counted (the counting press may edit the message after its
    # answer arrives: wait for the edit, it must come)
    await fake.wait_for(
        lambda: fake.messages[msg.id].custom_ids() == [void], what="the record without confirm"
    )


async def test_record_void_needs_manage_server(fake: FakeDiscord, desk_bot: BotProcess) -> None:
    alice, bob, carol, dave = (fake.user(n) for n in ("alice", "bob", "carol", "dave"))
    ix = await fake.slash(
        bob,
        "mahjong record",
        {
            "player1": alice, "player2": bob, "player3": carol, "player4": dave,
            "winner": carol, "how": "discard", "discarder": dave, "points": 5,
            "variant": "xinyu",
        },
    )  # fmt: skip
    msg = await ix.wait_reply()
    rid = msg.custom_ids()[0].split(":")[2]
    eve = FakeUser(id=snowflake(), name="eve")
    fake.users.append(eve)  # a server member who did not play
    stranger = await fake.click(eve, msg, f"mj:rec:{rid}:confirm")
    assert "not one of" in (await stranger.wait_reply()).content
    for user in (alice, carol, dave):
        await (await fake.click(user, msg, f"mj:rec:{rid}:confirm")).wait_ack()
    assert await _board(desk_bot, fake.guild_id) == {
        alice.id: 0,
        bob.id: 0,
        carol.id: 5,
        dave.id: -5,
    }

    # a void is acknowledged first (re-rating a big server takes seconds), then answered
    refused = await fake.click(bob, fake.messages[msg.id], f"mj:rec:{rid}:void")
    reply = await fake.wait_for(
        lambda: next((m for m in refused.followups if m.content), None), 10, what="the refusal"
    )
    assert reply.ephemeral and "Manage Server" in reply.content
    assert refused.response_type == 6
    assert await _board(desk_bot, fake.guild_id) != {}

    fake.grant(bob, MANAGE_GUILD)
    voided = await fake.click(bob, fake.messages[msg.id], f"mj:rec:{rid}:void")
    await voided.wait_ack()
    assert voided.response_type == 6
    await fake.wait_for(
        lambda: fake.messages[msg.id].custom_ids() == [], 10, what="the record redrawn as void"
    )
    assert await _board(desk_bot, fake.guild_id) == {}


async def test_record_expiry_is_a_server_setting(fake: FakeDiscord, desk_bot: BotProcess) -> None:
    alice, bob = fake.user("alice"), fake.user("bob")  # alice owns the server
    refused = await fake.slash(bob, "mahjong record_expiry", {"hours": 2})
    assert "Manage Server" in (await refused.wait_reply()).content
    shown = await fake.slash(bob, "mahjong record_expiry")
    assert "24 h" in (await shown.wait_reply()).content
    changed = await fake.slash(alice, "mahjong record_expiry", {"hours": 2})
    assert "2 h" in (await changed.wait_reply()).content
    ix = await fake.slash(
        bob,
        "mahjong record",
        {
            "player1": alice,
            "player2": bob,
            "player3": fake.user("carol"),
            "player4": fake.user("dave"),
        },
    )
    msg = await ix.wait_reply()
    rid = int(msg.custom_ids()[0].split(":")[2])
    store = await Store.open(desk_bot.database_url, migrate=False)
    try:
        record = await store.records.get(rid)
    finally:
        await store.close()
    assert record.expires_at - record.created_at == timedelta(hours=2)


async def test_record_expires_uncounted(fake: FakeDiscord, bot_factory) -> None:
    proc = bot_factory(
        env={**DESK_ENV, "RECORD_EXPIRY_HOURS": "0.0003", "RECORD_SWEEP_SECONDS": "0.5"}
    )
    await proc.start_ready()
    alice, bob, carol, dave = (fake.user(n) for n in ("alice", "bob", "carol", "dave"))
    ix = await fake.slash(
        alice,
        "mahjong record",
        {"player1": alice, "player2": bob, "player3": carol, "player4": dave},
    )  # a drawn hand
    msg = await ix.wait_reply()
    rid = msg.custom_ids()[0].split(":")[2]
    # About a second later the record expires and its message loses the confirm button.
    await fake.wait_for(
        lambda: f"mj:rec:{rid}:confirm" not in fake.messages[msg.id].custom_ids(),
        timeout=10,
        what="the record to expire",
    )
    store = await Store.open(proc.database_url, migrate=False)
    try:
        assert (await store.records.get(int(rid))).status == "expired"
    finally:
        await store.close()
    assert await _board(proc, fake.guild_id) == {}


async def test_record_with_the_table_and_several_winners(
    fake: FakeDiscord, desk_bot: BotProcess
) -> None:
    """A record takes the calculator's table facts (others by @mention or seat seen from the
    winner, 跟庄/黄庄) and pays each seat what ``/mahjong score`` shows; 新余 with
    ``discard_win`` records several winners on one discard (一炮多响), listed seat by seat
    before anyone confirms, and counted once when all four have; 九江 refuses a second one."""
    alice, bob, carol, dave = (fake.user(n) for n in ("alice", "bob", "carol", "dave"))
    seats = {"player1": alice, "player2": bob, "player3": carol, "player4": dave}

    # 九江: carol wins on alice's discard; alice is carol's 对家, bob her 上家
    table = {"variant": "jiujiang", "hand": "234m567m345p678s11s +8s", "streak": "黄庄 跟庄"}
    score = await fake.slash(
        carol, "mahjong score",
        {**table, "win": "discard", "discarder": "across", "others": "对家 发2; 上家 [9999m]"},
    )  # fmt: skip
    shown = fields_of(await score.wait_reply(timeout=15))[t("desk.payments", "en")].split("\n")
    assert shown[:3] == [
        "next player pays nothing",
        "player opposite pays 16 points (discarded the winning tile; 2 pao + 2 eaten (吃兴家), "
        "×4 per pao)",
        "previous player pays nothing",
    ]
    ix = await fake.slash(
        carol, "mahjong record",
        {**seats, **table, "winner": carol, "how": "discard", "discarder": alice,
         "others": f"{alice.mention} 发2; 上家 [9999m]"},
    )  # fmt: skip
    msg = await ix.wait_reply(timeout=15)
    players = fields_of(msg)[t("desk.players", "zh")].split("\n")
    assert [re.search(r"`([+-]\d+)`", line).group(1) for line in players] == [
        "-16", "+0", "+16", "+0",
    ]  # fmt: skip
    assert "含吃兴家 2炮" in players[0]
    assert "每炮 ×4（黄庄, 跟庄）" in fields_of(msg)[f"{t('desk.result', 'zh')} · 九江麻将"]

    refused = await fake.slash(
        carol, "mahjong record",
        {**seats, **table, "winner": carol, "how": "discard", "discarder": alice,
         "winner2": dave, "hand2": "3"},
    )  # fmt: skip
    reply = await refused.wait_reply()
    assert reply.ephemeral and "winner2" in reply.content
    assert "one winner per discard" in reply.content

    # 新余 一炮多响: dave discards, bob (1), alice (2, a concealed kong) and carol (4) win
    ix = await fake.slash(
        alice, "mahjong record",
        {**seats, "variant": "xinyu", "options": "discard_win=true", "how": "discard",
         "discarder": dave, "winner": bob, "hand": "111m456m789p234s99s +9s",
         "winner2": alice, "hand2": "123m456m789p(5555s)99s +9s", "winner3": carol,
         "hand3": "4"},
    )  # fmt: skip
    msg = await ix.wait_reply(timeout=15)
    rid = msg.custom_ids()[0].split(":")[2]
    players = fields_of(msg)[t("desk.players", "zh")].split("\n")
    assert [re.search(r"`([+-]\d+)`", line).group(1) for line in players] == [
        "+8", "-1", "+2", "-9",
    ]  # fmt: skip
    assert "杠钱 付 2" in players[3] and "杠钱 付 2" in players[1]
    assert "杠钱 得 6" in players[0]
    result = fields_of(msg)[f"{t('desk.result', 'zh')} · 新余麻将"]
    assert f"{carol.mention} 胡牌（点炮）4分" in result
    for user in (bob, carol):
        await (await fake.click(user, msg, f"mj:rec:{rid}:confirm")).wait_ack()
    assert await _board(desk_bot, fake.guild_id) == {}
    await (await fake.click(dave, fake.messages[msg.id], f"mj:rec:{rid}:confirm")).wait_ack()
    await fake.wait_for(
        lambda: fake.messages[msg.id].custom_ids() == [f"mj:rec:{rid}:void"],
        10,
        what="the record redrawn as counted",
    )
    assert await _board(desk_bot, fake.guild_id) == {
        alice.id: 8, bob.id: -1, carol.id: 2, dave.id: -9,
    }  # fmt: skip


async def test_a_xinyu_draw_records_its_kong_money(fake: FakeDiscord, desk_bot: BotProcess) -> None:
    """RULES §4.3 pays 杠钱 at each kong, drawn hands too: a 流局 record takes the kongs by
    @mention, shows who pays and gets what, and counts it once all four confirm."""
    alice, bob, carol, dave = (fake.user(n) for n in ("alice", "bob", "carol", "dave"))
    seats = {"player1": alice, "player2": bob, "player3": carol, "player4": dave}
    ix = await fake.slash(
        alice, "mahjong record",
        {**seats, "variant": "xinyu", "others": f"{bob.mention} [7777m]; {carol.mention} (5555p)"},
    )  # fmt: skip
    msg = await ix.wait_reply(timeout=15)
    rid = msg.custom_ids()[0].split(":")[2]
    players = fields_of(msg)[t("desk.players", "zh")].split("\n")
    assert [re.search(r"`([+-]\d+)`", line).group(1) for line in players] == [
        "-3", "+1", "+5", "-3",
    ]  # fmt: skip
    assert "杠钱 得 5" in players[2] and "杠钱 付 3" in players[0]
    result = fields_of(msg)[f"{t('desk.result', 'zh')} · 新余麻将"]
    assert "[7777m]" in result and "(5555p)" in result
    for user in (bob, carol, dave):
        await (await fake.click(user, fake.messages[msg.id], f"mj:rec:{rid}:confirm")).wait_ack()
    await fake.wait_for(
        lambda: fake.messages[msg.id].custom_ids() == [f"mj:rec:{rid}:void"],
        10,
        what="the record redrawn as counted",
    )
    assert await _board(desk_bot, fake.guild_id) == {
        alice.id: -3, bob.id: 1, carol.id: 5, dave.id: -3,
    }  # fmt: skip


async def test_nanchang_takes_both_jing_as_the_zheng_jing_or_the_indicator(
    fake: FakeDiscord, desk_bot: BotProcess
) -> None:
    """南昌: ``jing:5p`` names the 正精 and its 副精 (6p) follows; ``jing:indicator:5p`` the
    same; the answer names both and shows who pays (the engine's ``pay``); ``bao`` and
    ``jing`` together are refused; ``/mahjong record`` takes ``jing`` too."""
    hand = "123m456m789s11z569p +9p"  # 5p and 6p stand in for 9p: 999p
    expected = score_line(
        {"variant": "nanchang", "hand": hand, "jing": "5p", "win": "self", "seat": 1}
    )
    assert expected["legal"] and expected["pay"]
    carol = fake.user("carol")
    for jing in ("5p", "indicator:5p"):
        ix = await fake.slash(
            carol, "mahjong score", {"hand": hand, "variant": "nanchang", "jing": jing}
        )
        reply = await ix.wait_reply()
        assert answer_of(reply)["points"] == expected["points"] > 0
        text = reply.text()
        assert "(正精)" in text and "(副精)" in text
        payments = fields_of(reply)[t("desk.payments", "en")]
        won = sum(a for a in expected["pay"] if a > 0)
        assert f"gets {won} points in all" in payments, payments
    # bao:5p reads the same on 南昌 (the 正精 brings its 副精)
    ix = await fake.slash(
        carol, "mahjong score", {"hand": hand, "variant": "nanchang", "bao": "5p"}
    )
    assert answer_of(await ix.wait_reply())["points"] == expected["points"]
    both = await fake.slash(
        carol, "mahjong score", {"hand": hand, "variant": "nanchang", "bao": "5p", "jing": "5p"}
    )
    refused = await both.wait_reply()
    assert refused.ephemeral and "bao or jing" in refused.text()
    alice, bob, dave = (fake.user(n) for n in ("alice", "bob", "dave"))
    ix = await fake.slash(
        alice,
        "mahjong record",
        {
            "player1": alice, "player2": bob, "player3": carol, "player4": dave,
            "winner": bob, "how": "self", "hand": hand, "variant": "nanchang", "jing": "5p",
        },
    )  # fmt: skip
    msg = await ix.wait_reply()
    assert not msg.ephemeral and any(c.endswith(":confirm") for c in msg.custom_ids())


async def test_a_traditional_chinese_reader_is_refused_in_traditional_chinese(
    fake: FakeDiscord, desk_bot: BotProcess
) -> None:
    """A zh-TW user's bad ``/mahjong record`` is refused in 繁體 only: the sentence, the
    option by its 繁體 name, what is wrong; no English words."""
    bob = fake.user("bob")
    bob.locale = "zh-TW"
    players = {
        f"player{i}": fake.user(n) for i, n in enumerate(("alice", "bob", "carol", "dave"), 1)
    }
    refusals = [
        ({**players, "winner": bob, "hand": "123m456m789p234s99s +9s"}, "胡法", "點炮"),
        ({**players, "winner": bob, "how": "discard", "hand": "123m456m789p234s99s +9s"},
         "點炮者", "點炮"),
        ({**players, "winner": bob, "how": "self", "points": 4, "hand": "123m456m789p234s99s +9s"},
         "手牌", "分數"),
    ]  # fmt: skip
    for options, field, word in refusals:
        ix = await fake.slash(bob, "mahjong record", options)
        reply = await ix.wait_reply()
        assert reply.ephemeral and reply.visible_to is bob
        text = reply.content
        assert text.startswith("記錄有誤（" + field + "）："), text
        assert word in text, text
        assert re.findall(r"[A-Za-z]+", text) == [], text
    assert fake.channel_messages() == []


async def test_score_echoes_the_hand_as_the_user_grouped_it(
    fake: FakeDiscord, desk_bot: BotProcess
) -> None:
    alice = fake.user("alice")
    typed = "99s 234s [555s]  123m 456m ＋9s"
    ix = await fake.slash(alice, "mahjong score", {"hand": typed, "variant": "xinyu"})
    reply = await ix.wait_reply()
    [embed] = reply.embeds
    assert embed["description"].split("\n")[0] == "`99s 234s [555s] 123m 456m +9s`"
