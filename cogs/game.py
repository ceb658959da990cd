"""The game commands (``/mahjong new|join|leave|addbot|start|hand|status|autoplay|abandon|
rules|config``) and the handler of every game button.

All game logic is in :class:`services.game.GameService`; this module turns Discord
interactions into service calls and refusals into short ephemeral answers. Every interaction
is answered after the service call returned (the action is committed by then).
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands

from cogs import pictures
from cogs.checks import (
    bot_missing_text,
    clip,
    is_manager,
    missing_game_permissions,
    require_manager,
)
from cogs.delivery import DiscordDelivery
from cogs.group import admin, bind_cog_commands, mahjong
from cogs.session import LENGTH_CHOICES, SESSION_KINDS, handle_session_button
from cogs.text import lang_of, t, table_lines, variant_name
from cogs.views import (
    CUSTOM_ID,
    HAND_KINDS,
    GameButton,
    error_text,
    hand_message,
    picker_message,
    rules_text,
    seen_version,
)
from engine.options import VARIANTS, OptionError, make_options, options_to_dict
from services.engine_adapter import default_engine
from services.errors import BadOption, NoSuchGame, ServiceError, StaleButton, WrongPhase
from services.game import GameService
from services.model import ActionKey

log = logging.getLogger(__name__)

VARIANT_CHOICES = [
    Choice(name=locale_str("Shangrao 上饶", zh="上饶麻将"), value="shangrao"),
    Choice(name=locale_str("Xinyu 新余", zh="新余麻将"), value="xinyu"),
    Choice(name=locale_str("Jiujiang 九江", zh="九江麻将"), value="jiujiang"),
]
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
        raise BadOption(f"options text is longer than {MAX_OPTIONS_TEXT} characters")
    out: dict[str, str] = {}
    for part in re.split(r"[,;\s]+(?=[a-z_]+\s*[=:])", text.strip()):
        if not part.strip():
            continue
        m = OPTION_RX.match(part.strip().rstrip(",;"))
        if m is None:
            raise BadOption(
                f"cannot read {part.strip()[:40]!r}: write name=value, e.g. scoring=xingchen"
            )
        out[m.group(1)] = m.group(2)
    return out


def service_of(client: discord.Client) -> GameService:
    return client.game_service  # type: ignore[attr-defined]


def delivery_of(client: discord.Client) -> DiscordDelivery:
    return client.game_delivery  # type: ignore[attr-defined]


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
    """Route one button press (see :mod:`cogs.views` for the actions)."""
    svc = service_of(interaction.client)
    lang = lang_of(interaction.locale)
    user = interaction.user
    delivery_of(interaction.client).note_user(user.id, interaction.locale)
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
            await answer(interaction, t("stale", lang))
    except ServiceError as error:
        await answer(interaction, error_text(error, lang, button=True))
    except Exception:
        ref = secrets.token_hex(3)
        log.exception("button %s:%s:%s by %s failed (ref %s)", game_id, kind, arg, user.id, ref)
        await answer(interaction, t("failed", lang, ref=ref))


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
        text, view = picker_message(game, update, kind, lang)
        await interaction.response.send_message(text, view=view, ephemeral=True)
        return
    seen = seen_version(interaction.message)
    message = interaction.message
    is_hand_message = seen is not None
    try:
        result = await svc.act(game_id, user.id, ActionKey(kind, arg), seen_version=seen)
    except StaleButton:
        if not is_hand_message:
            raise
        await _refresh_stale(interaction, svc, game_id, lang)
        return
    if result.hand is not None and is_hand_message:
        embed, view = hand_message(result.game, result.hand, lang)
        delivery = delivery_of(interaction.client)
        live = delivery.is_live_hand_message(game_id, user.id, message)
        shown = (result.game.version, result.hand.hand)
        if live:
            delivery.note_rendered(game_id, user.id, *shown)

        def still_current() -> bool:  # no newer hand reached this message meanwhile
            return not live or delivery.rendered.get((game_id, user.id)) == shown

        await _redraw_hand(interaction, embed, view, result.hand.hand, still_current)
        if live:
            _renew_ephemeral(interaction, game_id)
    elif message is not None and message.flags.ephemeral:
        await interaction.response.edit_message(content=t("acted", lang), view=None)
    else:
        await interaction.response.defer()


#: pictures that follow an answer given without them (kept referenced until done)
_LATE_PICTURES: set[asyncio.Task[None]] = set()


async def _redraw_hand(
    interaction: discord.Interaction,
    embed: discord.Embed,
    view: Any,
    hand: Any,
    still_current: Any = None,
) -> None:
    """Answer a press by editing the pressed hand message; a message that carried a picture
    gets the new picture (a text-only one stays text).

    The picture is rendered off the loop, before any DM or table picture; when it is not
    ready within :data:`cogs.pictures.ANSWER_PICTURE_BUDGET` the press is acknowledged at
    once (it is committed) and the picture follows, unless ``still_current()`` says a newer
    hand reached the message meanwhile."""
    message = interaction.message
    if message is None or not message.attachments:
        await interaction.response.edit_message(embed=embed, view=view)
        return
    if not pictures.ENABLED:
        await interaction.response.edit_message(embed=embed, view=view, attachments=[])
        return
    png = await pictures.hand_png(hand, urgent=True, budget=pictures.ANSWER_PICTURE_BUDGET)
    if png is not None:
        files = pictures.files_of(png, "hand.png")
        embed.set_image(url=f"attachment://{files[0].filename}")
        await interaction.response.edit_message(embed=embed, view=view, attachments=files)
        return
    await interaction.response.defer()  # answered; the picture follows
    task = asyncio.create_task(_picture_later(interaction, embed, view, hand, still_current))
    _LATE_PICTURES.add(task)
    task.add_done_callback(_LATE_PICTURES.discard)


async def _picture_later(
    interaction: discord.Interaction, embed: discord.Embed, view: Any, hand: Any, current: Any
) -> None:
    png = await pictures.hand_png(hand, urgent=True, budget=None)
    if current is not None and not current():
        return
    files = pictures.files_of(png, "hand.png")
    if files:
        embed.set_image(url=f"attachment://{files[0].filename}")
    try:
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
        await answer(interaction, t("stale", lang))
        return
    embed, view = hand_message(game, update, lang)
    message = interaction.message
    await _redraw_hand(interaction, embed, view, update.hand)
    if delivery_of(interaction.client).is_live_hand_message(game_id, interaction.user.id, message):
        _renew_ephemeral(interaction, game_id)
    await answer(interaction, t("stale_redrawn", lang))


def _renew_ephemeral(interaction: discord.Interaction, game_id: int) -> None:
    """A press on a closed-DM player's ephemeral hand reply, answered by editing it: this
    interaction's fresh token edits the same reply for another 15 minutes, so the delivery
    keeps it instead of the older one."""
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        delivery_of(interaction.client).remember_ephemeral(
            game_id, interaction.user.id, interaction
        )


async def show_hand(interaction: discord.Interaction, game_id: int) -> None:
    """The user's hand as an ephemeral reply (the path for closed DMs, and a quick look)."""
    svc = service_of(interaction.client)
    lang = lang_of(interaction.locale)
    update = await svc.private_view(game_id, interaction.user.id)
    game = await svc.summary(game_id)
    embed, view = hand_message(game, update, lang)
    if view is None:
        await interaction.response.send_message(embed=embed, ephemeral=True)
    else:
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)
    delivery_of(interaction.client).remember_ephemeral(game_id, interaction.user.id, interaction)


