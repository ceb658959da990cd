"""End-to-end: a session as a Jiangxi table plays it (issue 13) — a game of a set length that
ends by itself with its standings and a working 再来一局, the 准备 check between hands, the
解散 vote (agreed, refused, timed out, across a restart), and 摊牌 results that lay open
every hand only once it is over."""

from __future__ import annotations

import re
from typing import Any

import pytest

from i18n import t

from .fake_discord import FakeDiscord, FakeMessage, FakeUser
from .game_driver import (
    _game_row,
    check_privacy,
    click_ok,
    hand_message,
    log_of,
    open_game,
    play_hand,
    result_message,
    start_bot,
    table_message,
)
from .harness import BotProcess
from .privacy import audience_of

pytestmark = pytest.mark.e2e


def public(fake: FakeDiscord) -> list[FakeMessage]:
    """Every message anyone in the server can see (channel and threads), oldest first."""
    return [m for m in fake.all_messages(include_deleted=True) if audience_of(fake, m) is None]


def with_button(fake: FakeDiscord, custom_id: str) -> FakeMessage | None:
    """The newest public message carrying ``custom_id`` now."""
    found = None
    for msg in public(fake):
        if custom_id in fake.messages[msg.id].custom_ids():
            found = fake.messages[msg.id]
    return found


def standings(fake: FakeDiscord, gid: int) -> FakeMessage | None:
    """The final standings of game ``gid`` (in the channel, with its footer)."""
    for msg in fake.channel_messages():
        for embed in msg.embeds:
            title = str(embed.get("title") or "")
            footer = (embed.get("footer") or {}).get("text", "")
            if ("最终战绩" in title or "Final standings" in title) and footer == f"#{gid}":
                return fake.messages[msg.id]
    return None


def last_result(fake: FakeDiscord, gid: int, hand_no: int) -> FakeMessage | None:
    """The result of hand ``hand_no`` of game ``gid``, buttons or not."""
    for msg in public(fake):
        for embed in fake.messages[msg.id].embeds:
            title = str(embed.get("title") or "")
            footer = (embed.get("footer") or {}).get("text", "")
            if footer.startswith(f"#{gid} ") and (
                f"第{hand_no}局结果" in title or f"Result of hand {hand_no} " in title
            ):
                return fake.messages[msg.id]
    return None


def is_ready_alert(msg: FakeMessage) -> bool:
    """A short DM asking to press 准备 (zh or en)."""
    return not msg.embeds and ("「准备」" in msg.content or "press Ready" in msg.content)


def totals(proc: BotProcess, gid: int) -> tuple[str, list[int]]:
    import json

    [(status, raw)] = proc.rows("SELECT status, totals FROM games WHERE id = ?", gid)
    return status, list(json.loads(raw))


async def ready_up(fake: FakeDiscord, users: list[FakeUser], gid: int, hand_no: int) -> None:
    """Everyone presses 准备 on the result of ``hand_no``."""
    result = await fake.wait_for(lambda: result_message(fake, gid, hand_no), 20, what="result")
    for user in users:
        await click_ok(fake, user, fake.messages[result.id], f"mj:{gid}:next:{hand_no}")


# ---------------------------------------------------------------------------- length


