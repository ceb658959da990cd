"""The bot's side of the fake Discord's REST API, by hand (tests of the fake itself)."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from .fake_discord import FakeDiscord


class Rest:
    """Calls the fake's REST API as the bot would (its token, its JSON)."""

    def __init__(self, fake: FakeDiscord, session: aiohttp.ClientSession) -> None:
        self.fake = fake
        self.session = session

    async def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """(status, the JSON answered — None for an empty body)."""
        async with self.session.request(
            method,
            f"{self.fake.api_base}{path}",
            json=body,
            headers={"Authorization": f"Bot {self.fake.token}"},
        ) as response:
            text = await response.text()
            return response.status, (json.loads(text) if text else None)

    async def send(self, channel_id: int, body: dict[str, Any]) -> dict[str, Any]:
        status, data = await self.call("POST", f"/channels/{channel_id}/messages", body)
        assert status == 200, data
        return data

    async def dm_channel(self, user_id: int) -> int:
        status, data = await self.call("POST", "/users/@me/channels", {"recipient_id": user_id})
        assert status == 200, data
        return int(data["id"])
