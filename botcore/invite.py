"""What the bot needs on a server: the OAuth2 scopes and channel permissions of its invite.

The same lists serve the invite URL the bot prints at start-up and the check
``/mahjong new`` makes before opening a game (:mod:`cogs.checks`).
"""

from __future__ import annotations

import discord

#: ``bot`` puts the bot user on the server; ``applications.commands`` lets it add ``/mahjong``.
SCOPES = ("bot", "applications.commands")

#: Channel permissions a game cannot do without (``discord.Permissions`` attribute names):
#: see the channel, post the lobby/table/results, their embeds, and the table pictures.
GAME_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "attach_files")
#: Needed only to play each game in its own thread; without them the game stays in the
#: channel.
THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads")


def invite_permissions() -> discord.Permissions:
    """Every channel permission the bot asks for when invited."""
    return discord.Permissions(**dict.fromkeys(GAME_PERMISSIONS + THREAD_PERMISSIONS, True))


def invite_url(application_id: int) -> str:
    """The URL a server admin opens to add the bot with its scopes and permissions."""
    return discord.utils.oauth_url(application_id, permissions=invite_permissions(), scopes=SCOPES)
