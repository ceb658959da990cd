"""A game's channel taking the bot's permissions away mid-game, and giving them back.

A server admin may take Send Messages (Embed Links, Attach Files…) from the bot in the
channel a game plays in while the game goes on. Discord then answers every post and edit
there with 403 (50013 Missing Permissions, or 50001 Missing Access without View Channel).
The game itself does not depend on the channel — its hands, prompts and presses go by DM —
so it plays on; only the public side (the table, its lines, results) waits:

- **One episode per channel.** The first refusal starts an episode: one warning line in the
  log, and the host is told once, by DM in the server's language, which permissions are
  missing in which channel and that the table will catch up (a host with closed DMs is told
  in the game's lobby channel when that is another channel and still open to the bot).
- **Nothing is asked that cannot succeed.** While the episode lasts the delivery does not
  post or edit in the channel; the table keeps only the newest state (the coalesced edits of
  :mod:`cogs.delivery.table_edits`), hand results wait to be posted.
- **Back when Discord says so.** The permissions return by a channel overwrite or a role
  change, which Discord announces (CHANNEL_UPDATE, THREAD_UPDATE, GUILD_ROLE_UPDATE — all in
  the non-privileged ``guilds`` intent the bot has): the bot's permissions there are computed
  again from discord.py's cache, and when nothing is missing the episode ends and the games
  catch up. An interaction from the channel carries them too (``app_permissions``). A role
  given back to the bot *member* arrives as GUILD_MEMBER_UPDATE, which needs the privileged
  members intent the bot does not ask for; so a bounded probe covers what no event tells:
  every :data:`PROBE_SECONDS` one catch-up write is tried (one request per lost channel per
  probe), and its success ends the episode too.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import discord

from botcore.invite import GAME_PERMISSIONS
from cogs.checks import permission_names
from cogs.delivery import pictures
from cogs.delivery.hand_dm import DM_CLOSED, HandMessages
from cogs.delivery.places import Places, nonce
from cogs.delivery.preferences import Preferences
from cogs.delivery.resend import lost_access
from cogs.game.text import t
from services.delivery import GameSummary

log = logging.getLogger(__name__)

#: seconds between two probes of a channel the bot lost its permissions in
PROBE_SECONDS = 60.0
_CHANNEL_IN_URL = re.compile(r"/channels/(\d+)(?:/|$)")

#: catches a game up once its channel is open again (the delivery's: table, results owed)
CatchUp = Callable[[GameSummary], Awaitable[None]]


def needed_permissions(*, thread: bool = False) -> list[str]:
    """The channel permissions a game needs (``attach_files`` only with pictures; in a thread
    Send Messages in Threads stands for Send Messages)."""
    needed = [p for p in GAME_PERMISSIONS if pictures.ENABLED or p != "attach_files"]
    if thread:
        return ["send_messages_in_threads" if p == "send_messages" else p for p in needed]
    return needed


def channel_of(error: discord.HTTPException) -> int | None:
    """The channel a refused request was made in (from its URL), if it names one."""
    url = getattr(getattr(error, "response", None), "url", None)
    found = _CHANNEL_IN_URL.search(str(getattr(url, "path", url) or ""))
    return int(found.group(1)) if found else None


@dataclass
class Episode:
    """The bot lost its permissions in one channel: the games waiting there."""

    channel_id: int
    #: game → its newest summary (the host to tell, the game to catch up)
    games: dict[int, GameSummary] = field(default_factory=dict)
    probe: asyncio.Task[None] | None = None


class ChannelAccess:
    """Which channels refuse the bot now (see the module docstring)."""

    def __init__(
        self,
        bot: discord.Client,
        places: Places,
        preferences: Preferences,
        hands: HandMessages,
        *,
        probe_seconds: float = PROBE_SECONDS,
    ) -> None:
        self.bot = bot
        self.places = places
        self.preferences = preferences
        self.hands = hands
        self.probe_seconds = probe_seconds
        #: set by the delivery: brings a game's public side up to date
        self.catch_up: CatchUp | None = None
        self._lost: dict[int, Episode] = {}
        #: (game, channel) whose host was told, until the game caught up: once, even when
        #: a catch-up the cache allowed is refused again
        self._told: set[tuple[int, int]] = set()
        #: the catch-ups under way (run apart from the gateway event that started them)
        self._tasks: set[asyncio.Task[None]] = set()
        add = getattr(bot, "add_listener", None)
        if add is not None:
            for event in ("on_guild_channel_update", "on_thread_update", "on_guild_role_update"):
                add(self._on_change, event)
            add(self._on_member_update, "on_member_update")

    # ------------------------------------------------------------------ the state

    def blocked(self, channel_id: int) -> bool:
        """Whether the bot lost its permissions in this channel (nothing is sent there)."""
        return channel_id in self._lost

    async def game_blocked(self, game: GameSummary) -> bool:
        """Whether the game's place (its thread or channel) refuses the bot; the game then
        waits in the episode for the permissions to return."""
        if not self._lost:
            return False  # (the usual case: nothing to look up)
        where = await self.places.play_channel_id(game)
        episode = self._lost.get(where)
        if episode is None:
            return False
        episode.games[game.id] = game
        return True

    def missing(self, channel_id: int) -> list[str] | None:
        """The game permissions the bot lacks in the channel by discord.py's cache (kept up to
        date by the gateway's channel and role events), or None when the cache cannot say."""
        channel = self.bot.get_channel(channel_id)
        if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
            return None
        me = channel.guild.me
        if me is None:
            return None
        perms = channel.permissions_for(me)
        needed = needed_permissions(thread=isinstance(channel, discord.Thread))
        return [p for p in needed if not getattr(perms, p, False)]

    # ------------------------------------------------------------------ lost

    async def refused(self, game: GameSummary, error: discord.HTTPException) -> None:
        """Discord refused a request of ``game`` for want of permissions: the channel's
        episode starts (one warning, the host told once) or goes on (nothing logged)."""
        where = channel_of(error) or await self.places.play_channel_id(game)
        episode = self._lost.get(where)
        if episode is None:
            episode = self._lost[where] = Episode(where)
            missing = self.missing(where) or []
            log.warning(
                "channel %s refuses the bot (%s %s; missing %s): game %s plays on by DM, "
                "its table waits for the permissions",
                where,
                error.status,
                error.code,
                ", ".join(missing) or "unknown",
                game.id,
            )
            episode.probe = asyncio.create_task(self._probe(where), name=f"mj-probe-{where}")
        episode.games[game.id] = game
        if (game.id, where) not in self._told:
            self._told.add((game.id, where))
            await self._tell_host(game, where)

    async def _tell_host(self, game: GameSummary, where: int) -> None:
        """The host learns once what the bot lacks where: by DM, else in the lobby channel
        when that is another channel the bot may still post in."""
        host = game.host_id
        if host is None:
            return
        lang = await self.preferences.lang_for_guild(game.guild_id)
        # (the cache cannot tell: a role of the bot's own, unseen without the members intent)
        missing = self.missing(where) or needed_permissions()
        text = t(
            "game.permissions_lost",
            lang,
            channel=f"<#{where}>",
            perms=permission_names(missing, lang),
            game=game.id,
        )
        made = nonce("m", game.id, where)  # (m: missing permissions)
        if host not in self.hands.dm_closed:
            try:
                await self.hands.send_dm(host, content=text, nonce=made)
                return
            except discord.Forbidden as error:
                if error.code != DM_CLOSED:
                    log.info("game %s: host %s not told by DM (%s)", game.id, host, error.code)
                else:
                    self.hands.dm_closed.add(host)
            except discord.HTTPException as error:
                log.info("game %s: host %s not told by DM (%s)", game.id, host, error.status)
        if game.channel_id == where or self.blocked(game.channel_id):
            log.info("game %s: host %s could not be told (DMs closed)", game.id, host)
            return
        try:
            await self.places.send(
                game.channel_id,
                content=f"<@{host}> {text}"[:2000],
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(id=host)], everyone=False, roles=False
                ),
                nonce=made,
            )
        except discord.HTTPException as error:
            log.info("game %s: host %s could not be told (%s)", game.id, host, error.code)

    # ------------------------------------------------------------------ back

    async def recheck(self) -> None:
        """The cache changed (an overwrite, a role): every lost channel whose permissions are
        all back by the cache ends its episode (a thread's come from its parent channel, so
        every lost channel is looked at: there are few)."""
        for where in list(self._lost):
            if self.missing(where) == []:
                self._spawn(self.restored(where, "the gateway"))

    def note_permissions(self, channel_id: int, perms: discord.Permissions) -> None:
        """An interaction from the channel carried the bot's permissions there."""
        if channel_id not in self._lost:
            return
        thread = isinstance(self.bot.get_channel(channel_id), discord.Thread)
        if all(getattr(perms, p, False) for p in needed_permissions(thread=thread)):
            self._spawn(self.restored(channel_id, "an interaction"))

    def _spawn(self, catching_up: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(catching_up, name="mj-catch-up")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def restored(self, channel_id: int, how: str, *, done: int | None = None) -> None:
        """The channel is open to the bot again: its games catch up (but ``done``, caught up
        already); a refusal on the way starts a new episode."""
        episode = self._lost.pop(channel_id, None)
        if episode is None:
            return
        if episode.probe is not None and episode.probe is not asyncio.current_task():
            episode.probe.cancel()
        log.info(
            "channel %s: the bot's permissions are back (%s); %d game(s) catch up",
            channel_id,
            how,
            len(episode.games),
        )
        for game in list(episode.games.values()):
            if game.id != done:
                await self._catch_up(game)

    async def _catch_up(self, game: GameSummary) -> None:
        """One game's public side brought up to date; refused, it waits again."""
        if self.catch_up is None:
            return
        try:
            await self.catch_up(game)
        except Exception as error:
            if self.places.closing or self.bot.is_closed():
                return  # (shutting down: the next start brings the table up to date)
            if lost_access(error):
                await self.refused(game, error)
            elif isinstance(error, discord.HTTPException):
                log.warning(
                    "game %s: catching up failed (%s %s)", game.id, error.status, error.code
                )
            else:
                log.exception("game %s: catching up failed", game.id)
            return
        self._caught_up(game.id)

    async def _probe(self, channel_id: int) -> None:
        """Every ``probe_seconds`` while the episode lasts, one game of the channel tries to
        catch up (one request): its success ends the episode, a refusal keeps it quietly."""
        while channel_id in self._lost:
            await asyncio.sleep(self.probe_seconds)
            episode = self._lost.get(channel_id)
            if episode is None or not episode.games or self.catch_up is None:
                continue
            game = next(iter(episode.games.values()))
            try:
                await self.catch_up(game)  # (written whatever the episode says)
            except discord.HTTPException as error:  # (refused again, most likely: quietly on)
                log.debug("channel %s: probe failed (%s %s)", channel_id, error.status, error.code)
                continue
            self._caught_up(game.id)
            await self.restored(channel_id, "a probe", done=game.id)

    def _caught_up(self, game_id: int) -> None:
        """The game's public side is up to date: a later loss is told again."""
        self._told = {k for k in self._told if k[0] != game_id}

    def forget_game(self, game_id: int) -> None:
        for episode in self._lost.values():
            episode.games.pop(game_id, None)
        self._caught_up(game_id)

    async def close(self) -> None:
        """Shut-down: the probes and catch-ups under way stop."""
        tasks = [e.probe for e in self._lost.values() if e.probe is not None]
        tasks += self._tasks
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ------------------------------------------------------------------ gateway events

    async def _on_change(self, _before: Any, _after: Any) -> None:
        """A channel's overwrites or a role's bits changed (in discord.py's cache already)."""
        if self._lost:
            await self.recheck()

    async def _on_member_update(self, _before: Any, after: discord.Member) -> None:
        if self._lost and after.id == getattr(self.bot.user, "id", None):
            await self.recheck()
