"""The bot's invite (scopes, permissions) and the permission checks that use the same list."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import discord

from botcore.invite import GAME_PERMISSIONS, THREAD_PERMISSIONS, invite_permissions, invite_url
from cogs.checks import (
    bot_missing_text,
    clip,
    echo,
    missing_game_permissions,
    threads_allowed,
)


def test_invite_url_has_both_scopes_and_only_the_needed_permissions() -> None:
    url = urlparse(invite_url(1234))
    query = parse_qs(url.query)
    assert (url.netloc, url.path) == ("discord.com", "/oauth2/authorize")
    assert query["client_id"] == ["1234"]
    assert query["scope"] == ["bot applications.commands"]
    perms = discord.Permissions(int(query["permissions"][0]))
    assert perms == invite_permissions()
    wanted = discord.Permissions(**dict.fromkeys(GAME_PERMISSIONS + THREAD_PERMISSIONS, True))
    assert perms == wanted and perms.view_channel and perms.attach_files
    assert not (perms.administrator or perms.manage_guild or perms.manage_messages)


def test_missing_game_permissions_and_threads() -> None:
    full = invite_permissions()
    assert missing_game_permissions(full) == [] and threads_allowed(full)
    no_files = discord.Permissions(full.value)
    no_files.attach_files = False
    assert missing_game_permissions(no_files) == ["attach_files"]
    assert missing_game_permissions(no_files, pictures=False) == []  # text only: not needed
    no_threads = discord.Permissions(full.value)
    no_threads.create_public_threads = False
    assert missing_game_permissions(no_threads) == [] and not threads_allowed(no_threads)
    assert missing_game_permissions(discord.Permissions.none()) == list(GAME_PERMISSIONS)
    text = bot_missing_text(["attach_files", "embed_links"], "en")
    assert "Attach Files, Embed Links" in text
    assert "附加文件、嵌入链接" in bot_missing_text(["attach_files", "embed_links"], "zh")


def test_echo_and_clip_keep_answers_short() -> None:
    assert clip("x" * 5000) == "x" * 1999 + "…" and len(clip("x" * 5000)) == 2000
    assert clip("short") == "short"
    quoted = echo("a`b\n" + "c" * 500)
    assert quoted.startswith("`a") and quoted.endswith("…`") and len(quoted) <= 62
    assert "`" not in quoted[1:-1]
