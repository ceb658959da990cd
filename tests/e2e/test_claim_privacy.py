"""End-to-end: who may claim a discard, who passed and who keeps drawing (偷机) are never public,
and 托管 survives a restart.

Four people at one table (one with closed DMs): while a discard waits for claims the table,
its picture's words, ``/mahjong status`` and the channel show the same neutral wait whoever
may claim; a claim that times out passes quietly (no line, no 托管); the claim prompt names
the discarder privately, in the language the player chose (``/mahjong-language``).
"""

from __future__ import annotations

import asyncio
import re

import pytest

from engine.game.rules import live_count, rules_of
from services.action_codec import read_step

from .fake_discord import FakeDiscord, FakeMessage, FakeUser
from .game_driver import (
    check_claim_privacy,
    check_privacy,
    choose,
    click_ok,
    game_env,
    hand_message,
    log_of,
    open_game,
    parse_id,
    stored_version,
)
from .privacy import audience_of

pytestmark = pytest.mark.e2e

#: seconds a claim window stays open in these games (the test lets two of them time out)
CLAIM_SECONDS = 6
CLAIM_WAIT = ("等待吃碰杠胡…", "Waiting for claims…")
EN_TILE = (
    r"(?:\d (?:Characters|Dots|Bamboo)|East|South|West|North|Red dragon|Green dragon|White dragon)"
)


def public_messages(fake: FakeDiscord) -> list[FakeMessage]:
    """Every message anyone in the server can see (channel and threads), oldest first."""
    return [m for m in fake.all_messages(include_deleted=True) if audience_of(fake, m) is None]


def versions_text(msg: FakeMessage) -> list[str]:
    out = []
    for version in msg.versions():
        parts = [version["content"]]
        for embed in version["embeds"]:
            parts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
            parts += [str(f.get("value") or "") for f in embed.get("fields") or []]
        out.append("\n".join(parts))
    return out


def result_of(fake: FakeDiscord, gid: int, hand_no: int = 1) -> FakeMessage | None:
    for msg in public_messages(fake):
        ids = msg.custom_ids()
        if f"mj:{gid}:next:{hand_no}" in ids and f"mj:{gid}:hand" not in ids:
            return msg
    return None


def kinds(msg: FakeMessage) -> set[str]:
    return {parse_id(b["custom_id"])[1] for b in msg.buttons() if not b.get("disabled")}


