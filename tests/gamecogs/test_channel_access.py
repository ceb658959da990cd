"""Which refusals start a lost-permissions episode, and in which channel
(:mod:`cogs.delivery.channel_access`)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
from yarl import URL

from cogs.delivery.channel_access import channel_of, needed_permissions
from cogs.delivery.resend import lost_access


def refusal(status: int, code: int, path: str) -> discord.HTTPException:
    response: Any = SimpleNamespace(status=status, reason="", url=URL(f"https://x{path}"))
    kind = discord.Forbidden if status == 403 else discord.NotFound
    return kind(response, {"code": code, "message": "refused"})


def test_missing_permissions_and_access_are_lost_access_a_closed_dm_is_not() -> None:
    assert lost_access(refusal(403, 50013, "/api/v10/channels/5/messages"))
    assert lost_access(refusal(403, 50001, "/api/v10/channels/5/messages/7"))
    assert not lost_access(refusal(403, 50007, "/api/v10/channels/9/messages"))
    assert not lost_access(refusal(404, 10008, "/api/v10/channels/5/messages/7"))
    assert not lost_access(RuntimeError("no"))


def test_the_refused_channel_is_read_from_the_request() -> None:
    assert channel_of(refusal(403, 50013, "/api/v10/channels/123/messages")) == 123
    assert channel_of(refusal(403, 50013, "/api/v10/channels/123/messages/456")) == 123
    assert channel_of(refusal(403, 50013, "/api/v10/users/@me/channels")) is None


def test_a_thread_needs_send_messages_in_threads() -> None:
    assert "send_messages" in needed_permissions()
    threaded = needed_permissions(thread=True)
    assert "send_messages_in_threads" in threaded and "send_messages" not in threaded
    assert "embed_links" in threaded and "view_channel" in threaded
