"""Each human's hand, privately: one DM message per player per hand, edited as play goes.

- After a restart the same DM is edited again; a DM that cannot be edited any more is
  replaced, and the old one points to the new one.
- When a DM is refused (error 50007) the player uses the ephemeral ``/mahjong hand`` path
  (its reply is edited while its token lives — 15 minutes) and the game gets a one-line
  notice that mentions them, once — never the hand.
- A hand a button answer already showed is not edited into the DM a second time.
- A new hand DM carries a nonce (:func:`cogs.delivery.places.nonce`: game, hand, player, version and
  the DM it replaces): sent again — an answer lost, a restart, another process — it returns
  the DM already sent instead of a second one.
- Each player's DM channel is kept here (:class:`DmChannels`, far more than discord.py's 128):
  a DM to a player seen before goes straight to their channel, without asking Discord to open
  it again (``POST /users/@me/channels``, which counts against the global limit).
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import discord

from cogs.delivery import pictures
from cogs.delivery.places import TABLE_MAX_AGE, Places, jump_url, nonce
from cogs.delivery.preferences import Preferences
from cogs.delivery.shown_pictures import ShownPictures
from cogs.game.text import t
from cogs.game.views import hand_message
from services.delivery import GameSummary, PrivateUpdate
from services.model import HandView

log = logging.getLogger(__name__)

EPHEMERAL_LIFETIME = 14 * 60  # an interaction token lives 15 minutes (a minute to spare)
#: environment variable overriding :data:`EPHEMERAL_LIFETIME` (seconds; tests shorten it)
EPHEMERAL_LIFETIME_ENV = "EPHEMERAL_LIFETIME_SECONDS"
#: Discord's error code for a DM the user does not accept
DM_CLOSED = 50007
#: how many players' DM channels :class:`DmChannels` keeps (two ints each: a few MB at most)
DM_CHANNELS_KEPT = 100_000


class DmChannels:
    """Each player's DM channel (user id → channel id), the least recently used forgotten
    past ``limit``. discord.py keeps only 128 DM channels: past 128 players, each new DM
    would first ask Discord to open the channel again. A DM channel's id never changes; when
    Discord says it is unknown (404) the entry goes and the channel is opened again."""

    def __init__(self, limit: int = DM_CHANNELS_KEPT) -> None:
        self.limit = limit
        self._ids: OrderedDict[int, int] = OrderedDict()
        #: channels opened (``POST /users/@me/channels`` or discord.py's cache)
        self.opened = 0

    def __len__(self) -> int:
        return len(self._ids)

    def get(self, user_id: int) -> int | None:
        """The user's DM channel, if known."""
        channel_id = self._ids.get(user_id)
        if channel_id is not None:
            self._ids.move_to_end(user_id)
        return channel_id

    def note(self, user_id: int, channel_id: int) -> None:
        """The user's DM channel (from a DM sent, or the game's remembered messages)."""
        self._ids[user_id] = channel_id
        self._ids.move_to_end(user_id)
        while len(self._ids) > self.limit:
            self._ids.popitem(last=False)

    def drop(self, user_id: int, channel_id: int) -> None:
        """Discord does not know this channel (any more): forget it."""
        if self._ids.get(user_id) == channel_id:
            del self._ids[user_id]


def lifetime_from_env() -> float:
    """How long an ephemeral hand reply stays editable: ``EPHEMERAL_LIFETIME_SECONDS`` from
    the environment when set to a positive number, else :data:`EPHEMERAL_LIFETIME`."""
    raw = os.environ.get(EPHEMERAL_LIFETIME_ENV, "").strip()
    try:
        value = float(raw) if raw else EPHEMERAL_LIFETIME
    except ValueError:
        log.warning(
            "%s=%r is not a number; using %s s", EPHEMERAL_LIFETIME_ENV, raw, EPHEMERAL_LIFETIME
        )
        return float(EPHEMERAL_LIFETIME)
    return value if 0 < value <= EPHEMERAL_LIFETIME else float(EPHEMERAL_LIFETIME)


