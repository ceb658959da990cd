"""The bot's views are never kept by discord.py's view store (their presses are routed by
custom_id): a message sent or edited with one leaves nothing behind in memory."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.components import RoutedView
from cogs.replay.buttons import result_view


def _payload(message_id: int, channel_id: int, components: Any = ()) -> dict[str, Any]:
    return {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "author": {"id": "9", "username": "bot", "discriminator": "0", "avatar": None},
        "content": "",
        "timestamp": "2026-12-05T00:00:00+00:00",
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": False,
        "type": 0,
        "components": list(components),
    }


@pytest.fixture
async def client() -> Any:
    bot = discord.Client(intents=discord.Intents.none())
    sent = iter(range(1000, 2000))

    async def send_message(channel_id: int, *, params: Any) -> dict[str, Any]:
        return _payload(next(sent), channel_id)

    async def edit_message(channel_id: int, message_id: int, *, params: Any) -> dict[str, Any]:
        return _payload(message_id, channel_id)

    bot.http.send_message = send_message  # type: ignore[method-assign]
    bot.http.edit_message = edit_message  # type: ignore[method-assign]
    yield bot
    await bot.close()


def _kept(bot: discord.Client) -> int:
    store = bot._connection._view_store
    return len(store._views) + len(store._synced_message_views)


async def test_a_result_sent_and_edited_keeps_no_view(client: discord.Client) -> None:
    channel = client.get_partial_messageable(500)
    message = await channel.send("result", view=result_view(7, 1, "en"))
    await channel.get_partial_message(message.id).edit(view=result_view(7, 1, "en"))
    assert _kept(client) == 0
    # (a plain discord.py view of the same button would be kept, per message, for ever)
    plain = discord.ui.View(timeout=None)
    plain.add_item(discord.ui.Button(label="x", custom_id="mj:rp:7:1:o:0:9"))
    await channel.send("result", view=plain)
    assert _kept(client) == 2


def test_every_view_the_cogs_build_is_routed() -> None:
    """No cog builds a plain ``discord.ui.View`` (it would be kept per message)."""
    import re
    from pathlib import Path

    cogs = Path(__file__).resolve().parents[2] / "cogs"
    plain = [
        f"{path.relative_to(cogs.parent)}:{n}"
        for path in cogs.rglob("*.py")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bui\.View\(", line) and "class RoutedView" not in line
    ]
    assert plain == []
    assert isinstance(result_view(7, 1, "en"), RoutedView)
