"""Turn alerts: every decision a player is asked for reaches them as one *new* message.

Discord notifies only new messages (a DM, or a channel/thread message that mentions the
user); editing the hand DM never tells a player who looked away that it is their turn. So:

- When a seat is asked to decide (its turn, or a claim it may make) the player gets one
  short DM — ``🀄 轮到你出牌 · 第3局 · 截止 <t:…:R> · 查看手牌`` with a link to the hand
  DM — which is deleted once they act. Consecutive decisions of one turn (draw → kong →
  discard, claim → pong → discard) share one alert: the service numbers each seat's
  *alert episode* (:attr:`services.delivery.PrivateUpdate.alert`).
- A hand DM sent new for that decision (the first of a hand) notifies by itself: no second
  message.
- A player whose DMs are closed gets a mention in the game's thread for their **turn**
  (public anyway), deleted once they act — never for a claim: a public mention while a
  discard waits for claims would tell everyone who may claim it. A claim window they take
  and the turn it brings (pong → discard) are one episode, but the claim brought them
  nothing, so the turn brings its mention (:func:`withheld_before`). A claim window they let
  go ends its episode: the turn they draw next is a decision of its own.
- **Delayed** (``ALERT_DELAY_SECONDS``, 5 s by default): a player looking at the hand DM
  answers in a second or two, and a ping then is noise (and two requests: the alert and its
  deletion). So the alert goes out only if the same decision is still open that long after
  the update was delivered — a task per (game, player), replaced by the player's next update
  and cancelled once they act or the episode ends (timeout, 托管, hand or game over): then
  nothing is sent and nothing needs deleting. A newer update of the same episode (draw →
  kong) waits the delay again from its own delivery. Before it sends, the task asks the
  service whether the decision is still open as committed
  (:meth:`services.game.GameService.decision_open`), so a press whose update is still
  queued is not pinged. 0 = at once. After a restart an episode whose alert had not gone out
  is armed again with the delay (its nonce returns a send that reached Discord before the
  crash as the same message: never two).
  The ready alerts of the 准备 check (:mod:`cogs.game.session`) wait the same way, in the same
  :class:`DueAlerts` (so the game's end and shut-down end theirs too).
- AI seats and seats on 托管 are never alerted. ``/mahjong alerts on|claims|off`` per
  player (saved): ``on`` = turns and claims, ``claims`` = claims only (a turn comes round
  when expected; a claim window is short and easy to miss), ``off`` = none.

The open alert of each player is remembered with the game's messages (:mod:`cogs.delivery.places`),
so a restart neither loses it nor sends a second one — written once it went out (or took the
place of one that had): one still waiting costs no write, and a restart arms it again anyway.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from cogs.delivery.hand_dm import DM_CLOSED, HandMessages
from cogs.delivery.places import Places, jump_url, nonce
from cogs.delivery.preferences import Preferences
from cogs.game.text import t
from services.delivery import GameSummary, PrivateUpdate

log = logging.getLogger(__name__)


def wanted(mode: str, kind: str) -> bool:
    """Whether a player with alert ``mode`` is alerted for a ``turn`` / ``claim``."""
    return mode == "on" or (mode == "claims" and kind == "claim")


def deadline_text(deadline: float | None, lang: str) -> str:
    return t("game.alert_deadline", lang, when=f"<t:{int(deadline)}:R>") if deadline else ""


def withheld_before(entry: list[Any], update: PrivateUpdate) -> bool:
    """Whether the episode's earlier decision reached the player not at all, and of another
    kind than this one: a claim window (never public for a player whose DMs are closed, or
    not among their alerts) followed by their own turn in the same episode
    (:func:`services.gamelog.track_episodes`) still brings the turn's alert."""
    kind = entry[3] if len(entry) > 3 else ""
    return not entry[1] and bool(kind) and kind != update.alert_kind


@dataclass
class _Due:
    """An alert waiting out the delay: sent unless settled first. ``sending``: the wait is
    over and the send is under way (never cancelled halfway: a cancelled send may still have
    reached Discord, and nobody would delete it)."""

    task: asyncio.Task[None] | None = None
    sending: bool = False


