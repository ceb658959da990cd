"""Where a game shows on Discord: its thread, one table message per hand, the messages the
delivery keeps up to date (and remembers across restarts).

- **A thread per game.** When the server's ``thread`` option is on and the bot may create
  public threads in the channel, the first table of a game opens a thread, named after the
  game, on the lobby message; the table, the play lines and the hand results go there. The
  lobby and the final standings stay in the channel. Without the permission (or when Discord
  refuses) the game plays in the channel. Threads archive themselves after a day without
  messages; the bot's next message reopens them.
- **A fresh table per hand.** Each hand posts a new table message; the previous one keeps
  its last picture as the hand's record and loses its buttons, and so does the previous
  result's 下一局 / 结束对局. Discord gives messages older than an hour a tiny edit budget
  (error 30046), so a table that gets old (:data:`TABLE_MAX_AGE`, by Discord's clock: the
  newest snowflake seen) is replaced rather than edited, and any failed edit posts a fresh
  table instead of losing the update.
- **Remembered messages.** The hand DMs, open alerts, the lobby, the last result and the
  hand of the current table are kept in the game's ``messages`` (the store), so a restart
  edits them instead of sending new ones; so are the old messages whose buttons are still
  to go (:mod:`cogs.delivery.stale_buttons`: retried after a failed edit or a restart).
- **Posts that cannot be doubled.** A post standing for one game event carries a
  :func:`nonce` built from the event (a hand's result: game and hand), the same in every
  process and after a restart. discord.py sends any nonce with ``enforce_nonce``: Discord
  then returns the message the same nonce made in the past few minutes instead of posting
  again — a send made again after an answer lost on the way back (the delivery queue's
  resend), after a crash between the send and its note, or by a process taking the game over
  while the owner's send was under way, posts once.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from cogs.delivery.message_ids import MessageIds
from cogs.delivery.preferences import Preferences
from cogs.delivery.resend import lost_access
from cogs.delivery.stale_buttons import StaleButtons
from cogs.game.text import t, variant_name
from cogs.game.views import lobby_message
from db.errors import StoreUnwritable
from services.delivery import GameSummary
from services.game import GameService
from services.single_flight import SingleFlight

if TYPE_CHECKING:  # importing discord.types at run time is circular
    from discord.types.threads import ThreadArchiveDuration, ThreadType

log = logging.getLogger(__name__)

#: A message older than this (seconds, by Discord's clock) is replaced, not edited: Discord
#: allows only a few edits of messages older than an hour (30046).
TABLE_MAX_AGE = 50 * 60
#: Minutes without a message before Discord archives a game's thread (60, 1440, 4320, 10080).
THREAD_ARCHIVE_MINUTES: ThreadArchiveDuration = 1440
PUBLIC_THREAD: ThreadType = 11
#: builds a table message: ``(embed, view, files)``
BuildTable = Callable[[], tuple[discord.Embed, discord.ui.View | None, list[discord.File]]]


#: the longest message nonce Discord accepts (characters)
MAX_NONCE = 25


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if not number:
            return out


def nonce(kind: str, *ids: int | str) -> str:
    """The nonce of a post that stands for one game event (``kind`` and the event's ids:
    ``nonce("r", game, hand)`` for a hand's result), identical in every process and after a
    restart, at most :data:`MAX_NONCE` characters: the kind and the ids in base 36 when that
    fits (``r.2n.5``), else the kind and a hash of them. Given to ``send``, a second post of
    the same event within Discord's few minutes returns the first message instead."""
    parts = [_base36(i) if isinstance(i, int) and i >= 0 else str(i) for i in ids]
    text = ".".join([kind, *parts])
    if len(text) <= MAX_NONCE:
        return text
    digest = hashlib.blake2b(text.encode(), digest_size=12).digest()
    return f"{kind}~{_base36(int.from_bytes(digest, 'big'))}"[:MAX_NONCE]


def text_id(text: str) -> int:
    """A short number standing for a text (a public line in a nonce)."""
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=5).digest(), "big")


