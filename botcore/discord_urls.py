"""Point discord.py at another REST base / gateway (reverse proxies, the tests' fake Discord).

discord.py has no public option for this (``proxy=`` is a forward proxy). The REST base is
the class attribute ``discord.http.Route.BASE`` — which ``discord.http._set_api_version``
overwrites, so this must run after any call to it — and the gateway is
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (a plain ``Bot`` connects straight to
it; resumes then use READY's ``resume_gateway_url``). Interaction and webhook calls use the
same ``Route``, so one setting covers them.
"""

from __future__ import annotations

import logging

import discord.gateway
import discord.http
import yarl

log = logging.getLogger(__name__)


def apply_discord_urls(api_base: str | None, gateway_url: str | None) -> None:
    """Set the REST base (e.g. ``http://proxy:8080/api/v10``) and the gateway URL, if given."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
        log.info("Discord REST base: %s", discord.http.Route.BASE)
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
        log.info("Discord gateway: %s", gateway_url)
