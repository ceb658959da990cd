"""Command sync at start: one process syncs the application commands (the one running
shard 0, or the single unsharded process) unless ``SYNC_COMMANDS`` says otherwise."""

from __future__ import annotations

from typing import Any

import pytest

from botcore.client import MahjongBot, syncs_commands
from botcore.settings import Settings


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    for name in ("SHARD_COUNT", "SHARD_IDS", "SYNC_COMMANDS", "DEV_GUILD_ID"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no .env around


@pytest.mark.parametrize(
    ("env", "syncs"),
    [
        ({}, True),  # one unsharded process
        ({"SHARD_COUNT": "2"}, True),  # one process running both shards
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0"}, True),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, False),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "2,3"}, False),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3,0"}, True),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1", "SYNC_COMMANDS": "true"}, True),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0", "SYNC_COMMANDS": "false"}, False),
        ({"SYNC_COMMANDS": "false"}, False),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1", "SYNC_COMMANDS": " "}, False),  # blank = auto
    ],
)
def test_which_process_syncs(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], syncs: bool
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert syncs_commands(Settings()) is syncs


async def _synced_by(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    bot = MahjongBot(settings)
    calls: list[Any] = []

    async def sync(*, guild: Any = None) -> list[Any]:
        calls.append(guild)
        return []

    monkeypatch.setattr(bot.tree, "sync", sync)
    await bot.sync_commands()
    return calls


async def test_only_the_deciding_process_calls_discord(monkeypatch: pytest.MonkeyPatch) -> None:
    assert await _synced_by(Settings(shard_count=2, shard_ids="0"), monkeypatch) == [None]
    assert await _synced_by(Settings(shard_count=2, shard_ids="1"), monkeypatch) == []
    dev = await _synced_by(Settings(dev_guild_id=55, sync_commands=True), monkeypatch)
    assert [g.id for g in dev] == [55]
