"""Settings read from the environment and ``.env`` (pydantic-settings).

Every field is documented in ``.env.example``. Environment variables win over ``.env``.
"""

from __future__ import annotations

import logging
from pathlib import Path

from pydantic import Field, SecretStr, field_validator
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
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    turn_timeout_seconds: int = Field(default=60, gt=0, le=3600)
    claim_timeout_seconds: int = Field(default=15, gt=0, le=600)
    mahjong_pictures: bool = True
    record_expiry_hours: float = Field(default=24, gt=0, le=24 * 30)
    record_sweep_seconds: float = Field(default=60, gt=0, le=3600)
    ephemeral_lifetime_seconds: float = Field(default=840, gt=0, le=840)
    ai_pace_seconds: float = Field(default=0.8, ge=0, le=5)
    ready_timeout_seconds: int = Field(default=60, gt=0, le=3600)
    vote_timeout_seconds: int = Field(default=60, gt=0, le=3600)
    extra_extensions: str = ""

    @field_validator("discord_token", mode="before")
    @classmethod
    def _blank_token_is_none(cls, value: object) -> object:
        """An empty or blank ``DISCORD_TOKEN=`` line means "no token"."""
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("discord_api_base", "discord_gateway_url", "dev_guild_id", mode="before")
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


def ensure_sqlite_dir(database_url: str) -> None:
    """Create the folder of a file-based SQLite database (``data/`` by default) if missing."""
    prefix, sep, path = database_url.partition(":///")
    if not sep or not prefix.startswith("sqlite") or path in ("", ":memory:"):
        return
    Path(path.split("?", 1)[0]).parent.mkdir(parents=True, exist_ok=True)
