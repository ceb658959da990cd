"""Where the time of one press goes, logged at DEBUG on ``cogs.game.press_timing`` (off otherwise).

One line per press: ``queued`` (Discord created the interaction → its handler began: the
gateway, discord.py, the event loop), then each stage the handler marks (the service call,
the picture, the HTTP answer) in milliseconds. Benchmarks turn it on to see where a slow
answer's time went (``python -m tests.e2e.loadtest_bot``); costs nothing when off.
"""

from __future__ import annotations

import logging
import time

import discord

log = logging.getLogger(__name__)


class PressClock:
    """The stages of one press: ``mark(stage)`` after each, ``done()`` logs them."""

    def __init__(self, interaction: discord.Interaction, what: str) -> None:
        self.on = log.isEnabledFor(logging.DEBUG)
        if not self.on:
            return
        self.what = what
        self.interaction_id = interaction.id
        now = time.time()
        self.queued_ms = (now - discord.utils.snowflake_time(interaction.id).timestamp()) * 1000
        self.last = time.perf_counter()
        self.stages: list[tuple[str, float]] = []

    def mark(self, stage: str) -> None:
        """``stage`` ended now (its time: since the previous mark)."""
        if not self.on:
            return
        now = time.perf_counter()
        self.stages.append((stage, (now - self.last) * 1000))
        self.last = now

    def done(self) -> None:
        if not self.on:
            return
        parts = " ".join(f"{stage}={ms:.1f}" for stage, ms in self.stages)
        log.debug(
            "press %s %s: queued=%.0f %s", self.interaction_id, self.what, self.queued_ms, parts
        )
