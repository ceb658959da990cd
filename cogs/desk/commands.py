"""The scoring desk: ``/mahjong score`` (value a hand played with real tiles) and
``/mahjong record`` (record one into the server's leaderboard, confirmed by all four).

Discord only: the options go to :mod:`services.desk` / :mod:`services.records` and the answers
come back as an embed with the hand picture (:mod:`cogs.desk.answer`). Record buttons
(:mod:`cogs.desk.records`) are registered at start-up, so they keep working after a restart.
A background sweep marks records past their time as expired and updates their message.
Option texts are in :mod:`cogs.desk.options`, autocomplete in :mod:`cogs.desk.choices`.
"""

from __future__ import annotations

import asyncio
import io
import logging
from datetime import timedelta

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands

from botcore.client import MahjongBot
from cogs.checks import require_manager
from cogs.desk.answer import answer_embed, hand_picture, lang_of
from cogs.desk.choices import (
    flag_choices,
    hand_choices,
    option_choices,
    others_choices,
    streak_choices,
    variant_choices,
)
from cogs.desk.options import (
    DESCRIBE_RECORD,
    DESCRIBE_SCORE,
    FLAG_OPTIONS,
    HOW_CHOICES,
    RENAME_RECORD,
    RENAME_SCORE,
    SEAT_CHOICES,
    WIN_CHOICES,
)
from cogs.desk.records import (
    RecordButton,
    handle_record_button,
    record_embed,
    record_error_text,
    record_view,
    server_lang,
)
from cogs.desk.text import input_error_text, mention
from cogs.group import admin, bind_cog_commands, mahjong
from engine import variants
from i18n import t
from render import render_hand
from services.desk import DeskInputError, DeskQuery, score_desk
from services.pictures import draw
from services.records import (
    BadReport,
    ExtraWinner,
    NoSuchRecord,
    RecordError,
    RecordReport,
    attach_message,
    message_of,
    report_why,
    waiting_for,
)

log = logging.getLogger(__name__)
Count = app_commands.Range[int, 0, 16]

#: The record's table options (as ``/mahjong score``'s, but naming players) and 一炮多响.
DESCRIBE_RECORD_TABLE = {
    "feeder": locale_str(
        t("commands.mahjong.record.param.feeder.description", "en"),
    ),
    "others": locale_str(
        t("commands.mahjong.record.param.others.description", "en"),
    ),
    "streak": DESCRIBE_SCORE["streak"],
    "winner2": locale_str(
        t("commands.mahjong.record.param.winner2.description", "en"),
    ),
    "hand2": locale_str(
        "The second winner's hand, or the points the discarder pays them",
    ),
    "winner3": locale_str("Third winner on the same discard"),
    "hand3": locale_str(
        "The third winner's hand, or the points the discarder pays them",
    ),
}
RENAME_RECORD_TABLE = {
    "feeder": RENAME_SCORE["feeder"],
    "others": RENAME_SCORE["others"],
    "streak": RENAME_SCORE["streak"],
    "winner2": locale_str("winner2"),
    "hand2": locale_str("hand2"),
    "winner3": locale_str("winner3"),
    "hand3": locale_str("hand3"),
}


def warm_up() -> None:
    """Import every variant's scorer and build the picture palette now, so the first
    ``/mahjong score`` answers as fast as the others."""
    variants.all()  # imports every variant's package, its scorer included
    from render import warm_up as warm_render

    warm_render()