async def test_claim_windows_stay_secret(fake: FakeDiscord, bot_factory) -> None:
    proc = bot_factory(env=game_env(CLAIM_TIMEOUT_SECONDS=str(CLAIM_SECONDS)))
    await proc.start_ready()
    players = [fake.user(n) for n in ("alice", "bob", "carol", "dave")]
    alice, bob = players[0], players[1]
    fake.close_dms(bob)
    for user in players:  # a Chinese server; the players read their own texts in English
        ix = await fake.slash(user, "mahjong-language", {"language": "en"})
        assert (await ix.wait_reply()).ephemeral
    gid, _lobby = await open_game(fake, alice, players[1:], variant="shangrao")
    ix = await fake.slash(bob, "mahjong hand")  # bob plays from his ephemeral hand
    assert (await ix.wait_reply()).ephemeral

    held: set[int] = set()  # the messages whose claim window is left to time out
    statuses: list[FakeMessage] = []
    pressed: set[str] = set()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + fake.scaled(240)
    while result_of(fake, gid) is None:
        assert loop.time() < deadline, "the hand did not end"
        mark = fake.changes
        for user in players:
            msg = hand_message(fake, user, gid, ephemeral=user is bob)
            if msg is None:
                continue
            current = fake.messages[msg.id]
            stamp = f"{current.id}:{len(current.history)}"
            cid = choose(current)
            if cid is None or stamp in pressed:
                continue
            if "pass" in kinds(current) and (len(held) < 2 or current.id in held):
                if current.id not in held:
                    held.add(current.id)  # this one times out on its own
                    ix = await fake.slash(alice, "mahjong status")
                    statuses.append(await ix.wait_reply())
                pressed.add(stamp)
                continue
            pressed.add(stamp)
            await click_ok(fake, user, current, cid)
        await fake.wait_change(mark, 0.2)

    # nothing public told who could claim or who passed (timing included)
    windows = check_claim_privacy(fake, proc, gid)
    assert len(windows) >= 2
    check_privacy(fake)
    # two windows timed out, quietly: passes in the log, nobody on 托管, no line about it
    log = [entry for _seq, _seat, entry in log_of(proc, gid)]
    timed_out = [e for e in log if e.get("timeout")]
    assert len(held) == 2 and timed_out, log
    assert all(e["a"] == {"type": "pass"} for e in timed_out)  # the engine's action JSON
    assert not [e for e in log if e.get("k") == "auto"]
    shown = [text for m in public_messages(fake) for text in versions_text(m)]
    assert not [s for s in shown if "超时" in s or "timed out" in s]
    table_texts = [s for s in shown if "牌河" in s or "discards" in s]
    assert not [s for s in table_texts if "托管" in s]
    # the table showed the neutral wait, with no arrow, and so did /mahjong status
    waits = [s for s in table_texts if any(w in s for w in CLAIM_WAIT)]
    assert waits and not [s for s in waits if "▶" in s]
    assert statuses and all(any(w in r.text() for w in CLAIM_WAIT) for r in statuses)
    assert not [r for r in statuses if "▶" in r.text()]

    # the claim prompt names the discarder and where they sit, in the language the player chose
    private = [
        text
        for u in players
        for m in (fake.dms(u) if u is not bob else fake.ephemerals(u))
        for text in versions_text(m)
    ]
    names = "|".join(re.escape(u.name) for u in players)
    prompt = re.compile(
        rf"(?:{names}) \((?:on your left|across|on your right)\) discarded {EN_TILE}; you may:"
    )
    assert any(prompt.search(text) for text in private), "no claim prompt named the discarder"
    # English tile names on every tile button (吃 buttons too), never notation or Chinese
    labels = [
        (parse_id(b["custom_id"])[1], b.get("label", ""))
        for u in players
        for m in (fake.dms(u) if u is not bob else fake.ephemerals(u))
        for version in m.versions()
        for row in version["components"]
        for b in row.get("components", [])
        if b.get("custom_id", "").startswith("mj:")
    ]
    discards = [label for kind, label in labels if kind == "discard"]
    assert discards and all(re.fullmatch(EN_TILE, label) for label in discards), discards
    chis = [label for kind, label in labels if kind == "chi"]
    assert all(re.fullmatch(r"Chi \d-\d-\d (?:Characters|Dots|Bamboo)", c) for c in chis), chis

    # at hand end the table shows the wall actually left
    from services.gamelog import LiveGame, replay_entry
    from services.model import Seat
    from services.real_engine import RealEngine

    from .game_driver import _game_row

    variant, options, seats = _game_row(proc, gid)
    seated = [Seat.from_json(s) for s in seats]
    live = LiveGame(gid, 0, 0, variant, options, "active", 0, [0] * 4, seated)
    for seq, seat, entry in log_of(proc, gid):
        live.version = seq
        replay_entry(RealEngine(), live, seat, entry, 0.0)
    h = live.state.hand
    left = live_count(h, rules_of(live.state.variant, live.state.options).reserve)
    table = next(m for m in reversed(public_messages(fake)) if f"mj:{gid}:hand" in m.custom_ids())
    final = versions_text(fake.messages[table.id])[-1]
    assert f"余牌 {left}" in final, (left, final)
    assert stored_version(proc, gid) > 0


# ---------------------------------------------------------------------------------------
# 偷机 is private


def touji_seed() -> str:
    """A 上饶 (星辰) seed whose dealer is seat 0 and where the AI, playing every seat,
    keeps drawing (偷机) in the first hand (see tests/services/test_svc_touji_private.py)."""
    from engine.options import make_options, options_to_dict
    from services.autoplay import run_robots
    from services.model import Seat
    from services.real_engine import RealEngine

    engine = RealEngine()
    options = options_to_dict(make_options("shangrao", {"scoring": "xingchen"}))
    robots = [Seat(f"ai{i}", ai=True) for i in range(4)]
    for i in range(3000):
        seed = f"touji-{i}"
        state, _ = engine.new_game("shangrao", options, seed)
        if engine.pending_seats(state) != (0,) or engine.phase(state) != "turn":
            continue
        if any(e.kind == "touji" for e in run_robots(engine, robots, state, 0).events):
            return seed
    raise AssertionError("no seed with a 偷机 found")


