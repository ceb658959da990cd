"""Start the Jiangxi mahjong Discord bot: ``python bot.py``.

Settings come from the environment and ``.env`` (see ``.env.example``). Exit codes:
0 after a clean stop, 1 on a start-up failure (rejected token, missing intents, a damaged
SQLite file, another bot process on it, …), 2 when no token is configured.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys

import discord
from pydantic import ValidationError

from botcore.client import make_bot
from botcore.discord_urls import apply_discord_urls
from botcore.event_loop import run
from botcore.gc_tuning import tune_gc
from botcore.logging import setup_logging
from botcore.settings import TOKEN_HELP, TOKEN_WHERE, Settings, ensure_sqlite_dir
from db.preflight import DatabaseRefused, preflight

log = logging.getLogger("bot")

EXIT_FAILURE = 1
EXIT_NO_TOKEN = 2


async def run_bot(settings: Settings, token: str) -> int:
    """Log in, load cogs, sync commands and serve until stopped (SIGINT/SIGTERM)."""
    bot = make_bot(settings)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # Windows
            loop.add_signal_handler(sig, stop.set)
    async with bot:
        runner = asyncio.create_task(bot.start(token), name="discord-client")
        stopper = asyncio.create_task(stop.wait(), name="stop-signal")
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stopper in done:
            log.info("Stop signal received; closing")
            await bot.close()
            runner.cancel()
            await asyncio.gather(runner, return_exceptions=True)
            return 0
        stopper.cancel()
        try:
            runner.result()
        except discord.LoginFailure:
            log.error("Discord rejected the token (401 Unauthorized). %s", TOKEN_WHERE)
            return EXIT_FAILURE
        except discord.PrivilegedIntentsRequired:
            log.error("Discord refused the intents: enable them in the Developer Portal → Bot.")
            return EXIT_FAILURE
    return 0


def main() -> int:
    """Entry point; returns the process exit code."""
    try:
        settings = Settings()
    except ValidationError as exc:
        print(f"Invalid settings:\n{exc}", file=sys.stderr)
        return EXIT_FAILURE
    token = settings.token
    if token is None:
        print(TOKEN_HELP, file=sys.stderr)
        return EXIT_NO_TOKEN
    setup_logging(settings.log_level, secrets=[token])
    ensure_sqlite_dir(settings.database_url)
    try:
        # held until the process ends: a second bot on this SQLite file is refused
        db_lock = preflight(settings.database_url)
    except DatabaseRefused as refused:
        log.error("%s", refused)
        return EXIT_FAILURE
    apply_discord_urls(settings.discord_api_base, settings.discord_gateway_url)
    if settings.gc_tuning:
        tune_gc()
    try:
        return run(run_bot(settings, token), use_uvloop=settings.uvloop)
    except KeyboardInterrupt:
        return 0
    finally:
        if db_lock is not None:
            db_lock.close()


if __name__ == "__main__":
    sys.exit(main())
