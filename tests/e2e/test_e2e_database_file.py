"""End-to-end: the SQLite file itself — a damaged file is refused at start with the way to
restore it (never run on, never a raw traceback), and a second ``bot.py`` on the same file is
refused while the first runs (and starts once the first is gone, however it ended)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from .fake_discord import FakeDiscord
from .game_driver import game_env, open_game, start_bot
from .harness import BotProcess

pytestmark = [pytest.mark.e2e, pytest.mark.sqlite_only]


def db_file(proc: BotProcess) -> Path:
    return Path(proc.database_url.partition(":///")[2])


def damage_the_actions_table(path: Path) -> None:
    """Overwrite the pages of the action log's table with garbage (the file's header and
    schema stay whole: the file opens, reading the games fails)."""
    with sqlite3.connect(path) as con:
        [(root,)] = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'actions'")
        [(size,)] = con.execute("PRAGMA page_size")
    con.close()
    with path.open("r+b") as f:
        f.seek((root - 1) * size + 8)
        f.write(os.urandom(size - 8))


def damage_the_header(path: Path) -> None:
    with path.open("r+b") as f:
        f.write(b"not a database..")


def assert_refused_for_damage(proc: BotProcess) -> None:
    log = proc.log
    assert "is damaged" in log, log
    assert "docs/deploy.md" in log and "backup" in log
    assert "Traceback" not in log
    assert "Bot ready" not in log


async def _a_game_then_stop(fake: FakeDiscord, bot_factory) -> BotProcess:
    proc = await start_bot(bot_factory)
    await open_game(fake, fake.user("alice"), [fake.user("bob")])
    assert await proc.stop() == 0  # a clean stop: the log is all in the main file
    return proc


async def test_a_file_damaged_mid_way_is_refused_with_how_to_restore(
    fake: FakeDiscord, bot_factory
) -> None:
    proc = await _a_game_then_stop(fake, bot_factory)
    damage_the_actions_table(db_file(proc))
    identified = fake.gateway.identify_count
    await proc.start()
    assert await proc.wait_exit(30) == 1
    assert_refused_for_damage(proc)
    assert fake.gateway.identify_count == identified  # never went online on it


async def test_a_damaged_header_is_refused_without_a_traceback(
    fake: FakeDiscord, bot_factory
) -> None:
    proc = await _a_game_then_stop(fake, bot_factory)
    damage_the_header(db_file(proc))
    await proc.start()
    assert await proc.wait_exit(30) == 1
    assert_refused_for_damage(proc)
    assert "file is not a database" in proc.log


async def test_a_second_bot_on_the_same_file_is_refused(fake: FakeDiscord, bot_factory) -> None:
    first = bot_factory(env=game_env())
    await first.start_ready()
    second = bot_factory(env=game_env(), workdir=first.workdir)
    await second.start()
    assert await second.wait_exit(30) == 1
    assert "Another bot process" in second.log and str(first.process.pid) in second.log
    assert "Bot ready" not in second.log
    # the first goes on serving
    reply = await (await fake.slash(fake.user("alice"), "mahjong ping")).wait_reply()
    assert reply.content == "pong"
    # once the first is gone — even killed, leaving no chance to clean up — the second starts
    await first.kill()
    await second.start_ready()
    reply = await (await fake.slash(fake.user("bob"), "mahjong ping")).wait_reply()
    assert reply.content == "pong"
