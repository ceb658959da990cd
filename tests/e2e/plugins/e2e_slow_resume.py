"""Test-only extension (``EXTRA_EXTENSIONS``): the resume after a start waits
``E2E_RESUME_DELAY`` seconds before it loads the games, as a resume of many games (or a
slow disk) takes seconds; commands arriving meanwhile meet a bot that is online and has not
loaded its games yet. Nothing happens at import."""

from __future__ import annotations

import asyncio
import os
from typing import Any

from botcore.client import MahjongBot


async def setup(bot: MahjongBot) -> None:
    """Extension entry point: slow the game service's resume down."""
    delay = float(os.environ.get("E2E_RESUME_DELAY", "0") or 0)
    service = bot.game_service
    resume_all = service.resume_all

    async def slow_resume_all(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(delay)
        return await resume_all(*args, **kwargs)

    service.resume_all = slow_resume_all  # type: ignore[method-assign]
