"""Which failed Discord sends are made again (cogs.delivery.resend, issue 15 item 6)."""

from __future__ import annotations

from types import SimpleNamespace

import aiohttp
import discord

from cogs.delivery.resend import DEFAULT_RETRY_AFTER, resend_delay


def http_error(status: int, code: int = 0, headers: dict[str, str] | None = None):
    response = SimpleNamespace(status=status, reason="x", headers=headers or {})
    if status >= 500:
        return discord.DiscordServerError(response, {"message": "boom", "code": code})
    if status == 403:
        return discord.Forbidden(response, {"message": "Missing Permissions", "code": code})
    if status == 404:
        return discord.NotFound(response, {"message": "Unknown Channel", "code": code})
    return discord.HTTPException(response, {"message": "x", "code": code})


def test_rate_limits_wait_their_retry_after() -> None:
    assert resend_delay(discord.RateLimited(12.5)) == 12.5
    limited = http_error(429, headers={"X-RateLimit-Reset-After": "2.75", "Retry-After": "3"})
    assert resend_delay(limited) == 2.75
    assert resend_delay(http_error(429, headers={"Retry-After": "4"})) == 4.0
    assert resend_delay(http_error(429)) == DEFAULT_RETRY_AFTER


def test_server_and_network_errors_are_sent_again() -> None:
    for status in (500, 502, 503, 504):
        assert resend_delay(http_error(status)) == 0.0
    assert resend_delay(aiohttp.ClientConnectionError("refused")) == 0.0
    assert resend_delay(ConnectionResetError()) == 0.0
    assert resend_delay(TimeoutError()) == 0.0


def test_what_can_never_succeed_is_not_sent_again() -> None:
    assert resend_delay(http_error(403, 50013)) is None  # Missing Permissions
    assert resend_delay(http_error(403, 50001)) is None  # Missing Access
    assert resend_delay(http_error(404, 10003)) is None  # Unknown Channel
    assert resend_delay(http_error(400, 50035)) is None  # Invalid Form Body
    assert resend_delay(ValueError("a bug")) is None
    assert resend_delay(FileNotFoundError()) is None
