"""The checks before the bot opens a SQLite file: whole (quick_check), and not in use."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from db.preflight import DatabaseRefused, check_integrity, hold_lock, preflight, sqlite_file


def _database(path: Path) -> None:
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE log (seq INTEGER PRIMARY KEY, entry TEXT)")
        con.executemany("INSERT INTO log VALUES (?, ?)", [(i, "x" * 200) for i in range(300)])
    con.close()


def test_sqlite_file_of_a_url() -> None:
    assert sqlite_file("sqlite+aiosqlite:///data/mahjong.db") == Path("data/mahjong.db")
    assert sqlite_file("sqlite+aiosqlite:////abs/m.db?x=1") == Path("/abs/m.db")
    assert sqlite_file("sqlite+aiosqlite:///:memory:") is None
    assert sqlite_file("postgresql+asyncpg://u:p@h/db") is None


def test_a_whole_file_a_new_one_and_an_empty_one_pass(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    check_integrity(path)  # not there yet: a new database
    path.touch()
    check_integrity(path)
    path.unlink()
    _database(path)
    check_integrity(path)


def test_a_damaged_page_is_refused_with_how_to_restore(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    _database(path)
    with sqlite3.connect(path) as con:
        [(root,)] = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'log'")
        [(size,)] = con.execute("PRAGMA page_size")
    con.close()
    with path.open("r+b") as f:
        f.seek((root - 1) * size)
        f.write(b"\xff" * size)
    with pytest.raises(DatabaseRefused) as refused:
        check_integrity(path)
    text = str(refused.value)
    assert str(path) in text and "docs/deploy.md" in text and "damaged" in text


def test_a_damaged_header_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    _database(path)
    with path.open("r+b") as f:
        f.write(b"\0" * 100)
    with pytest.raises(DatabaseRefused, match="not a database"):
        check_integrity(path)


def test_the_lock_is_held_once(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    url = f"sqlite+aiosqlite:///{path}"
    first = preflight(url)
    assert first is not None
    with pytest.raises(DatabaseRefused, match="Another bot process"):
        preflight(url)
    first.close()  # the process ended
    again = hold_lock(path)
    assert again is not None
    again.close()


def test_a_folder_the_bot_cannot_write_in_is_refused(tmp_path: Path) -> None:
    # (a file where the folder should be: as unwritable as a read-only folder, even for root)
    blocker = tmp_path / "data"
    blocker.write_text("not a folder")
    with pytest.raises(DatabaseRefused, match="Cannot write"):
        hold_lock(blocker / "m.db")


def test_postgres_is_not_checked() -> None:
    assert preflight("postgresql+asyncpg://u:p@127.0.0.1:1/none") is None