class DueAlerts:
    """The alerts waiting out ``ALERT_DELAY_SECONDS``, at most one per key — a player of a
    game for one kind of decision: ``(game, user)`` for their turn or claim
    (:class:`Alerts`), ``(game, user, "ready")`` for the 准备 check
    (:class:`cogs.game.session.SessionMessages`). Each is a task that sleeps the delay and then
    sends, unless settled first (the player's next update, the decision's or the game's end,
    shut-down); what it sends checks again that the decision is still open."""

    def __init__(
        self,
        places: Places,
        delay: float = 0.0,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        self.places = places
        #: seconds a player may take before the alert goes out (0: at once)
        self.delay = delay
        self._sleep = sleep
        self._due: dict[tuple[Any, ...], _Due] = {}

    def waiting(self, game_id: int) -> list[tuple[Any, ...]]:
        """The keys of the game's alerts waiting (or being sent)."""
        return [key for key in self._due if key[0] == game_id]

    def schedule(self, key: tuple[Any, ...], send: Callable[[], Awaitable[None]]) -> None:
        """Call ``send`` after the delay unless :meth:`settle` (or shut-down) comes first;
        an alert of the same key still waiting must have been settled before."""
        due = _Due()
        name = "mj-alert-" + "-".join(str(part) for part in key)
        due.task = asyncio.create_task(self._send_later(key, due, send), name=name)
        self._due[key] = due

    async def _send_later(
        self, key: tuple[Any, ...], due: _Due, send: Callable[[], Awaitable[None]]
    ) -> None:
        try:
            await self._sleep(self.delay)
            if self._due.get(key) is not due or self.places.closing:
                return
            due.sending = True
            await send()
        except Exception:
            log.exception("delayed alert %s failed", key)
        finally:
            if self._due.get(key) is due:
                del self._due[key]

    async def settle(self, key: tuple[Any, ...]) -> None:
        """An alert still waiting out the delay is cancelled (nothing was sent), one being
        sent ends first — so the caller finds its message id kept, and may delete it."""
        due = self._due.pop(key, None)
        if due is None or due.task is None:
            return
        if not due.sending:
            due.task.cancel()
        await asyncio.wait({due.task})

    async def close(self) -> None:
        """Shut-down: no alert is sent any more; one being sent ends first."""
        for key in list(self._due):
            await self.settle(key)


class Alerts:
    """Turn and claim alerts: one new message per decision episode, sent once the player
    has not acted for ``delay`` seconds and taken away once they act (the open alert of
    each player is kept with the game's messages)."""

    def __init__(
        self,
        places: Places,
        preferences: Preferences,
        hands: HandMessages,
        *,
        delay: float = 0.0,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        self.places = places
        self.preferences = preferences
        self.hands = hands
        #: the alerts waiting out the delay (``due.delay``: seconds a player may take before
        #: the alert goes out, 0: at once; the ready alerts' too: :mod:`cogs.game.session`)
        self.due = DueAlerts(places, delay, sleep)
        #: (game, user) pairs whose open alert (from before a restart) stands for the
        #: decision they are asked now
        self._adopt: set[tuple[int, int]] = set()
        #: (game, user) → the episode whose alert is wanted and has not gone out: a newer
        #: update of that episode waits the delay again
        self._unsent: dict[tuple[int, int], int] = {}

    def _alert_refs(self, game: GameSummary) -> dict[str, Any]:
        return self.places.held(game, "alerts")

    def adopt_alerts(self, game: GameSummary) -> None:
        """After a restart: an alert still open stands for the decision asked now."""
        for seat in game.seats:
            if seat.user_id is not None and not seat.ai:
                self._adopt.add((game.id, seat.user_id))

    async def update_alert(
        self, game: GameSummary, update: PrivateUpdate, *, notified: bool = False
    ) -> None:
        """Alert the player for the decision they are asked now (once per episode), or take
        the alert away once they are not asked any more. ``notified``: a new message that
        notifies them (a new hand DM, the closed-DM notice) went out for this update.
        With a delay the alert is only scheduled here (:meth:`_send_later`)."""
        uid = update.user_id
        key = (game.id, uid)
        await self.settle(game.id, uid)
        seat = game.seats[update.seat] if update.seat < len(game.seats) else None
        asked = bool(
            update.alert
            and update.hand.legal
            and game.status == "active"
            and seat is not None
            and not seat.robot
        )
        held = self._alert_refs(game)
        entry = held.get(str(uid))
        adopt = (game.id, uid) in self._adopt
        self._adopt.discard((game.id, uid))
        if not asked:
            if entry and entry[1]:
                await self.places.delete(entry, "alert")
                entry[1] = 0
                await self.places.save_refs(game.id)
            return
        if entry and int(entry[2]) == update.alert and not withheld_before(entry, update):
            if not entry[1] and (
                self._unsent.get(key) == update.alert
                or (adopt and await self._still_owed(entry, update))
            ):
                self._unsent[key] = update.alert
                self._schedule(game, update)  # still due: the delay runs from this update
            return  # this episode was alerted already (or its alert is due)
        if adopt and entry and entry[1]:
            entry[2] = update.alert  # the alert sent before the restart is still open
            await self.places.save_refs(game.id)
            return
        replaced_sent = False
        if entry and entry[1]:
            replaced_sent = True
            await self.places.delete(entry, "alert")
        self._unsent.pop(key, None)
        # [channel, message, episode, the kind nothing reached them for ("" once notified)]
        new: list[Any] = [0, 0, update.alert, ""]
        held[str(uid)] = new
        mode = await self.preferences.alerts_for_user(uid)
        if notified or not wanted(mode, update.alert_kind):
            if not notified:
                new[3] = update.alert_kind
            await self.places.save_refs(game.id)
            return
        if self.due.delay > 0:
            new[3] = update.alert_kind  # nothing reached them yet
            self._unsent[key] = update.alert
            if replaced_sent or self.places.sharing:
                await self.places.save_refs(game.id)
            # else not stored until the alert goes out (a save per turn otherwise, the
            # largest write of a press): after a crash meanwhile, the stored entry is an
            # older episode's with no message, and the decision, still asked, is armed
            # again as a new episode — the same delay from the restart, the same nonce
            self._schedule(game, update)
            return
        try:
            sent = await self._send_alert(game, update)
        except discord.HTTPException as error:
            log.warning("game %s: alert for %s not sent (%s)", game.id, uid, error)
            sent = None
        if sent is not None:
            new[0], new[1] = sent.channel.id, sent.id
            self.places.note_snowflake(sent.id)
        else:
            new[3] = update.alert_kind
        await self.places.save_refs(game.id)

    async def _still_owed(self, entry: list[Any], update: PrivateUpdate) -> bool:
        """After a restart: the episode's alert was due and had not gone out (the waiting
        task died with the old process), nor did anything else reach the player for it. It is
        armed again with the delay; its nonce makes a send that did reach Discord before the
        crash come back as the same message, never a second."""
        kind = entry[3] if len(entry) > 3 else ""
        if kind != update.alert_kind:
            return False
        return wanted(await self.preferences.alerts_for_user(update.user_id), kind)

    def _schedule(self, game: GameSummary, update: PrivateUpdate) -> None:
        """Send this update's alert after the delay unless the player's next update (or the
        game's end) settles it first (:meth:`settle`)."""
        self.due.schedule((game.id, update.user_id), lambda: self._send_due(game, update))

    async def _send_due(self, game: GameSummary, update: PrivateUpdate) -> None:
        """The delay is over: send the alert if the decision is still open and its episode
        has had none."""
        uid = update.user_id
        key = (game.id, uid)
        if self._unsent.get(key) != update.alert:
            return
        ask = getattr(self.places.service, "decision_open", None)
        if ask is not None and ask(game.id, update.seat, update.prompt) is False:
            return  # they acted: their next update (queued) decides again
        entry = self._alert_refs(game).get(str(uid))
        if not entry or entry[1] or int(entry[2]) != update.alert:
            return
        del self._unsent[key]  # one try per episode, as at once
        try:
            sent = await self._send_alert(game, update)
        except discord.HTTPException as error:
            log.warning("game %s: alert for %s not sent (%s)", game.id, uid, error)
            return
        if sent is None:
            return
        self.places.note_snowflake(sent.id)
        entry = self._alert_refs(game).get(str(uid))  # (a save may have taken a stored copy)
        if not entry or entry[1] or int(entry[2]) != update.alert:
            await self.places.delete([sent.channel.id, sent.id], "alert")  # never left behind
            return
        entry[0], entry[1], entry[3] = sent.channel.id, sent.id, ""
        await self.places.save_refs(game.id)

    async def settle(self, game_id: int, user_id: int) -> None:
        """The player's next update is being delivered (or the game ends): an alert still
        waiting out the delay is cancelled (nothing was sent), one being sent ends first —
        so it is ordered against the hand DM it links to, and its message id is kept."""
        await self.due.settle((game_id, user_id))

    async def close(self) -> None:
        """Shut-down: no alert is sent any more (ready alerts neither); one being sent ends
        first."""
        await self.due.close()
        self._unsent.clear()

    async def _send_alert(self, game: GameSummary, update: PrivateUpdate) -> discord.Message | None:
        uid = update.user_id
        dm_closed = self.hands.dm_closed
        if uid not in dm_closed:
            known = self.hands.dm_messages.get((game.id, uid))
            if known is not None:
                lang = await self.preferences.lang_for_player(uid, game.guild_id)
                message = known[1]
                link = jump_url(message.channel.id, message.id)
                key = "game.alert_turn" if update.alert_kind == "turn" else "game.alert_claim"
                text = t(
                    key,
                    lang,
                    hand=game.hand_no,
                    deadline=deadline_text(game.deadline, lang),
                    link=link,
                )
                try:
                    sent: discord.Message = await message.channel.send(
                        text, nonce=nonce("p", game.id, uid, update.alert)
                    )
                    return sent
                except discord.Forbidden as error:
                    if error.code != DM_CLOSED:
                        raise
                    dm_closed.add(uid)
            elif uid not in dm_closed:
                return None  # no hand DM to point to (it could not be sent)
        if update.alert_kind != "turn":
            return None  # a public mention would tell the table who may claim
        if self.places.refuses(await self.places.play_channel_id(game)):
            return None  # (the channel refuses the bot now: the host was told)
        lang = await self.preferences.lang_for_guild(game.guild_id)
        text = t(
            "game.alert_turn_public",
            lang,
            mention=f"<@{uid}>",
            hand=game.hand_no,
            deadline=deadline_text(game.deadline, lang),
        )
        return await self.places.mention(
            game, uid, text, nonce=nonce("p", game.id, uid, update.alert)
        )

    async def close_alerts(self, game: GameSummary) -> None:
        """The game is over: no alert waits any more, every open one is taken away."""
        for key in self.due.waiting(game.id):  # (its ready alerts' too)
            await self.due.settle(key)
        for key in [key for key in self._unsent if key[0] == game.id]:
            del self._unsent[key]
        for entry in self._alert_refs(game).values():
            if entry and entry[1]:
                await self.places.delete(entry, "alert")
                entry[1] = 0
