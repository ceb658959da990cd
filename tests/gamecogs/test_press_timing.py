"""The DEBUG log of where a press's time went (:mod:`cogs.game.press_timing`)."""

from __future__ import annotations

import logging
import time
from types import SimpleNamespace

import discord
import pytest

from cogs.game.press_timing import PressClock


def _interaction() -> SimpleNamespace:
    created = discord.utils.time_snowflake(discord.utils.utcnow())
    return SimpleNamespace(id=created)


def test_each_stage_is_logged_at_debug(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="cogs.game.press_timing")
    clock = PressClock(_interaction(), "discard")
    time.sleep(0.02)
    clock.mark("act")
    clock.mark("answer")
    clock.done()
    [record] = [r for r in caplog.records if r.name == "cogs.game.press_timing"]
    text = record.getMessage()
    assert " discard: queued=" in text
    act = float(text.split("act=")[1].split()[0])
    assert act >= 20.0
    assert "answer=" in text


def test_nothing_is_logged_or_timed_above_debug(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="cogs.game.press_timing")
    clock = PressClock(_interaction(), "discard")
    clock.mark("act")
    clock.done()
    assert not clock.on
    assert not [r for r in caplog.records if r.name == "cogs.game.press_timing"]
