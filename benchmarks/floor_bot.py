"""The floor bot: the least a bot on this stack does for a press (the cost yardstick).

``python benchmarks/floor_bot.py`` — run by ``python -m tests.e2e.loadtest_bot --floor`` (or
``--with-floor``) against the fake Discord, with the real bot's environment (``DISCORD_TOKEN``,
``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL``, ``DATABASE_URL``, ``LOG_LEVEL``, ``UVLOOP``).
It imports nothing of the bot: discord.py 2, SQLAlchemy async + aiosqlite, and this file.

``/floor`` answers with one message, ``presses: 0``, and a button. Each press of it:

1. defers the interaction as an update (``interaction.response.defer()``: callback type 6);
2. inserts one row (``presses``: message, user, when) through SQLAlchemy async + aiosqlite,
   on the one pooled connection, committed (WAL, like the bot's database; synchronous left
   at SQLite's default, FULL — the bot's too);
3. edits the message once (``presses: N``, the button kept) through the interaction's
   webhook (``edit_original_response``).

The event loop is the bot's (uvloop when installed, ``UVLOOP=false`` keeps asyncio's): a
floor on the same stack. Nothing else: no cache of its own, no logging per press, the
collector at CPython's defaults. It logs ``Bot ready:`` as the harness expects.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import time
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl
from discord import app_commands
from sqlalchemy import Column, Float, Integer, MetaData, Table, insert
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

log = logging.getLogger("floor_bot")

PRESS_ID = "floor:press"

metadata = MetaData()
presses = Table(
    "presses",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("message_id", Integer, nullable=False),
    Column("user_id", Integer, nullable=False),
    Column("at", Float, nullable=False),
)


def shown(count: int) -> str:
    return f"presses: {count}"


def count_of(content: str | None) -> int:
    """The count a message shows (``presses: N``), 0 when it shows none."""
    try:
        return int((content or "").rsplit(" ", 1)[-1])
    except ValueError:
        return 0


class PressView(discord.ui.View):
    """The button, persistent (``custom_id`` fixed, no timeout): one instance for every
    message."""

    def __init__(self, engine: AsyncEngine) -> None:
        super().__init__(timeout=None)
        self.engine = engine

    @discord.ui.button(label="Press", custom_id=PRESS_ID, style=discord.ButtonStyle.primary)
    async def press(
        self, interaction: discord.Interaction, _button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.defer()  # a component: a deferred update (type 6)
        message = interaction.message
        assert message is not None
        async with self.engine.begin() as conn:  # committed on leaving
            await conn.execute(
                insert(presses).values(
                    message_id=message.id, user_id=interaction.user.id, at=time.time()
                )
            )
        await interaction.edit_original_response(
            content=shown(count_of(message.content) + 1), view=self
        )


class FloorBot(discord.Client):
    def __init__(self, engine: AsyncEngine) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(intents=intents)
        self.engine = engine
        self.tree = app_commands.CommandTree(self)
        self.view = PressView(engine)

        @self.tree.command(name="floor", description="Post a message with a button to press")
        async def floor(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(shown(0), view=self.view)

    async def setup_hook(self) -> None:
        async with self.engine.begin() as conn:
            await conn.exec_driver_sql("PRAGMA journal_mode=WAL")
            await conn.run_sync(metadata.create_all)
        self.add_view(self.view)
        synced = await self.tree.sync()
        log.info("Synced %d global command(s)", len(synced))

    async def on_ready(self) -> None:
        log.info("Bot ready: logged in as %s (id %s)", self.user, self.user and self.user.id)


def point_at(api_base: str | None, gateway_url: str | None) -> None:
    """The fake Discord's (or a proxy's) URLs, as the bot does (botcore.discord_urls)."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


async def serve(token: str, database_url: str) -> int:
    engine = create_async_engine(database_url, pool_size=1, max_overflow=0)
    bot = FloorBot(engine)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    try:
        async with bot:
            runner = asyncio.create_task(bot.start(token))
            stopper = asyncio.create_task(stop.wait())
            await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if not runner.done():
                await bot.close()
            runner.cancel()
            stopper.cancel()
            await asyncio.gather(runner, stopper, return_exceptions=True)
    finally:
        await engine.dispose()
    return 0


def main() -> int:
    logging.basicConfig(
        level=os.environ.get("LOG_LEVEL", "INFO").upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    token = os.environ.get("DISCORD_TOKEN")
    if not token:
        print("DISCORD_TOKEN is not set", file=sys.stderr)
        return 2
    point_at(os.environ.get("DISCORD_API_BASE"), os.environ.get("DISCORD_GATEWAY_URL"))
    database_url = os.environ.get("DATABASE_URL") or "sqlite+aiosqlite:///floor.db"
    factory = None
    if os.environ.get("UVLOOP", "true").lower() not in ("0", "false", "no", "off"):
        with contextlib.suppress(ImportError):
            import uvloop

            factory = uvloop.new_event_loop
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(serve(token, database_url))


if __name__ == "__main__":
    sys.exit(main())