@pytest.mark.parametrize("variant", ["shangrao", "xinyu", "jiujiang"])
async def test_a_four_hand_game_ends_by_itself_with_standings_and_a_rematch(
    fake: FakeDiscord, bot_factory, variant: str
) -> None:
    proc = await start_bot(bot_factory)
    alice = fake.user("alice")
    gid, lobby = await open_game(fake, alice, [], variant=variant, length="4")
    table = await fake.wait_for(lambda: table_message(fake, gid), 10, what="the table")
    assert "第1/4局" in fake.messages[table.id].text() or "hand 1/4" in table.text()
    for hand in range(1, 5):
        last = (lambda: standings(fake, gid) and last_result(fake, gid, 4)) if hand == 4 else None
        result = await play_hand(fake, [alice], gid, hand_no=hand, until=last)
        assert "摊牌" in result.text() or "All hands" in result.text()
        assert any(a.filename == "result.png" for a in result.attachments)
        if hand < 4:
            # 准备 (alone with three AI seats, the next hand starts at once)
            assert f"mj:{gid}:dissolve" in result.custom_ids()
            await click_ok(fake, alice, result, f"mj:{gid}:next:{hand}")
            await fake.wait_for(
                lambda h=hand, r=result: f"第{h + 1}/4局" in (table_message(fake, gid) or r).text(),
                15,
                what=f"hand {hand + 1}'s table",
            )
    # the last hand ended: the game ends by itself, recorded, with its standings
    board = await fake.wait_for(lambda: standings(fake, gid), 20, what="the final standings")
    status, final = totals(proc, gid)
    assert status == "finished"
    text = board.text()
    for word in ("自摸", "点炮", "胡"):
        assert word in text
    names = [s["name"] for s in _game_row(proc, gid)[2]]
    for name, total in zip(names, final, strict=True):
        assert f"**{name}** {total:+d}" in text, (name, total, text)
    assert any(a.filename == "standings.png" for a in board.attachments)
    ends = [e for _q, _s, e in log_of(proc, gid) if e.get("k") == "end"]
    assert ends == [{"k": "end", "why": "length"}]
    assert len([e for _q, _s, e in log_of(proc, gid) if e.get("k") == "next"]) == 3
    # the lobby message points to the standings; the last result offers no 准备
    await fake.wait_for(
        lambda: (
            "最终战绩" in fake.messages[lobby.id].text()
            or "final standings" in fake.messages[lobby.id].text()
        ),
        10,
        what="the lobby updated",
    )
    await fake.wait_for(
        lambda: fake.messages[result.id].custom_ids() == [f"mj:rp:{gid}:4:o:0:4"],
        10,
        what="the last result's buttons (回放 only)",
    )
    # 再来一局: the same table again (alone: it starts at once)
    press = await click_ok(fake, alice, board, f"mj:{gid}:rematch")
    reply = await press.wait_reply()
    new_gid = int(re.search(r"#(\d+)", reply.text()).group(1))
    assert new_gid != gid
    await fake.wait_for(lambda: hand_message(fake, alice, new_gid), 15, what="the rematch's hand")
    variant_after, options_after, _seats = _game_row(proc, new_gid)
    assert variant_after == variant and options_after == _game_row(proc, gid)[1]
    setup = log_of(proc, new_gid)[0][2]
    assert setup["k"] == "setup" and setup["length"] == "4" and setup["rematch_of"] == gid
    await fake.wait_for(
        lambda: f"mj:{gid}:rematch" not in fake.messages[board.id].custom_ids(),
        10,
        what="the standings' 再来一局 gone once the rematch started",
    )
    check_privacy(fake)


# ---------------------------------------------------------------------------- 准备


