"""The Discord :class:`services.delivery.Delivery`: DMs, the table message, public lines.

:class:`DiscordDelivery` composes small collaborators, each with one job:

- :class:`cogs.delivery.preferences.Preferences` — each server's language, each player's language,
  pictures and alerts (read once from the store);
- :class:`cogs.delivery.places.Places` — where a game shows: its thread (when the bot may create
  one) or the channel, one table message per hand, the lobby, the messages remembered
  across restarts, Discord's clock;
- :class:`cogs.delivery.table_edits.TableEdits` — the table message edited at most once per ~2 s
  (edits are coalesced);
- :class:`cogs.delivery.hand_dm.HandMessages` — each human's hand by DM, one message per player
  per hand, edited as play goes; closed DMs (50007) fall back to the ephemeral
  ``/mahjong hand`` reply and a one-line notice — never the hand;
- :class:`cogs.delivery.alerts.Alerts` — edits never notify: every decision a player is asked for
  gets one new message, a short DM or, for closed DMs, a mention on their turn (never for a
  claim);
- :class:`cogs.game.session.SessionMessages` — the 准备 line, ready alerts, the 解散 vote, the
  final standings with 再来一局 (in the channel, with the lobby).

A channel that takes the bot's permissions away mid-game is
:class:`cogs.delivery.channel_access.ChannelAccess`'s: the host is told once, nothing is sent
there meanwhile (play goes on by DM), and the table, the results and the 准备 line held back
catch up (:meth:`DiscordDelivery.catch_up`) once the permissions return.

Public lines for claims, kongs, wins and timeouts are :func:`cogs.delivery.event_lines.event_line`.

Posts that stand for one game event carry a nonce built from it (:func:`cogs.delivery.places.nonce`):
a hand's result ``r`` (game, hand — the same for :meth:`DiscordDelivery.past_result`), the
lines of one change ``l`` (game, version, the text), so that a send made again, or made by
another process or after a restart, returns the message already posted.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import NoReturn, TypeVar

import discord

from cogs.delivery.alerts import Alerts
from cogs.delivery.channel_access import PROBE_SECONDS, ChannelAccess
from cogs.delivery.event_lines import event_line
from cogs.delivery.hand_dm import HandMessages
from cogs.delivery.message_ids import MessageIds
from cogs.delivery.places import Places, nonce, text_id
from cogs.delivery.preferences import Preferences
from cogs.delivery.resend import lost_access, resend_delay
from cogs.delivery.table_edits import TABLE_EDIT_INTERVAL, TABLE_EDITS_PER_SECOND, TableEdits
from cogs.game.session import SessionMessages, result_parts
from cogs.game.text import t
from cogs.game.views import lobby_message
from cogs.replay.buttons import result_view
from db.store import Store
from services.delivery import GameSummary, PrivateUpdate
from services.game import GameService
from services.model import GameEvent, HandResult, TableView
from services.outbox import Held
from services.results_owed import RESULT_POSTED, result_posted

T = TypeVar("T")


class DiscordDelivery:
    """Sends what the game service reports to Discord (see the module docstring)."""

    def __init__(
        self,
        bot: discord.Client,
        *,
        store: Store | None = None,
        table_interval: float = TABLE_EDIT_INTERVAL,
        table_edits_per_second: float = TABLE_EDITS_PER_SECOND,
        ephemeral_lifetime: float | None = None,
        alert_delay: float = 0.0,
        channel_probe_seconds: float = PROBE_SECONDS,
    ) -> None:
        self.bot = bot
        self.preferences = Preferences(store)
        self.places = Places(
            bot, self.preferences, MessageIds(store.games) if store is not None else None
        )
        self.tables = TableEdits(
            self.places,
            self.preferences,
            self.resend_delay,
            interval=table_interval,
            per_second=table_edits_per_second,
        )
        self.hands = HandMessages(
            bot, self.places, self.preferences, ephemeral_lifetime=ephemeral_lifetime
        )
        self.alerts = Alerts(self.places, self.preferences, self.hands, delay=alert_delay)
        self.session = SessionMessages(self.places, self.preferences, self.hands, self.alerts.due)
        #: game → the SHA-256 commitment of its hand's wall (revealed with the result)
        self.commitments: dict[int, str] = {}
        #: the channels that refuse the bot now, and their games waiting to catch up
        self.access = ChannelAccess(
            bot, self.places, self.preferences, self.hands, probe_seconds=channel_probe_seconds
        )
        self.access.catch_up = self.catch_up
        self.tables.access = self.access
        self.places.permissions_noted = self.access.note_permissions
        self.places.refuses = self.access.blocked
        #: game → the results its refused channel holds back: ``(game, result, table, past)``
        self.results_held: dict[int, list[tuple[GameSummary, HandResult, TableView, bool]]] = {}
        #: game → its newest session change its refused channel held back
        self.session_held: dict[int, tuple[GameSummary, HandResult | None]] = {}

    @property
    def store(self) -> Store | None:
        """The servers' and players' stored choices (language, pictures, alerts)."""
        return self.preferences.store

    @property
    def service(self) -> GameService | None:
        """The game service this delivery reports for (set by the composition root)."""
        return self.places.service

    @service.setter
    def service(self, service: GameService | None) -> None:
        self.places.service = service

    @property
    def closing(self) -> bool:
        """The bot is shutting down."""
        return self.places.closing

    async def close(self) -> None:
        """Stop pending table edits and delayed alerts; the saves of remembered messages
        under way or asked for end first (shut-down: the store closes after this)."""
        self.places.closing = True
        await self.places.stale.close()
        await self.tables.stop_all()
        await self.access.close()
        await self.alerts.close()
        await self.places.saves_done()

    def resend_delay(self, error: BaseException) -> float | None:
        """At least how many seconds before a failed send is made again (a 429, a 5xx, a
        network error), or None: it cannot succeed (403, 404…), or the bot is closing."""
        if self.places.closing or self.bot.is_closed():
            return None
        return resend_delay(error)

    def event_line(
        self, game: GameSummary, event: GameEvent, events: list[GameEvent], lang: str
    ) -> str | None:
        """A short public line for a notable event (:func:`cogs.delivery.event_lines.event_line`)."""
        return event_line(game, event, events, lang)

    async def public(self, game: GameSummary, job: Callable[[], Awaitable[T]]) -> T | None:
        """Run a job that posts or edits where the game shows; a refusal for want of the
        bot's permissions there starts (or goes on with) the channel's episode instead of
        failing the delivery: None then."""
        try:
            return await job()
        except discord.HTTPException as error:
            if not lost_access(error) or self.closing:
                raise
            await self.access.refused(game, error)
            return None

    async def catch_up(self, game: GameSummary) -> None:
        """The game's channel is open to the bot again: the results it held back are posted,
        the table shows the game as it stands, the 准备 line as it stands (raises when
        refused again: what is left stays held)."""
        held = self.results_held.get(game.id, [])
        while held:
            summary, result, table, past = held[0]
            if past:
                await self._post_past_result(summary, result)
            else:
                await self._post_result(summary, result, table)
            held.pop(0)
        self.results_held.pop(game.id, None)
        latest = self.tables.latest(game.id)
        if latest is not None:
            await self.tables.flush(*latest)
        session = self.session_held.get(game.id)
        if session is not None:
            await self.session.session_changed(*session)
            self.session_held.pop(game.id, None)

    # ------------------------------------------------------------------ Delivery

    async def lobby_changed(self, game: GameSummary) -> None:
        if self.access.blocked(game.channel_id):
            return  # (the lobby: the game's start catches up with the table)
        await self.public(game, lambda: self._lobby_changed(game))

    async def _lobby_changed(self, game: GameSummary) -> None:
        lang = await self.preferences.lang_for_guild(game.guild_id)
        embed, view = lobby_message(game, lang)
        await self.places.put_lobby(game, embed, view)
        if game.status == "abandoned":
            await self.places.say(game, t("game.line_abandoned", lang), nonce=nonce("a", game.id))

    async def table_changed(
        self, game: GameSummary, table: TableView, events: list[GameEvent]
    ) -> None:
        lang = await self.preferences.lang_for_guild(game.guild_id)
        await self.places.play_channel_id(game)  # the thread opens before anything is posted
        dealt = False
        for event in events:
            if event.kind == "hand_started":
                dealt = True
                if event.data.get("commitment"):
                    self.commitments[game.id] = str(event.data["commitment"])
        if not dealt:
            # the table does not wait for the lines' post (its edit waits its spacing anyway)
            self.tables.schedule(game, table)
        lines = [line for line in (event_line(game, e, events, lang) for e in events) if line]
        if lines and not await self.access.game_blocked(game):
            text = "\n".join(lines)
            line_nonce = nonce("l", game.id, game.version, text_id(text))
            await self.public(game, lambda: self.places.say(game, text, nonce=line_nonce))
        if dealt:  # a new hand's table is posted below its opening line
            self.tables.schedule(game, table)

    async def hand_changed(self, game: GameSummary, update: PrivateUpdate) -> None:
        # an alert waiting out its delay goes (or ends) before the hand DM changes
        await self.alerts.settle(game.id, update.user_id)
        try:
            notified = await self.hands.update_hand(game, update)
        except Exception:
            self.hands.forget_rendered(game, update)
            await self.public(game, lambda: self.alerts.update_alert(game, update))
            raise
        # (a closed-DM player's alert is a mention where the game shows)
        await self.public(game, lambda: self.alerts.update_alert(game, update, notified=notified))

    def result_shown(self, game: GameSummary) -> bool:
        """Whether this hand's result was posted (remembered across restarts)."""
        refs = self.places.refs(game)
        held = refs.get("result")
        return result_posted(refs, game.hand_no) or bool(held and int(held[2]) >= game.hand_no)

    def result_stored(self, game: GameSummary) -> bool:
        """Whether this hand's result is stored as posted by this process's last save."""
        return result_posted(self.places.stored(game.id), game.hand_no)

    async def hand_ended(self, game: GameSummary, result: HandResult, table: TableView) -> bool:
        """The result with every hand laid open and the seed reveal, posted once per hand:
        called again (a send made again, a restart that finds the hand over), it only brings
        the table and the alerts up to date. True: ``result_posted`` is stored with the
        game's messages (the service need not note it)."""
        if await self.access.game_blocked(game):
            self._hold_result(game, result, table, past=False)
        posted = await self.public(game, lambda: self._post_result(game, result, table))
        if posted is None:
            self._hold_result(game, result, table, past=False)
        return posted

    def _hold_result(
        self, game: GameSummary, result: HandResult, table: TableView, *, past: bool
    ) -> NoReturn:
        """A result the game's channel refuses now: held for the catch-up, and still owed
        for the service (:class:`services.outbox.Held`: a restart hands it over again)."""
        self.results_held.setdefault(game.id, []).append((game, result, table, past))
        raise Held(f"the result of hand {game.hand_no} waits for its channel")

    async def _post_result(self, game: GameSummary, result: HandResult, table: TableView) -> bool:
        lang = await self.preferences.lang_for_guild(game.guild_id)
        await self.tables.flush(game, table)
        if self.result_shown(game):
            await self.session.update_ready_alerts(game)
            return self.result_stored(game)
        # 摊牌: every hand laid open, every payment, the 准备 line (cogs.game.session)
        content, embed, view, files = await result_parts(
            game, result, lang, self.commitments.get(game.id)
        )
        where = await self.places.play_channel_id(game)
        message = await self.places.send(
            where,
            content=content or None,
            embed=embed,
            view=view,
            files=files,
            nonce=result_nonce(game),
        )
        self.places.note_snowflake(message.id)
        self.places.refs(game)[RESULT_POSTED] = game.hand_no
        if view is not None:
            await self.places.note_result(game, where, message.id)
        else:
            await self.places.save_refs(game.id)
        await self.session.update_ready_alerts(game)
        return self.result_stored(game)

    async def past_result(self, game: GameSummary, result: HandResult, table: TableView) -> bool:
        """The result of an earlier hand that never went out (a table of AI and 托管 seats
        dealt the next hand at once, and the bot restarted before the result was posted):
        posted once, with the seed reveal and the hash published when that hand started; the
        table, which shows the hand in play, is left alone, and there is no 准备 to press."""
        if await self.access.game_blocked(game):
            self._hold_result(game, result, table, past=True)
        posted = await self.public(game, lambda: self._post_past_result(game, result))
        if posted is None:
            self._hold_result(game, result, table, past=True)
        return posted

    async def _post_past_result(self, game: GameSummary, result: HandResult) -> bool:
        if self.result_shown(game):
            return self.result_stored(game)
        lang = await self.preferences.lang_for_guild(game.guild_id)
        published = (result.seed_reveal or {}).get("commitment")

        content, embed, _view, files = await result_parts(game, result, lang, published)
        where = await self.places.play_channel_id(game)
        message = await self.places.send(
            where,
            content=content or None,
            embed=embed,
            view=result_view(game.id, result.hand_no, lang),  # 回放 only: no 准备 here
            files=files,
            nonce=result_nonce(game),
        )
        self.places.note_snowflake(message.id)
        self.places.refs(game)[RESULT_POSTED] = game.hand_no
        await self.places.save_refs(game.id)
        return self.result_stored(game)

    async def game_ended(self, game: GameSummary, reason: str) -> None:
        await self.tables.stop(game.id)
        await self.alerts.close_alerts(game)
        if not await self.access.game_blocked(game):  # (else: in /mahjong stats, the replay)
            await self.public(game, lambda: self._game_ended(game))
        await self.hands.strip_all(game)  # (ended mid-hand: the DMs still show the moves)
        self.hands.forget_game(game.id)
        self.commitments.pop(game.id, None)  # (kept per game playing: an ended one never returns)
        self.results_held.pop(game.id, None)
        self.session_held.pop(game.id, None)
        self.access.forget_game(game.id)
        await self.places.save_refs(game.id)
        self.places.forget_game(game.id)

    async def _game_ended(self, game: GameSummary) -> None:
        """The table and the last result lose their buttons, the final standings go out."""
        lang = await self.preferences.lang_for_guild(game.guild_id)
        message_id = self.places.table_id(game)
        if message_id is not None and game.hand_no == 0:
            embed, _view = lobby_message(game, lang)
            await self.places.put_lobby(game, embed, None)
        elif message_id is not None:
            at = self.places.refs(game).get("table_at")
            await self.places.retire(game, int(at[0]) if at else game.channel_id, message_id)
        await self.places.retire_result(game)
        if game.hand_no and not self.places.refs(game).get("standings"):
            await self.session.post_standings(game)  # the final standings with 再来一局

    async def refresh(self, game: GameSummary, table: TableView | None) -> None:
        """After a restart: the remembered hand DMs are edited again (not sent anew), an
        alert still open stands for the decision asked now, the table is brought up to date."""
        self.hands.reopen(game)
        self.alerts.adopt_alerts(game)
        # buttons a failed edit or a crash left on old messages go, spaced out
        self.places.stale.adopt(game)
        if table is not None and table.commitment:
            self.commitments[game.id] = table.commitment
        await self.public(game, lambda: self.tables.flush(game, table))

    async def session_changed(self, game: GameSummary, result: HandResult | None) -> None:
        """See :meth:`services.delivery.Delivery.session_changed`."""
        if await self.access.game_blocked(game):
            self.session_held[game.id] = (game, result)
            return
        done = await self.public(game, lambda: self._session_changed(game, result))
        if done is None:
            self.session_held[game.id] = (game, result)

    async def _session_changed(self, game: GameSummary, result: HandResult | None) -> bool:
        await self.session.session_changed(game, result)
        return True

    async def resumed(self, serves_guild: Callable[[int], bool] | None = None) -> int:
        """After the resume: the buttons still owed removal on messages of games that ended
        recently (of the servers ``serves_guild`` accepts) are taken off too, spaced out.
        Returns how many messages."""
        if self.store is None:
            return 0
        return await self.places.stale.adopt_ended(self.store, serves_guild)


def result_nonce(game: GameSummary) -> str:
    """The nonce of the post of a hand's result (``game.hand_no``): the same for the result
    posted when the hand ended and for one handed over again (a restart, a process taking the
    game over), so either returns the other's message (:func:`cogs.delivery.places.nonce`)."""
    return nonce("r", game.id, game.hand_no)
