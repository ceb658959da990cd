"""The game commands (``/mahjong new|join|leave|addbot|start|hand|status|autoplay|abandon|
rules|config``) and the handler of every game button.

All game logic is in :class:`services.game.GameService`; this module turns Discord
interactions into service calls and refusals into short ephemeral answers. Every interaction
is answered after the service call returned (the action is committed by then), and as soon
as it returned: a pressed hand message's new picture goes with the answer when it is ready
within a few ms (``PICTURE_INLINE_WAIT_MS``), else it follows the answer.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands

from botcore.client import MahjongBot, bot_of
from cogs.checks import (
    bot_missing_text,
    clip,
    is_manager,
    missing_game_permissions,
    require_manager,
)
from cogs.components import component_ids, custom_id_of
from cogs.delivery import pictures
from cogs.delivery.discord_delivery import DiscordDelivery
from cogs.delivery.shown_pictures import ShownPictures
from cogs.game.config_text import settings_lines
from cogs.game.late_answer import acknowledge, deferred_when_late, edit_pressed
from cogs.game.press_timing import PressClock
from cogs.game.session import LENGTH_CHOICES, SESSION_KINDS, handle_session_button
from cogs.game.text import lang_of, punct, t, table_lines, variant_name
from cogs.game.views import (
    CUSTOM_ID,
    HAND_KINDS,
    error_text,
    hand_message,
    picker_message,
    rules_text,
    seen_version,
)
from cogs.group import admin, bind_cog_commands, mahjong
from cogs.refusal_text import refusal_text
from cogs.variant_choices import variant_choices
from db.errors import StoreBusy, StoreUnwritable
from db.group_commit import answering
from engine import variants
from engine.options import OptionError, make_options, options_to_dict
from engine.refusal import Reason, reason_of
from i18n import LANGUAGE_NAMES, LOCALES, SERVER_LANGUAGES
from services.errors import BadOption, NoSuchGame, ServiceError, StaleButton, WrongPhase
from services.game import GameService
from services.model import ActionKey

log = logging.getLogger(__name__)

VARIANT_CHOICES = variant_choices()
OPTION_RX = re.compile(r"^\s*([a-z_]{1,32})\s*[=:]\s*([A-Za-z0-9_\-]{0,32})\s*$")
MAX_OPTIONS_TEXT = 300
GAME_ID_RX = re.compile(CUSTOM_ID)


def parse_options(text: str | None) -> dict[str, str]:
    """``"scoring=xingchen, discard_win=true"`` → ``{"scoring": "xingchen", ...}``.

    >>> parse_options("scoring=xingchen discard_win=true")
    {'scoring': 'xingchen', 'discard_win': 'true'}
    """
    if not text:
        return {}
    if len(text) > MAX_OPTIONS_TEXT:
        raise BadOption(
            Reason(
                "errors.option.too_long",
                "options text is longer than {limit} characters",
                limit=MAX_OPTIONS_TEXT,
            )
        )
    out: dict[str, str] = {}
    for part in re.split(r"[,;\s]+(?=[a-z_]+\s*[=:])", text.strip()):
        if not part.strip():
            continue
        m = OPTION_RX.match(part.strip().rstrip(",;"))
        if m is None:
            raise BadOption(
                Reason(
                    "errors.option.unreadable",
                    "cannot read {part!r}: write name=value, e.g. scoring=xingchen",
                    part=part.strip()[:40],
                )
            )
        out[m.group(1)] = m.group(2)
    return out


def service_of(client: discord.Client) -> GameService:
    """The bot's game service."""
    return bot_of(client).game_service


def delivery_of(client: discord.Client) -> DiscordDelivery:
    """The game service's Discord delivery."""
    return bot_of(client).game_delivery


def display_name(user: discord.abc.User) -> str:
    return (getattr(user, "display_name", None) or user.name or str(user.id))[:100]


