"""Server settings and seasons (赛季) (``store.guilds``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Row
from sqlalchemy.ext.asyncio import AsyncConnection

from db.base import Database
from db.models import Guild, Season, utcnow
from db.types import GuildSettings, SeasonInfo
from engine.options import VARIANTS
from engine.refusal import Reason

_GU = Guild.__table__
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
#: The slowest AI pace a server may choose (seconds per AI action).
MAX_AI_PACE = 5.0
#: Languages of a server's public messages.
LANGUAGES = ("zh", "zh-TW", "en", "zh+en")  # 简体, 繁體, English, both (i18n.SERVER_LANGUAGES)
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
        raise ValueError(
            Reason(
                "errors.setting.one_of",
                "{name} must be one of {allowed}",
                name="default_variant",
                allowed=", ".join(VARIANTS),
            )
        )
    if changes.get("language", LANGUAGES[0]) not in LANGUAGES:
        raise ValueError(
            Reason(
                "errors.setting.one_of",
                "{name} must be one of {allowed}",
                name="language",
                allowed=", ".join(LANGUAGES),
            )
        )
    if not isinstance(changes.get("hints", True), bool):
        raise ValueError(
            Reason("errors.setting.bool", "{name} must be true or false", name="hints")
        )
    if changes.get("length", LENGTHS[1]) not in LENGTHS:
        raise ValueError(
            Reason(
                "errors.setting.length",
                "length must be one of {allowed} (圈 = rounds)",
                allowed=", ".join(LENGTHS),
            )
        )
    low, high = SESSION_TIMEOUTS
    for name in ("ready_timeout", "vote_timeout"):
        value = changes.get(name, low)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise ValueError(
                Reason(
                    "errors.setting.seconds",
                    "{name} must be {low} to {high} seconds",
                    name=name,
                    low=low,
                    high=high,
                )
            )
    rules = changes.get("rule_options", {})
    if not isinstance(rules, dict) or not all(
        name in VARIANTS and isinstance(values, dict) for name, values in rules.items()
    ):
        raise ValueError(
            Reason("errors.setting.rules", "rule_options must map a known variant to its options")
        )


def _settings(row: Row[Any]) -> GuildSettings:
    values = {f: getattr(row, f) for f in SETTING_FIELDS}
    if values["default_variant"] not in VARIANTS:  # stored before values were checked
        values["default_variant"] = VARIANTS[0]
    if values["length"] not in LENGTHS:
        values["length"] = LENGTHS[1]
    return GuildSettings(guild_id=row.id, **values)


async def ensure_guild(db: Database, conn: AsyncConnection, guild_id: int) -> None:
    """Create the server's row (and its season 1) the first time it is used, inside the
    caller's write transaction."""
    now = utcnow()
    stmt = db.insert(_GU).values(id=guild_id, rule_options={}, created_at=now, updated_at=now)
    created = await conn.execute(
        stmt.on_conflict_do_nothing(index_elements=["id"]).returning(_GU.c.id)
    )
    if created.one_or_none() is not None:
        await conn.execute(_SE.insert().values(guild_id=guild_id, number=1, started_at=now))


class GuildRepository:
    """Per-server settings and seasons (``store.guilds``)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (the defaults when it never changed any)."""
        async with self.db.read() as conn:
            row = (await conn.execute(select(_GU).where(_GU.c.id == guild_id))).one_or_none()
        return GuildSettings(guild_id=guild_id) if row is None else _settings(row)

    async def update_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
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
        async with self.db.write() as conn:
            await ensure_guild(self.db, conn, guild_id)
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
        async with self.db.write() as conn:
            await ensure_guild(self.db, conn, guild_id)
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

    async def seasons(self, guild_id: int) -> list[SeasonInfo]:
        """The server's seasons, oldest first (season 1 starts with the server's first use)."""
        async with self.db.read() as conn:
            rows = await conn.execute(
                select(_SE).where(_SE.c.guild_id == guild_id).order_by(_SE.c.number)
            )
            return [SeasonInfo(r.guild_id, r.number, r.started_at) for r in rows]