def jump_url(channel_id: int, message_id: int, guild_id: int | None = None) -> str:
    """The link to a message (``@me`` for a DM)."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


class Places:
    """Where each game shows on Discord: the channel or thread it plays in, its table and
    lobby messages, and the messages the delivery keeps up to date (remembered across
    restarts) — with Discord's clock, which says when a message is too old to edit."""

    def __init__(
        self, bot: discord.Client, preferences: Preferences, ids: MessageIds | None = None
    ) -> None:
        self.bot = bot
        self.preferences = preferences
        #: the game service the delivery reports for (set by the composition root): asked
        #: only where a game plays (its thread) and whether the database is shared
        self.service: GameService | None = None
        #: the message ids of each game, kept by the delivery itself (None: not kept)
        self.ids = ids
        #: the bot is shutting down: a refused edit is not replaced by a fresh post
        self.closing = False
        #: game → the messages delivery keeps up to date (saved as the game's ``messages``)
        self._refs: dict[int, dict[str, Any]] = {}
        #: game → its messages as this process last saved them (the store's copy)
        self._stored: dict[int, dict[str, Any]] = {}
        #: game → the channel it plays in (its thread, or the channel itself)
        self._where: dict[int, int] = {}
        #: channel → the bot's permissions there, as the latest interaction reported them
        self._perms: dict[int, discord.Permissions] = {}
        #: told of every channel's permissions noted (the channels that refused the bot)
        self.permissions_noted: Callable[[int, discord.Permissions], None] | None = None
        #: whether a channel refuses the bot now (:mod:`cogs.delivery.channel_access`)
        self.refuses: Callable[[int], bool] = lambda _channel_id: False
        self._place_locks: dict[int, asyncio.Lock] = {}
        #: the saves of each game's remembered messages, combined (one under way at a time)
        self._saves: SingleFlight[int] = SingleFlight(self._save_once, "messages of game")
        #: Discord's clock: the time of the newest snowflake seen (epoch seconds)
        self._discord_time = 0.0
        #: buttons still to take off old messages (written down, retried)
        self.stale = StaleButtons(self)
        #: crossings-out of ended games' stored messages under way
        self._crossing: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ what is remembered

    def refs(self, game: GameSummary) -> dict[str, Any]:
        """The game's remembered messages (loaded from the store the first time)."""
        held = self._refs.get(game.id)
        if held is None:
            start = self.ids.seed(game) if self.ids is not None else game.messages
            held = self._refs[game.id] = _copy(start)
        return held

    def held(self, game: GameSummary, name: str) -> dict[str, Any]:
        """One named group of the game's remembered messages (``alerts``, ``session_alerts``:
        user id → entry), created empty when missing."""
        refs = self.refs(game)
        group = refs.get(name)
        if not isinstance(group, dict):
            group = refs[name] = {}
        return group

    @property
    def sharing(self) -> bool:
        """Whether other processes share the database (a save's stored result may then
        differ from what was sent, and a caller adopting it must wait for it)."""
        return bool(getattr(self.service, "shared", False))

    async def save_refs(self, game_id: int, *, wait: bool = True) -> None:
        """Store the game's remembered messages (a failure is only logged).

        Saves of one game are combined: at most one is under way, and the calls made
        meanwhile are served by one following save of the latest copy. ``wait=False``:
        return at once, the save goes on behind — for callers that need nothing of it (the
        messages are bookkeeping: a crash before the save ends costs at worst a message sent
        again after the restart, never a game action). With ``wait`` (the default) the copy
        has taken back what the store holds (:func:`take_stored`) when this returns.

        Delivery waits for its saves, so that no save ends (and takes the stored copy back)
        while the next update of the same game is under way: an alert holds its entry across
        a send and writes the message id into it afterwards, which a copy taken back
        meanwhile would lose. (A closed-DM player's missed turn mention, once blamed on not
        waiting, was the alert episode's own bug: :func:`cogs.delivery.alerts.withheld_before`.)"""
        if self._refs.get(game_id) is None or self.ids is None:
            return
        done = self._saves.request(game_id)
        if wait:
            await asyncio.shield(done)

    async def saves_done(self) -> None:
        """Wait until every save asked for has ended, and the table message ids written
        behind with them (shut-down, tests)."""
        await self._saves.drained()
        if self._crossing:
            await asyncio.gather(*self._crossing, return_exceptions=True)
        if self.ids is not None:
            await self.ids.written_behind()

    async def _save_once(self, game_id: int) -> None:
        """One save of the game's copy as it is now (read before the first ``await``)."""
        held = self._refs.get(game_id)
        if held is None or self.ids is None:
            return
        sent = _copy(held)
        if not self.sharing and self._stored.get(game_id) == sent:
            return  # as stored (changed and changed back meanwhile), and nobody else writes
        try:
            stored = await self.ids.save_messages(game_id, sent)
        except StoreUnwritable as error:  # the operator was told once, loudly
            log.warning("game %s: could not save its messages: %s", game_id, error)
            return
        except Exception:
            log.exception("game %s: could not save its messages", game_id)
            return
        if self._refs.get(game_id) is held:
            self._stored[game_id] = _copy(stored)
            take_stored(held, sent, stored)

    def live_refs(self, game_id: int) -> dict[str, Any] | None:
        """The game's remembered messages if this process holds them (not after its end)."""
        return self._refs.get(game_id)

    def save_refs_behind(self, game_id: int) -> None:
        """Store the game's remembered messages behind (nothing waits for it)."""
        if self._refs.get(game_id) is not None and self.ids is not None:
            self._saves.request(game_id)

    def cross_out_stored(self, game_id: int, group: str, key: str, entry: Any) -> None:
        """Remove one entry of a group of an ended game's stored messages (its copy is not
        held any more), behind; entries other processes stored meanwhile stay."""
        if self.ids is None:
            return
        task = asyncio.create_task(self._cross_out(game_id, group, key, entry))
        self._crossing.add(task)
        task.add_done_callback(self._crossing.discard)

    async def _cross_out(self, game_id: int, group: str, key: str, entry: Any) -> None:
        assert self.ids is not None
        try:
            await self.ids.cross_out(game_id, group, key, entry)
        except StoreUnwritable as error:  # the operator was told once, loudly
            log.warning("game %s: could not cross out %s %s: %s", game_id, group, key, error)
        except Exception:
            log.exception("game %s: could not cross out %s %s", game_id, group, key)

    def stored(self, game_id: int) -> dict[str, Any]:
        """The game's remembered messages as this process last stored them (empty: none
        stored yet, or the last save failed)."""
        return self._stored.get(game_id) or {}

    def forget_game(self, game_id: int) -> None:
        if self.ids is not None:
            self.ids.forget(game_id)
        self._refs.pop(game_id, None)
        self._stored.pop(game_id, None)
        self._where.pop(game_id, None)
        self._place_locks.pop(game_id, None)

    # ------------------------------------------------------------------ Discord's clock

    def note_snowflake(self, snowflake: int | None) -> None:
        """A snowflake (interaction or message id) from Discord: its time moves the clock."""
        if snowflake:
            self._discord_time = max(
                self._discord_time, discord.utils.snowflake_time(snowflake).timestamp()
            )

    def discord_now(self) -> float:
        """Discord's time as far as the bot can tell (never behind the local clock)."""
        return max(time.time(), self._discord_time)

    def age(self, message_id: int) -> float:
        """Seconds since the message was created, by Discord's clock."""
        return self.discord_now() - discord.utils.snowflake_time(message_id).timestamp()

    # ------------------------------------------------------------------ the play channel

    def note_permissions(self, channel_id: int | None, perms: discord.Permissions) -> None:
        """The bot's permissions in a channel (``interaction.app_permissions``)."""
        if channel_id:
            self._perms[channel_id] = perms
            if self.permissions_noted is not None:
                self.permissions_noted(channel_id, perms)

    def may_thread(self, channel_id: int) -> bool:
        """Whether the bot may play a game in a thread of this channel (unknown: try)."""
        perms = self._perms.get(channel_id)
        if perms is None:
            return True
        from cogs.checks import threads_allowed

        return threads_allowed(perms)

    def place(self, channel_id: int) -> discord.abc.Messageable:
        """A channel or thread to send to (cached, else partial)."""
        found = self.bot.get_channel(channel_id)
        if isinstance(found, discord.abc.Messageable):
            return found
        return self.bot.get_partial_messageable(channel_id)

    def partial(self, channel_id: int, message_id: int) -> discord.PartialMessage:
        """A message to edit or delete by its ids (nothing fetched)."""
        return self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)

    async def send(
        self, channel_id: int, *, view: discord.ui.View | None = None, **fields: Any
    ) -> discord.Message:
        """Post a message (``content``, ``embed``, ``files``, ``allowed_mentions``…) with
        its buttons when it has any."""
        where = self.place(channel_id)
        if view is None:
            return await where.send(**fields)
        return await where.send(view=view, **fields)

    async def say(self, game: GameSummary, text: str, *, nonce: str | None = None) -> None:
        """A public line where the game is played (its thread, or the channel); ``nonce``:
        see :func:`nonce`."""
        if text:
            where = await self.play_channel_id(game)
            extra: dict[str, Any] = {"nonce": nonce} if nonce is not None else {}
            await self.place(where).send(
                text[:2000], allowed_mentions=discord.AllowedMentions(users=False), **extra
            )

    async def mention(
        self, game: GameSummary, user_id: int, text: str, *, nonce: str | None = None
    ) -> discord.Message:
        """A line where the game is played that mentions (and so notifies) one player;
        ``nonce``: see :func:`nonce`."""
        where = await self.play_channel_id(game)
        extra: dict[str, Any] = {"nonce": nonce} if nonce is not None else {}
        return await self.place(where).send(
            text[:2000],
            allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(id=user_id)], everyone=False, roles=False
            ),
            **extra,
        )

    async def play_channel_id(self, game: GameSummary) -> int:
        """Where the game plays: decided once, at its first table (thread or channel)."""
        where = self._where.get(game.id) or game.thread_id
        if where:
            self._where[game.id] = where
            return where
        if game.hand_no == 0:
            return game.channel_id
        lock = self._place_locks.setdefault(game.id, asyncio.Lock())
        async with lock:
            where = self._where.get(game.id)
            if where:
                return where
            where = game.channel_id
            if game.use_thread and self.may_thread(game.channel_id):
                try:
                    where = await self._open_thread(game)
                except discord.HTTPException as error:
                    log.warning(
                        "game %s: no thread (%s %s); playing in the channel",
                        game.id,
                        error.status,
                        error.code,
                    )
            if self.service is not None:
                stored = await self.service.set_thread(game.id, where)
                if stored != where:
                    # sharing the database: another process decided first, and its place stays
                    await self._drop_thread(game, where, stored)
                    where = stored
            self._where[game.id] = where
            log.info(
                "game %s plays in %s",
                game.id,
                "its thread" if where != game.channel_id else "the channel",
            )
        return where

    async def _drop_thread(self, game: GameSummary, opened: int, stored: int) -> None:
        """The thread this process just opened is not where the game plays (another process
        decided first): it is deleted, best effort (the bot may lack Manage Threads)."""
        if opened == game.channel_id:
            return  # nothing was opened
        log.info("game %s: thread %s not used; the game plays in %s", game.id, opened, stored)
        try:
            await self.bot.http.delete_channel(opened, reason="a duplicate of the game's place")
        except discord.HTTPException as error:
            log.info("thread %s not deleted (%s %s)", opened, error.status, error.code)

    async def _open_thread(self, game: GameSummary) -> int:
        lang = await self.preferences.lang_for_guild(game.guild_id)
        name = f"{variant_name(game.variant, lang)} #{game.id}"[:100]
        lobby = self._lobby_id(game)
        data: Any = None
        if lobby is not None:
            try:
                data = await self.bot.http.start_thread_with_message(
                    game.channel_id,
                    lobby,
                    name=name,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                )
            except discord.NotFound:
                data = None
        if data is None:
            data = await self.bot.http.start_thread_without_message(
                game.channel_id,
                name=name,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                type=PUBLIC_THREAD,
            )
        return int(data["id"])

    def _lobby_id(self, game: GameSummary) -> int | None:
        """The lobby message in the channel (before the first table it is the table id)."""
        refs = self.refs(game)
        if refs.get("lobby"):
            return int(refs["lobby"])
        if "table_at" not in refs:
            return self.table_id(game)
        return None

    # ------------------------------------------------------------------ the table

    def table_id(self, game: GameSummary) -> int | None:
        """The game's table message (the lobby before the first hand), if it has one."""
        if self.ids is not None:
            return self.ids.table_message_id(game)
        return game.table_message_id

    async def put_lobby(
        self, game: GameSummary, embed: discord.Embed, view: discord.ui.View | None
    ) -> None:
        """The lobby message in the channel: edited, or posted when there is none yet."""
        message_id = self.table_id(game)
        if message_id is not None:
            try:
                await self.partial(game.channel_id, message_id).edit(
                    embed=embed, view=view, attachments=[]
                )
                return
            except discord.NotFound:
                pass
        # (the lobby as it stands at this version, in place of the one missing)
        made = nonce("o", game.id, game.version, message_id or 0)
        message = await self.send(game.channel_id, embed=embed, view=view, nonce=made)
        self.note_snowflake(message.id)
        if self.ids is not None:
            stored = await self.ids.set_table_message(game.id, message.id, wait=self.sharing)
            if stored != message.id:  # another process posted the lobby meanwhile: it stays
                await self._drop_duplicate(game, message)
                if stored is not None:
                    try:
                        await self.partial(game.channel_id, stored).edit(
                            embed=embed, view=view, attachments=[]
                        )
                    except discord.HTTPException as error:
                        log.info(
                            "game %s: lobby %s not updated (%s %s)",
                            game.id,
                            stored,
                            error.status,
                            error.code,
                        )

    async def put_hand_table(self, game: GameSummary, build: BuildTable) -> None:
        """Show the table of the hand in play: edit this hand's table message, or post a
        fresh one (a new hand, an old message, a failed edit). ``build()`` gives
        ``(embed, view, files)`` (called again for a fresh post: files are sent once)."""
        where = await self.play_channel_id(game)
        refs = self.refs(game)
        at = refs.get("table_at")
        current = self.table_id(game)

        def is_fresh() -> bool:
            return (
                current is None
                or not at
                or at[0] != where
                or at[1] != game.hand_no
                or self.age(current) > TABLE_MAX_AGE
            )

        fresh = is_fresh()
        if fresh and self.ids is not None and self.sharing:
            # several processes: another one may have posted this hand's table since this
            # one loaded the game (it served a press, a DM button on shard 0): edit that one
            stored = await self.ids.stored_messages(game.id)
            if stored is not None and stored[0] is not None:
                stored_at = stored[1].get("table_at")
                if stored_at and stored_at[1] == game.hand_no and stored_at[0] == where:
                    current, at = stored[0], stored_at
                    refs["table_at"] = list(stored_at)
                    fresh = is_fresh()
        if not fresh and current is not None:
            embed, view, files = build()
            try:
                await self.partial(where, current).edit(
                    embed=embed, view=view, attachments=files or []
                )
                return
            except discord.HTTPException as error:
                if self.closing or lost_access(error):
                    raise  # (a fresh post needs the same permissions: it is not tried)
                log.info(
                    "game %s: table edit refused (%s %s); posting a fresh table",
                    game.id,
                    error.status,
                    error.code,
                )
        embed, view, files = build()
        # this hand's table at this version, in place of ``current``: a send made again (an
        # answer lost) or another process's post of the same returns the same message
        made = nonce("t", game.id, game.hand_no, game.version, current or 0)
        message = await self.send(where, embed=embed, view=view, files=files or [], nonce=made)
        self.note_snowflake(message.id)
        if current is not None and current != message.id:
            # the table (or lobby) it replaces is written down before the new id is stored:
            # a crash before its buttons go leaves them owed, not forgotten
            self.stale.owe(game, int(at[0]) if at else game.channel_id, current)
            await self.save_refs(game.id)
        if self.ids is not None:
            # alone on the database nobody else posts this game's table: the id is written
            # behind, and the next edit does not wait for it
            kept = await self.ids.set_table_message(game.id, message.id, wait=self.sharing)
            if kept != message.id:
                await self._keep_stored_table(game, message, kept, where, build)
                return
        old_at = at
        refs["table_at"] = [where, game.hand_no]
        old: list[tuple[int, int, int]] = []  # (channel, message, hand of a result)
        if current is not None and current != message.id:
            if not old_at:
                if game.hand_no <= 1:
                    refs["lobby"] = current
                    await self._lobby_started(game, current, where)
                else:  # a table from before this version, in the channel
                    old.append((game.channel_id, current, 0))
            else:
                old.append((int(old_at[0]), current, 0))
        result = self._take_result(game, before=game.hand_no)
        if result is not None:
            old.append(result)
        for channel_id, message_id, hand in old:
            self.stale.owe(game, channel_id, message_id, hand)  # stored with the save below
        await self.save_refs(game.id)
        if old:
            # their buttons go behind: the table's next edit (the new hand's first moves)
            # does not wait for two more requests; written down, they are retried if cut off
            task = asyncio.create_task(self._retire_all(game, old))
            self._crossing.add(task)
            task.add_done_callback(self._crossing.discard)

    async def _retire_all(self, game: GameSummary, old: list[tuple[int, int, int]]) -> None:
        """Take the buttons off the old hand's table and result (written down already)."""
        for channel_id, message_id, hand in old:
            await self.retire(game, channel_id, message_id, keep_hand=hand)

    async def _drop_duplicate(self, game: GameSummary, message: discord.Message) -> None:
        """A table (or lobby) this process just posted while another process posted one
        meanwhile, which stays: deleted, so players see one table with buttons (when Discord
        refuses the deletion, it at least loses its buttons)."""
        log.info("game %s: duplicate table %s deleted", game.id, message.id)
        try:
            await message.delete()
        except discord.HTTPException as error:
            log.info("duplicate table %s not deleted (%s %s)", message.id, error.status, error.code)
            await self.retire(game, message.channel.id, message.id)

    async def _keep_stored_table(
        self,
        game: GameSummary,
        duplicate: discord.Message,
        stored: int | None,
        where: int,
        build: BuildTable,
    ) -> None:
        """Sharing the database, another process posted a table since this one knew the last
        (both found this hand's table missing or too old): its table stays and this one's is a
        duplicate, deleted. The stored table is edited with this table when it is this hand's
        (its ``table_at`` says so); else the process that posted it keeps it up to date."""
        await self._drop_duplicate(game, duplicate)
        if stored is None or self.ids is None:
            return
        found = await self.ids.stored_messages(game.id)
        stored_at = found[1].get("table_at") if found is not None else None
        if not stored_at or list(stored_at) != [where, game.hand_no]:
            return  # another hand's table (or not described yet): the next write settles it
        self.refs(game)["table_at"] = list(stored_at)
        embed, view, files = build()
        try:
            await self.partial(where, stored).edit(embed=embed, view=view, attachments=files or [])
        except discord.HTTPException as error:
            log.info(
                "game %s: table %s not edited (%s %s)", game.id, stored, error.status, error.code
            )

    async def _lobby_started(self, game: GameSummary, lobby: int, where: int) -> None:
        """The lobby, once the game started: its seats and rules, no buttons, and where the
        game is played."""
        lang = await self.preferences.lang_for_guild(game.guild_id)
        embed, _view = lobby_message(game, lang)
        if where != game.channel_id:
            embed.description = t("game.lobby_playing", lang, thread=f"<#{where}>")

        async def edit() -> None:
            await self.partial(game.channel_id, lobby).edit(embed=embed, view=None)

        if not await self.stale.strip(game, game.channel_id, lobby, edit=edit):
            log.info("game %s: lobby not updated yet", game.id)

    async def retire(
        self, game: GameSummary, channel_id: int, message_id: int, keep_hand: int = 0
    ) -> None:
        """Take the buttons off an old message (a result of hand ``keep_hand`` keeps its 回放):
        written down until done, retried when it fails (:mod:`cogs.delivery.stale_buttons`)."""
        if not await self.stale.strip(game, channel_id, message_id, keep_hand):
            log.info("game %s: buttons of message %s stay for now", game.id, message_id)

    async def retire_result(self, game: GameSummary, *, before: int | None = None) -> None:
        """Take 准备 / 解散 off the last result (of a hand before ``before``, or any); its
        回放 stays."""
        result = self._take_result(game, before=before)
        if result is not None:
            channel_id, message_id, hand = result
            await self.retire(game, channel_id, message_id, keep_hand=hand)

    def _take_result(self, game: GameSummary, *, before: int | None) -> tuple[int, int, int] | None:
        """The last result (of a hand before ``before``, or any) as ``(channel, message,
        hand)``, no longer remembered as the result whose 准备 / 解散 are live; None when
        there is none. Its buttons are the caller's to take off (回放 stays on every
        result)."""
        refs = self.refs(game)
        result = refs.get("result")
        if not result or (before is not None and int(result[2]) >= before):
            return None
        refs.pop("result", None)
        return int(result[0]), int(result[1]), int(result[2])

    async def note_result(self, game: GameSummary, channel_id: int, message_id: int) -> None:
        """The result message of the hand just ended (its buttons go when the next starts)."""
        self.refs(game)["result"] = [channel_id, message_id, game.hand_no]
        await self.save_refs(game.id)

    async def delete(self, entry: list[Any], what: str) -> None:
        """Delete a remembered ``[channel, message, …]`` message (an alert; best effort)."""
        try:
            await self.partial(int(entry[0]), int(entry[1])).delete()
        except discord.HTTPException as error:
            log.info("%s %s not deleted (%s %s)", what, entry[1], error.status, error.code)


