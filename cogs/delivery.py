"""The Discord :class:`services.delivery.Delivery`: DMs, the table message, public lines.

- Each human's hand goes by DM: one DM message per player per hand, edited as play goes
  (after a restart the same DM is edited again; a DM that cannot be edited any more is
  replaced, and the old one points to the new one). When a DM is refused (error 50007) the
  player uses the ephemeral ``/mahjong hand`` path (this delivery then edits that ephemeral
  reply while its token lives — 15 minutes) and the game gets a one-line notice — never the
  hand.
- Edits never notify: every decision a player is asked for gets one new message, a short DM
  or, for closed DMs, a mention on their turn (:mod:`cogs.alerts`).
- The game plays in its own thread when the bot may create one; each hand gets a fresh table
  message, edited at most once per ~2 s (edits are coalesced), plus short lines for claims,
  kongs, wins and timeouts, and the result; the lobby and the final standings stay in the
  channel (:mod:`cogs.places`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from typing import Any

import discord

from cogs import pictures
from cogs.alerts import AlertsMixin
from cogs.places import TABLE_MAX_AGE, PlacesMixin, jump_url
from cogs.resend import resend_delay
from cogs.session import SessionDeliveryMixin, result_parts
from cogs.session_text import dealer_choice_line
from cogs.text import lang_of, t, tile_name, word
from cogs.views import hand_message, lobby_message, table_message
from db.store import Store
from i18n import BOTH, LOCALES
from services import outbox
from services.delivery import GameSummary, PrivateUpdate
from services.game import GameService
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


class DiscordDelivery(SessionDeliveryMixin, AlertsMixin, PlacesMixin):
    """Sends what the game service reports to Discord."""

    def __init__(
        self,
        bot: discord.Client,
        *,
        store: Store | None = None,
        table_interval: float = TABLE_EDIT_INTERVAL,
        ephemeral_lifetime: float | None = None,
    ) -> None:
        self.bot = bot
        #: the servers' and players' stored choices (language, pictures, alerts); without
        #: a store every choice is the default
        self.store = store
        self.table_interval = table_interval
        self.ephemeral_lifetime = (
            ephemeral_lifetime if ephemeral_lifetime is not None else lifetime_from_env()
        )
        self.public_lang = "zh"
        self.dm_messages: dict[tuple[int, int], tuple[int, Any]] = {}
        self.rendered: dict[tuple[int, int], tuple[int, HandView | None]] = {}
        self.dm_closed: set[int] = set()
        self.notified_closed: set[tuple[int, int]] = set()
        self.ephemeral: dict[tuple[int, int], tuple[float, discord.Interaction]] = {}
        self.commitments: dict[int, str] = {}
        self._latest_table: dict[int, tuple[GameSummary, TableView | None]] = {}
        self._table_tasks: dict[int, asyncio.Task[None]] = {}
        self._writing: set[int] = set()  # games whose coalesced table write is under way
        self._last_edit: dict[int, float] = {}
        self._guild_lang: dict[int, str] = {}
        self._user_lang: dict[int, str] = {}
        self._user_images: dict[int, bool] = {}
        #: the game service this delivery reports for (set by the composition root)
        self.service: GameService | None = None
        self.closing = False
        self._init_places()
        self._init_alerts()

    # ------------------------------------------------------------------ helpers

    async def lang_for_guild(self, guild_id: int) -> str:
        """The server's language for public messages: ``zh`` unless set to ``zh-TW``, ``en``
        or ``zh+en``."""
        if guild_id not in self._guild_lang:
            lang = "zh"
            if self.store is not None:
                try:
                    lang = (await self.store.guilds.settings(guild_id)).language or "zh"
                except Exception:
                    log.exception("could not read the language of guild %s", guild_id)
            self._guild_lang[guild_id] = lang if lang in (*LOCALES, BOTH) else "zh"
        return self._guild_lang[guild_id]

    async def close(self) -> None:
        """Stop pending table edits (shut-down)."""
        self.closing = True
        tasks = list(self._table_tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def resend_delay(self, error: BaseException) -> float | None:
        """At least how many seconds before a failed send is made again (a 429, a 5xx, a
        network error), or None: it cannot succeed (403, 404…), or the bot is closing."""
        if self.closing or self.bot.is_closed():
            return None
        return resend_delay(error)

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
        if self.store is not None:
            try:
                player = await self.store.players.get(user_id)
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
        """A public line where the game is played (its thread, or the channel)."""
        if text:
            where = await self.play_channel_id(game)
            await self.place(where).send(
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
        await self._put_lobby(game, embed, view)
        if game.status == "abandoned":
            await self._say(game, t("game.line_abandoned", lang))

    async def table_changed(
        self, game: GameSummary, table: TableView, events: list[GameEvent]
    ) -> None:
        lang = await self.lang_for_guild(game.guild_id)
        await self.play_channel_id(game)  # the thread opens before anything is posted
        for event in events:
            if event.kind == "hand_started" and event.data.get("commitment"):
                self.commitments[game.id] = str(event.data["commitment"])
        lines = [line for line in (self.event_line(game, e, events, lang) for e in events) if line]
        if lines:
            await self._say(game, "\n".join(lines))
        self._schedule_table(game, table)

    async def hand_changed(self, game: GameSummary, update: PrivateUpdate) -> None:
        try:
            notified = await self._update_hand(game, update)
        except Exception:
            key = (game.id, update.user_id)
            if self.rendered.get(key) == (game.version, update.hand):
                del self.rendered[key]  # not shown: sending it again must not be skipped
            await self.update_alert(game, update)
            raise
        await self.update_alert(game, update, notified=notified)

    async def _adopt_stored(self, game: GameSummary, user_id: int) -> None:
        """Several processes on one database: the hand DM (and its alert) another process
        sent this player for this hand — the game's owner, while this one serves a press
        (DM buttons all arrive on shard 0) — is edited from now on, not sent a second time."""
        if self.service is None or not self.service.shared:
            return
        if (game.id, user_id) in self.dm_messages:
            return
        stored = await self.service.stored_messages(game.id)
        if stored is None:
            return
        messages, uid = stored[1], str(user_id)
        refs = self.refs(game)
        dm = (messages.get("dm") or {}).get(uid)
        with contextlib.suppress(TypeError, ValueError, IndexError):
            if dm and int(dm[2]) == game.hand_no and (game.id, user_id) not in self.dm_messages:
                message = self.partial(int(dm[0]), int(dm[1]))
                self.dm_messages[(game.id, user_id)] = (game.hand_no, message)
                refs.setdefault("dm", {})[uid] = list(dm)
        alert = (messages.get("alerts") or {}).get(uid)
        if isinstance(alert, list) and uid not in self._alert_refs(game):
            self._alert_refs(game)[uid] = list(alert)

    async def _update_hand(self, game: GameSummary, update: PrivateUpdate) -> bool:
        """Edit the player's hand DM (or ephemeral reply), or send one; True when a new
        message that notifies them went out (a new hand DM, the closed-DM notice)."""
        key = (game.id, update.user_id)
        if self.rendered.get(key) == (game.version, update.hand):
            return False
        self.rendered[key] = (game.version, update.hand)
        await self._adopt_stored(game, update.user_id)
        lang = await self.lang_for_user(update.user_id)
        embed, view = hand_message(game, update, lang)
        if update.user_id in self.dm_closed:
            await self._edit_ephemeral(key, embed, view)
            return False
        images = await self.images_for_user(update.user_id)
        png = await pictures.hand_png(update.hand, lang=lang) if images else None  # off the loop
        if self.rendered.get(key) != (game.version, update.hand):
            return False  # a press's answer showed a newer hand meanwhile

        def files() -> list[discord.File]:
            made = pictures.files_of(png, "hand.png")
            if made:
                embed.set_image(url=f"attachment://{made[0].filename}")
            return made

        known = self.dm_messages.get(key)
        if known is not None and known[0] != game.hand_no:
            known = None  # an earlier hand's DM stays as that hand's record
        if known is not None and self.age(known[1].id) <= TABLE_MAX_AGE:
            try:
                await known[1].edit(embed=embed, view=view, attachments=files())
                return False
            except discord.NotFound:
                known = None
            except discord.HTTPException as error:
                if self.closing:
                    raise
                log.info(
                    "game %s: hand DM of %s not edited (%s %s); sending a new one",
                    game.id,
                    update.user_id,
                    error.status,
                    error.code,
                )
        try:
            dm = await self.bot.create_dm(discord.Object(id=update.user_id))  # type: ignore[arg-type]
            message = await dm.send(embed=embed, view=view, files=files())
        except discord.Forbidden as error:
            if error.code != DM_CLOSED:
                raise
            self.dm_closed.add(update.user_id)
            noticed = await self._notify_closed(game, update.user_id)
            embed.set_image(url=None)
            await self._edit_ephemeral(key, embed, view)
            return noticed
        self.note_snowflake(message.id)
        self.dm_messages[key] = (game.hand_no, message)
        held = self.refs(game).setdefault("dm", {})
        held[str(update.user_id)] = [message.channel.id, message.id, game.hand_no]
        await self.save_refs(game.id)
        if known is not None:
            await self._point_to(known[1], message, lang)
        return True

    async def _point_to(self, old: Any, new: Any, lang: str) -> None:
        """An old hand DM replaced by a new one: it says where the hand went (best effort)."""
        embed = discord.Embed(
            description=t("game.hand_moved", lang, link=jump_url(new.channel.id, new.id)),
            colour=discord.Colour.blue(),
        )
        try:
            await old.edit(embed=embed, view=None, attachments=[])
        except discord.HTTPException as error:
            log.info("old hand DM %s not updated (%s %s)", old.id, error.status, error.code)

    def result_shown(self, game: GameSummary) -> bool:
        """Whether this hand's result was posted (remembered across restarts)."""
        refs = self.refs(game)
        posted = refs.get("result_posted")
        held = refs.get("result")
        return (isinstance(posted, int) and posted >= game.hand_no) or bool(
            held and int(held[2]) >= game.hand_no
        )

    async def hand_ended(self, game: GameSummary, result: HandResult, table: TableView) -> None:
        """The result with every hand laid open and the seed reveal, posted once per hand:
        called again (a send made again, a restart that finds the hand over), it only brings
        the table and the alerts up to date."""
        lang = await self.lang_for_guild(game.guild_id)
        await self._flush_table(game, table)
        if self.result_shown(game):
            await self.update_ready_alerts(game)
            return
        # 摊牌: every hand laid open, every payment, the 准备 line (cogs.session)
        content, embed, view, files = await result_parts(
            game, result, lang, self.commitments.get(game.id)
        )
        where = await self.play_channel_id(game)
        message = await self.place(where).send(
            content=content or None, embed=embed, view=view, files=files
        )
        self.note_snowflake(message.id)
        self.refs(game)["result_posted"] = game.hand_no
        if view is not None:
            await self.note_result(game, where, message.id)
        else:
            await self.save_refs(game.id)
        await self.update_ready_alerts(game)

    async def game_ended(self, game: GameSummary, reason: str) -> None:
        lang = await self.lang_for_guild(game.guild_id)
        await self._stop_table_task(game.id)
        message_id = self._table_id(game)
        if message_id is not None and game.hand_no == 0:
            embed, _view = lobby_message(game, lang)
            await self._put_lobby(game, embed, None)
        elif message_id is not None:
            at = self.refs(game).get("table_at")
            await self.retire(int(at[0]) if at else game.channel_id, message_id)
        await self.retire_result(game)
        await self.close_alerts(game)
        if game.hand_no and not self.refs(game).get("standings"):
            await self.post_standings(game)  # the final standings with 再来一局 (cogs.session)
        for key in [k for k in self.dm_messages if k[0] == game.id]:
            self.dm_messages.pop(key, None)
        await self.save_refs(game.id)
        self.forget_game(game.id)

    async def refresh(self, game: GameSummary, table: TableView | None) -> None:
        """After a restart: the remembered hand DMs are edited again (not sent anew), an
        alert still open stands for the decision asked now, the table is brought up to date."""
        refs = self.refs(game)
        for key in [k for k in self.rendered if k[0] == game.id]:
            self.rendered.pop(key, None)
        for uid, ref in (refs.get("dm") or {}).items():
            with contextlib.suppress(TypeError, ValueError, IndexError):
                if int(ref[2]) == game.hand_no and (game.id, int(uid)) not in self.dm_messages:
                    message = self.partial(int(ref[0]), int(ref[1]))
                    self.dm_messages[(game.id, int(uid))] = (game.hand_no, message)
        self.adopt_alerts(game)
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
        """Write the newest table, then again while newer ones came in meanwhile (only the
        newest is ever rendered: a table superseded while waiting is skipped). A write that
        failed for a reason that may pass (:meth:`resend_delay`) is made again after a
        back-off, with the newest table then."""
        written = None
        failures = 0
        while self._table_tasks.get(game_id) is asyncio.current_task():
            wait = self._last_edit.get(game_id, 0.0) + self.table_interval - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            latest = self._latest_table.get(game_id)
            if latest is None or latest is written:
                return
            self._writing.add(game_id)
            try:
                await self._write_table(*latest)
            except Exception as error:
                if self.closing or self.bot.is_closed():
                    log.info("game %s: table edit dropped at shut-down", game_id)
                    return
                wait = self.resend_delay(error)
                if wait is None:
                    log.exception("game %s: table edit failed", game_id)
                    return
                failures += 1
                seconds = outbox.backoff(failures, wait)
                log.warning(
                    "game %s: table edit failed (%s); the newest table goes in %.1f s",
                    game_id,
                    error,
                    seconds,
                )
                self._last_edit[game_id] = time.monotonic() + seconds - self.table_interval
                continue  # the newest table then (a newer one supersedes the failed one)
            finally:
                self._writing.discard(game_id)
            written, failures = latest, 0

    async def _stop_table_task(self, game_id: int) -> None:
        """No coalesced edit pending any more: one still waiting is dropped, one already
        writing finishes first (cut off, a table it posted would be left with buttons)."""
        task = self._table_tasks.pop(game_id, None)
        if task is None or task is asyncio.current_task():
            return
        if game_id in self._writing:
            await asyncio.gather(task, return_exceptions=True)
        else:
            task.cancel()

    async def _flush_table(self, game: GameSummary, table: TableView | None) -> None:
        await self._stop_table_task(game.id)
        self._latest_table[game.id] = (game, table)
        await self._write_table(game, table)

    async def _write_table(self, game: GameSummary, table: TableView | None) -> None:
        lang = await self.lang_for_guild(game.guild_id)
        if table is None or game.hand_no == 0:
            embed, view = table_message(game, table, lang)
            await self._put_lobby(game, embed, view)
        else:
            # rendered off the loop, after waiting answers and hands; under load the text is
            # written without a new picture rather than late (the next edit brings it)
            png = await pictures.table_png(game, table, lang=lang)

            def build() -> tuple[discord.Embed, discord.ui.View | None, list[discord.File]]:
                embed, view = table_message(game, table, lang)
                files = pictures.files_of(png, "table.png")
                if files:
                    embed.set_image(url=f"attachment://{files[0].filename}")
                return embed, view, files

            await self.put_hand_table(game, build)
        self._last_edit[game.id] = time.monotonic()

    async def _put_lobby(
        self, game: GameSummary, embed: discord.Embed, view: discord.ui.View | None
    ) -> None:
        """The lobby message in the channel: edited, or posted when there is none yet."""
        message_id = self._table_id(game)
        if message_id is not None:
            try:
                await self.partial(game.channel_id, message_id).edit(
                    embed=embed, view=view, attachments=[]
                )
                return
            except discord.NotFound:
                pass
        message = await self.channel(game.channel_id).send(embed=embed, view=view)
        self.note_snowflake(message.id)
        if self.service is not None:
            await self.service.set_table_message(game.id, message.id)

    def _table_id(self, game: GameSummary) -> int | None:
        if self.service is not None:
            return self.service.table_message_id(game)
        return game.table_message_id

    # ------------------------------------------------------------------ closed DMs

    async def _notify_closed(self, game: GameSummary, user_id: int) -> bool:
        """The one-line notice that a player's DMs are closed (once per game), where the
        game is played; True when it was posted now (it notifies them)."""
        if (game.id, user_id) in self.notified_closed:
            return False
        self.notified_closed.add((game.id, user_id))
        lang = await self.lang_for_guild(game.guild_id)
        where = await self.play_channel_id(game)
        await self.place(where).send(
            t("game.line_dm_closed", lang, mention=f"<@{user_id}>"),
            allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(id=user_id)], everyone=False, roles=False
            ),
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
                "game.line_hand_started",
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
                line += "\n" + t("game.line_dice", lang, dice=" / ".join(rolled))
            first = dealer_choice_line(game, events, lang)  # how the first dealer was chosen
            if first:
                line = first + "\n" + line
            return line
        if kind == "claimed":
            what = word("claim", d.get("kind") or "?", lang, both=True)
            return t(
                "game.line_claimed",
                lang,
                name=name(d.get("seat")),
                what=what,
                tile=_tile(d.get("tile"), lang),
            )
        if kind == "kong":
            if d.get("kind") == "concealed_kong":
                return t("game.line_concealed_kong", lang, name=name(d.get("seat")))
            return t(
                "game.line_kong", lang, name=name(d.get("seat")), tile=_tile(d.get("tile"), lang)
            )
        if kind == "ready":
            return t("game.line_ready", lang, name=name(d.get("seat")))
        if kind == "touji":
            return t("game.line_touji", lang, name=name(d.get("seat")))
        if kind == "flower":
            return t(
                "game.line_flower", lang, name=name(d.get("seat")), tile=_tile(d.get("tile"), lang)
            )
        if kind == "won":
            out = []
            for w in d.get("winners", []):
                who = name(w.get("seat"))
                if d.get("how") == "self":
                    out.append(t("game.line_won_self", lang, name=who))
                elif d.get("how") == "rob_kong":
                    out.append(t("game.line_won_rob", lang, name=who))
                else:
                    out.append(
                        t("game.line_won_discard", lang, name=who, payer=name(d.get("payer")))
                    )
            return "\n".join(out) or None
        if kind == "drawn_hand":
            return t("game.line_drawn", lang)
        if kind == "timeout":
            what = word("timeout", d.get("kind") or "play", lang, both=True)
            return t("game.line_timeout", lang, name=name(event.seat), what=what)
        if kind == "auto":
            if d.get("on"):
                if any(e.kind == "timeout" and e.seat == event.seat for e in events):
                    return None
                return t("game.line_auto_on", lang, name=name(event.seat))
            return t("game.line_auto_off", lang, name=name(event.seat))
        return None


def _tile(kind: Any, lang: str) -> str:
    return tile_name(kind, lang) if isinstance(kind, int) and 0 <= kind < 34 else "?"
