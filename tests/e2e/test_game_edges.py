"""End-to-end edge cases: closed DMs, outsiders pressing buttons, timeouts, simultaneous
claims — and the privacy check after each."""

from __future__ import annotations

import asyncio

import pytest

from cogs.game.text import t
from db.store import Store
from services.action_codec import ActionKey, entry_key

from .fake_discord import FakeDiscord
from .game_driver import (
    check_privacy,
    choose,
    click_ok,
    footer_version,
    game_env,
    hand_message,
    log_of,
    open_game,
    parse_id,
    play_hand,
    start_bot,
    table_message,
    wait_still,
)

pytestmark = pytest.mark.e2e


def keep_pairs(msg) -> str | None:
    """Pass claims; discard a single tile (honours first), so pairs stay for claiming."""
    ids = msg.custom_ids()
    if any(parse_id(c)[1] == "pass" for c in ids):
        return next(c for c in ids if parse_id(c)[1] == "pass")
    discards = [c for c in ids if parse_id(c)[1] == "discard"]
    if not discards:
        return choose(msg)
    text = msg.text()
    line = next((ln for ln in text.splitlines() if "Tiles" in ln or "手牌" in ln), "")
    # the buttons name the tiles as the hand line does (五万 / 5 Characters)
    labels = {b["custom_id"]: b.get("label", "") for b in msg.buttons()}
    singles = [c for c in discards if labels.get(c) and line.count(labels[c]) == 1]
    honours = [c for c in singles if (parse_id(c)[2] or "").endswith("z")]
    return (honours or singles or discards)[0]


async def game_log(url: str, gid: int):
    store = await Store.open(url)
    try:
        return await store.games.load(gid)
    finally:
        await store.close()


async def test_closed_dms_use_the_ephemeral_path(fake: FakeDiscord, bot_factory) -> None:
    await start_bot(bot_factory)
    alice, bob = fake.user("alice"), fake.user("bob")
    fake.close_dms(bob)
    gid, _table = await open_game(fake, alice, [bob])
    notice = await fake.wait_for_message(lambda m: bob.mention in m.content, timeout=10)
    assert "/mahjong hand" in notice.content
    assert fake.dms(bob) == []
    # bob looks at his hand privately and plays from the ephemeral reply
    ix = await fake.slash(bob, "mahjong hand")
    reply = await ix.wait_reply()
    assert reply.ephemeral and reply.visible_to is bob
    assert "手牌" in reply.text() or "Tiles" in reply.text()
    await play_hand(fake, [alice, bob], gid, ephemeral=frozenset({bob.id}))
    # only one notice (the other mentions of bob are his turn alerts), and no hand of bob's
    # in the channel or the game's thread
    notices = {
        t("game.line_dm_closed", lang, mention=bob.mention) for lang in ("zh", "en", "zh+en")
    }
    assert len([m for m in fake.guild_messages() if m.content in notices]) == 1
    turns = [m for m in fake.guild_messages(include_deleted=True) if bob.mention in m.content]
    assert all(m.content in notices or "🀄" in m.content for m in turns)
    assert check_privacy(fake) > 0


async def test_outsider_and_out_of_place_presses_change_nothing(
    fake: FakeDiscord, bot_factory
) -> None:
    proc = await start_bot(bot_factory)
    alice, bob, dave = fake.user("alice"), fake.user("bob"), fake.user("dave")
    ix = await fake.slash(dave, "mahjong start")
    assert (await ix.wait_reply()).ephemeral  # no game here yet
    gid, _lobby = await open_game(fake, alice, [bob])
    await fake.wait_for(lambda: hand_message(fake, alice, gid), 10, what="alice's hand")
    table = await fake.wait_for(lambda: table_message(fake, gid), 10, what="the table")
    # wait until the game is still (a human is asked; the AI seats wait), not a fixed time
    before = await wait_still(fake, proc, [alice, bob], gid)
    assert before == (await game_log(proc.database_url, gid)).game.version

    answers = []
    # dave is not in the game: the table's "my hand", a forged hand button, lobby buttons
    for cid in (
        f"mj:{gid}:hand",
        f"mj:{gid}:discard:1m",
        f"mj:{gid}:pass",
        f"mj:{gid}:start",
        f"mj:{gid}:join",
        f"mj:{gid}:next:1",
    ):
        ix = await click_ok(fake, dave, fake.messages[table.id], cid, force=True)
        reply = await ix.wait_reply()
        assert reply.ephemeral and reply.visible_to is dave
        answers.append(reply.content)
    assert all(answers), answers
    assert any("不在" in a or "not in" in a for a in answers)
    # bob pressing alice's kind of button out of turn, and a command out of place
    ix = await fake.slash(bob, "mahjong join")
    assert (await ix.wait_reply()).ephemeral
    ix = await click_ok(fake, bob, fake.messages[table.id], f"mj:{gid}:win", force=True)
    assert (await ix.wait_reply()).ephemeral
    # a malformed custom_id is not ours at all: no crash, and an unknown game id is refused
    ix = await click_ok(fake, dave, fake.messages[table.id], "mj:999999:discard:5m", force=True)
    assert (await ix.wait_reply()).ephemeral
    after = (await game_log(proc.database_url, gid)).game.version
    assert after == before  # nothing changed
    # a huge or malformed option is refused with a clear answer
    ix = await fake.slash(bob, "mahjong new", {"variant": "xinyu", "options": "x" * 400})
    assert (await ix.wait_reply()).ephemeral
    check_privacy(fake)


