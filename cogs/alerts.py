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
  discard waits for claims would tell everyone who may claim it. Their claim window and the
  turn that follows it (they let Alice's discard go, then draw) are one episode, but the
  claim brought them nothing, so the turn brings its mention (:func:`withheld_before`).
- AI seats and seats on 托管 are never alerted. ``/mahjong alerts on|claims|off`` per
  player (saved): ``on`` = turns and claims, ``claims`` = claims only (a turn comes round
  when expected; a claim window is short and easy to miss), ``off`` = none.

The open alert of each player is remembered with the game's messages (:mod:`cogs.places`),
so a restart neither loses it nor sends a second one.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from cogs.hand_dm import DM_CLOSED, HandMessages
from cogs.places import Places, jump_url
from cogs.preferences import Preferences
from cogs.text import t
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


class Alerts:
    """Turn and claim alerts: one new message per decision episode, taken away once the
    player acts (the open alert of each player is kept with the game's messages)."""

    def __init__(self, places: Places, preferences: Preferences, hands: HandMessages) -> None:
        self.places = places
        self.preferences = preferences
        self.hands = hands
        #: (game, user) pairs whose open alert (from before a restart) stands for the
        #: decision they are asked now
        self._adopt: set[tuple[int, int]] = set()

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
        notifies them (a new hand DM, the closed-DM notice) went out for this update."""
        uid = update.user_id
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
            return  # this episode was alerted already
        if adopt and entry and entry[1]:
            entry[2] = update.alert  # the alert sent before the restart is still open
            await self.places.save_refs(game.id)
            return
        if entry and entry[1]:
            await self.places.delete(entry, "alert")
        # [channel, message, episode, the kind nothing reached them for ("" once notified)]
        new: list[Any] = [0, 0, update.alert, ""]
        held[str(uid)] = new
        mode = await self.preferences.alerts_for_user(uid)
        if notified or not wanted(mode, update.alert_kind):
            if not notified:
                new[3] = update.alert_kind
            await self.places.save_refs(game.id)
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

    async def _send_alert(self, game: GameSummary, update: PrivateUpdate) -> discord.Message | None:
        uid = update.user_id
        dm_closed = self.hands.dm_closed
        if uid not in dm_closed:
            known = self.hands.dm_messages.get((game.id, uid))
            if known is not None:
                lang = await self.preferences.lang_for_user(uid)
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
                    sent: discord.Message = await message.channel.send(text)
                    return sent
                except discord.Forbidden as error:
                    if error.code != DM_CLOSED:
                        raise
                    dm_closed.add(uid)
            elif uid not in dm_closed:
                return None  # no hand DM to point to (it could not be sent)
        if update.alert_kind != "turn":
            return None  # a public mention would tell the table who may claim
        lang = await self.preferences.lang_for_guild(game.guild_id)
        text = t(
            "game.alert_turn_public",
            lang,
            mention=f"<@{uid}>",
            hand=game.hand_no,
            deadline=deadline_text(game.deadline, lang),
        )
        return await self.places.mention(game, uid, text)

    async def close_alerts(self, game: GameSummary) -> None:
        """The game is over: take every open alert away."""
        for entry in self._alert_refs(game).values():
            if entry and entry[1]:
                await self.places.delete(entry, "alert")
                entry[1] = 0
