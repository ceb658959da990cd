"""The Discord :class:`services.delivery.Delivery`: DMs, the table message, public lines.

- Each human's hand goes by DM: one DM message per player per hand, edited as play goes.
  When a DM is refused (error 50007) the player uses the ephemeral ``/mahjong hand`` path
  (this delivery then edits that ephemeral reply while its token lives) and the channel gets a
  one-line notice — never the hand.
- Discord lets the bot edit an ephemeral reply for 15 minutes only. When such a player is
  asked to act and has no ephemeral reply the bot can still edit (it lapsed, or they never
  opened one), the channel gets a short ping — "<@user> your turn — press 🀄 My hand" — at
  most once per decision, never with a tile in it.
- The channel has one table message per game, edited at most once per ~2 s (edits are
  coalesced), plus short lines for claims, kongs, wins and timeouts, and the result.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import Any

import discord

from cogs import pictures
from cogs.text import CLAIM_WORDS, TIMEOUT_WORDS, lang_of, pick, t, tile_name
from cogs.views import final_message, hand_message, lobby_message, result_message, table_message
from services.delivery import GameSummary, PrivateUpdate
from services.model import GameEvent, HandResult, HandView, TableView

log = logging.getLogger(__name__)

TABLE_EDIT_INTERVAL = 2.0  # seconds between two edits of one table message
EPHEMERAL_LIFETIME = 14 * 60  # an interaction token lives 15 minutes (a minute to spare)
#: environment variable overriding :data:`EPHEMERAL_LIFETIME` (seconds; tests shorten it)
EPHEMERAL_LIFETIME_ENV = "EPHEMERAL_LIFETIME_SECONDS"
DM_CLOSED = 50007


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


class DiscordDelivery:
    """Sends what the game service reports to Discord."""

    def __init__(
        self,
        bot: discord.Client,
        *,
        table_interval: float = TABLE_EDIT_INTERVAL,
        ephemeral_lifetime: float | None = None,
    ) -> None:
        self.bot = bot
        self.table_interval = table_interval
        self.ephemeral_lifetime = (
            ephemeral_lifetime if ephemeral_lifetime is not None else lifetime_from_env()
        )
        self.public_lang = "zh"
        self.dm_messages: dict[tuple[int, int], tuple[int, discord.Message]] = {}
        self.rendered: dict[tuple[int, int], tuple[int, HandView | None]] = {}
        self.dm_closed: set[int] = set()
        self.notified_closed: set[tuple[int, int]] = set()
        self.ephemeral: dict[tuple[int, int], tuple[float, discord.Interaction]] = {}
        #: (game, user) → (hand no, prompt) of the last "your turn" ping
        self.pinged: dict[tuple[int, int], tuple[int, int]] = {}
        self.commitments: dict[int, str] = {}
        self._latest_table: dict[int, tuple[GameSummary, TableView | None]] = {}
        self._table_tasks: dict[int, asyncio.Task[None]] = {}
        self._last_edit: dict[int, float] = {}
        self._guild_lang: dict[int, str] = {}
        self._user_lang: dict[int, str] = {}
        self._user_images: dict[int, bool] = {}
        self.service: Any = None
        self.closing = False

    # ------------------------------------------------------------------ helpers

    async def lang_for_guild(self, guild_id: int) -> str:
        """The server's language for public messages (``zh`` unless set to ``en``)."""
        if guild_id not in self._guild_lang:
            lang = "zh"
            store = getattr(self.service, "store", None)
            if store is not None:
                try:
                    lang = (await store.get_guild_settings(guild_id)).language or "zh"
                except Exception:
                    log.exception("could not read the language of guild %s", guild_id)
            self._guild_lang[guild_id] = lang if lang in ("zh", "en", "zh+en") else "zh"
        return self._guild_lang[guild_id]

    async def close(self) -> None:
        """Stop pending table edits (shut-down)."""
        self.closing = True
        tasks = list(self._table_tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def note_user(self, user_id: int, locale: Any) -> None:
        """The user's Discord language, seen on their latest interaction."""
        self._user_lang[user_id] = lang_of(locale)

    async def lang_for_user(self, user_id: int) -> str:
        """The language of a player's private messages: their Discord language, else zh."""
        await self._load_player(user_id)
        return self._user_lang[user_id]

    async def images_for_user(self, user_id: int) -> bool:
        """Whether a player's private messages carry pictures (``/mahjong pictures``)."""
        await self._load_player(user_id)
        return self._user_images[user_id]

    def set_user_images(self, user_id: int, on: bool) -> None:
        """Remember a player's picture preference (already saved in the store)."""
        self._user_images[user_id] = on

    async def _load_player(self, user_id: int) -> None:
        """Read a player's stored locale and picture preference once."""
        if user_id in self._user_lang and user_id in self._user_images:
            return
        lang, images = "zh", True
        store = getattr(self.service, "store", None)
        if store is not None:
            try:
                player = await store.get_player(user_id)
                if player is not None:
                    lang = lang_of(player.locale) if player.locale else lang
                    images = player.prefers_images
            except Exception:
                log.exception("could not read the preferences of user %s", user_id)
        self._user_lang.setdefault(user_id, lang)
        self._user_images.setdefault(user_id, images)

    def forget_guild_language(self, guild_id: int) -> None:
        self._guild_lang.pop(guild_id, None)

    def channel(self, channel_id: int) -> discord.abc.Messageable:
        return self.bot.get_channel(channel_id) or self.bot.get_partial_messageable(channel_id)  # type: ignore[return-value]

    async def _say(self, game: GameSummary, text: str) -> None:
        if text:
            await self.channel(game.channel_id).send(
                text[:2000], allowed_mentions=discord.AllowedMentions(users=False)
            )

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

    # ------------------------------------------------------------------ Delivery

    async def lobby_changed(self, game: GameSummary) -> None:
        lang = await self.lang_for_guild(game.guild_id)
        embed, view = lobby_message(game, lang)
        await self._put_table(game, embed, view, None)
        if game.status == "abandoned":
            await self._say(game, t("line_abandoned", lang))

    async def table_changed(
        self, game: GameSummary, table: TableView, events: list[GameEvent]
    ) -> None:
        lang = await self.lang_for_guild(game.guild_id)
        for event in events:
            if event.kind == "hand_started" and event.data.get("commitment"):
                self.commitments[game.id] = str(event.data["commitment"])
        lines = [line for line in (self.event_line(game, e, events, lang) for e in events) if line]
        if lines:
            await self._say(game, "\n".join(lines))
        self._schedule_table(game, table)

    async def hand_changed(self, game: GameSummary, update: PrivateUpdate) -> None:
        key = (game.id, update.user_id)
        if self.rendered.get(key) == (game.version, update.hand):
            return
        self.rendered[key] = (game.version, update.hand)
        lang = await self.lang_for_user(update.user_id)
        embed, view = hand_message(game, update, lang)
        if update.user_id in self.dm_closed:
            if not await self._edit_ephemeral(key, embed, view):
                await self._ping_turn(game, update)
            return
        images = await self.images_for_user(update.user_id)
        files = pictures.hand_files(update.hand) if images else []
        if files:
            embed.set_image(url=f"attachment://{files[0].filename}")
        known = self.dm_messages.get(key)
        if known is not None and known[0] == game.hand_no:
            try:
                await known[1].edit(embed=embed, view=view, attachments=files)
                return
            except discord.NotFound:
                files = pictures.hand_files(update.hand) if images else []
        try:
            dm = await self.bot.create_dm(discord.Object(id=update.user_id))  # type: ignore[arg-type]
            message = await dm.send(embed=embed, view=view, files=files)
        except discord.Forbidden as error:
            if error.code != DM_CLOSED:
                raise
            self.dm_closed.add(update.user_id)
            noticed = await self._notify_closed(game, update.user_id)
            embed.set_image(url=None)
            if not await self._edit_ephemeral(key, embed, view):
                if noticed:  # the notice just mentioned them: it stands for this prompt's ping
                    self._note_pinged(game, update)
                else:
                    await self._ping_turn(game, update)
            return
        self.dm_messages[key] = (game.hand_no, message)

    async def hand_ended(self, game: GameSummary, result: HandResult, table: TableView) -> None:
        lang = await self.lang_for_guild(game.guild_id)
        await self._flush_table(game, table)
        embed, view = result_message(game, result, lang, self.commitments.get(game.id))
        files = pictures.result_files(game, result)
        if files:
            embed.set_image(url=f"attachment://{files[0].filename}")
        await self.channel(game.channel_id).send(embed=embed, view=view, files=files)

    async def game_ended(self, game: GameSummary, reason: str) -> None:
        lang = await self.lang_for_guild(game.guild_id)
        task = self._table_tasks.pop(game.id, None)
        if task is not None:
            task.cancel()
        if game.table_message_id is not None and game.hand_no == 0:
            embed, _view = lobby_message(game, lang)
            await self._edit_table_message(game, embed, None)
        elif game.table_message_id is not None:
            latest = self._latest_table.get(game.id)
            embed, _view = table_message(game, latest[1] if latest else None, lang)
            await self._edit_table_message(game, embed, None)
        if game.hand_no:
            await self.channel(game.channel_id).send(embed=final_message(game, reason, lang))
        for key in [k for k in self.dm_messages if k[0] == game.id]:
            self.dm_messages.pop(key, None)

    async def refresh(self, game: GameSummary, table: TableView | None) -> None:
        for key in [k for k in self.dm_messages if k[0] == game.id]:
            self.dm_messages.pop(key, None)
        for key in [k for k in self.rendered if k[0] == game.id]:
            self.rendered.pop(key, None)
        if table is not None and table.commitment:
            self.commitments[game.id] = table.commitment
        await self._flush_table(game, table)

    # ------------------------------------------------------------------ the table message

    def _schedule_table(self, game: GameSummary, table: TableView | None) -> None:
        """Edit the table soon: at most one edit per ``table_interval`` per game."""
        self._latest_table[game.id] = (game, table)
        task = self._table_tasks.get(game.id)
        if task is not None and not task.done():
            return
        self._table_tasks[game.id] = asyncio.create_task(
            self._table_later(game.id), name=f"mj-table-{game.id}"
        )

    async def _table_later(self, game_id: int) -> None:
        wait = self._last_edit.get(game_id, 0.0) + self.table_interval - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        latest = self._latest_table.get(game_id)
        if latest is None:
            return
        try:
            await self._write_table(*latest)
        except Exception:
            if self.closing or self.bot.is_closed():
                log.info("game %s: table edit dropped at shut-down", game_id)
            else:
                log.exception("game %s: table edit failed", game_id)

    async def _flush_table(self, game: GameSummary, table: TableView | None) -> None:
        task = self._table_tasks.pop(game.id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        self._latest_table[game.id] = (game, table)
        await self._write_table(game, table)

    async def _write_table(self, game: GameSummary, table: TableView | None) -> None:
        lang = await self.lang_for_guild(game.guild_id)
        embed, view = table_message(game, table, lang)
        files = pictures.table_files(game, table) if table is not None else []
        if files:
            embed.set_image(url=f"attachment://{files[0].filename}")
        await self._put_table(game, embed, view, files)
        self._last_edit[game.id] = time.monotonic()

    async def _put_table(
        self,
        game: GameSummary,
        embed: discord.Embed,
        view: discord.ui.View | None,
        files: list[discord.File] | None,
    ) -> None:
        message_id = self._table_id(game)
        if message_id is not None and await self._edit_table_message(game, embed, view, files):
            return
        message = await self.channel(game.channel_id).send(
            embed=embed, view=view, files=files or []
        )
        if self.service is not None:
            await self.service.set_table_message(game.id, message.id)

    def _table_id(self, game: GameSummary) -> int | None:
        if self.service is not None:
            live = getattr(self.service, "_games", {}).get(game.id)
            if live is not None:
                return live.table_message_id
        return game.table_message_id

    async def _edit_table_message(
        self,
        game: GameSummary,
        embed: discord.Embed,
        view: discord.ui.View | None,
        files: list[discord.File] | None = None,
    ) -> bool:
        message_id = self._table_id(game)
        if message_id is None:
            return False
        channel = self.channel(game.channel_id)
        partial = channel.get_partial_message(message_id)  # type: ignore[attr-defined]
        try:
            if files:
                await partial.edit(embed=embed, view=view, attachments=files)
            else:
                await partial.edit(embed=embed, view=view, attachments=[])
        except discord.NotFound:
            return False
        return True

    # ------------------------------------------------------------------ closed DMs

    async def _notify_closed(self, game: GameSummary, user_id: int) -> bool:
        """The one-line notice that a player's DMs are closed (once per game); True when it
        was posted now."""
        if (game.id, user_id) in self.notified_closed:
            return False
        self.notified_closed.add((game.id, user_id))
        lang = await self.lang_for_guild(game.guild_id)
        await self.channel(game.channel_id).send(
            t("line_dm_closed", lang, mention=f"<@{user_id}>"),
            allowed_mentions=discord.AllowedMentions(users=True),
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

    def _note_pinged(self, game: GameSummary, update: PrivateUpdate) -> None:
        self.pinged[(game.id, update.user_id)] = (game.hand_no, update.prompt)

    async def _ping_turn(self, game: GameSummary, update: PrivateUpdate) -> None:
        """A closed-DM player who cannot see their hand is asked to act: one short public
        ping per decision ("<@user> your turn — press 🀄 My hand"), no tiles."""
        if not update.hand.legal or game.status != "active":
            return
        seat = game.seats[update.seat] if update.seat < len(game.seats) else None
        if seat is None or seat.auto:
            return
        key = (game.id, update.user_id)
        if self.pinged.get(key) == (game.hand_no, update.prompt):
            return
        self._note_pinged(game, update)
        lang = await self.lang_for_guild(game.guild_id)
        await self.channel(game.channel_id).send(
            t("line_your_turn", lang, mention=f"<@{update.user_id}>"),
            allowed_mentions=discord.AllowedMentions(users=True),
        )

    # ------------------------------------------------------------------ public lines

    def event_line(
        self, game: GameSummary, event: GameEvent, events: list[GameEvent], lang: str
    ) -> str | None:
        """A short public line for a notable event (claims, kongs, wins…), or None."""
        if event.visible_to is not None:
            return None
        names = [s.name for s in game.seats]
        d = event.data

        def name(seat: Any) -> str:
            return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

        kind = event.kind
        if kind == "hand_started":
            line = t(
                "line_hand_started",
                lang,
                hand=int(d.get("hand", 0)) + 1,
                dealer=name(d.get("dealer")),
                hash=d.get("commitment", ""),
            )
            dice = [
                e.data.get("values")
                for e in events
                if e.kind == "dice" and e.data.get("purpose") in ("deal", "indicator")
            ]
            rolled = [f"{'+'.join(str(v) for v in vs)}" for vs in dice if vs]
            if rolled:
                line += "\n" + t("line_dice", lang, dice=" / ".join(rolled))
            return line
        if kind == "claimed":
            what = pick(CLAIM_WORDS.get(d.get("kind", ""), ("?", "?")), lang)
            return t(
                "line_claimed",
                lang,
                name=name(d.get("seat")),
                what=what,
                tile=_tile(d.get("tile"), lang),
            )
        if kind == "kong":
            if d.get("kind") == "concealed_kong":
                return t("line_concealed_kong", lang, name=name(d.get("seat")))
            return t("line_kong", lang, name=name(d.get("seat")), tile=_tile(d.get("tile"), lang))
        if kind == "ready":
            return t("line_ready", lang, name=name(d.get("seat")))
        if kind == "touji":
            return t("line_touji", lang, name=name(d.get("seat")))
        if kind == "flower":
            return t("line_flower", lang, name=name(d.get("seat")), tile=_tile(d.get("tile"), lang))
        if kind == "won":
            out = []
            for w in d.get("winners", []):
                who = name(w.get("seat"))
                if d.get("how") == "self":
                    out.append(t("line_won_self", lang, name=who))
                elif d.get("how") == "rob_kong":
                    out.append(t("line_won_rob", lang, name=who))
                else:
                    out.append(t("line_won_discard", lang, name=who, payer=name(d.get("payer"))))
            return "\n".join(out) or None
        if kind == "drawn_hand":
            return t("line_drawn", lang)
        if kind == "timeout":
            what = pick(TIMEOUT_WORDS.get(d.get("kind", ""), TIMEOUT_WORDS[""]), lang)
            return t("line_timeout", lang, name=name(event.seat), what=what)
        if kind == "auto":
            if d.get("on"):
                if any(e.kind == "timeout" and e.seat == event.seat for e in events):
                    return None
                return t("line_auto_on", lang, name=name(event.seat))
            return t("line_auto_off", lang, name=name(event.seat))
        return None


def _tile(kind: Any, lang: str) -> str:
    return tile_name(kind, lang) if isinstance(kind, int) and 0 <= kind < 34 else "?"
