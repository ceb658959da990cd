"""Players' DM channels kept past discord.py's 128 (:class:`cogs.delivery.hand_dm.DmChannels`): a DM
to a player seen before goes straight to their channel, without opening it again (``POST
/users/@me/channels``); a channel Discord does not know any more is opened again."""

from __future__ import annotations

import asyncio
import io
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.delivery.hand_dm import DmChannels, HandMessages


def not_found() -> discord.NotFound:
    response: Any = SimpleNamespace(status=404, reason="Not Found")
    return discord.NotFound(response, {"code": 10003, "message": "Unknown Channel"})


class Channel:
    """A DM channel: records what is sent (files read as Discord would), or refuses."""

    def __init__(self, bot: Bot, channel_id: int) -> None:
        self.bot, self.id = bot, channel_id

    async def send(self, **fields: Any) -> Any:
        data = [f.fp.read() for f in fields.get("files") or ()]
        if self.id in self.bot.unknown:
            raise not_found()
        self.bot.sent.append((self.id, fields, data))
        return SimpleNamespace(id=len(self.bot.sent), channel=SimpleNamespace(id=self.id))


class Bot:
    """discord.py's side: ``create_dm`` (a request, past its cache of 128 channels) and
    ``get_partial_messageable`` (no request)."""

    CACHED = 128

    def __init__(self) -> None:
        self.opens: list[int] = []
        self.partials: list[tuple[int, Any]] = []
        self.sent: list[tuple[int, dict[str, Any], list[bytes]]] = []
        self.unknown: set[int] = set()
        self.channel_of: dict[int, int] = {}
        self.cache: list[int] = []  # discord.py's LRU of DM channels (users)

    async def create_dm(self, user: discord.Object) -> Channel:
        if user.id in self.cache:
            self.cache.remove(user.id)
        else:
            self.opens.append(user.id)
            self.channel_of[user.id] = self.channel_of.get(user.id, 0) + 1_000_000 + user.id
        self.cache = [*self.cache, user.id][-self.CACHED :]
        return Channel(self, self.channel_of[user.id])

    def get_partial_messageable(self, channel_id: int, *, type: Any = None) -> Channel:
        self.partials.append((channel_id, type))
        return Channel(self, channel_id)


def hands(bot: Bot) -> HandMessages:
    return HandMessages(bot, places=None, preferences=None)  # type: ignore[arg-type]


def test_dm_channels_keep_the_most_recently_used() -> None:
    kept = DmChannels(limit=3)
    for user in (1, 2, 3):
        kept.note(user, 100 + user)
    assert kept.get(1) == 101  # used: 2 is now the oldest
    kept.note(4, 104)
    assert kept.get(2) is None and len(kept) == 3
    assert [kept.get(u) for u in (1, 3, 4)] == [101, 103, 104]
    kept.drop(3, 999)  # another channel: kept
    assert kept.get(3) == 103
    kept.drop(3, 103)
    assert kept.get(3) is None


def test_past_128_players_each_dm_channel_is_opened_once() -> None:
    bot = Bot()
    messages = hands(bot)

    async def rounds() -> None:
        for _round in range(3):
            for user in range(1, 251):
                await messages.send_dm(user, content="your turn")

    asyncio.run(rounds())
    assert sorted(bot.opens) == list(range(1, 251))  # once per player, not once per DM
    assert messages.dm_channels.opened == 250
    assert len(bot.sent) == 750
    assert len(bot.partials) == 500
    assert {kind for _cid, kind in bot.partials} == {discord.ChannelType.private}
    later = [cid for cid, _fields, _data in bot.sent[250:]]
    assert later == [bot.channel_of[u] for _round in range(2) for u in range(1, 251)]


def test_without_the_map_discord_py_opens_again_past_128() -> None:
    """What the map saves: discord.py's own cache alone opens again past 128 players."""
    bot = Bot()

    async def rounds() -> None:
        for _round in range(2):
            for user in range(1, 251):
                await bot.create_dm(discord.Object(id=user))

    asyncio.run(rounds())
    assert len(bot.opens) == 500


def test_an_unknown_channel_is_opened_again_with_the_same_files() -> None:
    bot = Bot()
    messages = hands(bot)
    messages.dm_channels.note(7, 555)
    bot.unknown.add(555)
    picture = discord.File(io.BytesIO(b"png bytes"), "hand.png")
    asyncio.run(messages.send_dm(7, content="hand", files=[picture], nonce="d.1"))
    [(channel_id, fields, data)] = bot.sent
    assert channel_id == bot.channel_of[7] != 555 and bot.opens == [7]
    assert data == [b"png bytes"]  # the file read again from its start
    assert fields["nonce"] == "d.1"
    assert messages.dm_channels.get(7) == channel_id


def test_a_closed_dm_is_not_opened_again() -> None:
    bot = Bot()
    messages = hands(bot)
    messages.dm_channels.note(7, 555)

    async def refuse(**_fields: Any) -> Any:
        response: Any = SimpleNamespace(status=403, reason="Forbidden")
        raise discord.Forbidden(response, {"code": 50007, "message": "Cannot send"})

    def closed(channel_id: int, *, type: Any = None) -> Any:
        return SimpleNamespace(id=channel_id, send=refuse)

    bot.get_partial_messageable = closed  # type: ignore[method-assign]
    with pytest.raises(discord.Forbidden):
        asyncio.run(messages.send_dm(7, content="hand"))
    assert bot.opens == [] and messages.dm_channels.get(7) == 555


def test_the_games_stored_hand_dms_seed_the_channels() -> None:
    bot = Bot()
    messages = hands(bot)
    messages.note_dm_channels({"7": [555, 1, 2], "8": "bad", "9": [None, 1, 2]})
    asyncio.run(messages.send_dm(7, content="ready?"))
    assert bot.opens == [] and bot.sent[0][0] == 555
    assert messages.dm_channels.get(8) is None and messages.dm_channels.get(9) is None
