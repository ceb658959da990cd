"""A press answered in time however long its work takes (按键应答).

Discord drops an interaction that is not answered within 3 s ("This interaction failed"),
and a press may wait longer than that for its work: another writer holding the database's
lock, a loaded machine. Work run under :func:`deferred_when_late` that has not finished
:data:`DEFER_AFTER` seconds after Discord created the interaction gets the press
acknowledged (deferred) then; its outcome follows as an edit of the pressed message
(:func:`edit_pressed`) or a follow-up (``cogs.game.commands.answer``) — never lost to the deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

import discord

log = logging.getLogger(__name__)

#: Seconds after the interaction's creation (Discord's clock, its id) at which a press whose
#: work is still running is deferred: early enough for the 3 s deadline under load.
DEFER_AFTER = 2.0


def _age(interaction: discord.Interaction) -> float:
    return max(0.0, time.time() - discord.utils.snowflake_time(interaction.id).timestamp())


@contextlib.asynccontextmanager
async def deferred_when_late(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Run the block; defer the interaction if the block is still running
    :data:`DEFER_AFTER` seconds after the interaction was created. On leaving, a deferral
    under way is finished first (the answer that follows must come after it)."""
    deferring = False

    async def defer_when_late() -> None:
        nonlocal deferring
        await asyncio.sleep(max(0.0, DEFER_AFTER - _age(interaction)))
        if interaction.response.is_done():
            return
        deferring = True
        try:
            await interaction.response.defer()
        except discord.HTTPException as error:
            log.warning("could not defer interaction %s: %s", interaction.id, error)

    timer = asyncio.create_task(defer_when_late(), name=f"defer-{interaction.id}")
    try:
        yield
    finally:
        if not deferring:
            timer.cancel()
        await asyncio.gather(timer, return_exceptions=True)


async def edit_pressed(interaction: discord.Interaction, **fields: Any) -> None:
    """Edit the message whose button was pressed: as the answer, or — the press already
    deferred — as an edit of it."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**fields)
    else:
        await interaction.response.edit_message(**fields)


async def acknowledge(interaction: discord.Interaction) -> None:
    """Acknowledge the press without changing anything (nothing when it already was)."""
    if not interaction.response.is_done():
        await interaction.response.defer()


__all__ = ["DEFER_AFTER", "acknowledge", "deferred_when_late", "edit_pressed"]
