"""Test-only extension (``EXTRA_EXTENSIONS``): the bot's SQLite database turns read-only
while the file ``db-read-only`` exists in the bot's folder, and writable again once it is
removed. Every connection the store takes from its pool runs ``PRAGMA query_only`` to match,
so each write meets SQLite's own refusal (``SQLITE_READONLY``: "attempt to write a readonly
database"), as a file or mount made read-only under the bot would give. Nothing happens at
import."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event

from botcore.client import MahjongBot

SWITCH = Path("db-read-only")


async def setup(bot: MahjongBot) -> None:
    """Extension entry point: the switch, checked at every check-out."""
    engine = bot.store.db.engine.sync_engine

    @event.listens_for(engine, "checkout")
    def _read_only_switch(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA query_only = {1 if SWITCH.exists() else 0}")
        cursor.close()
