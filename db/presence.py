"""Which bot processes sharing the database are alive, as PostgreSQL sees them.

Each process's listening connection (:class:`db.notify.GameNotices`) carries the
application name ``mahjong <holder>`` (the holder name it stores deadlines under). A process
that dies — even by SIGKILL, which closes its sockets — loses that connection at once, so the
processes alive are the names in ``pg_stat_activity``: no table of our own, no heartbeat to
write. SQLite serves one process: nothing to ask there (:func:`live_holders` gives None).
"""

from __future__ import annotations

from sqlalchemy import text

from db.base import StoreBase

#: what the application names of the bot's listening connections begin with
PREFIX = "mahjong "
#: PostgreSQL keeps the first 63 bytes of an application name
NAME_LIMIT = 63
#: the longest holder name that survives whole in an application name
HOLDER_LIMIT = NAME_LIMIT - len(PREFIX)


def presence_name(holder: str) -> str:
    """The application name of ``holder``'s listening connection (ASCII holder names)."""
    return PREFIX + holder[:HOLDER_LIMIT]


def holder_of(application_name: str) -> str | None:
    """``'mahjong vm:12:ab'`` → ``'vm:12:ab'``; None for any other connection."""
    if not application_name.startswith(PREFIX):
        return None
    return application_name[len(PREFIX) :] or None


async def live_holders(store: StoreBase) -> set[str] | None:
    """The holders whose listening connection to this database is open now (each cut to
    :data:`HOLDER_LIMIT` characters); None on SQLite (one process, no question)."""
    if store.dialect != "postgresql":
        return None
    async with store._read() as conn:
        names = (
            await conn.execute(
                text(
                    "SELECT application_name FROM pg_stat_activity"
                    " WHERE datname = current_database() AND application_name LIKE :prefix"
                ),
                {"prefix": PREFIX + "%"},
            )
        ).scalars()
        return {h for h in (holder_of(str(n)) for n in names) if h is not None}