class Desk(commands.Cog):
    """``/mahjong score`` and ``/mahjong record``."""

    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot
        self.store = bot.store
        self.records = bot.record_service
        self.sweep_seconds = bot.settings.record_sweep_seconds
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
            await asyncio.gather(self._sweeper, return_exceptions=True)

    async def guild_lang(self, guild_id: int | None) -> str:
        return await server_lang(self.store, guild_id)

    async def remember_names(self, users: list[discord.abc.User]) -> None:
        """Keep the server display names of the people a record names, so leaderboards and
        their pictures show names (not ids) for players known only from records."""
        people = {u.id: u for u in users if not u.bot}
        try:
            known = await self.store.players.display_names(people)
            for uid, user in people.items():
                name = (getattr(user, "display_name", None) or user.name)[:100]
                if name and known.get(uid) != name:
                    await self.store.players.upsert(uid, display_name=name)
        except Exception:  # a name is a nicety; the record itself is what matters
            log.exception("could not remember the names of a record's players")

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
        name=locale_str("score"),
        description=locale_str(
            "Score a hand played with real tiles: items, total, who pays",
        ),
    )
    @app_commands.describe(**DESCRIBE_SCORE)
    @app_commands.rename(**RENAME_SCORE)
    @app_commands.choices(win=WIN_CHOICES, discarder=SEAT_CHOICES, feeder=SEAT_CHOICES)
    async def score(
        self,
        interaction: discord.Interaction,
        hand: app_commands.Range[str, 1, 200],
        variant: str | None = None,
        win: str | None = None,
        bao: app_commands.Range[str, 1, 40] | None = None,
        jing: app_commands.Range[str, 1, 40] | None = None,
        flown: Count = 0,
        kong_draws: Count = 0,
        flowers: Count = 0,
        options: app_commands.Range[str, 1, 300] | None = None,
        discarder: str | None = None,
        feeder: str | None = None,
        others: app_commands.Range[str, 1, 200] | None = None,
        streak: app_commands.Range[str, 1, 60] | None = None,
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
            jing=jing,
            flown=flown,
            kong_draws=kong_draws,
            flowers=flowers,
            flags=tuple(f for f in FLAG_OPTIONS if given[f]),
            options=options,
            discarder=discarder,
            feeder=feeder,
            others=others,
            streak=streak,
        )
        default_variant, house = variants.default().name, {}
        if interaction.guild_id is not None:
            settings = await self.store.guilds.settings(interaction.guild_id)
            default_variant, house = settings.default_variant, settings.rule_options
        try:
            answer = score_desk(query, default_variant=default_variant, house_rules=house)
        except DeskInputError as error:
            wild = bao if bao is not None else jing  # the wildcard input, under either name
            typed = {"hand": hand, "variant": variant, "win": win, "bao": wild, "options": options}
            typed |= {"others": others, "streak": streak}
            await interaction.response.send_message(
                input_error_text(error, typed.get(error.field), lang), ephemeral=True
            )
            return
        # drawn off the loop: in the picture workers, first (the answer waits for it)
        png = await draw(render_hand, hand_picture(answer), wait="answer")
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
        return hand_choices(current, lang_of(interaction.locale))

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

    @score.autocomplete("others")
    async def _score_others(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        variant = getattr(interaction.namespace, "variant", None)
        return others_choices(variant, current, lang_of(interaction.locale))

    @score.autocomplete("streak")
    async def _score_streak(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        variant = getattr(interaction.namespace, "variant", None)
        return streak_choices(variant, current, lang_of(interaction.locale))

    # -- /mahjong record

    @mahjong.command(
        name=locale_str("record"),
        description=locale_str(
            "Record a hand played with real tiles; all four players confirm",
        ),
    )
    @app_commands.describe(**DESCRIBE_RECORD, **DESCRIBE_RECORD_TABLE)
    @app_commands.rename(**RENAME_RECORD, **RENAME_RECORD_TABLE)
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
        jing: app_commands.Range[str, 1, 40] | None = None,
        options: app_commands.Range[str, 1, 300] | None = None,
        flags: app_commands.Range[str, 1, 200] | None = None,
        flown: Count = 0,
        kong_draws: Count = 0,
        flowers: Count = 0,
        dealer: discord.User | None = None,
        feeder: discord.User | None = None,
        others: app_commands.Range[str, 1, 200] | None = None,
        streak: app_commands.Range[str, 1, 60] | None = None,
        winner2: discord.User | None = None,
        hand2: app_commands.Range[str, 1, 200] | None = None,
        winner3: discord.User | None = None,
        hand3: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        """Post the record with every seat's change and Confirm buttons; it counts once all
        four confirmed. ``player1``–``player4`` sit in play order (each one's 下家 is the
        next); ``others`` names seats as seen from the winner, or by @mention."""
        lang = lang_of(interaction.locale)
        if interaction.guild_id is None or interaction.channel_id is None:
            await interaction.response.send_message(t("desk.guild_only", lang), ephemeral=True)
            return
        players = (player1, player2, player3, player4)
        bots = [u for u in players if u.bot]
        if bots:
            who = ", ".join(mention(u.id) for u in bots)
            await interaction.response.send_message(
                t("desk.no_bots", lang, who=who), ephemeral=True
            )
            return
        query = None
        if hand is not None:
            query = DeskQuery(
                hand=hand,
                variant=variant,
                bao=bao,
                jing=jing,
                flown=flown,
                kong_draws=kong_draws,
                flowers=flowers,
                flags=(flags,) if flags else (),
                options=options,
            )
        more: list[ExtraWinner] = []
        for n, (user, text) in enumerate(((winner2, hand2), (winner3, hand3)), 2):
            if user is None and text is not None:
                error = BadReport(
                    f"winner{n}",
                    report_why("hand_without_winner", "a hand is given but not its winner"),
                )
                await interaction.response.send_message(
                    record_error_text(error, lang), ephemeral=True
                )
                return
            if user is not None:
                more.append(ExtraWinner.of(user.id, text))
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
            feeder=feeder.id if feeder else None,
            others=others,
            streak=streak,
            more_winners=tuple(more),
        )
        try:
            record, _prepared = await self.records.report(report)
        except DeskInputError as error:
            typed = {
                "hand": hand,
                "variant": variant,
                "bao": bao if bao is not None else jing,
                "options": options,
                "flags": flags,
                "others": others,
                "streak": streak,
            }
            await interaction.response.send_message(
                input_error_text(error, typed.get(error.field), lang, "record"), ephemeral=True
            )
            return
        except RecordError as error:
            await interaction.response.send_message(record_error_text(error, lang), ephemeral=True)
            return
        await self.remember_names(
            [u for u in (*players, winner, discarder, dealer, feeder, winner2, winner3) if u]
        )
        glang = await self.guild_lang(interaction.guild_id)
        waiting = " ".join(mention(uid) for uid in waiting_for(record))
        await interaction.response.send_message(
            content=t("desk.record_ask", glang, mentions=waiting) if waiting else None,
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
        name=locale_str("record_expiry"),
        description=locale_str(
            "How long a table record waits for confirmations (Manage Server to change)",
        ),
    )
    @app_commands.describe(
        hours=locale_str(
            "Hours, 1–720; leave empty to see the current time",
        ),
        reset=locale_str("Back to the bot's default"),
    )
    @app_commands.rename(hours=locale_str("hours"), reset=locale_str("reset"))
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
            await interaction.response.send_message(t("desk.guild_only", lang), ephemeral=True)
            return
        if hours is None and not reset:
            current = await self.records.expiry_for(interaction.guild_id)
        else:
            perms = interaction.permissions
            if not (perms.manage_guild or perms.administrator):
                await interaction.response.send_message(
                    t("desk.not_admin_setting", lang), ephemeral=True
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
        await interaction.response.send_message(
            t("desk.expiry_now", lang, hours=shown), ephemeral=True
        )

    @admin.command(
        name=locale_str("void"),
        description=locale_str(
            "Void a table record by its number; it leaves the ratings (Manage Server)",
        ),
    )
    @app_commands.describe(record=locale_str("The record's number (#… on its message)"))
    @app_commands.rename(record=locale_str("record"))
    async def void(
        self, interaction: discord.Interaction, record: app_commands.Range[int, 1, 2**53]
    ) -> None:
        """Void one of this server's records, as its Void button does, and redraw its
        message."""
        require_manager(interaction)  # the group checks too; this command must never skip it
        lang = lang_of(interaction.locale)
        # voiding a counted record re-rates the later hands: acknowledge first
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            found = await self.records.get(record)
            if found.guild_id != interaction.guild_id:
                raise NoSuchRecord(f"record {record} is not this server's", record_id=record)
            voided = await self.records.void(record, is_admin=True)
        except RecordError as error:
            await interaction.followup.send(record_error_text(error, lang), ephemeral=True)
            return
        where = message_of(voided)
        if where is not None:
            glang = await self.guild_lang(voided.guild_id)
            message = self.bot.get_partial_messageable(where[0]).get_partial_message(where[1])
            try:
                await message.edit(
                    embed=record_embed(voided, glang), view=record_view(voided, glang)
                )
            except discord.HTTPException as exc:
                log.info("could not update voided record %s: %s", voided.id, exc)
        log.info("record %s voided by %s", voided.id, interaction.user.id)
        await interaction.followup.send(t("desk.voided", lang, id=voided.id), ephemeral=True)

    @record.autocomplete("hand")
    async def _record_hand(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        return hand_choices(current, lang_of(interaction.locale))

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

    @record.autocomplete("others")
    async def _record_others(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        variant = getattr(interaction.namespace, "variant", None)
        return others_choices(variant, current, lang_of(interaction.locale))

    @record.autocomplete("streak")
    async def _record_streak(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        variant = getattr(interaction.namespace, "variant", None)
        return streak_choices(variant, current, lang_of(interaction.locale))


async def setup(bot: MahjongBot) -> None:
    """Extension entry point: register the record buttons and add the cog over the bot's
    store and record service (``RECORD_EXPIRY_HOURS`` and ``RECORD_SWEEP_SECONDS`` are
    settings, :class:`botcore.settings.Settings`)."""
    bot.add_dynamic_items(RecordButton)
    await bot.add_cog(Desk(bot))


__all__ = [
    "Desk",
    "RecordButton",
    "answer_embed",
    "flag_choices",
    "hand_choices",
    "hand_picture",
    "handle_record_button",
    "option_choices",
    "others_choices",
    "record_embed",
    "setup",
    "streak_choices",
    "variant_choices",
]
