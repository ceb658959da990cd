"""Test-only extension (loaded through ``EXTRA_EXTENSIONS`` after ``cogs.game.commands``): hands are
dealt from the seeds in ``E2E_SEEDS`` (comma-separated, used in turn, the last one again
when they run out), so a test can play a wall it chose. Nothing happens at import."""

from __future__ import annotations

import os

from botcore.client import MahjongBot


async def setup(bot: MahjongBot) -> None:
    """Extension entry point: replace the game service's seed source."""
    seeds = [s.strip() for s in os.environ.get("E2E_SEEDS", "").split(",") if s.strip()]
    if not seeds:
        return
    service = bot.game_service
    queue = list(seeds)

    def next_seed() -> str:
        return queue.pop(0) if len(queue) > 1 else queue[0]

    service.new_seed = next_seed