async def answer(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """An ephemeral answer, whether or not the interaction was acknowledged already (cut to
    Discord's 2,000 characters: an answer may quote what the user typed)."""
    text = clip(text)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(text, ephemeral=True, **kwargs)
    except discord.HTTPException as error:
        log.warning("could not answer interaction %s: %s", interaction.id, error)


# ---------------------------------------------------------------------------- buttons


async def handle_button(
    interaction: discord.Interaction, game_id: int, kind: str, arg: str | None
) -> None:
    """Route one button press (see :mod:`cogs.game.views` for the actions)."""
    svc = service_of(interaction.client)
    lang = lang_of(interaction.locale)
    user = interaction.user
    delivery_of(interaction.client).preferences.note_user(user.id, interaction.locale)
    with answering():  # its writes go before bookkeeping writes (db.group_commit)
        await _handle_button(interaction, svc, game_id, kind, arg, lang)


async def _handle_button(
    interaction: discord.Interaction,
    svc: GameService,
    game_id: int,
    kind: str,
    arg: str | None,
    lang: str,
) -> None:
    user = interaction.user
    try:
        if kind in ("join", "leave", "addbot", "start"):
            if kind == "join":
                await svc.join(game_id, user.id, display_name(user), locale=str(interaction.locale))
            elif kind == "leave":
                await svc.leave(game_id, user.id)
            elif kind == "addbot":
                await svc.add_bot(game_id, user.id)
            else:
                missing = missing_game_permissions(
                    interaction.app_permissions, pictures=bool(pictures.ENABLED)
                )
                if missing:  # the channel's permissions changed since the lobby opened
                    await answer(interaction, bot_missing_text(missing, lang))
                    return
                await svc.start(game_id, user.id)
            await interaction.response.defer()
        elif kind == "hand":
            await show_hand(interaction, game_id)
        elif kind in SESSION_KINDS:  # 准备, 解散 and its vote, 再来一局
            await handle_session_button(interaction, svc, game_id, kind, arg)
        elif kind in HAND_KINDS:
            await _hand_button(interaction, svc, game_id, kind, arg, lang)
        else:
            await answer(interaction, t("errors.stale", lang))
    except ServiceError as error:
        # "not your tiles" is for the hand's buttons; 准备 / 解散 / a lobby button only say
        # that the presser is not in this game
        await answer(interaction, error_text(error, lang, button=kind in HAND_KINDS))
    except StoreBusy:  # a stalled commit outside a move (a seat, a new game): nothing written
        await answer(interaction, t("errors.table_busy", lang))
    except StoreUnwritable:  # disk full, read-only: nothing written, pressing again won't help
        await answer(interaction, t("errors.db_unwritable", lang))
    except Exception:
        ref = secrets.token_hex(3)
        log.exception("button %s:%s:%s by %s failed (ref %s)", game_id, kind, arg, user.id, ref)
        await answer(interaction, t("errors.failed", lang, ref=ref))


async def _hand_button(
    interaction: discord.Interaction,
    svc: GameService,
    game_id: int,
    kind: str,
    arg: str | None,
    lang: str,
) -> None:
    user = interaction.user
    if kind in ("touji", "ready") and arg is None:
        update = await svc.private_view(game_id, user.id)
        game = await svc.summary(game_id)
        if not any(k.kind == kind for k in update.hand.legal):
            raise StaleButton()
        text, picker = picker_message(game, update, kind, lang)
        await interaction.response.send_message(text, view=picker, ephemeral=True)
        return
    seen = seen_version(interaction.message)
    message = interaction.message
    is_hand_message = seen is not None
    clock = PressClock(interaction, kind)
    try:
        # a press waiting on the database (a lock held by another writer) is deferred before
        # Discord's deadline and answered after
        async with deferred_when_late(interaction):
            result = await svc.act(game_id, user.id, ActionKey(kind, arg), seen_version=seen)
        clock.mark("act")
    except StaleButton:
        if not is_hand_message:
            raise
        await _refresh_stale(interaction, svc, game_id, lang)
        return
    if result.hand is not None and is_hand_message:
        embed, view = hand_message(result.game, result.hand, lang)
        delivery = delivery_of(interaction.client)
        live = delivery.hands.is_live_hand_message(game_id, user.id, message)
        shown = (result.game.version, result.hand.hand)
        if live:
            delivery.hands.note_rendered(game_id, user.id, *shown)

        def still_current() -> bool:  # no newer hand reached this message meanwhile
            return not live or delivery.hands.rendered.get((game_id, user.id)) == shown

        await _redraw_hand(
            interaction, embed, view, result.hand.hand, still_current, delivery.hands.pictures
        )
        if live:
            _renew_ephemeral(interaction, game_id)
    elif message is not None and message.flags.ephemeral:
        await edit_pressed(interaction, content=t("game.acted", lang), view=None)
    else:
        await acknowledge(interaction)
    clock.mark("answer")
    clock.done()


#: pictures that follow an answer given without them (kept referenced until done)
_LATE_PICTURES: set[asyncio.Task[None]] = set()
#: seconds Discord gives an interaction for its answer (counted from its id's time)
ANSWER_DEADLINE = 3.0
#: seconds of that left to the answer itself (the HTTP request, with a picture to upload,
#: and a busy event loop): the wait for a picture ends before
ANSWER_MARGIN = 1.0


async def _redraw_hand(
    interaction: discord.Interaction,
    embed: discord.Embed,
    view: Any,
    hand: Any,
    still_current: Any = None,
    shown: ShownPictures | None = None,
) -> None:
    """Answer a press by editing the pressed hand message; a message that carried a picture
    gets the new picture (a text-only one stays text).

    Answer first: the new picture is rendered off the loop before any DM or table picture;
    the answer waits for it at most :data:`cogs.delivery.pictures.INLINE_WAIT` (never near Discord's
    deadline, :func:`_picture_wait`). Ready by then (a hand picture usually takes a few ms),
    the answer carries it — one request. Otherwise the new text and buttons go out at once
    (the action is committed), the message keeping its picture for the moment, and the new
    picture follows in a second edit unless ``still_current()`` says a newer hand reached
    the message meanwhile. A render that failed: the message is left without a picture.
    A newer hand that reached the message while the answer waited is not drawn over: the
    press is acknowledged without an edit.

    ``shown``: the pictures the hand messages show — a message known to show this hand's
    picture already (a pass: the tiles did not change) keeps it, with no second edit."""
    message = interaction.message
    if message is None or not message.attachments:
        await edit_pressed(interaction, embed=embed, view=view)
        return
    shown = shown or ShownPictures()  # (nothing known: the picture is drawn again)
    if not pictures.ENABLED:
        with shown.changing(message.id, None):
            await edit_pressed(interaction, embed=embed, view=view, attachments=[])
        return
    lang = lang_of(interaction.locale)  # the presser's language (the picture's words)
    model = pictures.hand_model(hand, lang)
    embed.set_image(url=f"attachment://{message.attachments[0].filename}")  # kept for now
    if shown.shows(message.id, model):
        await edit_pressed(interaction, embed=embed, view=view)
        return
    picture = asyncio.ensure_future(pictures.hand_png(hand, urgent=True, budget=None, lang=lang))
    try:
        ready = await _picture_in_time(picture, _picture_wait(interaction))
        if still_current is not None and not still_current():
            # a newer hand reached the message while the answer waited (its edit is sent or
            # on its way): acknowledged without drawing this older one over it
            picture.cancel()
            await acknowledge(interaction)
            return
        if ready:
            files = _with_picture(embed, _png_of(picture))
            with shown.changing(message.id, model if files else None):
                await edit_pressed(interaction, embed=embed, view=view, attachments=files)
            return
        await edit_pressed(interaction, embed=embed, view=view)
    except BaseException:
        picture.cancel()
        raise
    task = asyncio.create_task(
        _picture_later(interaction, embed, view, picture, still_current, shown, model)
    )
    _LATE_PICTURES.add(task)
    task.add_done_callback(_LATE_PICTURES.discard)


def _picture_wait(interaction: discord.Interaction) -> float:
    """Seconds the answer to ``interaction`` may wait for its picture: the setting
    (:data:`cogs.delivery.pictures.INLINE_WAIT`), less when the interaction is near Discord's answer
    deadline (0: none left — the picture follows the answer). The interaction's age is read
    from its id (Discord's clock): a host clock ahead of Discord's only shortens the wait,
    and one behind cannot lengthen it past the setting."""
    elapsed = time.time() - discord.utils.snowflake_time(interaction.id).timestamp()
    left = ANSWER_DEADLINE - ANSWER_MARGIN - max(0.0, elapsed)
    return max(0.0, min(pictures.INLINE_WAIT, left))


async def _picture_in_time(picture: asyncio.Future[bytes | None], wait: float) -> bool:
    """Whether ``picture`` is ready (rendered, or failed) within ``wait`` seconds; it is
    never cancelled here (it follows the answer when late), and cancelling the caller ends
    the wait at once."""
    if wait > 0 and not picture.done():
        await asyncio.wait((picture,), timeout=wait)
    return picture.done() and not picture.cancelled()


def _with_picture(embed: discord.Embed, png: bytes | None) -> list[discord.File]:
    """The hand picture's file for the edit, the embed showing it (no picture: the embed
    shows none)."""
    files = pictures.files_of(png, "hand.png")
    embed.set_image(url=f"attachment://{files[0].filename}" if files else None)
    return files


def _png_of(picture: asyncio.Future[bytes | None]) -> bytes | None:
    """A ready picture's PNG bytes (None: its render failed)."""
    try:
        return picture.result()
    except Exception:
        log.exception("hand picture failed")
        return None


async def _picture_later(
    interaction: discord.Interaction,
    embed: discord.Embed,
    view: Any,
    picture: asyncio.Future[bytes | None],
    current: Any,
    shown: ShownPictures,
    model: Any,
) -> None:
    """The pressed hand message gets its new picture (or, the render failed, none);
    ``model``: what the picture shows (noted in ``shown`` once it is shown)."""
    png = await picture
    if current is not None and not current():
        return
    files = _with_picture(embed, png)
    message_id = interaction.message.id if interaction.message is not None else 0
    try:
        with shown.changing(message_id, model if files else None):
            await interaction.edit_original_response(embed=embed, view=view, attachments=files)
    except discord.HTTPException as error:
        log.info("hand picture after the answer not shown (%s %s)", error.status, error.code)


async def _refresh_stale(
    interaction: discord.Interaction, svc: GameService, game_id: int, lang: str
) -> None:
    """A button drawn for an earlier moment: redraw that hand message as it is now (so its
    buttons work again) and say why nothing was played."""
    try:
        update = await svc.private_view(game_id, interaction.user.id)
        game = await svc.summary(game_id)
    except ServiceError:
        await answer(interaction, t("errors.stale", lang))
        return
    embed, view = hand_message(game, update, lang)
    message = interaction.message
    await _redraw_hand(
        interaction, embed, view, update.hand, shown=delivery_of(interaction.client).hands.pictures
    )
    if delivery_of(interaction.client).hands.is_live_hand_message(
        game_id, interaction.user.id, message
    ):
        _renew_ephemeral(interaction, game_id)
    await answer(interaction, t("errors.stale_redrawn", lang))


def _renew_ephemeral(interaction: discord.Interaction, game_id: int) -> None:
    """A press on a closed-DM player's ephemeral hand reply, answered by editing it: this
    interaction's fresh token edits the same reply for another 15 minutes, so the delivery
    keeps it instead of the older one."""
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        delivery_of(interaction.client).hands.remember_ephemeral(
            game_id, interaction.user.id, interaction
        )


async def show_hand(interaction: discord.Interaction, game_id: int) -> None:
    """The user's hand as an ephemeral reply (the path for closed DMs, and a quick look)."""
    svc = service_of(interaction.client)
    update = await svc.private_view(game_id, interaction.user.id)
    game = await svc.summary(game_id)
    # the game's language (or the player's choice), as the hand DM: the delivery edits this
    # reply later in that language too
    prefs = delivery_of(interaction.client).preferences
    lang = await prefs.lang_for_player(interaction.user.id, game.guild_id)
    embed, view = hand_message(game, update, lang)
    if view is None:
        await interaction.response.send_message(embed=embed, ephemeral=True)
    else:
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)
    delivery_of(interaction.client).hands.remember_ephemeral(
        game_id, interaction.user.id, interaction
    )