# ---------------------------------------------------------------------------- commands


class Game(commands.Cog):
    """Lobby and play commands on the shared ``/mahjong`` group."""

    def __init__(
        self,
        bot: commands.Bot,
        service: GameService,
        delivery: DiscordDelivery,
        *,
        owns_store: bool = False,
    ) -> None:
        self.bot = bot
        self.service = service
        self.delivery = delivery
        self._owns_store = owns_store
        self._resume_task: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        bind_cog_commands(self)
        self._resume_task = asyncio.create_task(self._resume(), name="mj-resume")

    async def cog_unload(self) -> None:
        if self._resume_task is not None:
            self._resume_task.cancel()
            # let it unwind (and give its database connection back) before the store closes
            await asyncio.gather(self._resume_task, return_exceptions=True)
        await self.service.close()
        await self.delivery.close()
        await pictures.close_pool()
        if self._owns_store:
            await self.service.store.close()  # type: ignore[attr-defined]

    async def _resume(self) -> None:
        await self.bot.wait_until_ready()
        try:
            games = await self.service.resume_all()
            log.info("Resumed %d unfinished game(s)", len(games))
        except Exception:
            log.exception("resuming games failed")

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A game button that is not on its message (forged, or from a client showing an old
        version) is not routed by discord.py at all: answer it as stale, changing nothing.

        Every interaction also tells the delivery Discord's time (its id) and the bot's
        permissions in the channel (may it open a thread there?)."""
        self.delivery.note_snowflake(interaction.id)
        if interaction.guild_id is not None and interaction.channel_id is not None:
            self.delivery.note_permissions(interaction.channel_id, interaction.app_permissions)
        if interaction.type is not discord.InteractionType.component:
            return
        data = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if not GAME_ID_RX.fullmatch(custom_id) or interaction.message is None:
            return
        present = {
            getattr(item, "custom_id", None)
            for item in discord.ui.View.from_message(interaction.message, timeout=None).children
        }
        if custom_id not in present:
            await answer(interaction, t("stale", lang_of(interaction.locale)))

    # -- helpers

    def _game_here(self, interaction: discord.Interaction) -> int:
        game_id = self.service.game_in_channel(interaction.channel_id or 0)
        if game_id is None:
            raise NoSuchGame()
        return game_id

    def _my_game(self, interaction: discord.Interaction) -> int:
        if interaction.guild_id is not None:
            mine = self.service.game_of_player(interaction.guild_id, interaction.user.id)
            if mine is not None:
                return mine
        return self._game_here(interaction)

    async def _run(self, interaction: discord.Interaction, job: Any) -> None:
        self.delivery.note_user(interaction.user.id, interaction.locale)
        try:
            await job()
        except ServiceError as error:
            await answer(interaction, error_text(error, lang_of(interaction.locale)))

    async def _guild_only(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            await answer(interaction, t("guild_only", lang_of(interaction.locale)))
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
        name=locale_str("new", zh="新局"),
        description=locale_str("Open a new game in this channel", zh="在本频道开一局新游戏"),
    )
    @app_commands.describe(
        variant=locale_str(
            "Which Jiangxi variant (default: the server's)", zh="玩法（默认为服务器设置）"
        ),
        options=locale_str(
            "House rules, e.g. scoring=xingchen discard_win=true",
            zh="规则选项，如 scoring=xingchen discard_win=true",
        ),
        length=locale_str(
            "How long: hands, or rounds (圈) (default: the server's)",
            zh="局数：几局或几圈（默认为服务器设置）",
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
            await answer(interaction, t("created", lang_of(interaction.locale)))

        await self._run(interaction, job)

    @mahjong.command(
        name=locale_str("join", zh="加入"),
        description=locale_str("Join the game in this channel", zh="加入本频道的对局"),
    )
    async def join(self, interaction: discord.Interaction) -> None:
        async def job() -> None:
            await self.service.join(
                self._game_here(interaction), interaction.user.id, display_name(interaction.user)
            )
            await answer(interaction, t("acted", lang_of(interaction.locale)))

        await self._run(interaction, job)

    @mahjong.command(
        name=locale_str("leave", zh="离开"),
        description=locale_str("Leave the lobby", zh="离开等待中的对局"),
    )
    async def leave(self, interaction: discord.Interaction) -> None:
        async def job() -> None:
            await self.service.leave(self._game_here(interaction), interaction.user.id)
            await answer(interaction, t("acted", lang_of(interaction.locale)))

        await self._run(interaction, job)

    @mahjong.command(
        name=locale_str("addbot", zh="加电脑"),
        description=locale_str("Fill a seat with an AI player", zh="用电脑玩家补一个座位"),
    )
    async def addbot(self, interaction: discord.Interaction) -> None:
        async def job() -> None:
            await self.service.add_bot(self._game_here(interaction), interaction.user.id)
            await answer(interaction, t("acted", lang_of(interaction.locale)))

        await self._run(interaction, job)

    @mahjong.command(
        name=locale_str("start", zh="开始"),
        description=locale_str(
            "Start the game (empty seats get AI players)", zh="开始对局（空位由电脑补上）"
        ),
    )
    async def start(self, interaction: discord.Interaction) -> None:
        if not await self._bot_may_play_here(interaction):
            return

        async def job() -> None:
            await self.service.start(self._game_here(interaction), interaction.user.id)
            await answer(interaction, t("started", lang_of(interaction.locale)))

        await self._run(interaction, job)

    # -- play

    @mahjong.command(
        name=locale_str("hand", zh="手牌"),
        description=locale_str("Show your tiles privately", zh="私下查看你的手牌"),
    )
    async def hand(self, interaction: discord.Interaction) -> None:
        async def job() -> None:
            await show_hand(interaction, self._my_game(interaction))

        await self._run(interaction, job)

    @mahjong.command(
        name=locale_str("status", zh="状态"),
        description=locale_str("Show the table of this channel's game", zh="查看本频道对局的牌桌"),
    )
    async def status(self, interaction: discord.Interaction) -> None:
        async def job() -> None:
            lang = lang_of(interaction.locale)
            game_id = self._game_here(interaction)
            game = await self.service.summary(game_id)
            table = await self.service.table(game_id)
            if table is None:
                seats = "、".join(s.name for s in game.seats)
                text = f"{variant_name(game.variant, lang)} · {seats}"
            else:
                text = "\n".join(
                    table_lines(
                        table,
                        [s.name for s in game.seats],
                        game.totals,
                        [s.auto for s in game.seats],
                        lang,
                        deadline=game.deadline,
                    )
                )
            await answer(interaction, text[:2000])

        await self._run(interaction, job)

    @mahjong.command(
        name=locale_str("autoplay", zh="托管"),
        description=locale_str("Let the AI play for you (on/off)", zh="开启或取消托管"),
    )
    @app_commands.describe(
        on=locale_str("on = the AI plays for you; off = you play", zh="开 = 电脑代打；关 = 自己打")
    )
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
                t("autoplay_on" if want else "autoplay_off", lang_of(interaction.locale)),
            )

        await self._run(interaction, job)

    @mahjong.command(
        name=locale_str("alerts", zh="提醒"),
        description=locale_str(
            "Turn alerts for you: on (turns and claims), claims (claims only) or off",
            zh="出牌提醒：开（出牌和吃碰杠胡）、只提醒吃碰杠胡、关",
        ),
    )
    @app_commands.describe(
        mode=locale_str(
            "on = a short DM for every decision; claims = only when you may claim; off = none",
            zh="开 = 每次需要你决定时私信提醒；吃碰杠胡 = 只在可以吃碰杠胡时提醒；关 = 不提醒",
        )
    )
    @app_commands.choices(
        mode=[
            Choice(name=locale_str("on", zh="开"), value="on"),
            Choice(name=locale_str("claims only", zh="只提醒吃碰杠胡"), value="claims"),
            Choice(name=locale_str("off", zh="关"), value="off"),
        ]
    )
    async def alerts(self, interaction: discord.Interaction, mode: str) -> None:
        """Choose this user's turn alerts (saved; see :mod:`cogs.alerts`)."""

        async def job() -> None:
            chosen = mode if mode in ("on", "claims", "off") else "on"
            await self.service.store.upsert_player(interaction.user.id, alerts=chosen)
            self.delivery.set_user_alerts(interaction.user.id, chosen)
            await answer(interaction, t(f"alerts_{chosen}", lang_of(interaction.locale)))

        await self._run(interaction, job)

    @mahjong.command(
        name=locale_str("pictures", zh="图片"),
        description=locale_str(
            "Pictures for you (hand, leaderboard, stats chart): on/off; text is always there",
            zh="给你看的图片（手牌、排行榜、统计图）开/关；文字始终显示",
        ),
    )
    @app_commands.describe(
        on=locale_str(
            "on = pictures and text; off = text only", zh="开 = 图片和文字；关 = 只有文字"
        )
    )
    async def pictures(self, interaction: discord.Interaction, on: bool | None = None) -> None:
        """Turn pictures in this user's private messages on or off; without ``on`` it toggles."""

        async def job() -> None:
            delivery = delivery_of(interaction.client)
            user_id = interaction.user.id
            want = not await delivery.images_for_user(user_id) if on is None else on
            await self.service.store.upsert_player(user_id, prefers_images=want)
            delivery.set_user_images(user_id, want)
            await answer(
                interaction,
                t("pictures_on" if want else "pictures_off", lang_of(interaction.locale)),
            )

        await self._run(interaction, job)

    @mahjong.command(
        name=locale_str("abandon", zh="放弃"),
        description=locale_str(
            "Abandon this channel's game (host or Manage Server)",
            zh="放弃本频道的对局（房主或管理员）",
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
            key = "vote_needed" if game.status == "active" else "abandoned"
            await answer(interaction, t(key, lang_of(interaction.locale)))

        await self._run(interaction, job)

    @admin.command(
        name=locale_str("end", zh="结束对局"),
        description=locale_str(
            "End this channel's game, whoever hosts it (Manage Server)",
            zh="结束本频道的对局，不论房主是谁（需管理服务器权限）",
        ),
    )
    async def admin_end(self, interaction: discord.Interaction) -> None:
        require_manager(interaction)  # the group checks too; this command must never skip it

        async def job() -> None:
            await self.service.abandon(
                self._game_here(interaction), interaction.user.id, admin=True
            )
            await answer(interaction, t("abandoned", lang_of(interaction.locale)))

        await self._run(interaction, job)

    # -- rules and settings

    @mahjong.command(
        name=locale_str("rules", zh="规则"),
        description=locale_str("Show the rule options in use", zh="查看当前规则选项"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def rules(self, interaction: discord.Interaction, variant: str | None = None) -> None:
        lang = lang_of(interaction.locale)
        settings = None
        if interaction.guild_id is not None:
            settings = await self.service.store.get_guild_settings(interaction.guild_id)
        chosen = variant or (settings.default_variant if settings else "shangrao")
        values = dict(settings.rule_options.get(chosen, {})) if settings else {}
        embed = discord.Embed(
            title=f"{variant_name(chosen, lang)} · {t('rules', lang)}",
            description=rules_text(chosen, values, lang)[:4000],
            colour=discord.Colour.dark_green(),
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @admin.command(
        name=locale_str("config", zh="设置"),
        description=locale_str(
            "Server settings (Manage Server)", zh="服务器设置（需管理服务器权限）"
        ),
    )
    @app_commands.describe(
        variant=locale_str("Default variant", zh="默认玩法"),
        options=locale_str(
            "Default rule options of that variant, name=value", zh="该玩法的默认规则，name=value"
        ),
        turn_timeout=locale_str("Seconds per turn", zh="每回合秒数"),
        claim_timeout=locale_str("Seconds per claim window", zh="吃碰杠胡等待秒数"),
        hints=locale_str("Wait hints (听牌提示)", zh="听牌提示"),
        language=locale_str("Language of public messages", zh="公开消息的语言"),
        thread=locale_str(
            "Play each game in its own thread (when the bot may create one)",
            zh="每局在单独的子区中进行（机器人有权限时）",
        ),
        ai_pace=locale_str(
            "Seconds between two AI moves shown while a human plays (0 = at once)",
            zh="有真人玩家时，电脑每步之间的秒数（0 = 立即）",
        ),
        length=locale_str("A new game's length: hands or rounds (圈)", zh="新对局的局数或圈数"),
        ready_timeout=locale_str(
            "Seconds to press Ready (准备) between hands", zh="每局之间按「准备」的秒数"
        ),
        vote_timeout=locale_str(
            "Seconds to answer a vote to end the game (解散)", zh="解散投票的秒数"
        ),
    )
    @app_commands.choices(
        length=LENGTH_CHOICES,
        variant=VARIANT_CHOICES,
        language=[
            Choice(name="中文", value="zh"),
            Choice(name="English", value="en"),
            Choice(name="中文 + English", value="zh+en"),
        ],
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
            await answer(interaction, t("guild_only", lang))
            return
        if not is_manager(interaction):  # the group refuses first; never skip it here
            await answer(interaction, t("manage_only", lang))
            return
        store = self.service.store
        current = await store.get_guild_settings(interaction.guild_id)
        changes: dict[str, Any] = {}
        if variant is not None:
            changes["default_variant"] = variant
        if options is not None:
            target = variant or current.default_variant
            try:
                merged = {**current.rule_options.get(target, {}), **parse_options(options)}
                clean = options_to_dict(make_options(target, merged))
            except (OptionError, BadOption) as error:
                await answer(interaction, t("bad_option", lang, detail=clip(str(error), 300)))
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
                current = await store.update_guild_settings(interaction.guild_id, **changes)
            except ValueError as error:  # the store refuses what no check above caught
                await answer(interaction, t("bad_option", lang, detail=clip(str(error), 300)))
                return
            self.delivery.forget_guild_language(interaction.guild_id)
        lines = [
            f"default_variant = {current.default_variant}",
            f"turn_timeout = {current.turn_timeout}",
            f"claim_timeout = {current.claim_timeout}",
            f"hints = {str(current.hints).lower()}",
            f"language = {current.language}",
            f"thread = {str(current.thread).lower()}",
            "ai_pace = "
            + (
                f"{getattr(self.service, 'ai_pace', 0.0):g} (default)"
                if current.ai_pace is None
                else f"{current.ai_pace:g}"
            ),
            f"length = {current.length}",
            f"ready_timeout = {current.ready_timeout}",
            f"vote_timeout = {current.vote_timeout}",
        ]
        for v in VARIANTS:
            if current.rule_options.get(v):
                lines.append(
                    f"{v}: " + ", ".join(f"{k}={val}" for k, val in current.rule_options[v].items())
                )
        embed = discord.Embed(
            title=t("config_title", lang),
            description="\n".join(lines),
            colour=discord.Colour.dark_green(),
        )
        text = t("config_saved", lang) if changes else t("config_title", lang)
        await interaction.response.send_message(text, embed=embed, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: open the store, build the service and its Discord delivery,
    register the persistent buttons, add the cog (games resume once the bot is ready)."""
    from db.store import Store

    settings = getattr(bot, "settings", None)
    store = getattr(bot, "store", None)
    owns = store is None
    if store is None:
        url = getattr(settings, "database_url", None)
        store = await Store.open(url)
        bot.store = store  # type: ignore[attr-defined]
    from cogs import pictures

    pictures.ENABLED = bool(getattr(settings, "mahjong_pictures", pictures.ENABLED))
    pictures.start_pool()  # the worker processes that render pictures off the event loop
    delivery = DiscordDelivery(
        bot, ephemeral_lifetime=getattr(settings, "ephemeral_lifetime_seconds", None)
    )
    service = GameService(
        store,
        default_engine(),
        delivery,
        turn_timeout=float(getattr(settings, "turn_timeout_seconds", 60)),
        claim_timeout=float(getattr(settings, "claim_timeout_seconds", 15)),
        ai_pace=float(getattr(settings, "ai_pace_seconds", 0.0)),
    )
    service.ready_timeout = float(getattr(settings, "ready_timeout_seconds", 60))
    service.vote_timeout = float(getattr(settings, "vote_timeout_seconds", 60))
    delivery.service = service
    bot.game_service = service  # type: ignore[attr-defined]
    bot.game_delivery = delivery  # type: ignore[attr-defined]
    bot.add_dynamic_items(GameButton)
    await bot.add_cog(Game(bot, service, delivery, owns_store=owns))


__all__ = ["Game", "WrongPhase", "handle_button", "parse_options", "setup"]