async def test_a_ready_check_with_one_absent_human(fake: FakeDiscord, bot_factory) -> None:
    proc = await start_bot(bot_factory, READY_TIMEOUT_SECONDS="5")
    alice, bob = fake.user("alice"), fake.user("bob")
    gid, _lobby = await open_game(fake, alice, [bob], variant="xinyu")
    result = await play_hand(fake, [alice, bob], gid)
    # both are asked: the result shows who is ready, and each gets a short alert DM
    assert "准备 0/2" in result.content or "Ready 0/2" in result.content
    for user in (alice, bob):
        await fake.wait_for(
            lambda u=user: [m for m in fake.dms(u) if is_ready_alert(m)], 10, what="alert"
        )
    await click_ok(fake, alice, result, f"mj:{gid}:next:1")
    await fake.wait_for(
        lambda: "准备 1/2" in fake.messages[result.id].content, 10, what="alice shown ready"
    )
    alice_alert = next(m for m in fake.dms(alice, include_deleted=True) if is_ready_alert(m))
    await fake.wait_for(lambda: fake.messages[alice_alert.id].deleted, 10, what="alert gone")
    # pressing again changes nothing
    again = await click_ok(fake, alice, fake.messages[result.id], f"mj:{gid}:next:1")
    said = (await again.wait_reply()).text()
    assert any(w in said for w in ("已经准备", "ready already")), said
    # bob never answers: after the timeout he goes on 托管 and hand 2 starts
    await fake.wait_for(
        lambda: any(e.get("k") == "next" for _q, _s, e in log_of(proc, gid)), 30, what="hand 2"
    )
    log = log_of(proc, gid)
    assert [(seat, e["hand"]) for _q, seat, e in log if e.get("k") == "rdy"] == [(0, 1)]
    assert [(seat, e["on"]) for _q, seat, e in log if e.get("k") == "auto"][:1] == [(1, True)]
    bob_alert = next(m for m in fake.dms(bob, include_deleted=True) if is_ready_alert(m))
    await fake.wait_for(lambda: fake.messages[bob_alert.id].deleted, 10, what="bob's alert gone")
    await fake.wait_for(
        lambda: "托管" in (table_message(fake, gid) or result).text(), 10, what="bob on 托管"
    )
    await fake.wait_for(
        lambda: fake.messages[result.id].custom_ids() == [f"mj:rp:{gid}:1:o:0:4"],
        10,
        what="hand 1's 准备 gone, its 回放 kept",
    )
    check_privacy(fake)


# ---------------------------------------------------------------------------- 解散


async def vote_message(fake: FakeDiscord, gid: int, no: int) -> FakeMessage:
    return await fake.wait_for(
        lambda: with_button(fake, f"mj:{gid}:agree:{no}"), 10, what=f"vote {no}"
    )


async def test_a_dissolve_vote_refused_then_agreed(fake: FakeDiscord, bot_factory) -> None:
    proc = await start_bot(bot_factory)
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    gid, _lobby = await open_game(fake, alice, [bob, carol], variant="shangrao")
    table = await fake.wait_for(lambda: table_message(fake, gid), 10, what="the table")
    await fake.wait_for(lambda: f"mj:{gid}:dissolve" in fake.messages[table.id].custom_ids())
    press = await click_ok(fake, alice, fake.messages[table.id], f"mj:{gid}:dissolve")
    assert (await press.wait_reply()).ephemeral
    vote = await vote_message(fake, gid, 1)
    assert f"<@{bob.id}>" in vote.content and f"<@{carol.id}>" in vote.content
    assert f"<@{alice.id}>" not in vote.content
    # someone not playing presses 同意 and 解散: told they are not in the game, not that
    # "these are not your tiles"
    dave = fake.user("dave")
    for custom_id, message in ((f"mj:{gid}:agree:1", vote), (f"mj:{gid}:dissolve", table)):
        stranger = await click_ok(fake, dave, fake.messages[message.id], custom_id, force=True)
        said = (await stranger.wait_reply()).text()
        assert t("errors.not_in_game", "en") in said, said
        assert t("errors.not_yours", "en") not in said, said
    # a proposer may not propose again while it is open; carol refuses: the game goes on
    again = await click_ok(fake, alice, fake.messages[table.id], f"mj:{gid}:dissolve")
    said = (await again.wait_reply()).text()
    assert any(w in said for w in ("投票中", "being voted")), said
    await click_ok(fake, carol, vote, f"mj:{gid}:refuse:1")
    await fake.wait_for(
        lambda: (
            not fake.messages[vote.id].custom_ids() and "拒绝" in fake.messages[vote.id].content
        ),
        10,
        what="the vote refused",
    )
    assert totals(proc, gid)[0] == "active"
    # alice waits two minutes before proposing again
    cooldown = await click_ok(fake, alice, fake.messages[table.id], f"mj:{gid}:dissolve")
    said = (await cooldown.wait_reply()).text()
    assert any(w in said for w in ("秒后", "you may again")), said
    # bob proposes; alice and carol agree: the game ends, its standings marked 解散
    await click_ok(fake, bob, fake.messages[table.id], f"mj:{gid}:dissolve")
    second = await vote_message(fake, gid, 2)
    await click_ok(fake, alice, second, f"mj:{gid}:agree:2")
    late = await click_ok(fake, alice, fake.messages[second.id], f"mj:{gid}:agree:2")
    said = (await late.wait_reply()).text()
    assert any(w in said for w in ("已经投过", "voted already")), said
    await click_ok(fake, carol, fake.messages[second.id], f"mj:{gid}:agree:2")
    await fake.wait_for(lambda: totals(proc, gid)[0] != "active", 15, what="the game ended")
    await fake.wait_for(
        lambda: "全员同意" in fake.messages[second.id].content, 10, what="vote passed"
    )
    # no hand ended yet: nothing to stand on, the game is simply over
    votes = [(s, e["op"]) for _q, s, e in log_of(proc, gid) if e.get("k") == "vote"]
    assert votes == [(0, "propose"), (2, "no"), (1, "propose"), (0, "yes"), (2, "yes")]
    assert log_of(proc, gid)[-1][2] == {"k": "end", "why": "vote", "no": 2}
    try:
        await fake.wait_for(
            lambda: not fake.messages[table.id].custom_ids(), 10, what="the table's buttons gone"
        )
    except TimeoutError as error:  # (seen once under a full run: the bot's side, to read)
        tail = "\n".join(proc.log.splitlines()[-60:])
        raise AssertionError(f"{error}\n--- bot log (last lines) ---\n{tail}") from None
    check_privacy(fake)


