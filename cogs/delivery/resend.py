"""Which failed Discord sends are worth making again, and after how long.

discord.py already waits out a 429 and tries a 5xx up to five times inside one call; a call
that still fails reaches :mod:`services.outbox`, which asks :func:`resend_delay` whether to
make it again:

- 429 (rate limited): yes, after Discord's ``retry_after`` (``Retry-After`` header);
- 5xx (Discord's side), a network error or a time-out: yes, after the outbox's back-off;
- any other 4xx (403 Missing Permissions / Access, 404 Unknown Channel or Message, 400):
  no — the same request will be refused again (it is logged; DMs that are closed already
  fall back to ``/mahjong hand`` in :mod:`cogs.delivery.discord_delivery`).

A 5xx or a time-out does not say whether Discord made the message: a post made again then
carries the nonce it was first sent with (:func:`cogs.delivery.places.nonce`, built from the game
event, so the job made again builds the same), and Discord returns the message already made.
"""

from __future__ import annotations

from typing import TypeGuard

import aiohttp
import discord

#: seconds to wait after a 429 that gave no ``retry_after``
DEFAULT_RETRY_AFTER = 1.0
#: Discord's answers when the bot may not do something in a channel: Missing Access (no View
#: Channel), Missing Permissions (:mod:`cogs.delivery.channel_access`)
LOST_CODES = (50001, 50013)


def lost_access(error: BaseException) -> TypeGuard[discord.Forbidden]:
    """Whether Discord refused a request for want of the bot's permissions in a channel."""
    return isinstance(error, discord.Forbidden) and error.code in LOST_CODES


def retry_after_of(error: discord.HTTPException) -> float:
    """The ``retry_after`` of a 429 (seconds), from the response headers when present."""
    headers = getattr(getattr(error, "response", None), "headers", None) or {}
    for name in ("X-RateLimit-Reset-After", "Retry-After"):
        raw = headers.get(name)
        if raw is None:
            continue
        try:
            return max(0.0, float(raw))
        except (TypeError, ValueError):
            continue
    return DEFAULT_RETRY_AFTER


def resend_delay(error: BaseException) -> float | None:
    """At least how many seconds to wait before making a failed Discord call again, or None
    when making it again cannot help (see the module docstring)."""
    if isinstance(error, discord.RateLimited):
        return max(0.0, float(error.retry_after))
    if isinstance(error, discord.HTTPException):
        if error.status == 429:
            return retry_after_of(error)
        if error.status >= 500:
            return 0.0
        return None
    if isinstance(error, aiohttp.ClientError | ConnectionError | TimeoutError):
        return 0.0
    return None
