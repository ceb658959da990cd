"""The scoring desk: ``/mahjong score`` (value a hand played with real tiles) and
``/mahjong record`` (record one into the server's leaderboard, confirmed by all four).

Discord only: the options go to :mod:`services.desk` / :mod:`services.records` and the answers
come back as an embed with the hand picture. Record buttons are ``DynamicItem``\\s with the
custom_id ``mj:rec:<record id>:<confirm|void>``, registered at start-up, so they keep working
after a restart. A background sweep marks records past their time as expired and updates
their message.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import os
import re
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands

from cogs.desk_text import (
    STATUS_ZH,
    answer_title,
    context_lines,
    input_error_text,
    item_line,
    mention,
    payment_lines,
    player_lines,
    record_lines,
    status_text,
    t,
    total_line,
)
from cogs.group import bind_cog_commands, mahjong
from db.types import PhysicalRecordInfo
from engine.notation import format_hand
from engine.options import OPTION_CLASSES, VARIANT_NAMES, VARIANTS
from render import render_hand
from render.models import HandPicture, MeldView
from services.desk import (
    FLAG_NAMES,
    HAND_EXAMPLE_LIST,
    VARIANT_WORDS,
    DeskAnswer,
    DeskInputError,
    DeskQuery,
    read_hand,
    score_desk,
)
from services.records import (
    DEFAULT_EXPIRY,
    RecordError,
    RecordNotPending,
    RecordReport,
    RecordService,
    attach_message,
    message_of,
    waiting_for,
)

log = logging.getLogger(__name__)

RECORD_ID = r"mj:rec:(?P<rid>[0-9]{1,20}):(?P<action>confirm|void)"
FLAG_OPTIONS = (
    "heaven",
    "earth",
    "last_tile",
    "touji",
    "ready_declared",
    "four_bao",
    "jiebao",
    "dealer",
)
WIN_CHOICES = [
    Choice(name=locale_str("自摸 self-draw", zh="自摸"), value="self"),
    Choice(name=locale_str("点炮 won on a discard", zh="点炮"), value="discard"),
    Choice(name=locale_str("抢杠 robbed a kong", zh="抢杠"), value="rob_kong"),
]
HOW_CHOICES = [*WIN_CHOICES, Choice(name=locale_str("流局 drawn hand", zh="流局"), value="draw")]
COLOUR_WIN = discord.Colour.dark_green()
COLOUR_NO = discord.Colour.dark_red()
COLOUR_PENDING = discord.Colour.gold()


def lang_of(locale: Any) -> str:
    """``zh`` for a Chinese Discord locale, else ``en``."""
    return "zh" if str(locale or "").startswith("zh") else "en"


def guild_lang(language: str | None) -> str:
    """The server's ``language`` setting as ``zh`` / ``en``."""
    return "en" if language == "en" else "zh"


# ----------------------------------------------------------------------------- pictures


def hand_picture(answer: DeskAnswer) -> HandPicture:
    """The winning hand: concealed tiles with the winning tile set apart, melds, the 宝."""
    ctx = answer.context
    concealed = list(ctx.hand.concealed)
    winning = ctx.hand.winning
    if winning is not None and winning in concealed:
        concealed.remove(winning)
    melds = tuple(MeldView(m.kind.value, m.tiles) for m in ctx.hand.melds)  # type: ignore[arg-type]
    return HandPicture(
        concealed=tuple(concealed),
        drawn=winning,
        melds=melds,
        bao=ctx.bao,
        flowers=ctx.flowers,
    )


def answer_embed(answer: DeskAnswer, lang: str) -> discord.Embed:
    """The calculator's answer: items with values, the total and who pays; or why not."""
    embed = discord.Embed(
        title=answer_title(answer, lang),
        description="\n".join(context_lines(answer, lang)),
        colour=COLOUR_WIN if answer.legal else COLOUR_NO,
    )
    items = "\n".join(item_line(i) for i in answer.items) or t("no_items", lang)
    embed.add_field(name=t("items", lang), value=items[:1024], inline=False)
    if answer.legal:
        embed.add_field(
            name=t("total", lang), value=total_line(answer.points, answer.unit, lang), inline=False
        )
        embed.add_field(
            name=t("payments", lang),
            value="\n".join(payment_lines(answer, lang))[:1024],
            inline=False,
        )
    else:
        embed.add_field(name=t("why", lang), value=(answer.reason or "—")[:1024], inline=False)
    return embed