class HandMessages:
    """The players' hand DMs, and the ephemeral replies of players whose DMs are closed."""

    def __init__(
        self,
        bot: discord.Client,
        places: Places,
        preferences: Preferences,
        *,
        ephemeral_lifetime: float | None = None,
    ) -> None:
        self.bot = bot
        self.places = places
        self.preferences = preferences
        self.ephemeral_lifetime = (
            ephemeral_lifetime if ephemeral_lifetime is not None else lifetime_from_env()
        )
        #: (game, user) → (hand number, the hand DM) kept up to date
        self.dm_messages: dict[tuple[int, int], tuple[int, Any]] = {}
        #: (game, user) → (game version, hand) last shown to the player
        self.rendered: dict[tuple[int, int], tuple[int, HandView | None]] = {}
        #: players whose DMs are closed (50007): their hand goes by ``/mahjong hand``
        self.dm_closed: set[int] = set()
        #: (game, user) pairs told publicly that the user's DMs are closed
        self.notified_closed: set[tuple[int, int]] = set()
        #: (game, user) → (when, the interaction) of an ephemeral hand reply
        self.ephemeral: dict[tuple[int, int], tuple[float, discord.Interaction]] = {}
        #: the hand picture each hand message shows (an unchanged one is not sent again)
        self.pictures = ShownPictures()
        #: each player's DM channel (far more than discord.py keeps)
        self.dm_channels = DmChannels()
        #: (game, user) → the hand DM last written without buttons by this process (an
        #: earlier hand's DM known bare is not edited again when the next hand's goes out)
        self.bare: dict[tuple[int, int], int] = {}

    # ------------------------------------------------------------------ what a press showed

    def remember_ephemeral(
        self, game_id: int, user_id: int, interaction: discord.Interaction
    ) -> None:
        """An ephemeral hand reply this delivery may edit while its token lives."""
        self.ephemeral[(game_id, user_id)] = (time.monotonic(), interaction)

    def note_rendered(
        self, game_id: int, user_id: int, version: int, hand: HandView | None
    ) -> None:
        """A button answer already showed this hand: skip the identical DM edit."""
        self.rendered[(game_id, user_id)] = (version, hand)

    def forget_rendered(self, game: GameSummary, update: PrivateUpdate) -> None:
        """The update was not shown (its send failed): sending it again must not be skipped."""
        key = (game.id, update.user_id)
        if self.rendered.get(key) == (game.version, update.hand):
            del self.rendered[key]

    def is_live_hand_message(self, game_id: int, user_id: int, message: Any) -> bool:
        """Whether ``message`` is the one this delivery keeps up to date for the user: their
        newest hand DM, or the ephemeral reply when their DMs are closed.

        A press on any other copy (a DM from before a restart, a ``/mahjong hand`` look)
        still counts, but the live message must then be edited as well."""
        if message is None:
            return False
        flags = getattr(message, "flags", None)
        if flags is not None and flags.ephemeral:
            return user_id in self.dm_closed
        known = self.dm_messages.get((game_id, user_id))
        return known is not None and known[1].id == message.id

    # ------------------------------------------------------------------ the hand DM

    async def update_hand(self, game: GameSummary, update: PrivateUpdate) -> bool:
        """Edit the player's hand DM (or ephemeral reply), or send one; True when a new
        message that notifies them went out (a new hand DM, the closed-DM notice)."""
        key = (game.id, update.user_id)
        shown = self.rendered.get(key)
        if shown is not None and (shown == (game.version, update.hand) or shown[0] > game.version):
            # (shown already, or a press's answer showed a newer hand: never edited back to an
            # older moment, whose buttons would only be refused)
            return False
        self.rendered[key] = (game.version, update.hand)
        await self._adopt_stored(game, update.user_id)
        lang = await self.preferences.lang_for_player(update.user_id, game.guild_id)
        embed, view = hand_message(game, update, lang)
        if update.user_id in self.dm_closed:
            await self._edit_ephemeral(key, embed, view)
            return False
        images = await self.preferences.images_for_user(update.user_id)
        picture = pictures.hand_model(update.hand, lang) if images else None
        known = self._hand_dm(game, key)
        # the DM already shows this picture (only its text and buttons change): the edit
        # keeps its attachment — nothing rendered, nothing uploaded
        keep = known is not None and self.pictures.shows(known[1].id, picture)
        png = None
        if not keep:
            png = await pictures.hand_png(update.hand, lang=lang) if images else None  # off loop
            if self.rendered.get(key) != (game.version, update.hand):
                return False  # a press's answer showed a newer hand meanwhile
            known = self._hand_dm(game, key)

        def files() -> list[discord.File]:
            made = pictures.files_of(png, "hand.png")
            if made:
                embed.set_image(url=f"attachment://{made[0].filename}")
            return made

        if known is not None and self.places.age(known[1].id) <= TABLE_MAX_AGE:
            try:
                if keep:
                    embed.set_image(url="attachment://hand.png")
                    await known[1].edit(embed=embed, view=view)
                else:
                    with self.pictures.changing(known[1].id, picture if png else None):
                        await known[1].edit(embed=embed, view=view, attachments=files())
                self._note_buttons(key, known[1].id, view)
                return False
            except discord.NotFound:
                known = None
            except discord.HTTPException as error:
                if self.places.closing:
                    raise
                log.info(
                    "game %s: hand DM of %s not edited (%s %s); sending a new one",
                    game.id,
                    update.user_id,
                    error.status,
                    error.code,
                )
        if keep:  # a new DM after all: it needs the picture
            embed.set_image(url=None)
            png = await pictures.hand_png(update.hand, lang=lang)
        # this hand's DM at this version, in place of the one that could not be edited
        made = nonce("d", game.id, game.hand_no, update.user_id, game.version, _id_of(known))
        try:
            message = await self.send_dm(
                update.user_id, embed=embed, view=view, files=files(), nonce=made
            )
        except discord.Forbidden as error:
            if error.code != DM_CLOSED:
                raise
            self.dm_closed.add(update.user_id)
            noticed = await self._notify_closed(game, update.user_id)
            embed.set_image(url=None)
            await self._edit_ephemeral(key, embed, view)
            return noticed
        self.places.note_snowflake(message.id)
        self.pictures.note(message.id, picture if png else None)
        self._note_buttons(key, message.id, view)
        self.dm_messages[key] = (game.hand_no, message)
        held = self.places.refs(game).setdefault("dm", {})
        # the DM this one takes the place of (this hand's, or an earlier hand's that may
        # still show buttons) is written down with it: its buttons go, even after a crash
        replaced = self._replaced(game, key, held.get(str(update.user_id)), known, message.id)
        held[str(update.user_id)] = [message.channel.id, message.id, game.hand_no]
        # waited for: a crash after this DM's send costs at most this one duplicate, never
        # a second DM for messages sent after it (and sharing, the stored DM decides)
        await self.places.save_refs(game.id)
        if await self._keep_stored_dm(game, key, message, embed, view, files):
            message = self.dm_messages[key][1]  # (the duplicate notified them before it went)
        if known is not None and known[1].id != message.id:
            await self._point_to(game, known[1], message, lang)
        elif replaced is not None:
            await self.places.stale.strip(game, *replaced)
        return True

    def _note_buttons(self, key: tuple[int, int], message_id: int, view: Any) -> None:
        """The hand DM was just written, with buttons (``view``) or without."""
        if view is None or not getattr(view, "children", None):
            self.bare[key] = message_id
        elif self.bare.get(key) == message_id:
            del self.bare[key]

    def _replaced(
        self,
        game: GameSummary,
        key: tuple[int, int],
        entry: Any,
        known: tuple[int, Any] | None,
        sent: int,
    ) -> tuple[int, int] | None:
        """The hand DM a new one replaces, written down as owing its buttons' removal:
        ``known`` (this hand's, which could not be edited), else the remembered DM of an
        earlier hand unless this process last wrote it without buttons. Returns
        ``(channel, message)`` of the earlier hand's DM to strip (None: none, or ``known``)."""
        if known is not None and known[1].id != sent:
            self.places.stale.owe(game, known[1].channel.id, known[1].id)
            return None
        with contextlib.suppress(TypeError, ValueError, IndexError):
            channel_id, message_id, hand_no = int(entry[0]), int(entry[1]), int(entry[2])
            if hand_no < game.hand_no and message_id != sent and self.bare.get(key) != message_id:
                self.places.stale.owe(game, channel_id, message_id)
                return channel_id, message_id
        return None

    def _hand_dm(self, game: GameSummary, key: tuple[int, int]) -> tuple[int, Any] | None:
        """(hand number, message) of the player's hand DM of this hand (None: none yet; an
        earlier hand's DM stays as that hand's record)."""
        known = self.dm_messages.get(key)
        return known if known is not None and known[0] == game.hand_no else None

    async def _keep_stored_dm(
        self,
        game: GameSummary,
        key: tuple[int, int],
        sent: discord.Message,
        embed: discord.Embed,
        view: discord.ui.View | None,
        files: Callable[[], list[discord.File]],
    ) -> bool:
        """After saving: when the stored hand DM of this hand is another one (another process
        sent the player this hand's DM meanwhile, and the newer stays), this one is a
        duplicate — deleted, and the stored one edited with this hand and kept up to date
        from now on. True when that happened."""
        entry = (self.places.refs(game).get("dm") or {}).get(str(key[1]))
        if not isinstance(entry, list) or len(entry) != 3:
            return False
        try:
            channel_id, message_id, hand_no = (int(v) for v in entry)
        except (TypeError, ValueError):
            return False
        if message_id == sent.id or hand_no != game.hand_no:
            return False
        log.info(
            "game %s: hand DM %s of %s is a duplicate of %s", game.id, sent.id, key[1], message_id
        )
        with contextlib.suppress(discord.HTTPException):
            await sent.delete()
        stored = self.places.partial(channel_id, message_id)
        self.dm_messages[key] = (hand_no, stored)
        try:
            with self.pictures.changing(message_id, None):  # (its picture is not known after)
                await stored.edit(embed=embed, view=view, attachments=files())
        except discord.HTTPException as error:
            log.info("hand DM %s not edited (%s %s)", message_id, error.status, error.code)
        return True

    async def send_dm(
        self, user_id: int, *, view: discord.ui.View | None = None, **fields: Any
    ) -> discord.Message:
        """A new DM to the user (raises :class:`discord.Forbidden` 50007 when closed): to
        their DM channel when known (:class:`DmChannels`), else opened first."""
        if view is not None:
            fields["view"] = view
        channel_id = self.dm_channels.get(user_id)
        if channel_id is not None:
            where = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            try:
                return await where.send(**fields)
            except discord.NotFound as error:  # (10003 Unknown Channel) opened again below
                log.info("DM channel %s of %s unknown (%s)", channel_id, user_id, error.code)
                self.dm_channels.drop(user_id, channel_id)
                for file in fields.get("files") or ():
                    file.reset()
        dm = await self.bot.create_dm(discord.Object(id=user_id))
        self.dm_channels.opened += 1
        self.dm_channels.note(user_id, dm.id)
        return await dm.send(**fields)

    def note_dm_channels(self, dms: Any) -> None:
        """The players' DM channels the game's remembered hand DMs name (``{user id:
        [channel, message, hand]}``)."""
        if not isinstance(dms, dict):
            return
        for uid, ref in dms.items():
            with contextlib.suppress(TypeError, ValueError, IndexError):
                self.dm_channels.note(int(uid), int(ref[0]))

    async def _adopt_stored(self, game: GameSummary, user_id: int) -> None:
        """Several processes on one database: the hand DM (and its alert) another process
        sent this player for this hand — the game's owner, while this one serves a press
        (DM buttons all arrive on shard 0) — is edited from now on, not sent a second time."""
        ids = self.places.ids
        if ids is None or not self.places.sharing:
            return
        if (game.id, user_id) in self.dm_messages:
            return
        stored = await ids.stored_messages(game.id)
        if stored is None:
            return
        messages, uid = stored[1], str(user_id)
        refs = self.places.refs(game)
        dm = (messages.get("dm") or {}).get(uid)
        with contextlib.suppress(TypeError, ValueError, IndexError):
            if dm and int(dm[2]) == game.hand_no and (game.id, user_id) not in self.dm_messages:
                message = self.places.partial(int(dm[0]), int(dm[1]))
                self.dm_messages[(game.id, user_id)] = (game.hand_no, message)
                refs.setdefault("dm", {})[uid] = list(dm)
        self.note_dm_channels(messages.get("dm"))
        alert = (messages.get("alerts") or {}).get(uid)
        alerts = self.places.held(game, "alerts")
        if isinstance(alert, list) and uid not in alerts:
            alerts[uid] = list(alert)

    async def _point_to(self, game: GameSummary, old: Any, new: Any, lang: str) -> None:
        """An old hand DM replaced by a new one: it says where the hand went, without
        buttons (when that fails, its buttons are taken off later:
        :mod:`cogs.delivery.stale_buttons`)."""
        embed = discord.Embed(
            description=t("game.hand_moved", lang, link=jump_url(new.channel.id, new.id)),
            colour=discord.Colour.blue(),
        )

        async def edit() -> None:
            with self.pictures.changing(old.id, None):
                await old.edit(embed=embed, view=None, attachments=[])

        if not await self.places.stale.strip(game, old.channel.id, old.id, edit=edit):
            log.info("old hand DM %s not updated yet", old.id)

    async def strip_all(self, game: GameSummary) -> None:
        """The game ended: every remembered hand DM not known bare loses its buttons (a game
        ended by a vote or an operator mid-hand leaves them showing the moves)."""
        for uid, ref in list((self.places.refs(game).get("dm") or {}).items()):
            with contextlib.suppress(TypeError, ValueError, IndexError):
                channel_id, message_id = int(ref[0]), int(ref[1])
                if self.bare.get((game.id, int(uid))) != message_id:
                    await self.places.stale.strip(game, channel_id, message_id)

    def reopen(self, game: GameSummary) -> None:
        """After a restart: the remembered hand DMs are edited again (not sent anew), and
        every hand is shown again."""
        for key in [k for k in self.rendered if k[0] == game.id]:
            self.rendered.pop(key, None)
        self.note_dm_channels(self.places.refs(game).get("dm"))
        for uid, ref in (self.places.refs(game).get("dm") or {}).items():
            with contextlib.suppress(TypeError, ValueError, IndexError):
                if int(ref[2]) == game.hand_no and (game.id, int(uid)) not in self.dm_messages:
                    message = self.places.partial(int(ref[0]), int(ref[1]))
                    self.dm_messages[(game.id, int(uid))] = (game.hand_no, message)

    def forget_game(self, game_id: int) -> None:
        """The game is over: its hand DMs are not kept up to date any more."""
        for key in [k for k in self.dm_messages if k[0] == game_id]:
            _hand_no, message = self.dm_messages.pop(key)
            self.pictures.forget(message.id)
        for key in [k for k in self.bare if k[0] == game_id]:
            del self.bare[key]

    # ------------------------------------------------------------------ closed DMs

    async def _notify_closed(self, game: GameSummary, user_id: int) -> bool:
        """The one-line notice that a player's DMs are closed (once per game), where the
        game is played; True when it was posted now (it notifies them)."""
        if (game.id, user_id) in self.notified_closed:
            return False
        self.notified_closed.add((game.id, user_id))
        lang = await self.preferences.lang_for_guild(game.guild_id)
        await self.places.mention(
            game,
            user_id,
            t("game.line_dm_closed", lang, mention=f"<@{user_id}>"),
            nonce=nonce("c", game.id, user_id),
        )
        return True

    def has_live_ephemeral(self, game_id: int, user_id: int) -> bool:
        """Whether the user has an ephemeral hand reply the bot may still edit."""
        held = self.ephemeral.get((game_id, user_id))
        return held is not None and time.monotonic() - held[0] <= self.ephemeral_lifetime

    async def _edit_ephemeral(
        self, key: tuple[int, int], embed: discord.Embed, view: discord.ui.View | None
    ) -> bool:
        """Edit the user's ephemeral hand reply while its token lives; False when there is
        none to edit (never opened, lapsed, or Discord refused the edit)."""
        if not self.has_live_ephemeral(*key):
            self.ephemeral.pop(key, None)
            return False
        _at, interaction = self.ephemeral[key]
        try:
            await interaction.edit_original_response(embed=embed, view=view)
        except discord.HTTPException:
            self.ephemeral.pop(key, None)
            return False
        return True


def _id_of(known: tuple[int, Any] | None) -> int:
    """The id of the hand DM a new one replaces (0: none)."""
    return int(known[1].id) if known is not None else 0
