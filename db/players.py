"""Players (玩家): display names, locale, picture and alert preferences (``store.players``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Row

from db.base import Database
from db.models import Player, utcnow
from db.types import PlayerInfo

_P = Player.__table__
#: A player's turn alerts: turns and claims, claims only, none.
ALERT_MODES = ("on", "claims", "off")
#: The languages a player may choose for a game's private texts ("" = follow the server).
PLAYER_LANGUAGES = ("zh", "zh-TW", "en")


def _player(row: Row[Any]) -> PlayerInfo:
    return PlayerInfo(
        user_id=row.user_id,
        display_name=row.display_name,
        locale=row.locale,
        prefers_images=row.prefers_images,
        alerts=row.alerts if row.alerts in ALERT_MODES else "on",
        language=row.language if row.language in PLAYER_LANGUAGES else None,
    )


class PlayerRepository:
    """The players table (``store.players``)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def upsert(
        self,
        user_id: int,
        *,
        display_name: str | None = None,
        locale: str | None = None,
        prefers_images: bool | None = None,
        alerts: str | None = None,
        language: str | None = None,
    ) -> PlayerInfo:
        """Create or update a player; fields left None keep their stored value. ``alerts``:
        one of :data:`ALERT_MODES`; ``language``: one of :data:`PLAYER_LANGUAGES`, or ``""``
        to follow the server again."""
        if alerts is not None and alerts not in ALERT_MODES:
            raise ValueError(f"alerts must be one of {ALERT_MODES}")
        if language is not None and language not in ("", *PLAYER_LANGUAGES):
            raise ValueError(f"language must be one of {PLAYER_LANGUAGES} or ''")
        now = utcnow()
        given: dict[str, Any] = {
            k: v
            for k, v in {
                "display_name": display_name,
                "locale": locale,
                "prefers_images": prefers_images,
                "alerts": alerts,
                "language": language,
            }.items()
            if v is not None
        }
        if language == "":
            given["language"] = None
        stmt = self.db.insert(_P).values(
            user_id=user_id,
            display_name=display_name,
            locale=locale,
            prefers_images=True if prefers_images is None else prefers_images,
            alerts=alerts or "on",
            language=language or None,
            created_at=now,
            updated_at=now,
        )
        stmt = stmt.on_conflict_do_update(
            index_elements=["user_id"], set_={**given, "updated_at": now}
        ).returning(*_P.c)
        async with self.db.write() as conn:
            row = (await conn.execute(stmt)).one()
        return _player(row)

    async def get(self, user_id: int) -> PlayerInfo | None:
        """The player, or None."""
        async with self.db.read() as conn:
            row = (await conn.execute(select(_P).where(_P.c.user_id == user_id))).one_or_none()
        return None if row is None else _player(row)

    async def display_names(self, user_ids: Iterable[int]) -> dict[int, str | None]:
        """Stored display names of these users (missing users are left out)."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        async with self.db.read() as conn:
            rows = await conn.execute(
                select(_P.c.user_id, _P.c.display_name).where(_P.c.user_id.in_(wanted))
            )
            return {r.user_id: r.display_name for r in rows}
