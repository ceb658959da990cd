"""The composition root: ``MahjongBot.setup_hook`` builds the store and every service once,
from the settings; the cogs work over those objects; ``close`` closes them after the cogs
and before the Discord connection."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import discord
import pytest

from botcore.client import DEFAULT_EXTENSIONS, MahjongBot, bot_of
from botcore.settings import Settings
from cogs.delivery import pictures
from db.store import Store
from services.game import GameService


def settings_for(tmp_path: Path) -> Settings:
    return Settings(
        discord_token="t",
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'root.db'}",
        mahjong_pictures=False,
        turn_timeout_seconds=42,
        claim_timeout_seconds=7,
        ready_timeout_seconds=33,
        vote_timeout_seconds=44,
        ai_pace_seconds=0.25,
        alert_delay_seconds=2.5,
        record_expiry_hours=5,
        record_sweep_seconds=9,
        picture_inline_wait_ms=25,
    )


@pytest.fixture
async def bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(pictures, "ENABLED", pictures.ENABLED)  # restored after the test
    monkeypatch.setattr(pictures, "INLINE_WAIT", pictures.INLINE_WAIT)
    bot = MahjongBot(settings_for(tmp_path))
    await bot.compose()
    yield bot
    await bot.close()


async def test_services_are_built_once_over_one_store(bot: MahjongBot) -> None:
    store = bot.store
    assert bot.game_service.store is store
    assert bot.stats_service.store is store
    assert bot.replay_service.store is store
    assert bot.record_service.store is store
    # the game service and its Discord delivery know each other
    assert bot.game_service.delivery is bot.game_delivery
    assert bot.game_delivery.service is bot.game_service
    assert bot.game_delivery.bot is bot
    assert bot.game_delivery.store is store  # the players' and servers' stored choices


async def test_services_take_the_settings(bot: MahjongBot) -> None:
    service = bot.game_service
    assert (service.turn_timeout, service.claim_timeout) == (42.0, 7.0)
    assert (service.ready_timeout, service.vote_timeout) == (33.0, 44.0)
    assert service.ai_pace == 0.25
    assert bot.game_delivery.alerts.due.delay == 2.5
    assert bot.record_service.default_expiry == timedelta(hours=5)
    assert pictures.ENABLED is False
    assert pictures.INLINE_WAIT == 0.025  # PICTURE_INLINE_WAIT_MS


async def test_cogs_work_over_the_bots_services(bot: MahjongBot) -> None:
    for name in DEFAULT_EXTENSIONS:
        await bot.load_extension(name)
    game = bot.get_cog("Game")
    stats = bot.get_cog("Stats")
    replays = bot.get_cog("Replays")
    desk = bot.get_cog("Desk")
    assert game is not None and stats is not None and replays is not None and desk is not None
    assert game.service is bot.game_service and game.delivery is bot.game_delivery
    assert game.store is bot.store
    assert stats.service is bot.stats_service
    assert replays.service is bot.replay_service
    assert desk.store is bot.store and desk.records is bot.record_service
    assert desk.sweep_seconds == 9


async def test_close_closes_the_services_after_the_cogs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pictures, "ENABLED", pictures.ENABLED)  # compose() sets it
    monkeypatch.setattr(pictures, "INLINE_WAIT", pictures.INLINE_WAIT)
    order: list[str] = []

    def recording(cls: type, name: str, label: str) -> None:
        real = getattr(cls, name)

        async def wrapper(self: object) -> None:
            order.append(label)
            await real(self)

        monkeypatch.setattr(cls, name, wrapper)

    recording(GameService, "close", "service")
    recording(Store, "close", "store")
    recording(discord.Client, "close", "discord")
    bot = MahjongBot(settings_for(tmp_path))
    await bot.compose()
    await bot.load_extension("cogs.group")
    await bot.load_extension("cogs.game.commands")
    # an extension is a fresh module each time it loads: take the loaded cog's class
    recording(type(bot.get_cog("Game")), "cog_unload", "cog")
    await bot.close()
    # the services' last deliveries go out while the Discord connection is still open
    assert order == ["cog", "service", "store", "discord"]
    await bot.close()  # a second close (``async with bot`` after a stop signal) is harmless
    assert order.count("service") == order.count("store") == 1


def test_bot_of_refuses_another_client() -> None:
    with pytest.raises(TypeError, match="MahjongBot"):
        bot_of(discord.Client(intents=discord.Intents.none()))


async def test_a_stop_waits_for_the_interactions_being_handled() -> None:
    """A command that already answered may still write (its message's id): the stop lets it
    finish before the store closes, and gives up on one that outlives the grace."""
    import asyncio

    from botcore.client import finish_handlers

    done: list[str] = []

    async def handler(name: str, seconds: float) -> None:
        await asyncio.sleep(seconds)
        done.append(name)

    quick = asyncio.create_task(handler("command", 0.05), name="CommandTree-invoker")
    press = asyncio.create_task(handler("button", 0.05), name="discord-ui-view-dispatch-7")
    other = asyncio.create_task(handler("table edit", 30), name="mj-table-1")
    assert await finish_handlers(5.0) == 0
    assert sorted(done) == ["button", "command"] and quick.done() and press.done()
    assert not other.done()  # not an interaction: the services close it themselves
    slow = asyncio.create_task(handler("slow", 30), name="CommandTree-invoker")
    assert await finish_handlers(0.05) == 1
    for task in (other, slow):
        task.cancel()
    await asyncio.gather(other, slow, return_exceptions=True)
