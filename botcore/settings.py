"""Settings read from the environment and ``.env`` (pydantic-settings).

Every field is documented in ``.env.example``. Environment variables win over ``.env``.
"""

from __future__ import annotations

import logging
from pathlib import Path

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///data/mahjong.db"

TOKEN_WHERE = (
    "Get a token in the Discord Developer Portal "
    "(https://discord.com/developers/applications → your application → Bot → Reset Token) "
    "and put it in .env as DISCORD_TOKEN=... (or set the DISCORD_TOKEN environment variable)."
)
TOKEN_HELP = "No Discord bot token found (DISCORD_TOKEN is empty). " + TOKEN_WHERE


class Settings(BaseSettings):
    """All settings of the bot process."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        case_sensitive=False,
    )

    discord_token: SecretStr | None = None
    database_url: str = DEFAULT_DATABASE_URL
    #: seconds a write waits for a lock held elsewhere before the press is refused as busy
    #: (db.errors.StoreBusy: "not recorded, press again") — under Discord's 3 s answer limit
    database_lock_timeout_seconds: float = Field(default=2.5, gt=0, le=600)
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    turn_timeout_seconds: int = Field(default=60, gt=0, le=3600)
    claim_timeout_seconds: int = Field(default=15, gt=0, le=600)
    mahjong_pictures: bool = True
    #: milliseconds a button press's answer waits for the pressed hand's new picture
    #: (``PICTURE_INLINE_WAIT_MS``): ready by then, the answer carries it (one request);
    #: else the answer goes without it and the picture follows in a second edit. 0 = never
    #: wait. Never past Discord's 3 s answer deadline, whatever the value.
    picture_inline_wait_ms: int = Field(default=40, ge=0, le=2000)
    record_expiry_hours: float = Field(default=24, gt=0, le=24 * 30)
    record_sweep_seconds: float = Field(default=60, gt=0, le=3600)
    ephemeral_lifetime_seconds: float = Field(default=840, gt=0, le=840)
    ai_pace_seconds: float = Field(default=0.8, ge=0, le=5)
    #: seconds every discard shows its claim window (等待吃碰杠胡…) while a human sits at the
    #: table, whoever may claim, drawn within ±1/3 of this each time (``CLAIM_HOLD_SECONDS``;
    #: :mod:`services.reveal`): only thinking beyond it is visible. 0 = windows show only
    #: while someone may claim, which tells the table a human could
    claim_hold_seconds: float = Field(default=1.5, ge=0, le=5)
    #: seconds a player may take over a decision before its turn / claim alert goes out
    #: (``ALERT_DELAY_SECONDS``): one who acts sooner is not pinged; 0 = alert at once
    alert_delay_seconds: float = Field(default=5, ge=0, le=30)
    #: REST requests per second for the whole bot (``DISCORD_REQUESTS_PER_SECOND``): Discord
    #: allows a bot about 50 (interaction answers and webhooks aside) and answers a global 429
    #: past it; the bot keeps under this many, players' requests first and the coalesced table
    #: edits with what is left (:mod:`botcore.request_budget`). 0 = not kept
    discord_requests_per_second: int = Field(default=45, ge=0, le=10_000)
    #: table messages edited per second for all games together (``TABLE_EDITS_PER_SECOND``),
    #: and never more than the request budget leaves: with more tables playing than this
    #: allows every 2 s, each table is edited less often (never more than 10 s behind while
    #: the budget has room). 0 = no cap of its own (every table every 2 s, budget permitting)
    table_edits_per_second: float = Field(default=30, ge=0, le=1000)
    #: seconds between two tries of a game channel that refuses the bot (403 Missing
    #: Permissions) when no gateway event said its permissions returned
    #: (``CHANNEL_PROBE_SECONDS``): one request per such channel per probe
    channel_probe_seconds: float = Field(default=60, ge=0.5, le=3600)
    ready_timeout_seconds: int = Field(default=60, gt=0, le=3600)
    vote_timeout_seconds: int = Field(default=60, gt=0, le=3600)
    extra_extensions: str = ""
    #: Discord gateway shards: how many the bot has in all (``SHARD_COUNT``) and which of them
    #: this process runs (``SHARD_IDS``, comma-separated; empty = all). None = one unsharded
    #: connection (the default).
    shard_count: int | None = Field(default=None, ge=1, le=100_000)
    shard_ids: str = ""
    #: Sync the application commands with Discord at start (``SYNC_COMMANDS``): empty = only
    #: in the process that runs shard 0 (or the one unsharded process), so that several
    #: processes starting together do not all sync; ``true`` / ``false`` decide it here.
    sync_commands: bool | None = None
    #: Run on uvloop, a faster event loop, when it is installed (``UVLOOP``; false keeps
    #: asyncio's own loop).
    uvloop: bool = True
    #: Tune the garbage collector for a long-running bot (``GC_TUNING``; false keeps
    #: CPython's defaults, :mod:`botcore.gc_tuning`).
    gc_tuning: bool = True

    @field_validator("discord_token", mode="before")
    @classmethod
    def _blank_token_is_none(cls, value: object) -> object:
        """An empty or blank ``DISCORD_TOKEN=`` line means "no token"."""
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator(
        "discord_api_base",
        "discord_gateway_url",
        "dev_guild_id",
        "shard_count",
        "sync_commands",
        mode="before",
    )
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("discord_api_base")
    @classmethod
    def _check_api_base(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if not value.startswith(("http://", "https://")):
            raise ValueError("DISCORD_API_BASE must start with http:// or https://")
        return value.rstrip("/")

    @field_validator("discord_gateway_url")
    @classmethod
    def _check_gateway(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if not value.startswith(("ws://", "wss://")):
            raise ValueError("DISCORD_GATEWAY_URL must start with ws:// or wss://")
        return value

    @field_validator("log_level")
    @classmethod
    def _check_level(cls, value: str) -> str:
        level = value.strip().upper()
        if not isinstance(logging.getLevelName(level), int):
            raise ValueError(f"LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR; got {value!r}")
        return level

    @model_validator(mode="after")
    def _check_shards(self) -> Settings:
        ids = _parse_shard_ids(self.shard_ids)
        if ids and self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (how many shards the bot has in all)")
        wrong = [i for i in ids if self.shard_count is not None and i >= self.shard_count]
        if wrong:
            raise ValueError(
                f"SHARD_IDS {wrong} out of range: shard ids run from 0 to SHARD_COUNT - 1 "
                f"({self.shard_count} shards)"
            )
        return self

    @property
    def shards(self) -> tuple[int, ...] | None:
        """The shard ids this process runs (all of ``SHARD_COUNT`` when ``SHARD_IDS`` is
        empty), or None when the bot is not sharded."""
        if self.shard_count is None:
            return None
        return _parse_shard_ids(self.shard_ids) or tuple(range(self.shard_count))

    @property
    def token(self) -> str | None:
        """The token as plain text (only for logging in; never log it)."""
        if self.discord_token is None:
            return None
        return self.discord_token.get_secret_value().strip() or None

    @property
    def extension_list(self) -> list[str]:
        """``EXTRA_EXTENSIONS`` split on commas: extra discord.py extensions to load."""
        return [name.strip() for name in self.extra_extensions.split(",") if name.strip()]


def _parse_shard_ids(text: str) -> tuple[int, ...]:
    """``"0, 2,3"`` → ``(0, 2, 3)`` (sorted, each once); ValueError on anything else."""
    ids: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if not part.isdigit():
            raise ValueError(f"SHARD_IDS must be shard numbers separated by commas; got {text!r}")
        ids.add(int(part))
    return tuple(sorted(ids))


def ensure_sqlite_dir(database_url: str) -> None:
    """Create the folder of a file-based SQLite database (``data/`` by default) if missing."""
    prefix, sep, path = database_url.partition(":///")
    if not sep or not prefix.startswith("sqlite") or path in ("", ":memory:"):
        return
    Path(path.split("?", 1)[0]).parent.mkdir(parents=True, exist_ok=True)
