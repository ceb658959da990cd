"""End-to-end: after a restart, until the games are loaded again, a game is never called
gone — ``/mahjong status`` and ``/mahjong hand`` answer "resuming…" — and a game that could
not be read is answered as such ("could not be loaded"), never "There is no game here"."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from .fake_discord import FakeDiscord
from .game_driver import game_env, open_game, wait_still

pytestmark = pytest.mark.e2e

NO_GAME = ("There is no game here", "这里没有进行中的对局", "這裡沒有進行中的對局")
RESUMING = ("resuming its games", "正在恢复牌局")
UNREADABLE = ("could not be loaded", "无法从数据库读取")


def said(text: str, words: tuple[str, ...]) -> bool:
    return any(w in text for w in words)


async def test_status_and_hand_say_resuming_until_the_games_are_back(
    fake: FakeDiscord, bot_factory
) -> None:
    env = game_env(EXTRA_EXTENSIONS="e2e_slow_resume", E2E_RESUME_DELAY="4")
    proc = bot_factory(env=env)
    await proc.start_ready()
    alice, bob = fake.user("alice"), fake.user("bob")
    gid, _lobby = await open_game(fake, alice, [bob])
    await wait_still(fake, proc, [alice, bob], gid)
    await proc.restart()  # SIGKILL, start, online: the games load 4 s later
    assert "Resumed" not in proc.log
    status = await (await fake.slash(alice, "mahjong status")).wait_reply()
    hand = await (await fake.slash(bob, "mahjong hand")).wait_reply()
    assert "Resumed" not in proc.log, "the resume was not slow enough to test this"
    for reply in (status, hand):
        assert reply.ephemeral
        assert said(reply.text(), RESUMING), reply.text()
        assert not said(reply.text(), NO_GAME), reply.text()
    await fake.wait_for(lambda: "Resumed 1 unfinished game" in proc.log, 30, what="resumed")
    status = await (await fake.slash(alice, "mahjong status")).wait_reply()
    text = status.text()
    assert "alice" in text and "bob" in text, text  # the table as it is
    assert not said(text, RESUMING) and not said(text, NO_GAME), text


async def test_a_game_that_cannot_be_read_is_not_called_gone(
    fake: FakeDiscord, bot_factory
) -> None:
    proc = bot_factory(env=game_env())
    await proc.start_ready()
    alice, bob = fake.user("alice"), fake.user("bob")
    gid, _lobby = await open_game(fake, alice, [bob])
    await wait_still(fake, proc, [alice, bob], gid)
    assert await proc.stop() == 0
    # the last entry of its log no longer replays (a bug, or a row damaged by hand)
    bad = json.dumps({"k": "ai", "acts": [[0, {"type": "no-such-move"}]]})
    if proc.backend == "sqlite":
        path = Path(proc.database_url.partition(":///")[2])
        with sqlite3.connect(path) as con:
            con.execute(
                "UPDATE actions SET action = ? WHERE game_id = ? AND seq ="
                " (SELECT MAX(seq) FROM actions WHERE game_id = ?)",
                (bad, gid, gid),
            )
        con.close()
    else:
        import asyncio

        import asyncpg

        url = proc.database_url.replace("postgresql+asyncpg", "postgresql")

        async def damage() -> None:
            conn = await asyncpg.connect(url)
            try:
                await conn.execute(
                    "UPDATE actions SET action = $1::json WHERE game_id = $2 AND seq ="
                    " (SELECT MAX(seq) FROM actions WHERE game_id = $2)",
                    bad,
                    gid,
                )
            finally:
                await conn.close()

        await asyncio.gather(damage())
    proc.allow_traceback(r"no-such-move|could not resume game|could not be (loaded|replayed)")
    await proc.start_ready()
    await fake.wait_for(lambda: "could not resume game" in proc.log, 30, what="resume failed")
    for user, command in ((alice, "mahjong status"), (bob, "mahjong hand")):
        reply = await (await fake.slash(user, command)).wait_reply()
        assert said(reply.text(), UNREADABLE), reply.text()
        assert not said(reply.text(), NO_GAME), reply.text()
