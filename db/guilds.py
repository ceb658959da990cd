"""Server settings, seasons (赛季) and players."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Row

from db.games import GamesMixin
from db.models import Guild, Player, Season, utcnow
from db.types import GuildSettings, PlayerInfo, SeasonInfo
from engine.options import VARIANTS

_GU = Guild.__table__
_P = Player.__table__
_SE = Season.__table__
SETTING_FIELDS = (
    "default_variant",
    "rule_options",
    "turn_timeout",
    "claim_timeout",
    "language",
    "hints",
    "current_season",
    "record_expiry_hours",
    "thread",
    "ai_pace",
    "length",
    "ready_timeout",
    "vote_timeout",
)
#: A player's turn alerts: turns and claims, claims only, none.
ALERT_MODES = ("on", "claims", "off")
#: The slowest AI pace a server may choose (seconds per AI action).
MAX_AI_PACE = 5.0
#: Languages of a server's public messages.
LANGUAGES = ("zh", "en", "zh+en")
#: A new game's length: hands, or rounds (圈) (see :mod:`services.session_state`).
LENGTHS = ("4", "8", "16", "1圈", "2圈", "4圈")
#: The 准备 and 解散 timeouts a server may choose (seconds).
SESSION_TIMEOUTS = (3, 3600)
#: The longest a physical record may wait for confirmations (30 days).
MAX_RECORD_EXPIRY_HOURS = 24 * 30


def _check_setting_values(changes: dict[str, Any]) -> None:
    """Refuse a value no reader of the settings could use (a setting that reaches the
    store must never break ``/mahjong new`` or ``/mahjong score`` later)."""
    variant = changes.get("default_variant", VARIANTS[0])
    if variant not in VARIANTS:
        raise ValueError(f"default_variant must be one of {', '.join(VARIANTS)}")
    if changes.get("language", LANGUAGES[0]) not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}")
    if not isinstance(changes.get("hints", True), bool):
        raise ValueError("hints must be true or false")
    if changes.get("length", LENGTHS[1]) not in LENGTHS:
        raise ValueError(f"length must be one of {', '.join(LENGTHS)} (圈 = rounds)")
    low, high = SESSION_TIMEOUTS
    for name in ("ready_timeout", "vote_timeout"):
        value = changes.get(name, low)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise ValueError(f"{name} must be {low} to {high} seconds")
    rules = changes.get("rule_options", {})
    if not isinstance(rules, dict) or not all(
        name in VARIANTS and isinstance(values, dict) for name, values in rules.items()
    ):
        raise ValueError("rule_options must map a known variant to its options")


def _settings(row: Row[Any]) -> GuildSettings:
    values = {f: getattr(row, f) for f in SETTING_FIELDS}
    if values["default_variant"] not in VARIANTS:  # stored before values were checked
        values["default_variant"] = VARIANTS[0]
    if values["length"] not in LENGTHS:
        values["length"] = LENGTHS[1]
    return GuildSettings(guild_id=row.id, **values)


def _player(row: Row[Any]) -> PlayerInfo:
    return PlayerInfo(
        user_id=row.user_id,
        display_name=row.display_name,
        locale=row.locale,
        prefers_images=row.prefers_images,
        alerts=row.alerts if row.alerts in ALERT_MODES else "on",
    )


class GuildsMixin(GamesMixin):
    """Per-server settings, seasons and the players table."""

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (the defaults when it never changed any)."""
        async with self._read() as conn:
            row = (await conn.execute(select(_GU).where(_GU.c.id == guild_id))).one_or_none()
        return GuildSettings(guild_id=guild_id) if row is None else _settings(row)

    async def update_guild_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some settings: ``default_variant``, ``rule_options`` (``{variant: {...}}``),
        ``turn_timeout``, ``claim_timeout``, ``language``, ``hints``,
        ``record_expiry_hours`` (``None`` = the bot's default), ``thread``, ``ai_pace``
        (seconds, ``None`` = the bot's default), ``length`` (:data:`LENGTHS`),
        ``ready_timeout``, ``vote_timeout`` (seconds). Returns all of them."""
        unknown = set(changes) - set(SETTING_FIELDS) | ({"current_season"} & set(changes))
        if unknown:
            raise ValueError(f"unknown or read-only guild settings: {sorted(unknown)}")
        for name in ("turn_timeout", "claim_timeout"):
            if name in changes and (not isinstance(changes[name], int) or changes[name] <= 0):
                raise ValueError(f"{name} must be a positive number of seconds")
        _check_setting_values(changes)
        hours = changes.get("record_expiry_hours")
        if hours is not None and (
            not isinstance(hours, int | float)
            or isinstance(hours, bool)
            or not 0 < hours <= MAX_RECORD_EXPIRY_HOURS
        ):
            raise ValueError(
                f"record_expiry_hours must be more than 0 and at most {MAX_RECORD_EXPIRY_HOURS}"
            )
        pace = changes.get("ai_pace")
        if pace is not None and (
            not isinstance(pace, int | float)
            or isinstance(pace, bool)
            or not 0 <= pace <= MAX_AI_PACE
        ):
            raise ValueError(f"ai_pace must be between 0 and {MAX_AI_PACE} seconds")
        async with self._write() as conn:
            await self._ensure_guild(conn, guild_id)
            row = (
                await conn.execute(
                    update(_GU)
                    .where(_GU.c.id == guild_id)
                    .values(**changes, updated_at=utcnow())
                    .returning(*_GU.c)
                )
            ).one()
        return _settings(row)

    async def start_season(self, guild_id: int, *, now: datetime | None = None) -> SeasonInfo:
        """Start the server's next season; older seasons stay queryable by number."""
        now = now or utcnow()
        async with self._write() as conn:
            await self._ensure_guild(conn, guild_id)
            current = (
                await conn.execute(
                    select(_GU.c.current_season).where(_GU.c.id == guild_id).with_for_update()
                )
            ).scalar_one()
            number = current + 1
            await conn.execute(
                update(_GU)
                .where(_GU.c.id == guild_id)
                .values(current_season=number, updated_at=now)
            )
            await conn.execute(
                _SE.insert().values(guild_id=guild_id, number=number, started_at=now)
            )
        return SeasonInfo(guild_id=guild_id, number=number, started_at=now)

    async def list_seasons(self, guild_id: int) -> list[SeasonInfo]:
        """The server's seasons, oldest first (season 1 starts with the server's first use)."""
        async with self._read() as conn:
            rows = await conn.execute(
                select(_SE).where(_SE.c.guild_id == guild_id).order_by(_SE.c.number)
            )
            return [SeasonInfo(r.guild_id, r.number, r.started_at) for r in rows]

    async def upsert_player(
        self,
        user_id: int,
        *,
        display_name: str | None = None,
        locale: str | None = None,
        prefers_images: bool | None = None,
        alerts: str | None = None,
    ) -> PlayerInfo:
        """Create or update a player; fields left None keep their stored value. ``alerts``:
        one of :data:`ALERT_MODES`."""
        if alerts is not None and alerts not in ALERT_MODES:
            raise ValueError(f"alerts must be one of {ALERT_MODES}")
        now = utcnow()
        given = {
            k: v
            for k, v in {
                "display_name": display_name,
                "locale": locale,
                "prefers_images": prefers_images,
                "alerts": alerts,
            }.items()
            if v is not None
        }
        stmt = self._insert(_P).values(
            user_id=user_id,
            display_name=display_name,
            locale=locale,
            prefers_images=True if prefers_images is None else prefers_images,
            alerts=alerts or "on",
            created_at=now,
            updated_at=now,
        )
        stmt = stmt.on_conflict_do_update(
            index_elements=["user_id"], set_={**given, "updated_at": now}
        ).returning(*_P.c)
        async with self._write() as conn:
            row = (await conn.execute(stmt)).one()
        return _player(row)

    async def get_player(self, user_id: int) -> PlayerInfo | None:
        """The player, or None."""
        async with self._read() as conn:
            row = (await conn.execute(select(_P).where(_P.c.user_id == user_id))).one_or_none()
        return None if row is None else _player(row)
