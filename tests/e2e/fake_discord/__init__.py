"""A small fake Discord (REST + gateway) for end-to-end tests of a real discord.py client.

See ``server.FakeDiscord`` for the test-facing API.
"""

from .interactions import FakeInteraction
from .permissions import (
    ADMINISTRATOR,
    ATTACH_FILES,
    BOT_PERMISSIONS,
    CREATE_PUBLIC_THREADS,
    EMBED_LINKS,
    MANAGE_GUILD,
    MEMBER_PERMISSIONS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    FakeRole,
)
from .ratelimit import Hit, RateLimits, Violation
from .server import FakeDiscord
from .state import FakeAttachment, FakeChannel, FakeMessage, FakeUser, RestCall

__all__ = [
    "ADMINISTRATOR",
    "ATTACH_FILES",
    "BOT_PERMISSIONS",
    "CREATE_PUBLIC_THREADS",
    "EMBED_LINKS",
    "MANAGE_GUILD",
    "MEMBER_PERMISSIONS",
    "SEND_MESSAGES",
    "SEND_MESSAGES_IN_THREADS",
    "VIEW_CHANNEL",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeInteraction",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "Hit",
    "RateLimits",
    "RestCall",
    "Violation",
]
