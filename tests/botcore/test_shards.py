"""Shards: the SHARD_COUNT / SHARD_IDS settings, Discord's server → shard formula, the bot
class they choose (discord.py's AutoShardedBot on the chosen shards), which servers' games a
process resumes, and the game service sharing a PostgreSQL database."""

from __future__ import annotations

import os
from pathlib import Path

import discord
import pytest
from discord.ext import commands
from pydantic import ValidationError

from botcore.client import MahjongBot, ShardedMahjongBot, bot_of, make_bot
from botcore.settings import Settings
from botcore.shards import ShardSet, shard_of
from cogs.delivery import pictures
from db.store import Store
from services.engine_adapter import default_engine
from services.game import GameService

#: a server id whose time part is 1 000 001 ms: shard 1 of 2, shard 2 of 3, shard 1 of 4
GUILD = (1_000_001 << 22) | 12345


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("SHARD_COUNT", "SHARD_IDS", "DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no .env around


def test_shard_of_is_discords_formula() -> None:
    assert [shard_of(GUILD, n) for n in (1, 2, 3, 4)] == [0, 1, 2, 1]
    assert shard_of(12345, 2) == 0  # the low 22 bits (worker, increment) do not count
    with pytest.raises(ValueError):
        shard_of(GUILD, 0)


def test_shard_set_serves_its_guilds_and_dms_on_shard_0() -> None:
    odd = ShardSet.of(2, [1])
    assert odd.serves_guild(GUILD) and not odd.serves_dms
    even = ShardSet.of(2, [0])
    assert not even.serves_guild(GUILD) and even.serves_dms
    every = ShardSet.of(3)
    assert every.ids == {0, 1, 2} and every.serves_guild(GUILD) and every.serves_dms
    with pytest.raises(ValueError, match="not among"):
        ShardSet.of(2, [2])


def test_settings_unsharded_by_default() -> None:
    settings = Settings()
    assert settings.shard_count is None and settings.shards is None


def test_settings_read_shards(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARD_COUNT", "4")
    assert Settings().shards == (0, 1, 2, 3)  # no SHARD_IDS: all of them here
    monkeypatch.setenv("SHARD_IDS", " 3, 1,1 ")
    assert Settings().shards == (1, 3)
    monkeypatch.setenv("SHARD_COUNT", " ")
    monkeypatch.setenv("SHARD_IDS", "")
    assert Settings().shards is None  # a blank SHARD_COUNT= line means unsharded


@pytest.mark.parametrize(
    ("count", "ids", "message"),
    [
        (None, "0", "SHARD_IDS needs SHARD_COUNT"),
        ("2", "2", "out of range"),
        ("2", "0;1", "separated by commas"),
        ("2", "-1", "separated by commas"),
        ("0", "", "greater than or equal to 1"),
    ],
)
def test_settings_refuse_wrong_shards(
    monkeypatch: pytest.MonkeyPatch, count: str | None, ids: str, message: str
) -> None:
    if count is not None:
        monkeypatch.setenv("SHARD_COUNT", count)
    monkeypatch.setenv("SHARD_IDS", ids)
    with pytest.raises(ValidationError, match=message):
        Settings()


def settings_for(tmp_path: Path, **extra: object) -> Settings:
    return Settings(
        discord_token="t",
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'shards.db'}",
        mahjong_pictures=False,
        **extra,
    )


def test_make_bot_without_shards_is_one_connection(tmp_path: Path) -> None:
    bot = make_bot(settings_for(tmp_path))
    assert type(bot) is MahjongBot
    assert not isinstance(bot, discord.AutoShardedClient)
    assert bot.shard_set is None and bot.serves_guild(GUILD) and bot.serves_guild(1 << 22)


def test_make_bot_with_shards_runs_them_in_an_auto_sharded_bot(tmp_path: Path) -> None:
    bot = make_bot(settings_for(tmp_path, shard_count=2, shard_ids="1"))
    assert isinstance(bot, ShardedMahjongBot)
    assert isinstance(bot, commands.AutoShardedBot)
    assert bot_of(bot) is bot  # the cogs reach it as the MahjongBot
    assert (bot.shard_count, bot.shard_ids) == (2, [1])
    assert bot.serves_guild(GUILD)  # shard 1 of 2
    assert not bot.serves_guild(GUILD + (1 << 22))  # the next millisecond: shard 0


async def test_resume_only_the_games_of_this_process_servers(tmp_path: Path) -> None:
    """A sharded process resumes the unfinished games of its servers only (the Game cog
    passes ``bot.serves_guild`` to ``resume_all``; the e2e shards test runs it for real)."""
    other_guild = GUILD + (1 << 22)  # shard 0 of 2
    url = f"sqlite+aiosqlite:///{tmp_path / 'resume.db'}"
    async with await Store.open(url) as store:
        service = GameService(store, default_engine())
        ours = await service.create_game(GUILD, 10, 100, "host")
        theirs = await service.create_game(other_guild, 20, 200, "host")
        await service.close()
    for shards, wanted in (
        (ShardSet.of(2, [1]), [ours.id]),
        (ShardSet.of(2, [0]), [theirs.id]),
        (ShardSet.of(2), [ours.id, theirs.id]),
    ):
        async with await Store.open(url) as store:
            service = GameService(store, default_engine())
            resumed = await service.resume_all(shards.serves_guild)
            await service.close()
        assert sorted(g.id for g in resumed) == sorted(wanted), shards
    async with await Store.open(url) as store:
        service = GameService(store, default_engine())
        everything = await service.resume_all()  # unsharded: every game
        await service.close()
    assert sorted(g.id for g in everything) == sorted([ours.id, theirs.id])


async def test_sqlite_bot_is_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pictures, "ENABLED", pictures.ENABLED)
    bot = make_bot(settings_for(tmp_path))
    await bot.compose()
    try:
        assert bot.game_service.shared is False
    finally:
        await bot.close()


@pytest.mark.postgres
async def test_postgres_bot_shares_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL the game service joins the other processes (versioned writes,
    deadlines fired once, changes heard): a press may reach any of them."""
    url = os.environ.get("TEST_POSTGRES_URL")
    if not url:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail("TEST_POSTGRES_URL is not set, but REQUIRE_POSTGRES=1")
        pytest.skip("TEST_POSTGRES_URL is not set")
    monkeypatch.setattr(pictures, "ENABLED", pictures.ENABLED)
    settings = Settings(discord_token="t", database_url=url, mahjong_pictures=False)
    bot = make_bot(settings)
    await bot.compose()
    try:
        assert bot.game_service.shared is True
    finally:
        await bot.close()
    assert bot.game_service.shared is False  # closing left the cluster
