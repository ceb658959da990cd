"""A small fake Discord (REST + gateway) for end-to-end tests of a real discord.py client.

See ``server.FakeDiscord`` for the test-facing API.
"""

from .interactions import FakeInteraction
from .ratelimit import Hit, RateLimits, Violation
from .server import ADMINISTRATOR, MANAGE_GUILD, FakeDiscord
from .state import FakeAttachment, FakeChannel, FakeMessage, FakeUser, RestCall

__all__ = [
    "ADMINISTRATOR",
    "MANAGE_GUILD",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeInteraction",
    "FakeMessage",
    "FakeUser",
    "Hit",
    "RateLimits",
    "RestCall",
    "Violation",
]