_MISSING: Any = object()


def take_stored(held: dict[str, Any], sent: dict[str, Any], stored: dict[str, Any]) -> None:
    """After a save: what the store holds now (``stored``: merged with what other processes
    saved) comes into this process's ``held`` copy, in place — except where ``held`` changed
    since ``sent`` was saved (such a change is newer; the next save merges it). Dicts keep
    their identity (a caller may hold one of the groups, e.g. ``alerts``)."""
    for key in list(dict.fromkeys([*sent, *stored])):
        was, now = sent.get(key, _MISSING), stored.get(key, _MISSING)
        if now == was:
            continue  # nothing new from the store
        mine = held.get(key, _MISSING)
        if mine != was:  # changed here meanwhile: only nested entries it did not touch
            if isinstance(mine, dict) and isinstance(now, dict):
                take_stored(mine, was if isinstance(was, dict) else {}, now)
            continue
        if now is _MISSING:
            held.pop(key, None)
        elif isinstance(mine, dict) and isinstance(now, dict):
            take_stored(mine, mine.copy(), now)
        else:
            held[key] = _copy(now)


def _copy(data: Any) -> Any:
    """A deep copy of JSON-like data (lists and dicts)."""
    if isinstance(data, dict):
        return {str(k): _copy(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_copy(v) for v in data]
    return data