# ---------------------------------------------------------------------------- commands


class Game(commands.Cog):
    """Lobby and play commands on the shared ``/mahjong`` group."""

    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot
        self.store = bot.store
        self.service = bot.game_service
        self.delivery = bot.game_delivery
        self._resume_task: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        bind_cog_commands(self)
        self._resume_task = asyncio.create_task(self._resume(), name="mj-resume")

    async def cog_unload(self) -> None:
        if self._resume_task is not None:
            self._resume_task.cancel()
            # let it unwind (and give its database connection back) before the store closes
            await asyncio.gather(self._resume_task, return_exceptions=True)

    async def _resume(self) -> None:
        await self.bot.wait_until_ready()
        try:
            # sharded, only the games of this process's servers (their processes resume theirs)
            games = await self.service.resume_all(self.bot.serves_guild)
            log.info("Resumed %d unfinished game(s)", len(games))
        except Exception:
            log.exception("resuming games failed")
        try:
            await self.delivery.resumed(self.bot.serves_guild)
        except Exception:
            log.exception("old buttons of ended games not looked for")

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every game button press is answered here, routed by its custom_id
        (``mj:<game>:<kind>[:<arg>]``, :mod:`services.action_codec`) — not by discord.py's
        view store, which would rebuild a ``discord.ui.View`` of the pressed message's
        components per press (:class:`cogs.game.views.GameButton`). A game button that is not
        on its message (forged, or from a client showing an old version) is answered as
        stale, changing nothing.

        Every interaction also tells the delivery Discord's time (its id) and the bot's
        permissions in the channel (may it open a thread there?)."""
        self.delivery.places.note_snowflake(interaction.id)
        if interaction.guild_id is not None and interaction.channel_id is not None:
            self.delivery.places.note_permissions(
                interaction.channel_id, interaction.app_permissions
            )
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = custom_id_of(interaction)
        pressed = GAME_ID_RX.fullmatch(custom_id)
        if pressed is None or interaction.message is None:
            return
        if custom_id not in component_ids(interaction.message.components):
            await answer(interaction, t("errors.stale", lang_of(interaction.locale)))
            return
        await handle_button(interaction, int(pressed["gid"]), pressed["kind"], pressed["arg"])

    # -- helpers

    def _game_here(self, interaction: discord.Interaction) -> int:
        game_id = self.service.game_in_channel(interaction.channel_id or 0)
        if game_id is None:
            # still resuming after a restart, or a game that could not be read: never "none"
            self.service.resume_state.explain_miss(
                interaction.channel_id or 0, interaction.guild_id, interaction.user.id
            )
            raise NoSuchGame()
        return game_id

    def _my_game(self, interaction: discord.Interaction) -> int:
        if interaction.guild_id is not None:
            mine = self.service.game_of_player(interaction.guild_id, interaction.user.id)
            if mine is not None:
                return mine
        return self._game_here(interaction)

    async def _run(self, interaction: discord.Interaction, job: Any) -> None:
        """Run a command's work; a refusal it raises reaches the one app-command error
        handler (:mod:`cogs.errors`), which answers it in the user's language. Its writes
        go before bookkeeping writes, as a button press's do: its player waits for them."""
        self.delivery.preferences.note_user(interaction.user.id, interaction.locale)
        with answering():
            await job()

    async def _guild_only(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            await answer(interaction, t("errors.guild_only", lang_of(interaction.locale)))
            return False
        return True

    async def _bot_may_play_here(self, interaction: discord.Interaction) -> bool:
        """Whether the bot has the channel permissions a game needs; if not, say which are
        missing (nothing is created). Threads are not needed: without them the game stays
        in the channel."""
        missing = missing_game_permissions(
            interaction.app_permissions, pictures=bool(pictures.ENABLED)
        )
        if missing:
            await answer(interaction, bot_missing_text(missing, lang_of(interaction.locale)))
            return False
        return True

    # -- lobby

    @mahjong.command(
        name=locale_str("new"),
        description=locale_str("Open a new game in this channel"),
    )
    @app_commands.describe(
        variant=locale_str("Which Jiangxi variant (default: the server's)"),
        options=locale_str(
            "House rules, e.g. scoring=xingchen discard_win=true",
        ),
        length=locale_str(
            "How long: hands, or rounds (圈) (default: the server's)",
        ),
    )
    @app_commands.choices(variant=VARIANT_CHOICES, length=LENGTH_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        variant: str | None = None,
        options: str | None = None,
        length: str | None = None,
    ) -> None:
        """Open a lobby; the lobby message appears in the channel."""
        if not await self._guild_only(interaction):
            return
        if not await self._bot_may_play_here(interaction):
            return

        async def job() -> None:
            overrides = parse_options(options)
            await self.service.create_game(
                interaction.guild_id or 0,
                interaction.channel_id or 0,
                interaction.user.id,
                display_name(interaction.user),
                variant,
                overrides,
                locale=str(interaction.locale),
                length=length,
            )
            await answer(interaction, t("game.created", lang_of(interaction.locale)))

        await self._run(interaction, job)

    @mahjong.command(
        name=locale_str("join"),
        description=locale_str("Join the game in this channel"),
    )
    async def join(self, interaction: discord.Interaction) -> None:
        async def job() -> None:
            await self.service.join(
                self._game_here(interaction), interaction.user.id, display_name(interaction.user)
            )
            await answer(interaction, t("game.acted", lang_of(interaction.locale)))

        await self._run(interaction, job)

    @mahjong.command(
        name=locale_str("leave"),
        description=locale_str("Leave the lobby"),
    )
    async def leave(self, interaction: discord.Interaction) -> None:
        async def job() -> None:
            await self.service.leave(self._game_here(interaction), interaction.user.id)
            await answer(interaction, t("game.acted", lang_of(interaction.locale)))

        await self._run(interaction, job)

    @mahjong.command(
        name=locale_str("addbot"),
        description=locale_str("Fill a seat with an AI player"),
    )
    @app_commands.describe(
        level=locale_str("Which AI: beginner, intermediate or advanced (default: intermediate)")
    )
    @app_commands.choices(
        level=[
            Choice(name=locale_str("beginner"), value="beginner"),
            Choice(name=locale_str("intermediate"), value="intermediate"),
            Choice(name=locale_str("advanced"), value="advanced"),
        ]
    )
    async def addbot(self, interaction: discord.Interaction, level: str | None = None) -> None:
        """Seat an AI player of ``level`` (初级 / 中级 / 高级)."""

        async def job() -> None:
            await self.service.add_bot(self._game_here(interaction), interaction.user.id, level)
            await answer(interaction, t("game.acted", lang_of(interaction.locale)))

        await self._run(interaction, job)

    @mahjong.command(
        name=locale_str("start"),
        description=locale_str("Start the game (empty seats get AI players)"),
    )
    async def start(self, interaction: discord.Interaction) -> None:
        if not await self._bot_may_play_here(interaction):
            return

        async def job() -> None:
            await self.service.start(self._game_here(interaction), interaction.user.id)
            await answer(interaction, t("game.started", lang_of(interaction.locale)))

        await self._run(interaction, job)

    # -- play

    @mahjong.command(
        name=locale_str("hand"),
        description=locale_str("Show your tiles privately"),
    )
    async def hand(self, interaction: discord.Interaction) -> None:
        async def job() -> None:
            await show_hand(interaction, self._my_game(interaction))

        await self._run(interaction, job)

    @mahjong.command(
        name=locale_str("status"),
        description=locale_str("Show the table of this channel's game"),
    )
    async def status(self, interaction: discord.Interaction) -> None:
        async def job() -> None:
            lang = lang_of(interaction.locale)
            game_id = self._game_here(interaction)
            game = await self.service.summary(game_id)
            table = await self.service.table(game_id)
            if table is None:
                seats = punct("list", lang).join(s.shown_name(lang) for s in game.seats)
                text = f"{variant_name(game.variant, lang)} · {seats}"
            else:
                text = "\n".join(
                    table_lines(
                        table,
                        [s.shown_name(lang) for s in game.seats],
                        game.totals,
                        [s.auto for s in game.seats],
                        lang,
                        deadline=game.deadline,
                        variant=game.variant,
                    )
                )
            await answer(interaction, text[:2000])

        await self._run(interaction, job)

    @mahjong.command(
        name=locale_str("autoplay"),
        description=locale_str("Let the AI play for you (on/off)"),
    )
    @app_commands.describe(on=locale_str("on = the AI plays for you; off = you play"))
    async def autoplay(self, interaction: discord.Interaction, on: bool | None = None) -> None:
        """Turn 托管 on or off; without ``on`` it toggles."""

        async def job() -> None:
            game_id = self._my_game(interaction)
            want = on
            if want is None:
                game = await self.service.summary(game_id)
                seat = game.seat_of(interaction.user.id)
                want = not (seat is not None and game.seats[seat].auto)
            await self.service.set_autoplay(game_id, interaction.user.id, want)
            await answer(
                interaction,
                t("game.autoplay_on" if want else "game.autoplay_off", lang_of(interaction.locale)),
            )

        await self._run(interaction, job)

    @mahjong.command(
        name=locale_str("alerts"),
        description=locale_str(
            "Turn alerts for you: on (turns and claims), claims (claims only) or off",
        ),
    )
    @app_commands.describe(
        mode=locale_str(
            "on = a short DM for every decision; claims = only when you may claim; off = none",
        )
    )
    @app_commands.choices(
        mode=[
            Choice(name=locale_str("on"), value="on"),
            Choice(name=locale_str("claims only"), value="claims"),
            Choice(name=locale_str("off"), value="off"),
        ]
    )
    async def alerts(self, interaction: discord.Interaction, mode: str) -> None:
        """Choose this user's turn alerts (saved; see :mod:`cogs.delivery.alerts`)."""

        async def job() -> None:
            chosen = mode if mode in ("on", "claims", "off") else "on"
            await self.store.players.upsert(interaction.user.id, alerts=chosen)
            self.delivery.preferences.set_user_alerts(interaction.user.id, chosen)
            await answer(interaction, t(f"game.alerts_{chosen}", lang_of(interaction.locale)))

        await self._run(interaction, job)

    # a command of its own: /mahjong already has Discord's 25 subcommands
    @app_commands.command(
        name=locale_str("mahjong-language"),
        description=locale_str("The language of your hand and alerts (default: the server's)"),
    )
    @app_commands.describe(language=locale_str("Your language, or follow the server's"))
    @app_commands.choices(
        language=[
            *(Choice(name=LANGUAGE_NAMES[code], value=code) for code in LOCALES),
            Choice(name=locale_str("follow the server"), value="server"),
        ]
    )
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        """Choose the language of this user's private game texts (saved; see
        :meth:`cogs.delivery.preferences.Preferences.lang_for_player`)."""

        async def job() -> None:
            chosen = language if language in LOCALES else None
            await self.store.players.upsert(interaction.user.id, language=chosen or "")
            self.delivery.preferences.set_user_language(interaction.user.id, chosen)
            if chosen is None:
                said = t("game.language_server", lang_of(interaction.locale))
            else:
                said = t("game.language_set", chosen, language=LANGUAGE_NAMES[chosen])
            await answer(interaction, said)

        await self._run(interaction, job)

    @mahjong.command(
        name=locale_str("pictures"),
        description=locale_str(
            "Pictures for you (hand, leaderboard, stats chart): on/off; text is always there",
        ),
    )
    @app_commands.describe(on=locale_str("on = pictures and text; off = text only"))
    async def pictures(self, interaction: discord.Interaction, on: bool | None = None) -> None:
        """Turn pictures in this user's private messages on or off; without ``on`` it toggles."""

        async def job() -> None:
            delivery = delivery_of(interaction.client)
            user_id = interaction.user.id
            want = not await delivery.preferences.images_for_user(user_id) if on is None else on
            await self.store.players.upsert(user_id, prefers_images=want)
            delivery.preferences.set_user_images(user_id, want)
            await answer(
                interaction,
                t("game.pictures_on" if want else "game.pictures_off", lang_of(interaction.locale)),
            )

        await self._run(interaction, job)

    @mahjong.command(
        name=locale_str("abandon"),
        description=locale_str(
            "Abandon this channel's game (host or Manage Server)",
        ),
    )
    async def abandon(self, interaction: discord.Interaction) -> None:
        async def job() -> None:
            # Manage Server in this channel, as Discord computed it for this interaction
            game = await self.service.abandon(
                self._game_here(interaction),
                interaction.user.id,
                admin=is_manager(interaction),
            )
            # a started game ends early by a vote: the host's abandon proposes 解散
            key = "session.vote_needed" if game.status == "active" else "game.abandoned"
            await answer(interaction, t(key, lang_of(interaction.locale)))

        await self._run(interaction, job)

    @admin.command(
        name=locale_str("end"),
        description=locale_str(
            "End this channel's game, whoever hosts it (Manage Server)",
        ),
    )
    async def admin_end(self, interaction: discord.Interaction) -> None:
        require_manager(interaction)  # the group checks too; this command must never skip it

        async def job() -> None:
            await self.service.abandon(
                self._game_here(interaction), interaction.user.id, admin=True
            )
            await answer(interaction, t("game.abandoned", lang_of(interaction.locale)))

        await self._run(interaction, job)

    # -- rules and settings

    @mahjong.command(
        name=locale_str("rules"),
        description=locale_str("Show the rule options in use"),
    )
    @app_commands.describe(variant=locale_str("A variant (default: this server's)"))
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def rules(self, interaction: discord.Interaction, variant: str | None = None) -> None:
        lang = lang_of(interaction.locale)
        settings = None
        if interaction.guild_id is not None:
            settings = await self.store.guilds.settings(interaction.guild_id)
        chosen = variant or (settings.default_variant if settings else variants.default().name)
        values = dict(settings.rule_options.get(chosen, {})) if settings else {}
        embed = discord.Embed(
            title=f"{variant_name(chosen, lang)} · {t('game.rules', lang)}",
            description=rules_text(chosen, values, lang)[:4000],
            colour=discord.Colour.dark_green(),
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @admin.command(
        name=locale_str("config"),
        description=locale_str("Server settings (Manage Server)"),
    )
    @app_commands.describe(
        variant=locale_str("Default variant"),
        options=locale_str("Default rule options of that variant, name=value"),
        turn_timeout=locale_str("Seconds per turn"),
        claim_timeout=locale_str("Seconds per claim window"),
        hints=locale_str("Wait hints (听牌提示)"),
        language=locale_str("Language of public messages"),
        thread=locale_str(
            "Play each game in its own thread (when the bot may create one)",
        ),
        ai_pace=locale_str(
            "Seconds between two AI moves shown while a human plays (0 = at once)",
        ),
        length=locale_str("A new game's length: hands or rounds (圈)"),
        ready_timeout=locale_str("Seconds to press Ready (准备) between hands"),
        vote_timeout=locale_str("Seconds to answer a vote to end the game (解散)"),
    )
    @app_commands.choices(
        length=LENGTH_CHOICES,
        variant=VARIANT_CHOICES,
        language=[Choice(name=LANGUAGE_NAMES[code], value=code) for code in SERVER_LANGUAGES],
    )
    async def config(
        self,
        interaction: discord.Interaction,
        variant: str | None = None,
        options: str | None = None,
        turn_timeout: app_commands.Range[int, 5, 3600] | None = None,
        claim_timeout: app_commands.Range[int, 3, 600] | None = None,
        hints: bool | None = None,
        language: str | None = None,
        thread: bool | None = None,
        ai_pace: app_commands.Range[float, 0.0, 5.0] | None = None,
        length: str | None = None,
        ready_timeout: app_commands.Range[int, 3, 3600] | None = None,
        vote_timeout: app_commands.Range[int, 3, 3600] | None = None,
    ) -> None:
        lang = lang_of(interaction.locale)
        if interaction.guild_id is None:
            await answer(interaction, t("errors.guild_only", lang))
            return
        if not is_manager(interaction):  # the group refuses first; never skip it here
            await answer(interaction, t("errors.manage_only", lang))
            return
        store = self.store
        current = await store.guilds.settings(interaction.guild_id)
        changes: dict[str, Any] = {}
        if variant is not None:
            changes["default_variant"] = variant
        if options is not None:
            target = variant or current.default_variant
            try:
                merged = {**current.rule_options.get(target, {}), **parse_options(options)}
                clean = options_to_dict(make_options(target, merged))
            except (OptionError, BadOption) as error:
                refusal = error if isinstance(error, BadOption) else BadOption(reason_of(error))
                await answer(interaction, refusal_text(refusal, lang))
                return
            changes["rule_options"] = {**current.rule_options, target: clean}
        for name, value in (
            ("turn_timeout", turn_timeout),
            ("claim_timeout", claim_timeout),
            ("hints", hints),
            ("language", language),
            ("thread", thread),
            ("ai_pace", ai_pace),
            ("length", length),
            ("ready_timeout", ready_timeout),
            ("vote_timeout", vote_timeout),
        ):
            if value is not None:
                changes[name] = value
        if changes:
            try:
                current = await store.guilds.update_settings(interaction.guild_id, **changes)
            except ValueError as error:  # the store refuses what no check above caught
                await answer(interaction, refusal_text(BadOption(reason_of(error)), lang))
                return
            self.delivery.preferences.forget_guild_language(interaction.guild_id)
        lines = settings_lines(current, self.service.ai_pace, lang)
        embed = discord.Embed(
            title=t("game.config_title", lang),
            description="\n".join(lines),
            colour=discord.Colour.dark_green(),
        )
        text = t("game.config_saved", lang) if changes else t("game.config_title", lang)
        await interaction.response.send_message(text, embed=embed, ephemeral=True)


async def setup(bot: MahjongBot) -> None:
    """Extension entry point: add the cog over the bot's game service (games resume once
    the bot is ready; its buttons are routed by :meth:`Game.on_interaction`)."""
    await bot.add_cog(Game(bot))


__all__ = ["Game", "WrongPhase", "handle_button", "parse_options", "setup"]
