"""Game changes made by other processes, heard through PostgreSQL ``LISTEN/NOTIFY``.

Migration 0005 puts a trigger on ``games``: every change of a game's version or status sends
``NOTIFY mahjong_games, 'id:version:status'`` when its transaction commits. A
:class:`GameNotices` listens on a dedicated asyncpg connection (``add_listener``) and calls
``on_change(game_id, version, status)`` for each; when the connection drops it reconnects and
calls ``on_change(None, 0, "")`` (changes may have been missed: check every game held).

SQLite serves one process: :func:`listen_games` returns None there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import make_url

from db.base import StoreBase

log = logging.getLogger(__name__)

CHANNEL = "mahjong_games"
#: seconds between two attempts to reconnect a dropped listener
RECONNECT_EVERY = 1.0

OnChange = Callable[[int | None, int, str], None]


def parse_notice(payload: str) -> tuple[int, int, str] | None:
    """``'12:40:active'`` → ``(12, 40, 'active')``; None when malformed."""
    parts = payload.split(":", 2)
    if len(parts) != 3:
        return None
    try:
        return int(parts[0]), int(parts[1]), parts[2]
    except ValueError:
        return None


def _dsn(store: StoreBase) -> str:
    url = store._engine.url
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class GameNotices:
    """A dedicated connection listening to ``mahjong_games``; ``await close()`` to stop.

    ``application_name``: what the connection is called on the server — the process's
    presence (:mod:`db.presence`)."""

    def __init__(self, dsn: str, on_change: OnChange, application_name: str = "") -> None:
        self._dsn = dsn
        self._on_change = on_change
        self._application_name = application_name
        self._conn: Any = None
        self._closed = False
        self._reconnect: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Connect and LISTEN (raises if the server cannot be reached)."""
        import asyncpg

        settings = {"application_name": self._application_name} if self._application_name else {}
        conn = await asyncpg.connect(self._dsn, server_settings=settings)
        await conn.add_listener(CHANNEL, self._heard)
        conn.add_termination_listener(self._lost)
        self._conn = conn

    def reconnect(self) -> None:
        """Drop the connection and listen on a new one (the server no longer shows it:
        lost without asyncpg noticing); ``on_change(None, 0, "")`` follows once listening."""
        if self._closed or self._reconnect is not None:
            return
        log.warning("game notices: the listening connection is gone; reconnecting")
        self._reconnect = asyncio.get_running_loop().create_task(self._again())
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.terminate()  # (its termination listener then ignores it: not ours any more)

    def _heard(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        notice = parse_notice(payload)
        if notice is None:
            log.warning("ignored a malformed game notice %r", payload)
            return
        self._on_change(*notice)

    def _lost(self, conn: Any) -> None:
        if self._closed or self._reconnect is not None or conn is not self._conn:
            return  # (a connection already replaced)
        log.warning("game notices: connection lost; reconnecting")
        self._reconnect = asyncio.get_running_loop().create_task(self._again())

    async def _again(self) -> None:
        while not self._closed:
            try:
                await self.start()
            except Exception as error:
                log.warning("game notices: reconnect failed (%s)", error)
                await asyncio.sleep(RECONNECT_EVERY)
                continue
            self._reconnect = None
            self._on_change(None, 0, "")  # anything may have changed meanwhile
            return

    async def close(self) -> None:
        """Stop listening and close the connection."""
        self._closed = True
        if self._reconnect is not None:
            self._reconnect.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reconnect
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close(timeout=2)


async def listen_games(
    store: StoreBase, on_change: OnChange, application_name: str = ""
) -> GameNotices | None:
    """Start listening to the store's game changes, on a connection called
    ``application_name``; None on SQLite (one process)."""
    if store.dialect != "postgresql":
        return None
    notices = GameNotices(_dsn(store), on_change, application_name)
    await notices.start()
    return notices
