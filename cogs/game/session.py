"""The session on Discord: the 摊牌 result with 准备 / 解散, the 解散 vote message, the final
standings with 再来一局, their buttons, ``/mahjong dissolve``, and the ready alerts.

Buttons (``mj:<game>:<kind>[:<arg>]``, see :mod:`cogs.game.views`):

- ``next:<hand>`` — 准备 after hand ``<hand>`` (the old 下一局 button presses it too);
- ``dissolve`` — propose 解散 (the old ``end:<hand>`` 结束对局 button proposes it too);
- ``agree:<vote>`` / ``refuse:<vote>`` — answer 解散 vote ``<vote>``;
- ``rematch`` — 再来一局, on an ended game's standings (beside 战绩卡, ``mj:zc:<game>``, the
  session's result card: :mod:`cogs.stats.sessions` answers it).

Ready alerts: a 准备 check asks every human for a decision, so each gets one short DM (a
mention where the game plays when their DMs are closed), deleted once they press 准备 or the
next hand starts — the same rules as :mod:`cogs.delivery.alerts` (``/mahjong alerts off`` or
``claims`` turns them off). Like a turn alert it waits ``ALERT_DELAY_SECONDS`` first
(:class:`cogs.delivery.alerts.DueAlerts`): it goes out only if, that long after the result was
delivered, the check still waits for them as committed
(:meth:`services.game.GameService.ready_waiting`); one who presses 准备 sooner gets nothing
sent and nothing deleted. One alert per check at most: a waiting alert is not remembered, so
after a restart a check whose alert had not gone out gets none. A vote mentions the players
it asks in its own message.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

import discord

from cogs.components import RoutedView
from cogs.delivery.alerts import DueAlerts, deadline_text
from cogs.delivery.hand_dm import DM_CLOSED, HandMessages
from cogs.delivery.places import Places, jump_url, nonce
from cogs.delivery.preferences import Preferences
from cogs.game.session_text import (
    jing_lines,
    names_of,
    pay_reason,
    ready_text,
    rematch_text,
    result_wildcards,
    session_of,
    standings_lines,
    standings_title,
    vote_text,
    wind,
)
from cogs.game.text import lang_of, t
from cogs.game.views import GameButton, lobby_message, result_message, session_buttons
from cogs.replay.buttons import open_button
from cogs.stats.buttons import card_button
from i18n import short
from services.delivery import GameSummary
from services.errors import StaleButton
from services.model import HandResult
from services.picture_words import picture_words
from services.pictures import meld_views
from services.showdown import pay_lines, sanbao_payer

log = logging.getLogger(__name__)

#: ``/mahjong new length:`` and ``/mahjong-admin config length:`` (hands, or rounds 圈).
LENGTH_CHOICES = [
    discord.app_commands.Choice(name=discord.app_commands.locale_str(en), value=value)
    for value, en in (  # Chinese names: the ``commands`` catalogue (commands.choice.*)
        ("4", "4 hands"),
        ("8", "8 hands"),
        ("16", "16 hands"),
        ("1圈", "1 round (the deal goes round once)"),
        ("2圈", "2 rounds"),
        ("4圈", "4 rounds"),
    )
]
#: The pictures' language when the caller names none (the shipped font subset draws 简体 and
#: 繁體; a ``zh+en`` server's pictures are Chinese, see :func:`i18n.short`).
PICTURE_LANG = "zh"
#: Button kinds of the session (see the module docstring).
SESSION_KINDS = ("next", "end", "dissolve", "agree", "refuse", "rematch")
GREEN = discord.ButtonStyle.success
GREY = discord.ButtonStyle.secondary
BLUE = discord.ButtonStyle.primary
RED = discord.ButtonStyle.danger


# ---------------------------------------------------------------------------- the result


async def result_parts(
    game: GameSummary, result: HandResult, lang: str, commitment: str | None = None
) -> tuple[str, discord.Embed, discord.ui.View | None, list[discord.File]]:
    """The hand's result with every hand laid open: ``(content, embed, view, files)`` — the
    content carries the 准备 line (edited as players press), the view 准备 / 解散. The 摊牌
    picture renders off the event loop (:mod:`render.pool`)."""
    embed, view = result_message(game, result, lang, commitment)
    files = await showdown_files(game, result, lang)
    if files:
        embed.set_image(url=f"attachment://{files[0].filename}")
    return ready_text(game, lang), embed, view, files


async def showdown_files(
    game: GameSummary, result: HandResult, lang: str = PICTURE_LANG
) -> list[discord.File]:
    """The 摊牌 picture as ``result.png``, rendered in the picture workers (empty when
    pictures are off, it fails, or it is later than the picture budget: the text goes alone)."""
    from cogs.delivery import pictures

    if not pictures.ENABLED:
        return []
    try:
        model = showdown_picture(game, result, lang)
    except Exception:
        log.exception("showdown picture failed")
        return []
    from render.showdown import render_showdown

    png = await pictures.render_png(render_showdown, model)
    return pictures.files_of(png, "result.png")


def showdown_picture(game: GameSummary, result: HandResult, lang: str = PICTURE_LANG) -> Any:
    """What the 摊牌 picture shows (:class:`render.showdown.ShowdownPicture`), in ``lang``."""
    from render.models import ScoreItem
    from render.showdown import ShowdownPicture, ShowdownSeat

    lang = short(lang)
    names = names_of(game, lang)
    sanbao = sanbao_payer(result)
    first = result.winners[0] if result.winners else None
    seats = []
    for hand in result.hands:
        concealed = list(hand.concealed)
        winning = None
        if hand.seat == first and result.winning_tile in concealed:
            concealed.remove(result.winning_tile)
            winning = result.winning_tile
        seats.append(
            ShowdownSeat(
                name=names[hand.seat] if hand.seat < len(names) else "?",
                wind=wind(hand.seat, result.dealer, lang),
                dealer=hand.seat == result.dealer,
                concealed=tuple(concealed),
                melds=meld_views(hand.melds, hand.seat),
                flowers=len(hand.flowers),
                winning_tile=winning,
                winner=hand.seat in result.winners,
                dealt_in=result.how in ("discard", "rob_kong") and hand.seat == result.discarder,
                sanbao=hand.seat == sanbao,
                delta=result.deltas[hand.seat] if hand.seat < len(result.deltas) else 0,
                total=result.scores[hand.seat] if hand.seat < len(result.scores) else None,
            )
        )
    if result.winners:
        who = "、".join(names[s] for s in result.winners if s < len(names))
        how = t(f"common.how.{result.how}", lang) if result.how != "draw" else ""
        headline = t("session.picture.won", lang, who=who) + (f" · {how}" if how else "")
    else:
        headline = t("session.picture.drawn", lang)
    payments = tuple(_picture_pay(line, names, lang) for line in pay_lines(result))
    notes: tuple[str, ...] = ()
    if result.value_per_pao > 1:
        why = "、".join(result.raised_by) or t("session.showdown_value_why", lang)
        notes = (t("session.picture.value", lang, n=result.value_per_pao, why=why),)
    notes += tuple(jing_lines(result, names, lang))  # 南昌: each seat's 精 and what it settled
    return ShowdownPicture(
        seats=tuple(seats),
        headline=headline,
        items=tuple(ScoreItem(i.name, i.value) for i in result.items),
        total=str(result.points) if result.winners else "",
        wildcards=result_wildcards(result),
        primary_wildcard=result.primary_wildcard,
        payments=payments,
        title=t("session.picture.showdown_title", lang, hand=result.hand_no),
        notes=notes,
        words=picture_words(lang),
    )


def _picture_pay(line: Any, names: list[str], lang: str = PICTURE_LANG) -> str:
    def name(seat: int | None) -> str:
        return names[seat] if seat is not None and 0 <= seat < len(names) else "?"

    why = line.label if line.kind in ("hand", "sanbao") else pay_reason(line, lang)
    if line.payer is None:
        return f"{name(line.payee)} {line.amount:+d} · {why}"
    return f"{name(line.payer)} → {name(line.payee)} {line.amount} · {why}"


# ---------------------------------------------------------------------------- standings


async def standings_parts(
    game: GameSummary, lang: str
) -> tuple[str, discord.Embed, discord.ui.View | None, list[discord.File]]:
    """The final standings: ``(content, embed, view, files)`` with 再来一局."""
    embed = discord.Embed(
        title=standings_title(game, lang),
        description="\n".join(standings_lines(game, lang))[:4000],
        colour=discord.Colour.greyple(),
    )
    embed.set_footer(text=f"#{game.id}")
    files = await standings_files(game, lang)
    if files:
        embed.set_image(url=f"attachment://{files[0].filename}")
    return rematch_text(game, lang), embed, standings_view(game, lang), files


def standings_view(game: GameSummary, lang: str) -> discord.ui.View | None:
    """Under the final standings: 再来一局 (while it may still be pressed) and 战绩卡 (the
    session's result card, shown to the presser with 分享) once a hand was played."""
    view = rematch_view(game, lang)
    info = session_of(game)
    played = info.hands_played if info is not None else game.hand_no
    if not played:
        return view
    if view is None:
        view = RoutedView()
    view.add_item(card_button(game.id, lang))
    return view


def rematch_view(game: GameSummary, lang: str) -> discord.ui.View | None:
    info = session_of(game)
    if info is None or info.rematch_closed or game.hand_no == 0:
        return None
    view = RoutedView()
    view.add_item(
        GameButton(game.id, "rematch", None, label=t("session.rematch_button", lang), style=GREEN)
    )
    return view


async def standings_files(game: GameSummary, lang: str = PICTURE_LANG) -> list[discord.File]:
    """The final standings as ``standings.png``, rendered in the picture workers (empty
    when pictures are off, there are none, it fails, or it is later than the budget)."""
    from cogs.delivery import pictures

    if not pictures.ENABLED:
        return []
    try:
        model = standings_picture(game, lang)
    except Exception:
        log.exception("standings picture failed")
        return []
    if model is None:
        return []
    from render.showdown import render_standings

    png = await pictures.render_png(render_standings, model)
    return pictures.files_of(png, "standings.png")


def standings_picture(game: GameSummary, lang: str = PICTURE_LANG) -> Any:
    """What the standings picture shows (:class:`render.showdown.StandingsPicture`) in
    ``lang``, or None before there are standings."""
    from render.showdown import StandingRow, StandingsPicture

    lang = short(lang)
    info = session_of(game)
    if info is None or not info.standings:
        return None
    names = names_of(game, lang)
    board = sorted(info.standings, key=lambda s: (s.rank, s.seat))
    someone = any(s.total for s in board)
    rows = tuple(
        StandingRow(
            rank=s.rank,
            name=names[s.seat] if s.seat < len(names) else "?",
            total=s.total,
            wins=s.wins,
            self_draws=s.self_draws,
            dealt_in=s.dealt_in,
            biggest=s.biggest,
            winner=someone and s.rank == 1,
        )
        for s in board
    )
    ended = info.ended_by or ""
    stamp = t(f"session.picture.ended_{ended}", lang) if ended in ("vote", "admin") else ""
    return StandingsPicture(
        title=t("session.picture.standings_title", lang, hands=info.hands_played),
        rows=rows,
        footer=f"#{game.id}",
        stamp=stamp,
        words=picture_words(lang),
    )


# ---------------------------------------------------------------------------- the vote


def vote_parts(game: GameSummary, lang: str) -> tuple[str, discord.ui.View | None]:
    """The vote message: its text (with the voters' mentions while it is open) and 同意 /
    拒绝 while it is open."""
    info = session_of(game)
    text = vote_text(game, lang)
    if info is None or info.vote is None or info.vote.result is not None:
        return text, None
    vote = info.vote
    waiting = [
        f"<@{game.seats[i].user_id}>"
        for i in vote.voters
        if i < len(vote.answers) and vote.answers[i] is None and game.seats[i].user_id
    ]
    if waiting:
        text += "\n" + " ".join(waiting)
    view = RoutedView()
    no = str(vote.no)
    view.add_item(
        GameButton(game.id, "agree", no, label=t("session.agree_button", lang), style=GREEN)
    )
    view.add_item(
        GameButton(game.id, "refuse", no, label=t("session.refuse_button", lang), style=RED)
    )
    return text, view


# ---------------------------------------------------------------------------- buttons


async def handle_session_button(
    interaction: discord.Interaction, svc: Any, game_id: int, kind: str, arg: str | None
) -> None:
    """准备 / 解散 / 同意 / 拒绝 / 再来一局 (refusals are raised as ServiceError)."""
    lang = lang_of(interaction.locale)
    user = interaction.user
    if kind == "next":
        game = await svc.summary(game_id)
        if arg is not None and arg.isdigit() and int(arg) != game.hand_no:
            raise StaleButton("an earlier hand")
        await svc.ready(game_id, user.id)
        await interaction.response.defer()
    elif kind in ("dissolve", "end"):
        game = await svc.summary(game_id)
        if kind == "end" and arg is not None and arg.isdigit() and int(arg) != game.hand_no:
            raise StaleButton("an earlier hand")
        await svc.propose_dissolve(game_id, user.id)
        await _answer(interaction, t("session.vote_proposed", lang))
    elif kind in ("agree", "refuse"):
        no = int(arg) if arg is not None and arg.isdigit() else None
        await svc.answer_dissolve(game_id, user.id, kind == "agree", no)
        await _answer(interaction, t("session.vote_answered", lang))
    elif kind == "rematch":
        name = (getattr(user, "display_name", None) or user.name or str(user.id))[:100]
        new = await svc.rematch(game_id, user.id, name, locale=str(interaction.locale))
        await _answer(interaction, t("session.rematch_done", lang, game=new.id))


async def _answer(interaction: discord.Interaction, text: str) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


# ---------------------------------------------------------------------------- delivery


def ready_key(game_id: int, user_id: int) -> tuple[int, int, str]:
    """A ready alert's key among the delayed alerts (:class:`cogs.delivery.alerts.DueAlerts`)."""
    return (game_id, user_id, "ready")


class SessionMessages:
    """The session on Discord: the result's 准备 line, ready alerts, the vote message and
    the standings (remembered across restarts with the game's messages)."""

    def __init__(
        self,
        places: Places,
        preferences: Preferences,
        hands: HandMessages,
        due: DueAlerts | None = None,
    ) -> None:
        self.places = places
        self.preferences = preferences
        self.hands = hands
        #: the turn alerts' delayed sends (:attr:`cogs.delivery.alerts.Alerts.due`), shared so the
        #: game's end and shut-down end the ready alerts' too; None: sent at once
        self.due = due

    async def session_changed(self, game: GameSummary, result: HandResult | None) -> None:
        """See :meth:`services.delivery.Delivery.session_changed`."""
        lang = await self.preferences.lang_for_guild(game.guild_id)
        if game.status == "active":
            await self._edit_result_ready(game, lang)
            await self.update_ready_alerts(game)
        else:
            await self.clear_session_alerts(game)
        await self._put_vote(game, lang)
        if game.status in ("finished", "abandoned"):
            await self._edit_standings(game, lang)

    # -- 准备

    async def _edit_result_ready(self, game: GameSummary, lang: str) -> None:
        """The result message of the ready check's hand: its 准备 line and buttons."""
        info = session_of(game)
        held = self.places.refs(game).get("result")
        if info is None or not held or int(held[2]) != info.ready_hand:
            return

        view = RoutedView()
        if info.ready_open:
            session_buttons(view, game, lang)
        view.add_item(open_button(game.id, int(held[2]), lang))
        try:
            await self.places.partial(int(held[0]), int(held[1])).edit(
                content=ready_text(game, lang) or None, view=view
            )
        except discord.HTTPException as error:
            log.info("game %s: result not updated (%s %s)", game.id, error.status, error.code)

    async def update_ready_alerts(self, game: GameSummary) -> None:
        """One alert per human the 准备 check waits for (a decision like any other), sent
        once they have not pressed for the alert delay; taken away (or never sent) once they
        are ready or the check is over."""
        info = session_of(game)
        held = self.places.held(game, "session_alerts")
        tag = f"r{info.ready_hand}" if info is not None else ""
        wanted: dict[str, int] = {}
        if info is not None and info.ready_open and game.status == "active":
            for i, seat in enumerate(game.seats):
                if seat.ai or seat.user_id is None or (i < len(info.ready) and info.ready[i]):
                    continue
                wanted[str(seat.user_id)] = seat.user_id
        for uid, entry in list(held.items()):
            if not (uid in wanted and entry[2] == tag):
                await self._settle(game.id, int(uid))
        # (a send that was under way kept its message id, maybe in a newly stored copy)
        held = self.places.held(game, "session_alerts")
        changed = False
        for uid, entry in list(held.items()):
            if uid in wanted and entry[2] == tag:
                continue
            if entry[1]:
                await self.places.delete(entry, "ready alert")
            del held[uid]
            changed = True
        for uid, user_id in wanted.items():
            if uid in held:
                continue
            entry = [0, 0, tag]
            held[uid] = entry
            changed = True
            mode = await self.preferences.alerts_for_user(user_id)
            if mode != "on":
                continue
            if self.due is not None and self.due.delay > 0 and info is not None:
                send = functools.partial(self._send_due, game, user_id, info.ready_hand)
                self.due.schedule(ready_key(game.id, user_id), send)
                continue
            try:
                sent = await self._send_ready_alert(game, user_id)
            except discord.HTTPException as error:
                log.warning("game %s: ready alert for %s not sent (%s)", game.id, uid, error)
                continue
            entry[0], entry[1] = sent.channel.id, sent.id
            self.places.note_snowflake(sent.id)
        if changed:
            await self.places.save_refs(game.id)

    async def _settle(self, game_id: int, user_id: int) -> None:
        """The user's ready alert waiting out the delay is cancelled (nothing was sent), one
        being sent ends first (its message id is kept, to be deleted)."""
        if self.due is not None:
            await self.due.settle(ready_key(game_id, user_id))

    async def _send_due(self, game: GameSummary, user_id: int, hand: int) -> None:
        """The delay is over: send the ready alert if the check after ``hand`` still waits
        for the user (as committed: a press still queued for delivery counts) and none went
        out for it."""
        tag = f"r{hand}"
        entry = self.places.held(game, "session_alerts").get(str(user_id))
        if not entry or entry[1] or entry[2] != tag:
            return
        ask = getattr(self.places.service, "ready_waiting", None)
        if ask is not None and ask(game.id, user_id, hand) is False:
            return  # they pressed: the update saying so is queued
        try:
            sent = await self._send_ready_alert(game, user_id)
        except discord.HTTPException as error:
            log.warning("game %s: ready alert for %s not sent (%s)", game.id, user_id, error)
            return
        self.places.note_snowflake(sent.id)
        entry = self.places.held(game, "session_alerts").get(str(user_id))  # (maybe a copy)
        if not entry or entry[1] or entry[2] != tag:
            await self.places.delete([sent.channel.id, sent.id], "ready alert")  # never left
            return
        entry[0], entry[1] = sent.channel.id, sent.id
        await self.places.save_refs(game.id)

    async def _send_ready_alert(self, game: GameSummary, user_id: int) -> discord.Message:
        info = session_of(game)
        deadline = info.ready_deadline if info is not None else None
        held = self.places.refs(game).get("result")
        link = jump_url(int(held[0]), int(held[1]), game.guild_id) if held else ""
        if user_id not in self.hands.dm_closed:
            lang = await self.preferences.lang_for_player(user_id, game.guild_id)
            text = t(
                "session.alert_ready",
                lang,
                hand=game.hand_no,
                deadline=deadline_text(deadline, lang),
                link=link,
            )
            try:
                return await self.hands.send_dm(
                    user_id, content=text, nonce=nonce("y", game.id, game.hand_no, user_id)
                )
            except discord.Forbidden as error:
                if error.code != DM_CLOSED:
                    raise
                self.hands.dm_closed.add(user_id)
        lang = await self.preferences.lang_for_guild(game.guild_id)
        text = t(
            "session.alert_ready_public",
            lang,
            mention=f"<@{user_id}>",
            hand=game.hand_no,
            deadline=deadline_text(deadline, lang),
        )
        return await self.places.mention(
            game, user_id, text, nonce=nonce("y", game.id, game.hand_no, user_id)
        )

    async def clear_session_alerts(self, game: GameSummary) -> None:
        """The game is over: no ready alert waits any more, every one sent is taken away."""
        if self.due is not None:
            for key in self.due.waiting(game.id):
                if key[2:] == ("ready",):
                    await self.due.settle(key)
        held = self.places.held(game, "session_alerts")
        if not held:
            return
        for entry in held.values():
            if entry[1]:
                await self.places.delete(entry, "ready alert")
        held.clear()
        await self.places.save_refs(game.id)

    # -- 解散

    async def _put_vote(self, game: GameSummary, lang: str) -> None:
        """Post the vote message when a vote opens (mentioning the players it asks), edit it
        as they answer, take its buttons away once it is over."""
        info = session_of(game)
        if info is None or info.vote is None:
            return
        vote = info.vote
        refs = self.places.refs(game)
        held = refs.get("vote")
        text, view = vote_parts(game, lang)
        if held and int(held[2]) == vote.no:
            try:
                await self.places.partial(int(held[0]), int(held[1])).edit(
                    content=text[:2000],
                    view=view,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            except discord.HTTPException as error:
                log.info("game %s: vote not updated (%s %s)", game.id, error.status, error.code)
            return
        voters = [
            discord.Object(id=user_id)
            for i in vote.voters
            if (user_id := game.seats[i].user_id) is not None
        ]
        where = await self.places.play_channel_id(game)
        message = await self.places.send(
            where,
            content=text[:2000],
            view=view,
            allowed_mentions=discord.AllowedMentions(users=voters, everyone=False, roles=False),
            nonce=nonce("v", game.id, vote.no),
        )
        self.places.note_snowflake(message.id)
        refs["vote"] = [where, message.id, vote.no]
        await self.places.save_refs(game.id)

    # -- standings

    async def post_standings(self, game: GameSummary) -> None:
        """The final standings in the channel (picture, text, 再来一局), and the lobby
        message pointing to them."""
        lang = await self.preferences.lang_for_guild(game.guild_id)
        await self.clear_session_alerts(game)
        content, embed, view, files = await standings_parts(game, lang)
        message = await self.places.send(
            game.channel_id,
            content=content or None,
            embed=embed,
            view=view,
            files=files,
            nonce=nonce("s", game.id),
        )
        self.places.note_snowflake(message.id)
        refs = self.places.refs(game)
        refs["standings"] = [game.channel_id, message.id]
        await self.places.save_refs(game.id)
        lobby = refs.get("lobby")
        if lobby:
            link = jump_url(game.channel_id, message.id, game.guild_id)
            lobby_embed, _view = lobby_message(game, lang)
            lobby_embed.description = t("session.lobby_ended", lang, link=link)
            try:
                await self.places.partial(game.channel_id, int(lobby)).edit(
                    embed=lobby_embed, view=None
                )
            except discord.HTTPException as error:
                log.info("game %s: lobby not updated (%s %s)", game.id, error.status, error.code)

    async def _edit_standings(self, game: GameSummary, lang: str) -> None:
        held = self.places.refs(game).get("standings")
        if not held:
            return
        try:
            await self.places.partial(int(held[0]), int(held[1])).edit(
                content=rematch_text(game, lang) or None, view=standings_view(game, lang)
            )
        except discord.HTTPException as error:
            log.info("game %s: standings not updated (%s %s)", game.id, error.status, error.code)