async def test_keep_drawing_is_never_announced(fake: FakeDiscord, bot_factory) -> None:
    seed = touji_seed()
    env = game_env(EXTRA_EXTENSIONS="e2e_seed", E2E_SEEDS=seed)
    from .game_driver import GAME_ENV

    if GAME_ENV.get("EXTRA_EXTENSIONS"):
        env["EXTRA_EXTENSIONS"] = f"{GAME_ENV['EXTRA_EXTENSIONS']},e2e_seed"
    proc = bot_factory(env=env)
    await proc.start_ready()
    alice = fake.user("alice")
    gid, _lobby = await open_game(fake, alice, [], options="scoring=xingchen")
    await fake.wait_for(lambda: hand_message(fake, alice, gid), 10, what="alice's hand")
    ix = await fake.slash(alice, "mahjong autoplay", {"on": True})  # the AI plays her seat
    assert (await ix.wait_reply()).ephemeral
    result = await fake.wait_for(lambda: result_of(fake, gid), 30, what="the hand's result")
    steps = [s for _seq, _seat, e in log_of(proc, gid) for s in e.get("acts", e.get("ai", []))]
    played = [read_step(step)[1] for step in steps]  # the engine's action JSON
    assert any(a["type"] == "keep_drawing" for a in played), "the seed played no 偷机"
    # the result may list 偷机 among the winner's scoring items; nothing else says it
    said = [
        text
        for m in public_messages(fake)
        if m.id != result.id
        for text in versions_text(m)
        if "偷机" in text or "keeps drawing" in text.lower()
    ]
    assert said == []
    check_privacy(fake)


# ---------------------------------------------------------------------------------------
# 托管 survives a restart


async def test_autoplay_survives_a_restart(fake: FakeDiscord, bot_factory) -> None:
    proc = bot_factory(env=game_env())
    await proc.start_ready()
    alice, bob = fake.user("alice"), fake.user("bob")
    gid, _lobby = await open_game(fake, alice, [bob], variant="xinyu")
    await fake.wait_for(lambda: hand_message(fake, bob, gid), 10, what="bob's hand")
    ix = await fake.slash(bob, "mahjong autoplay", {"on": True})
    assert (await ix.wait_reply()).ephemeral
    assert [e for _q, s, e in log_of(proc, gid) if s == 1][-1] == {"k": "auto", "on": True}
    seen = {m.id: len(m.versions()) for m in fake.dms(bob)}

    await proc.restart()

    # after the restart bob is still on 托管: the table says so and he is never asked
    def table_marks_bob() -> FakeMessage | None:
        for msg in reversed(public_messages(fake)):
            if f"mj:{gid}:hand" in msg.custom_ids():
                text = versions_text(msg)[-1]
                line = next((ln for ln in text.splitlines() if "**bob**" in ln), "")
                return msg if "托管" in line else None
        return None

    await fake.wait_for(table_marks_bob, 15, what="the table marking bob on 托管")
    asked_bob = await play_alice_until_result(fake, alice, bob, gid, seen)
    assert not asked_bob, "bob was asked to play although he is on 托管"
    assert [e for _q, s, e in log_of(proc, gid) if s == 1 and e.get("k") == "auto"] == [
        {"k": "auto", "on": True}
    ]
    check_privacy(fake)


async def play_alice_until_result(
    fake: FakeDiscord, alice: FakeUser, bob: FakeUser, gid: int, seen: dict[int, int]
) -> bool:
    """Alice plays until the result; returns whether a version of bob's hand shown after
    ``seen`` (versions per DM before the restart) offered a button (it must not: the AI
    plays for him)."""
    pressed: set[str] = set()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + fake.scaled(90)
    while result_of(fake, gid) is None:
        assert loop.time() < deadline, "the hand did not end"
        mark = fake.changes
        msg = hand_message(fake, alice, gid)
        if msg is not None:
            current = fake.messages[msg.id]
            stamp = f"{current.id}:{len(current.history)}"
            cid = choose(current)
            if cid is not None and stamp not in pressed:
                pressed.add(stamp)
                await click_ok(fake, alice, current, cid)
                continue
        await fake.wait_change(mark, 0.2)
    for m in fake.dms(bob):
        for version in m.versions()[seen.get(m.id, 0) :]:
            if any(row.get("components") for row in version["components"]):
                return True
    return False
