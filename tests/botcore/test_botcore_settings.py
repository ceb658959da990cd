"""Settings: defaults, blank values, validation, .env reading."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from botcore.settings import DEFAULT_DATABASE_URL, TOKEN_HELP, Settings, ensure_sqlite_dir

NAMES = (
    "DISCORD_TOKEN",
    "DATABASE_URL",
    "DISCORD_API_BASE",
    "DISCORD_GATEWAY_URL",
    "DEV_GUILD_ID",
    "LOG_LEVEL",
    "TURN_TIMEOUT_SECONDS",
    "CLAIM_TIMEOUT_SECONDS",
    "EXTRA_EXTENSIONS",
    "EPHEMERAL_LIFETIME_SECONDS",
    "AI_PACE_SECONDS",
    "ALERT_DELAY_SECONDS",
    "PICTURE_INLINE_WAIT_MS",
)


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, tmp_path):
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no .env around


def test_defaults() -> None:
    s = Settings()
    assert s.token is None
    assert s.database_url == DEFAULT_DATABASE_URL == "sqlite+aiosqlite:///data/mahjong.db"
    assert s.discord_api_base is None and s.discord_gateway_url is None
    assert s.dev_guild_id is None
    assert s.log_level == "INFO"
    assert (s.turn_timeout_seconds, s.claim_timeout_seconds) == (60, 15)
    assert s.extension_list == []


def test_environment_values(monkeypatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "  abc.def.ghi  ")
    monkeypatch.setenv("DISCORD_API_BASE", "http://127.0.0.1:9/api/v10/")
    monkeypatch.setenv("DISCORD_GATEWAY_URL", "ws://127.0.0.1:9/gateway")
    monkeypatch.setenv("DEV_GUILD_ID", "1234")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    monkeypatch.setenv("EXTRA_EXTENSIONS", "a.b, c ,,")
    s = Settings()
    assert s.token == "abc.def.ghi"
    assert "abc.def.ghi" not in repr(s)  # SecretStr
    assert s.discord_api_base == "http://127.0.0.1:9/api/v10"
    assert s.dev_guild_id == 1234
    assert s.log_level == "DEBUG"
    assert s.extension_list == ["a.b", "c"]


def test_blank_values_mean_unset(monkeypatch) -> None:
    for name in ("DISCORD_TOKEN", "DISCORD_API_BASE", "DISCORD_GATEWAY_URL", "DEV_GUILD_ID"):
        monkeypatch.setenv(name, "  ")
    s = Settings()
    assert s.token is None and s.discord_api_base is None and s.dev_guild_id is None


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DISCORD_API_BASE", "discord.com/api"),
        ("DISCORD_GATEWAY_URL", "http://gateway"),
        ("LOG_LEVEL", "LOUD"),
        ("TURN_TIMEOUT_SECONDS", "0"),
        ("DEV_GUILD_ID", "not-a-number"),
        ("EPHEMERAL_LIFETIME_SECONDS", "0"),
        ("EPHEMERAL_LIFETIME_SECONDS", "900"),  # Discord's token lives 15 minutes
    ],
)
def test_invalid_values_rejected(monkeypatch, name: str, value: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError):
        Settings()


def test_reads_dotenv_and_env_wins(monkeypatch, tmp_path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-file\nCLAIM_TIMEOUT_SECONDS=7\n")
    assert Settings().token == "from-file"
    assert Settings().claim_timeout_seconds == 7
    monkeypatch.setenv("DISCORD_TOKEN", "from-env")
    assert Settings().token == "from-env"


def test_token_help_says_where() -> None:
    assert "Developer Portal" in TOKEN_HELP and "Reset Token" in TOKEN_HELP
    assert "DISCORD_TOKEN" in TOKEN_HELP and ".env" in TOKEN_HELP


def test_ensure_sqlite_dir(tmp_path) -> None:
    ensure_sqlite_dir(f"sqlite+aiosqlite:///{tmp_path}/a/b/m.db")
    assert (tmp_path / "a" / "b").is_dir()
    ensure_sqlite_dir("sqlite+aiosqlite:///:memory:")
    ensure_sqlite_dir("postgresql+asyncpg://u:p@h/db")
    ensure_sqlite_dir("sqlite+aiosqlite:///data/mahjong.db")  # relative to cwd (tmp_path)
    assert (tmp_path / "data").is_dir()


def test_env_example_lists_every_setting() -> None:
    """``.env.example`` documents every setting the bot reads."""
    from pathlib import Path

    example = (Path(__file__).resolve().parents[2] / ".env.example").read_text(encoding="utf-8")
    names = {
        line.split("=", 1)[0].lstrip("# ").strip() for line in example.splitlines() if "=" in line
    }
    missing = [f.upper() for f in Settings.model_fields if f.upper() not in names]
    assert missing == []


@pytest.mark.parametrize(
    ("name", "default", "good", "bad"),
    [
        # seconds between two AI moves shown while a human plays
        ("AI_PACE_SECONDS", 0.8, ("0", "5"), ("-1", "6", "fast")),
        # seconds a player may take over a decision before its alert goes out (0: at once)
        ("ALERT_DELAY_SECONDS", 5, ("0", "2.5", "30"), ("-1", "31", "soon")),
        # ms a press's answer waits for its hand picture (0: never; the answer keeps its
        # margin of Discord's 3 s anyway)
        ("PICTURE_INLINE_WAIT_MS", 40, ("0", "2000"), ("-1", "2001", "soon")),
        # table edits per second for all games together (0: no shared budget)
        ("TABLE_EDITS_PER_SECOND", 30, ("0", "12.5", "1000"), ("-1", "1001", "many")),
        # REST requests per second for the whole bot (0: not kept; whole requests)
        ("DISCORD_REQUESTS_PER_SECOND", 45, ("0", "1", "10000"), ("-1", "10001", "12.5")),
    ],
)
def test_bounded_settings(monkeypatch, name: str, default: float, good, bad) -> None:
    """Each bounded setting: its default, the values it takes, and the values it refuses."""
    field = name.lower()
    assert getattr(Settings(), field) == default
    for value in good:
        monkeypatch.setenv(name, value)
        assert getattr(Settings(), field) == float(value)
    for value in bad:
        monkeypatch.setenv(name, value)
        with pytest.raises(ValidationError):
            Settings()
