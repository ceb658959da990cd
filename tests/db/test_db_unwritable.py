"""A database that cannot be written is told apart from a busy one: `StoreUnwritable`
(disk full, read-only, the disk refusing writes), the operator told once per outage."""

from __future__ import annotations

import logging
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import event, text

from db.errors import FULL, IO, READ_ONLY, StoreBusy, StoreUnwritable, outage, unwritable
from db.store import Store


class _PgError(Exception):
    def __init__(self, sqlstate: str) -> None:
        super().__init__(f"server said {sqlstate}")
        self.sqlstate = sqlstate


@pytest.mark.parametrize(
    ("error", "why"),
    [
        (Exception("database or disk is full"), FULL),
        (Exception("attempt to write a readonly database"), READ_ONLY),
        (Exception("disk I/O error"), IO),
        (_PgError("53100"), FULL),
        (_PgError("25006"), READ_ONLY),
        (_PgError("58030"), IO),
    ],
)
def test_why_a_database_cannot_be_written(error: Exception, why: str) -> None:
    found = unwritable(error)
    assert isinstance(found, StoreUnwritable) and found.why == why
    outage.written()


@pytest.mark.parametrize(
    "error", [Exception("database is locked"), _PgError("55P03"), Exception("no such table: x")]
)
def test_a_busy_or_other_error_is_not_unwritable(error: Exception) -> None:
    assert unwritable(error) is None


async def test_a_read_only_sqlite_file_refuses_writes_as_unwritable(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'm.db'}")
    read_only = {"on": False}

    @event.listens_for(store.db.engine.sync_engine, "checkout")
    def _switch(dbapi_connection, _record, _proxy) -> None:  # type: ignore[no-untyped-def]
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA query_only = {int(read_only['on'])}")
        cursor.close()

    try:
        await store.guilds.update_settings(1, hints=False)
        read_only["on"] = True
        caplog.set_level(logging.WARNING, logger="db.errors")
        for _ in range(3):
            with pytest.raises(StoreUnwritable) as refused:
                await store.guilds.update_settings(2, hints=False)
            assert not isinstance(refused.value, StoreBusy)
            assert refused.value.why == READ_ONLY
        loud = [r for r in caplog.records if r.levelno == logging.CRITICAL]
        assert len(loud) == 1 and "CANNOT BE WRITTEN" in loud[0].getMessage()
        read_only["on"] = False
        await store.guilds.update_settings(2, hints=False)
        assert any("written again" in r.getMessage() for r in caplog.records)
        async with store.db.read() as conn:
            ids = (await conn.execute(text("SELECT id FROM guilds ORDER BY id"))).scalars().all()
        assert list(ids) == [1, 2]
    finally:
        await store.close()


async def test_a_write_refused_midway_in_a_group_commit_is_unwritable(tmp_path: Path) -> None:
    """The file turning read-only under a running bot after its write lock was taken (the
    files made immutable: ``BEGIN IMMEDIATE`` still succeeds, the first change fails): the
    statement's error reaches its writer as `StoreUnwritable`, never as the driver's error
    (which the delivery, saving its message ids, logged as a crash)."""
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'm.db'}")
    read_only = {"on": False}

    @event.listens_for(store.db.engine.sync_engine, "checkout")
    def _checkout(dbapi_connection, _record, _proxy) -> None:  # type: ignore[no-untyped-def]
        # the pragma stays on the pooled connection that failed, which the next write may
        # take again: once the file is writable, it is for every connection
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA query_only = 0")
        cursor.close()

    @event.listens_for(store.db.engine.sync_engine, "begin")
    def _after_begin(conn) -> None:  # type: ignore[no-untyped-def]  (after the store's BEGIN)
        conn.exec_driver_sql(f"PRAGMA query_only = {int(read_only['on'])}")

    try:
        game = await store.games.create(1, 2, "xinyu", seats=[{}])
        read_only["on"] = True
        with pytest.raises(StoreUnwritable) as refused:
            await store.games.merge_messages(game.id, None, {"lobby": 5})
        assert refused.value.why == READ_ONLY
        read_only["on"] = False
        assert await store.games.merge_messages(game.id, None, {"lobby": 5}) == {"lobby": 5}
    finally:
        outage.written()
        await store.close()


def _make_unwritable(files: list[Path]) -> Callable[[], None]:
    """Make ``files`` unwritable the way an operator does (``chattr +i`` as root, whom file
    modes do not stop; ``chmod a-w`` otherwise); returns what undoes it."""
    names = [str(f) for f in files]
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", *names], check=True)
        return lambda: subprocess.run(["chattr", "-i", *names], check=True) and None
    modes = [f.stat().st_mode for f in files]
    for f in files:
        f.chmod(0o444)

    def undo() -> None:
        for f, mode in zip(files, modes, strict=True):
            f.chmod(mode)

    return undo


async def test_a_connection_opened_while_unwritable_is_replaced_once_writable(
    tmp_path: Path,
) -> None:
    """SQLite opens a file it may not write read-only, without a word, and such a
    connection refuses every write for good: once the files are writable again the pool
    hands out a new connection instead, so the outage ends with the fault, not with a
    restart (it once ended with a second "CANNOT BE WRITTEN" on a pooled connection)."""
    db = tmp_path / "m.db"
    store = await Store.open(f"sqlite+aiosqlite:///{db}")
    try:
        await store.guilds.update_settings(1, hints=False)
        undo = _make_unwritable([db, Path(f"{db}-wal")])
        try:
            await store.db.engine.dispose()  # the next connection opens during the fault
            with pytest.raises(StoreUnwritable):
                await store.guilds.update_settings(2, hints=False)
            async with store.db.read() as conn:  # reads go on meanwhile
                assert (await conn.execute(text("SELECT count(*) FROM guilds"))).scalar() == 1
        finally:
            undo()
        await store.guilds.update_settings(2, hints=False)
        await store.guilds.update_settings(3, hints=False)
        async with store.db.read() as conn:
            ids = (await conn.execute(text("SELECT id FROM guilds ORDER BY id"))).scalars().all()
        assert list(ids) == [1, 2, 3]
        assert outage.why is None
    finally:
        outage.written()
        await store.close()