async def test_timeout_puts_the_seat_on_autoplay(fake: FakeDiscord, bot_factory) -> None:
    proc = bot_factory(env=game_env(TURN_TIMEOUT_SECONDS="1", CLAIM_TIMEOUT_SECONDS="1"))
    await proc.start_ready()
    alice = fake.user("alice")
    gid, _table = await open_game(fake, alice, [])
    # alice never plays: her turn times out, she goes on 托管 and the AI finishes the hand
    line = await fake.wait_for_message(
        lambda m: "超时" in m.content or "timed out" in m.content, timeout=15
    )
    assert "托管" in line.content or "auto-play" in line.content
    result = await fake.wait_for(
        lambda: next(
            (m for m in fake.guild_messages() if f"mj:{gid}:next:1" in m.custom_ids()), None
        ),
        60,
        what="the hand to finish on auto-play",
    )
    assert result is not None
    entries = [a for _seq, seat, a in log_of(proc, gid) if seat == 0]
    assert any(e.get("timeout") for e in entries)
    assert {"k": "auto", "on": True} in entries
    # one public line says both (timed out, and 托管 on): no separate 开启托管 line follows
    auto_on = t("game.line_auto_on", "zh", name="").strip()  # "开启托管。"
    assert auto_on and not [m for m in fake.guild_messages() if auto_on in m.content]
    # she comes back
    ix = await fake.slash(alice, "mahjong autoplay", {"on": False})
    assert (await ix.wait_reply()).ephemeral
    assert [a for _seq, seat, a in log_of(proc, gid) if seat == 0][-1] == {"k": "auto", "on": False}
    check_privacy(fake)


async def test_two_players_claim_the_same_discard_at_once(fake: FakeDiscord, bot_factory) -> None:
    """Four humans pass everything, until two of them are asked about the same discard: then
    both press their claim at the same moment. Exactly one claim is applied, each answer once."""
    proc = await start_bot(bot_factory)
    users = [fake.user(n) for n in ("alice", "bob", "carol", "dave")]
    gid, _table = await open_game(fake, users[0], users[1:], variant="shangrao")
    hand_no = 1
    waited = False
    loop = asyncio.get_running_loop()
    deadline = loop.time() + fake.scaled(150)
    while loop.time() < deadline:
        asked = []
        for u in users:
            msg = hand_message(fake, u, gid)
            if msg is None:
                continue
            current = fake.messages[msg.id]
            kinds = {parse_id(c)[1] for c in current.custom_ids()}
            if "pass" in kinds:
                asked.append((u, current))
        if len(asked) >= 2:
            versions = {next(e["footer"]["text"] for e in m.embeds) for _u, m in asked}
            if len(versions) == 1:
                break
        if len(asked) == 1 and not waited:
            waited = True  # another asked player's DM may still be on its way
            await asyncio.sleep(0.3)
            continue
        waited = False
        # nobody doubly asked: play on, passing claims and keeping pairs (more claims)
        acted = False
        for u in users:
            msg = hand_message(fake, u, gid)
            if msg is None:
                continue
            cid = keep_pairs(fake.messages[msg.id])
            if cid is None:
                continue
            ix = await click_ok(fake, u, fake.messages[msg.id], cid)
            acted = acted or ix.response_type == 7
        if next(
            (m for m in fake.guild_messages() if f"mj:{gid}:next:{hand_no}" in m.custom_ids()),
            None,
        ):
            result = next(
                m for m in fake.guild_messages() if f"mj:{gid}:next:{hand_no}" in m.custom_ids()
            )
            # every human presses 准备 (an absent one would go on 托管 and stop being asked)
            for u in users:
                await click_ok(fake, u, fake.messages[result.id], f"mj:{gid}:next:{hand_no}")
            hand_no += 1
            await asyncio.sleep(0.3)
        if not acted:
            await fake.wait_change(fake.changes, 0.05)
    else:
        pytest.fail("never saw two players asked about one discard")

    before = (await game_log(proc.database_url, gid)).game.version

    def claim_of(msg) -> str:
        ids = msg.custom_ids()
        for kind in ("win", "kong", "pong", "chi"):
            for cid in ids:
                if parse_id(cid)[1] == kind:
                    return cid
        return next(cid for cid in ids if parse_id(cid)[1] == "pass")

    (u1, m1), (u2, m2) = asked[:2]
    c1, c2 = claim_of(m1), claim_of(m2)
    ix1, ix2 = await asyncio.gather(fake.click(u1, m1, c1), fake.click(u2, m2, c2))
    await asyncio.gather(ix1.wait_ack(10), ix2.wait_ack(10))
    await asyncio.sleep(0.5)
    log = log_of(proc, gid)
    new = [a for a in log if a[0] > before]
    seat1 = next(s for s, u in enumerate(users) if u is u1)
    seat2 = next(s for s, u in enumerate(users) if u is u2)
    # the claim that ranks first by the rules (win > kong = pong > chi > pass) is applied
    # exactly once; the other is applied once or, when the window was already settled by
    # the first, refused — never twice. The log has no duplicate sequence numbers.
    rank = {"win": 3, "kong": 2, "pong": 2, "chi": 1, "pass": 0}
    applied = {}
    for seat, cid in ((seat1, c1), (seat2, c2)):
        _gid, kind, arg = parse_id(cid)
        key = ActionKey(kind, arg)
        same = [
            a for a in new if a[1] == seat and a[2].get("k") == "act" and entry_key(a[2]) == key
        ]
        assert len(same) <= 1, (seat, cid, [a[2] for a in new])
        applied[cid] = len(same)
    top = max((c1, c2), key=lambda c: rank[parse_id(c)[1]])
    assert applied[top] == 1, (c1, c2, [a[2] for a in new])
    seqs = [seq for seq, _seat, _a in log]
    assert seqs == sorted(set(seqs))
    # both were answered: accepted (hand updated) or refused with a short private answer
    for ix in (ix1, ix2):
        assert ix.response_type in (4, 6, 7)
    check_privacy(fake)