# ----------------------------------------------------------------------------- records


def record_embed(record: PhysicalRecordInfo, lang: str) -> discord.Embed:
    """A record: players with their change and whether they confirmed, the result, status."""
    colour = {"pending": COLOUR_PENDING, "confirmed": COLOUR_WIN}.get(record.status, COLOUR_NO)
    embed = discord.Embed(
        title=t("record_title", lang, id=record.id),
        description=status_text(record.status, record.expires_at, lang)
        + "\n"
        + t("reported_by", lang, who=mention(record.reporter_id)),
        colour=colour,
    )
    deltas = [p.delta for p in sorted(record.hand.players, key=lambda p: p.seat)]
    embed.add_field(
        name=t("players", lang),
        value="\n".join(player_lines(record.player_ids, record.confirmations, deltas, lang)),
        inline=False,
    )
    embed.add_field(
        name=f"{t('result', lang)} · {VARIANT_NAMES[record.hand.variant][0 if lang != 'en' else 1]}",
        value="\n".join(record_lines(record.hand, record.payload, lang))[:1024],
        inline=False,
    )
    if record.hand.items:
        items = "\n".join(item_line(i) for i in record.hand.items if isinstance(i, dict))
        embed.add_field(name=t("items", lang), value=items[:1024] or "—", inline=False)
    embed.set_footer(text=f"#{record.id}")
    return embed


class RecordButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=RECORD_ID):
    """Confirm or void a record; routes to :func:`handle_record_button`."""

    def __init__(
        self,
        record_id: int,
        action: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        self.record_id = record_id
        self.action = action
        super().__init__(
            discord.ui.Button(
                label=(label or action)[:80],
                style=style,
                custom_id=f"mj:rec:{record_id}:{action}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button[Any],
        match: re.Match[str],
    ) -> RecordButton:
        return cls(int(match["rid"]), match["action"], label=item.label, style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle_record_button(interaction, self.record_id, self.action)


def record_view(record: PhysicalRecordInfo, lang: str) -> discord.ui.View:
    """Confirm (while pending) and Void (until void) buttons."""
    view = discord.ui.View(timeout=None)
    if record.status == "pending":
        view.add_item(
            RecordButton(
                record.id, "confirm", label=t("confirm", lang), style=discord.ButtonStyle.success
            )
        )
    if record.status in ("pending", "confirmed"):
        view.add_item(
            RecordButton(record.id, "void", label=t("void", lang), style=discord.ButtonStyle.danger)
        )
    return view


def warm_up() -> None:
    """Import every variant's scorer and build the picture palette now, so the first
    ``/mahjong score`` answers as fast as the others."""
    import engine.scoring.jiujiang
    import engine.scoring.shangrao
    import engine.scoring.xinyu  # noqa: F401
    from render import warm_up as warm_render

    warm_render()


def desk_of(client: discord.Client) -> Desk:
    cog = client.get_cog("Desk")  # type: ignore[attr-defined]
    assert isinstance(cog, Desk)
    return cog


def record_error_text(error: RecordError, lang: str) -> str:
    if isinstance(error, RecordNotPending):
        return t(
            "record_closed", lang, status=error.status, status_zh=STATUS_ZH.get(error.status, "")
        )
    params = {k: v for k, v in error.params.items() if k not in ("detail",)}
    params.setdefault("field", "")
    return t(error.key, lang, detail=error.detail, **params)


async def _ephemeral(interaction: discord.Interaction, text: str) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def handle_record_button(
    interaction: discord.Interaction, record_id: int, action: str
) -> None:
    """Confirm: a named player's confirmation (the last one counts the hand, once).
    Void: an admin with Manage Server. The message is redrawn with the new state."""
    desk = desk_of(interaction.client)
    lang = lang_of(interaction.locale)
    glang = await desk.guild_lang(interaction.guild_id)
    try:
        if action == "confirm":
            outcome = await desk.records.confirm(record_id, interaction.user.id)
            if outcome.repeated and not outcome.counted_now:
                await _ephemeral(interaction, t("already_confirmed", lang))
                return
            record = outcome.record
        else:
            perms = interaction.permissions
            is_admin = bool(perms.manage_guild or perms.administrator)
            record = await desk.records.void(record_id, is_admin=is_admin)
    except RecordNotPending as error:
        with contextlib.suppress(RecordError):
            record = await desk.records.get(record_id)
            await interaction.response.edit_message(
                embed=record_embed(record, glang), view=record_view(record, glang)
            )
        await _ephemeral(interaction, record_error_text(error, lang))
        return
    except RecordError as error:
        await _ephemeral(interaction, record_error_text(error, lang))
        return
    await interaction.response.edit_message(
        embed=record_embed(record, glang), view=record_view(record, glang)
    )


# ----------------------------------------------------------------------------- autocomplete


def variant_choices(current: str) -> list[Choice[str]]:
    """Variants whose names contain what was typed."""
    cur = current.strip().lower()
    out = []
    for code in VARIANTS:
        zh, en = VARIANT_NAMES[code]
        words = [w for w, c in VARIANT_WORDS.items() if c == code]
        if not cur or any(cur in w for w in words) or cur in en.lower():
            out.append(Choice(name=f"{zh} {en}", value=code))
    return out


def option_choices(variant: str | None, current: str) -> list[Choice[str]]:
    """Complete the last ``key=value`` pair of the options text for the chosen variant."""
    code = VARIANT_WORDS.get((variant or "").strip().lower(), variant or "")
    variants = [code] if code in OPTION_CLASSES else list(VARIANTS)
    text = current[:200]
    head, _, last = text.rpartition(" ")
    prefix = f"{head} " if head else ""
    used = {p.split("=")[0] for p in head.split()}
    out: list[Choice[str]] = []
    seen: set[str] = set()
    for v in variants:
        for name, info in OPTION_CLASSES[v].INFO.items():
            if name in used:
                continue
            values = [c for c in info.choices if c is not None]
            shown = [str(c).lower() for c in values] or ["16", "10"]
            if info.int_range and not values:
                shown = ["16", "10"]
            for value in shown:
                pair = f"{name}={value}"
                if pair in seen or (last and not pair.startswith(last.lower())):
                    continue
                seen.add(pair)
                label = f"{prefix}{pair} — {info.zh}"[:100]
                out.append(Choice(name=label, value=f"{prefix}{pair}"[:100]))
    return out[:25]


def hand_choices(current: str) -> list[Choice[str]]:
    """Live check of the hand being typed: the hand read back (✓) or what is wrong (⚠);
    examples while empty. The value is always the text as typed."""
    text = current.strip()
    if not text:
        return [Choice(name=e[:100], value=e[:100]) for e in HAND_EXAMPLE_LIST[:2]]
    if len(text) > 100:
        return []
    try:
        read = read_hand(text)
    except DeskInputError as error:
        return [Choice(name=f"⚠ {error.problem}"[:100], value=text)]
    return [Choice(name=f"✓ {format_hand(read)}"[:100], value=text)]


def flag_choices(current: str) -> list[Choice[str]]:
    """Complete the last flag word (天胡 海底 …)."""
    head, _, last = current[:200].rpartition(" ")
    prefix = f"{head} " if head else ""
    out = []
    for code, (zh, en) in FLAG_NAMES.items():
        if last and not (zh.startswith(last) or code.startswith(last.lower())):
            continue
        out.append(Choice(name=f"{prefix}{zh} ({en})"[:100], value=f"{prefix}{zh}"[:100]))
    return out[:25]


# ----------------------------------------------------------------------------- the cog


DESCRIBE_SCORE = {
    "hand": locale_str(
        "Finished hand, winning tile after +: 123m 456p 789s 11z [555s] +3m",
        zh="和牌，胡的那张写在 + 后：123万 456饼 789条 东东 [555条] +3万",
    ),
    "variant": locale_str("Variant (default: the server's)", zh="玩法（默认为服务器设置）"),
    "win": locale_str("How it was won", zh="胡法"),
    "bao": locale_str(
        "Shangrao 宝 (wildcard), or indicator:<tile> for the flipped tile",
        zh="上饶的宝牌，或 indicator:<牌> 给翻出的指示牌",
    ),
    "flown": locale_str("Shangrao: 宝 you discarded (飞宝)", zh="上饶：打出的宝（飞宝）张数"),
    "kong_draws": locale_str(
        "Kongs declared in a row before the winning draw (杠上开花)",
        zh="胡牌前连续开杠次数（杠上开花）",
    ),
    "flowers": locale_str("Jiujiang: 发 laid open", zh="九江：亮出的发（兴家）张数"),
    "options": locale_str(
        "Rule options, e.g. scoring=xingchen discard_win=true", zh="规则选项，如 scoring=xingchen"
    ),
    "heaven": locale_str("天胡 heavenly hand", zh="天胡"),
    "earth": locale_str("地胡 earthly hand", zh="地胡"),
    "last_tile": locale_str("海底 won on the last tile", zh="海底"),
    "touji": locale_str("偷机 won after keep-drawing", zh="偷机"),
    "ready_declared": locale_str("报听 declared ready", zh="报听"),
    "four_bao": locale_str("四个宝 drew all four 宝", zh="四个宝"),
    "jiebao": locale_str("接宝 took a discarded 宝", zh="接宝"),
    "dealer": locale_str("The winner is the dealer (庄家)", zh="赢家是庄家"),
    "private": locale_str("Only you see the answer", zh="只有自己看到结果"),
}
RENAME_SCORE = {
    "hand": locale_str("hand", zh="手牌"),
    "variant": locale_str("variant", zh="玩法"),
    "win": locale_str("win", zh="胡法"),
    "bao": locale_str("bao", zh="宝牌"),
    "flown": locale_str("flown", zh="飞宝"),
    "kong_draws": locale_str("kong_draws", zh="杠开"),
    "flowers": locale_str("flowers", zh="兴家"),
    "options": locale_str("options", zh="规则"),
    "heaven": locale_str("heaven", zh="天胡"),
    "earth": locale_str("earth", zh="地胡"),
    "last_tile": locale_str("last_tile", zh="海底"),
    "touji": locale_str("touji", zh="偷机"),
    "ready_declared": locale_str("ready_declared", zh="报听"),
    "four_bao": locale_str("four_bao", zh="四个宝"),
    "jiebao": locale_str("jiebao", zh="接宝"),
    "dealer": locale_str("dealer", zh="庄家"),
    "private": locale_str("private", zh="仅自己可见"),
}
DESCRIBE_RECORD = {
    "player1": locale_str("Player in seat 1", zh="一号位玩家"),
    "player2": locale_str("Player in seat 2 (next of seat 1)", zh="二号位玩家（一号位的下家）"),
    "player3": locale_str("Player in seat 3", zh="三号位玩家"),
    "player4": locale_str("Player in seat 4", zh="四号位玩家"),
    "winner": locale_str("Who won (leave empty for a drawn hand)", zh="赢家（流局留空）"),
    "how": locale_str("How it was won", zh="胡法"),
    "discarder": locale_str(
        "Who discarded the winning tile / whose kong was robbed", zh="点炮或被抢杠的人"
    ),
    "hand": locale_str("The winning hand (scored by the bot)", zh="胡的牌（机器人算分）"),
    "points": locale_str("Or: the points one loser pays", zh="或者：每家付的分数"),
    "variant": DESCRIBE_SCORE["variant"],
    "bao": DESCRIBE_SCORE["bao"],
    "options": DESCRIBE_SCORE["options"],
    "flags": locale_str(
        "Flags: 天胡 地胡 海底 偷机 报听 四个宝 接宝",
        zh="附加：天胡 地胡 海底 偷机 报听 四个宝 接宝",
    ),
    "flown": DESCRIBE_SCORE["flown"],
    "kong_draws": DESCRIBE_SCORE["kong_draws"],
    "flowers": DESCRIBE_SCORE["flowers"],
    "dealer": locale_str("The dealer (庄家)", zh="庄家"),
}
RENAME_RECORD = {
    "player1": locale_str("player1", zh="玩家1"),
    "player2": locale_str("player2", zh="玩家2"),
    "player3": locale_str("player3", zh="玩家3"),
    "player4": locale_str("player4", zh="玩家4"),
    "winner": locale_str("winner", zh="赢家"),
    "how": locale_str("how", zh="胡法"),
    "discarder": locale_str("discarder", zh="点炮者"),
    "hand": RENAME_SCORE["hand"],
    "points": locale_str("points", zh="分数"),
    "variant": RENAME_SCORE["variant"],
    "bao": RENAME_SCORE["bao"],
    "options": RENAME_SCORE["options"],
    "flags": locale_str("flags", zh="附加"),
    "flown": RENAME_SCORE["flown"],
    "kong_draws": RENAME_SCORE["kong_draws"],
    "flowers": RENAME_SCORE["flowers"],
    "dealer": locale_str("dealer", zh="庄家"),
}

Count = app_commands.Range[int, 0, 16]


class Desk(commands.Cog):
    """``/mahjong score`` and ``/mahjong record``."""

    def __init__(
        self,
        bot: commands.Bot,
        store: Any,
        records: RecordService,
        *,
        sweep_seconds: float = 60.0,
        owns_store: bool = False,
    ) -> None:
        self.bot = bot
        self.store = store
        self.records = records
        self.sweep_seconds = sweep_seconds
        self._owns_store = owns_store
        self._sweeper: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        bind_cog_commands(self)
        try:
            await asyncio.to_thread(warm_up)
        except Exception:  # a slow first answer is better than no cog
            log.exception("warming up the scoring desk failed")
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="mj-record-sweep")

    async def cog_unload(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._owns_store:
            await self.store.close()

    async def guild_lang(self, guild_id: int | None) -> str:
        if guild_id is None:
            return "zh"
        settings = await self.store.get_guild_settings(guild_id)
        return guild_lang(settings.language)

    # -- expiry sweep

    async def _sweep_forever(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("record expiry sweep failed")
            await asyncio.sleep(self.sweep_seconds)

    async def sweep(self) -> int:
        """Expire pending records past their time and redraw their messages."""
        expired = await self.records.expire_due()
        for record in expired:
            where = message_of(record)
            if where is None:
                continue
            lang = await self.guild_lang(record.guild_id)
            message = self.bot.get_partial_messageable(where[0]).get_partial_message(where[1])
            try:
                await message.edit(embed=record_embed(record, lang), view=record_view(record, lang))
            except discord.HTTPException as exc:
                log.info("could not update expired record %s: %s", record.id, exc)
        if expired:
            log.info("expired %d record(s)", len(expired))
        return len(expired)

    # -- /mahjong score

    @mahjong.command(
        name=locale_str("score", zh="算分"),
        description=locale_str(
            "Score a hand played with real tiles: items, total, who pays",
            zh="实体牌算分：计分项、总分、谁付多少",
        ),
    )
    @app_commands.describe(**DESCRIBE_SCORE)
    @app_commands.rename(**RENAME_SCORE)
    @app_commands.choices(win=WIN_CHOICES)
    async def score(
        self,
        interaction: discord.Interaction,
        hand: app_commands.Range[str, 1, 200],
        variant: str | None = None,
        win: str | None = None,
        bao: app_commands.Range[str, 1, 40] | None = None,
        flown: Count = 0,
        kong_draws: Count = 0,
        flowers: Count = 0,
        options: app_commands.Range[str, 1, 300] | None = None,
        heaven: bool = False,
        earth: bool = False,
        last_tile: bool = False,
        touji: bool = False,
        ready_declared: bool = False,
        four_bao: bool = False,
        jiebao: bool = False,
        dealer: bool = False,
        private: bool = False,
    ) -> None:
        """Value the hand; answer with its picture, the items, the total and the payments."""
        lang = lang_of(interaction.locale)
        given = {"heaven": heaven, "earth": earth, "last_tile": last_tile, "touji": touji}
        given |= {"ready_declared": ready_declared, "four_bao": four_bao}
        given |= {"jiebao": jiebao, "dealer": dealer}
        query = DeskQuery(
            hand=hand,
            variant=variant,
            win=win,
            bao=bao,
            flown=flown,
            kong_draws=kong_draws,
            flowers=flowers,
            flags=tuple(f for f in FLAG_OPTIONS if given[f]),
            options=options,
        )
        default_variant, house = "shangrao", {}
        if interaction.guild_id is not None:
            settings = await self.store.get_guild_settings(interaction.guild_id)
            default_variant, house = settings.default_variant, settings.rule_options
        try:
            answer = score_desk(query, default_variant=default_variant, house_rules=house)
        except DeskInputError as error:
            typed = {"hand": hand, "variant": variant, "win": win, "bao": bao, "options": options}
            await interaction.response.send_message(
                input_error_text(error, typed.get(error.field), lang), ephemeral=True
            )
            return
        png = await asyncio.to_thread(render_hand, hand_picture(answer))
        embed = answer_embed(answer, lang)
        embed.set_image(url="attachment://hand.png")
        await interaction.response.send_message(
            embed=embed,
            file=discord.File(io.BytesIO(png), filename="hand.png"),
            ephemeral=private,
        )

    @score.autocomplete("hand")
    async def _score_hand(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        return hand_choices(current)

    @score.autocomplete("variant")
    async def _score_variant(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        return variant_choices(current)

    @score.autocomplete("options")
    async def _score_options(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        return option_choices(getattr(interaction.namespace, "variant", None), current)

    # -- /mahjong record

    @mahjong.command(
        name=locale_str("record", zh="记录"),
        description=locale_str(
            "Record a hand played with real tiles; all four players confirm",
            zh="记录一局实体牌，四位玩家确认后计入排行榜",
        ),
    )
    @app_commands.describe(**DESCRIBE_RECORD)
    @app_commands.rename(**RENAME_RECORD)
    @app_commands.choices(how=HOW_CHOICES)
    @app_commands.guild_only()
    async def record(
        self,
        interaction: discord.Interaction,
        player1: discord.User,
        player2: discord.User,
        player3: discord.User,
        player4: discord.User,
        winner: discord.User | None = None,
        how: str | None = None,
        discarder: discord.User | None = None,
        hand: app_commands.Range[str, 1, 200] | None = None,
        points: app_commands.Range[int, 1, 100000] | None = None,
        variant: str | None = None,
        bao: app_commands.Range[str, 1, 40] | None = None,
        options: app_commands.Range[str, 1, 300] | None = None,
        flags: app_commands.Range[str, 1, 200] | None = None,
        flown: Count = 0,
        kong_draws: Count = 0,
        flowers: Count = 0,
        dealer: discord.User | None = None,
    ) -> None:
        """Post the record with Confirm buttons; it counts once all four confirmed."""
        lang = lang_of(interaction.locale)
        if interaction.guild_id is None or interaction.channel_id is None:
            await interaction.response.send_message(t("guild_only", lang), ephemeral=True)
            return
        players = (player1, player2, player3, player4)
        bots = [u for u in players if u.bot]
        if bots:
            who = ", ".join(mention(u.id) for u in bots)
            await interaction.response.send_message(t("no_bots", lang, who=who), ephemeral=True)
            return
        query = None
        if hand is not None:
            query = DeskQuery(
                hand=hand,
                variant=variant,
                bao=bao,
                flown=flown,
                kong_draws=kong_draws,
                flowers=flowers,
                flags=(flags,) if flags else (),
                options=options,
            )
        report = RecordReport(
            guild_id=interaction.guild_id,
            reporter_id=interaction.user.id,
            players=tuple(u.id for u in players),
            winner=winner.id if winner else None,
            how=how,
            discarder=discarder.id if discarder else None,
            hand=query,
            points=points,
            variant=variant,
            options=options,
            dealer=dealer.id if dealer else None,
        )
        try:
            record, _prepared = await self.records.report(report)
        except DeskInputError as error:
            typed = {
                "hand": hand,
                "variant": variant,
                "bao": bao,
                "options": options,
                "flags": flags,
            }
            await interaction.response.send_message(
                input_error_text(error, typed.get(error.field), lang), ephemeral=True
            )
            return
        except RecordError as error:
            await interaction.response.send_message(record_error_text(error, lang), ephemeral=True)
            return
        glang = await self.guild_lang(interaction.guild_id)
        waiting = " ".join(mention(uid) for uid in waiting_for(record))
        await interaction.response.send_message(
            content=t("record_ask", glang, mentions=waiting) if waiting else None,
            embed=record_embed(record, glang),
            view=record_view(record, glang),
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
        )
        try:
            message = await interaction.original_response()
            await attach_message(self.store, record.id, interaction.channel_id, message.id)
        except (discord.HTTPException, RecordError) as exc:
            log.info("could not remember the message of record %s: %s", record.id, exc)

    @mahjong.command(
        name=locale_str("record_expiry", zh="记录时限"),
        description=locale_str(
            "How long a table record waits for confirmations (Manage Server to change)",
            zh="实体牌记录等待确认的时间（修改需管理服务器权限）",
        ),
    )
    @app_commands.describe(
        hours=locale_str(
            "Hours, 1–720; leave empty to see the current time",
            zh="小时数，1–720；留空查看当前设置",
        ),
        reset=locale_str("Back to the bot's default", zh="恢复默认"),
    )
    @app_commands.rename(
        hours=locale_str("hours", zh="小时"), reset=locale_str("reset", zh="恢复默认")
    )
    @app_commands.guild_only()
    async def record_expiry(
        self,
        interaction: discord.Interaction,
        hours: app_commands.Range[int, 1, 720] | None = None,
        reset: bool = False,
    ) -> None:
        """Show or set the server's expiry time of pending records."""
        lang = lang_of(interaction.locale)
        if interaction.guild_id is None:
            await interaction.response.send_message(t("guild_only", lang), ephemeral=True)
            return
        if hours is None and not reset:
            current = await self.records.expiry_for(interaction.guild_id)
        else:
            perms = interaction.permissions
            if not (perms.manage_guild or perms.administrator):
                await interaction.response.send_message(
                    t("not_admin_setting", lang), ephemeral=True
                )
                return
            try:
                current = await self.records.set_expiry(
                    interaction.guild_id, None if reset else hours
                )
            except RecordError as error:
                await interaction.response.send_message(
                    record_error_text(error, lang), ephemeral=True
                )
                return
        shown = f"{current / timedelta(hours=1):g}"
        await interaction.response.send_message(t("expiry_now", lang, hours=shown), ephemeral=True)

    @record.autocomplete("hand")
    async def _record_hand(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        return hand_choices(current)

    @record.autocomplete("variant")
    async def _record_variant(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        return variant_choices(current)

    @record.autocomplete("options")
    async def _record_options(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        return option_choices(getattr(interaction.namespace, "variant", None), current)

    @record.autocomplete("flags")
    async def _record_flags(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        return flag_choices(current)


def _setting(bot: commands.Bot, name: str, default: float) -> float:
    """A positive number from the bot's settings (``Settings.<name>`` when it has that field),
    else from the environment variable ``NAME``, else ``default``."""
    value = getattr(getattr(bot, "settings", None), name, None)
    if value is None:
        raw = os.environ.get(name.upper(), "").strip()
        try:
            value = float(raw) if raw else None
        except ValueError:
            log.warning("%s=%r is not a number; using %s", name.upper(), raw, default)
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return float(value)
    return default


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: share (or open) the store, register the record buttons, add
    the cog. ``RECORD_EXPIRY_HOURS`` (default 24) and ``RECORD_SWEEP_SECONDS`` (default 60)
    come from the settings (``.env`` or the environment)."""
    from db.store import Store

    store = getattr(bot, "store", None)
    owns = False
    if store is None:
        url = getattr(getattr(bot, "settings", None), "database_url", None)
        store = await Store.open(url)
        bot.store = store  # type: ignore[attr-defined]
        owns = True
    hours = _setting(bot, "record_expiry_hours", DEFAULT_EXPIRY / timedelta(hours=1))
    expiry = timedelta(hours=hours)
    records = RecordService(store, default_expiry=expiry)
    bot.add_dynamic_items(RecordButton)
    await bot.add_cog(
        Desk(
            bot,
            store,
            records,
            sweep_seconds=_setting(bot, "record_sweep_seconds", 60.0),
            owns_store=owns,
        )
    )


__all__ = [
    "Desk",
    "RecordButton",
    "answer_embed",
    "flag_choices",
    "hand_choices",
    "hand_picture",
    "option_choices",
    "record_embed",
    "setup",
    "variant_choices",
]
