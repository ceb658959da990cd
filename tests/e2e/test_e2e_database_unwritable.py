"""End-to-end: a database that cannot be written (here SQLite refusing every write, as a
read-only file or mount does) is answered for what it is — not "the table is busy" — every
press is answered, the operator reads it in the log once and loudly, and play goes on as
before once the database is writable again."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from .fake_discord import FakeDiscord, FakeMessage, FakeUser
from .game_driver import (
    STALE_NOTES,
    _game_row,
    choose,
    game_env,
    hand_message,
    log_of,
    open_game,
    stored_version,
    wait_still,
)

pytestmark = [pytest.mark.e2e, pytest.mark.sqlite_only]

LOUD = "THE DATABASE CANNOT BE WRITTEN"
UNWRITABLE = ("cannot save anything", "无法保存")
BUSY = ("table is busy", "牌桌正忙")
#: every answer a press may get here (anything else fails the test by timing out)
KNOWN = (*UNWRITABLE, *BUSY, *STALE_NOTES)


def words_of(press: Any) -> str:
    """What the presser reads: the answer and its follow-ups ("" before any)."""
    return " ".join(m.text() for m in [press.original, *press.followups] if m is not None)


async def answer_of(fake: FakeDiscord, press: Any) -> str:
    """The words a press was answered with, once they are one of :data:`KNOWN` (a press
    answered otherwise, or not at all, fails with what it got)."""
    try:
        await fake.wait_for(
            lambda: any(w in words_of(press) for w in KNOWN), 10, what="a known answer"
        )
    except TimeoutError:
        raise AssertionError(
            f"press answered {words_of(press)!r} (response type {press.response_type})"
        ) from None
    return words_of(press)


def entries_by(proc: Any, gid: int, user: FakeUser, after: int) -> list[int]:
    """The log entries (seq) of ``user``'s seat after version ``after``."""
    seat = [s["user_id"] for s in _game_row(proc, gid)[2]].index(user.id)
    return [q for q, who, _e in log_of(proc, gid) if q > after and who == seat]


def asked(fake: FakeDiscord, gid: int, users: list[FakeUser]) -> tuple[FakeUser, FakeMessage]:
    """The player asked to act now and their hand DM as it is now."""
    for user in users:
        msg = hand_message(fake, user, gid)
        if msg is not None and choose(fake.messages[msg.id]):
            return user, fake.messages[msg.id]
    raise AssertionError("nobody is asked to act")


async def test_a_read_only_database_is_named_and_told_once(fake: FakeDiscord, bot_factory) -> None:
    proc = bot_factory(env=game_env(EXTRA_EXTENSIONS="e2e_db_fault"))
    await proc.start_ready()
    alice, bob = fake.user("alice"), fake.user("bob")
    gid, _lobby = await open_game(fake, alice, [bob])
    before = await wait_still(fake, proc, [alice, bob], gid)
    switch = Path(proc.workdir) / "db-read-only"
    switch.touch()
    answers: list[str] = []
    for _ in range(10):  # the same press until three are answered (a stale one is redrawn)
        user, msg = asked(fake, gid, [alice, bob])
        press = await fake.click(user, msg, choose(msg))
        await press.wait_ack()
        await fake.wait_for(
            lambda p=press, v=before: (
                stored_version(proc, gid) > v or any(w in words_of(p) for w in KNOWN)
            ),
            10,
            what="an answer",
        )
        if stored_version(proc, gid) > before:
            # it joined a transaction begun before the switch (a write already under way):
            # recorded and answered as any move; the fault holds from the next transaction
            before = await wait_still(fake, proc, [alice, bob], gid)
            continue
        text = await answer_of(fake, press)
        if any(note in text for note in STALE_NOTES):
            continue
        answers.append(text)
        if len(answers) == 3:
            break
    assert len(answers) == 3, answers
    for text in answers:
        assert any(w in text for w in UNWRITABLE), text
        assert not any(w in text for w in BUSY), text
    assert stored_version(proc, gid) == before
    await fake.wait_for(lambda: LOUD in proc.log, 10, what="the operator told")
    assert proc.log.count(LOUD) == 1, proc.log
    assert "read-only" in proc.log

    # writable again: the next press is played, and the log says so
    switch.unlink()
    user, msg = asked(fake, gid, [alice, bob])
    await (await fake.click(user, msg, choose(msg))).wait_ack()
    await fake.wait_for(lambda: stored_version(proc, gid) > before, 10, what="the press played")
    assert len(entries_by(proc, gid, user, before)) == 1  # played once, nothing doubled
    await fake.wait_for(lambda: "written again" in proc.log, 10, what="recovery logged")


def _can_make_immutable(folder: Path) -> bool:
    """Whether this machine lets the tests make a file immutable (``chattr +i``: root, and
    a file system that has the flag)."""
    probe = folder / "immutable-probe"
    probe.touch()
    try:
        made = subprocess.run(["chattr", "+i", str(probe)], capture_output=True).returncode == 0
    except FileNotFoundError:
        return False
    if made:
        subprocess.run(["chattr", "-i", str(probe)], check=True)
    return made


async def test_files_made_immutable_mid_game(fake: FakeDiscord, bot_factory, tmp_path) -> None:
    """The fault as an operator's mistake makes it: the database and its journal made
    immutable under the running bot, then writable again."""
    if not _can_make_immutable(tmp_path):
        pytest.skip("making a file immutable needs root and chattr (the read-only test above)")
    proc = bot_factory(env=game_env())
    await proc.start_ready()
    alice, bob = fake.user("alice"), fake.user("bob")
    gid, _lobby = await open_game(fake, alice, [bob])
    before = await wait_still(fake, proc, [alice, bob], gid)
    db = Path(proc.database_url.partition(":///")[2])
    files = [str(db), f"{db}-wal"]  # (the -shm file is mapped in memory: left as it is)
    subprocess.run(["chattr", "+i", *files], check=True)
    try:
        answered = 0
        for _ in range(10):
            user, msg = asked(fake, gid, [alice, bob])
            press = await fake.click(user, msg, choose(msg))
            await press.wait_ack()
            await answer_of(fake, press)
            if any(note in words_of(press) for note in STALE_NOTES):
                continue
            assert any(w in words_of(press) for w in UNWRITABLE), words_of(press)
            answered += 1
            if answered == 3:
                break
        assert answered == 3
        assert stored_version(proc, gid) == before
    finally:
        subprocess.run(["chattr", "-i", *files], check=True)
    user, msg = asked(fake, gid, [alice, bob])
    await (await fake.click(user, msg, choose(msg))).wait_ack()
    await fake.wait_for(lambda: stored_version(proc, gid) > before, 10, what="the press played")
    assert len(entries_by(proc, gid, user, before)) == 1  # played once, nothing doubled
    assert proc.log.count(LOUD) == 1