async def wait_until_asked(fake: FakeDiscord, user, gid: int, *, discard: bool) -> None:
    """Play ``user``'s DM (pass claims) until it offers a discard (``discard``) or any
    action at all."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + fake.scaled(30)
    pressed: set[str] = set()
    while loop.time() < deadline:
        msg = hand_message(fake, user, gid)
        if msg is not None:
            current = fake.messages[msg.id]
            ids = [b["custom_id"] for b in current.buttons() if not b.get("disabled")]
            kinds = {parse_id(c)[1] for c in ids}
            if "discard" in kinds or (ids and not discard):
                return
            stamp = f"{current.id}:{len(current.history)}"
            if "pass" in kinds and stamp not in pressed:
                pressed.add(stamp)
                await click_ok(
                    fake, user, current, next(c for c in ids if parse_id(c)[1] == "pass")
                )
        await fake.wait_change(fake.changes, 0.05)
    raise AssertionError(f"{user.name} was never asked to play")


COPY_SEED = "e2e-copy-of-the-hand"


async def test_a_copy_of_the_hand_plays_and_a_stale_copy_is_redrawn(
    fake: FakeDiscord, bot_factory
) -> None:
    # a wall chosen: alice must be asked again after her discard (an AI win on it, or a few
    # moves later, would end the hand with nobody asked)
    proc = await start_bot(bot_factory, EXTRA_EXTENSIONS="e2e_seed", E2E_SEEDS=COPY_SEED)
    alice = fake.user("alice")
    gid, _table = await open_game(fake, alice, [])
    await wait_until_asked(fake, alice, gid, discard=True)
    dm = hand_message(fake, alice, gid)
    asked_at = footer_version(fake.messages[dm.id])

    # two private copies of the same moment, from /mahjong hand
    copies = []
    for _ in range(2):
        ix = await fake.slash(alice, "mahjong hand")
        copies.append(await ix.wait_reply())
    old, fresh = copies
    assert footer_version(old) == footer_version(fresh) == asked_at

    # playing from a copy counts, and the DM (the live hand message) follows
    before = (await game_log(proc.database_url, gid)).game.version
    ix = await click_ok(fake, alice, fresh, choose(fresh))
    assert ix.response_type == 7
    assert (await game_log(proc.database_url, gid)).game.version > before
    await fake.wait_for(
        lambda: (footer_version(fake.messages[dm.id]) or 0) > asked_at, 10, what="the DM redrawn"
    )

    # the other copy is now from an earlier moment: pressing it plays nothing, redraws it
    await wait_until_asked(fake, alice, gid, discard=False)
    await asyncio.sleep(0.3)
    stale_cid = choose(fake.messages[old.id])
    assert stale_cid is not None
    before = (await game_log(proc.database_url, gid)).game.version
    ix = await click_ok(fake, alice, fake.messages[old.id], stale_cid)
    assert ix.response_type == 7
    await fake.wait_for(
        lambda: any("earlier moment" in m.text() for m in ix.followups),
        10,
        what="the note that nothing was played",
    )
    assert (await game_log(proc.database_url, gid)).game.version == before
    redrawn = footer_version(fake.messages[old.id])
    assert redrawn is not None and redrawn > asked_at
    assert redrawn == footer_version(fake.messages[hand_message(fake, alice, gid).id])
    check_privacy(fake)