async def test_a_dissolve_vote_times_out_after_a_hand(fake: FakeDiscord, bot_factory) -> None:
    proc = await start_bot(bot_factory, VOTE_TIMEOUT_SECONDS="5")
    alice, bob = fake.user("alice"), fake.user("bob")
    gid, _lobby = await open_game(fake, alice, [bob], variant="jiujiang")
    result = await play_hand(fake, [alice, bob], gid)
    await click_ok(fake, bob, result, f"mj:{gid}:dissolve")
    vote = await vote_message(fake, gid, 1)
    assert f"<@{alice.id}>" in vote.content and "<t:" in vote.content
    # alice never answers: silence agrees at the deadline
    board = await fake.wait_for(lambda: standings(fake, gid), 30, what="the standings")
    assert "解散" in board.text()
    assert f"mj:{gid}:rematch" in board.custom_ids()
    end = log_of(proc, gid)[-1][2]
    assert end == {"k": "end", "why": "vote", "no": 1, "expired": True}
    assert totals(proc, gid)[0] == "finished"
    await fake.wait_for(
        lambda: "视为同意" in fake.messages[vote.id].content, 10, what="vote shown expired"
    )
    check_privacy(fake)
    # the server's default length (alice owns the server): the next lobby takes it
    ix = await fake.slash(alice, "mahjong-admin config", {"length": "2圈"})
    assert "length: 2 rounds" in (await ix.wait_reply()).text()
    bad = await fake.slash(alice, "mahjong-admin config", {"ready_timeout": 1}, force=True)
    assert "ready_timeout: 1 second" not in (await bad.wait_reply()).text()  # refused, unchanged
    ix = await fake.slash(bob, "mahjong new", {"variant": "xinyu"})
    await ix.wait_reply()
    lobby = await fake.wait_for(
        lambda: with_button(fake, f"mj:{gid + 1}:join"), 10, what="the next lobby"
    )
    assert "2圈" in lobby.text() and "东" in lobby.text()


async def test_a_restart_in_the_middle_of_a_vote(fake: FakeDiscord, bot_factory) -> None:
    proc = await start_bot(bot_factory)
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    gid, _lobby = await open_game(fake, alice, [bob, carol], variant="xinyu")
    table = await fake.wait_for(lambda: table_message(fake, gid), 10, what="the table")
    await click_ok(fake, carol, table, f"mj:{gid}:dissolve")
    vote = await vote_message(fake, gid, 1)
    await click_ok(fake, bob, vote, f"mj:{gid}:agree:1")
    await fake.wait_for(
        lambda: "✅ bob" in fake.messages[vote.id].content, 10, what="bob's answer shown"
    )
    deadline = re.search(r"<t:(\d+):R>", fake.messages[vote.id].content).group(1)
    await proc.restart()  # SIGKILL, start, ready
    # the vote goes on with the same deadline; bob's answer counted once
    await fake.wait_for(
        lambda: f"mj:{gid}:agree:1" in fake.messages[vote.id].custom_ids(), 15, what="resumed"
    )
    assert re.search(r"<t:(\d+):R>", fake.messages[vote.id].content).group(1) == deadline
    again = await click_ok(fake, bob, fake.messages[vote.id], f"mj:{gid}:agree:1")
    said = (await again.wait_reply()).text()
    assert any(w in said for w in ("已经投过", "voted already")), said
    await click_ok(fake, alice, fake.messages[vote.id], f"mj:{gid}:agree:1")
    await fake.wait_for(lambda: totals(proc, gid)[0] != "active", 15, what="the game ended")
    votes = [(s, e["op"]) for _q, s, e in log_of(proc, gid) if e.get("k") == "vote"]
    assert votes == [(2, "propose"), (1, "yes"), (0, "yes")]


# ---------------------------------------------------------------------------- 摊牌


def ended_hands(proc: BotProcess, gid: int) -> dict[int, Any]:
    """Each ended hand's result (every seat's tiles) replayed from the bot's log."""
    from services.gamelog import LiveGame, replay_entry
    from services.model import Seat
    from services.real_engine import RealEngine

    engine = RealEngine()
    variant, options, seats = _game_row(proc, gid)
    live = LiveGame(
        id=gid,
        guild_id=0,
        channel_id=0,
        variant=variant,
        options=options,
        status="active",
        version=0,
        totals=[0] * len(seats),
        seats=[Seat.from_json(s) for s in seats],
    )
    out = {}
    for seq, seat, entry in log_of(proc, gid):
        live.version = seq
        replay_entry(engine, live, seat, entry, 0.0)
        if live.state is not None and engine.phase(live.state) == "hand_over":
            result = engine.hand_result(live.state)
            out[result.hand_no] = result
    return out


async def test_showdown_lays_every_hand_open_only_at_the_end(
    fake: FakeDiscord, bot_factory
) -> None:
    from cogs.game.session_text import hand_notation

    proc = await start_bot(bot_factory)
    alice, bob = fake.user("alice"), fake.user("bob")
    gid, _lobby = await open_game(fake, alice, [bob], variant="shangrao")
    results = {}
    for hand in (1, 2):
        results[hand] = await play_hand(fake, [alice, bob], gid, hand_no=hand)
        if hand == 1:
            await ready_up(fake, [alice, bob], gid, 1)
    hands = ended_hands(proc, gid)
    assert set(hands) == {1, 2}
    for hand, message in results.items():
        result = hands[hand]
        text = fake.messages[message.id].text()
        shown = []
        for revealed in result.hands:
            concealed = list(revealed.concealed)
            if result.winners and revealed.seat == result.winners[0]:
                concealed.remove(result.winning_tile)
            notation = hand_notation(tuple(concealed), result.wildcards)
            assert f"`{notation}`" in text, (hand, revealed.seat, notation, text)
            shown.append(notation)
        # every payment's seat change adds up to the deltas shown
        for delta in result.deltas:
            assert f"{delta:+d}" in text
        # nowhere public before (or besides) its result: not on a table, a line, a vote
        for msg in public(fake):
            if msg.id == message.id:
                continue
            for version in msg.versions():
                blob = version["content"] + str(version["embeds"])
                for notation in shown:
                    if len(notation) > 8:  # a few tiles could appear by chance
                        assert notation not in blob, (hand, notation, msg.id)
    check_privacy(fake)
