"""The ``/mahjong record`` message: the record embed, its Confirm / Void buttons
(``DynamicItem``\\s with the custom_id ``mj:rec:<record id>:<confirm|void>``, so they keep
working after a restart) and what a press does."""

from __future__ import annotations

import contextlib
import re
from typing import Any

import discord

from botcore.client import bot_of
from cogs.components import RoutedView, pressed_button
from cogs.desk.answer import COLOUR_NO, COLOUR_PENDING, COLOUR_WIN, guild_lang, lang_of
from cogs.desk.text import (
    RECORD_STATUSES,
    item_line,
    mention,
    option_label,
    player_lines,
    record_lines,
    status_text,
    variant_label,
)
from cogs.refusal_text import translated
from db.store import Store
from db.types import PhysicalRecordInfo
from i18n import t
from services.records import NoSuchRecord, RecordError, RecordNotPending

RECORD_ID = r"mj:rec:(?P<rid>[0-9]{1,20}):(?P<action>confirm|void)"


async def server_lang(store: Store, guild_id: int | None) -> str:
    """The language of a server's public desk messages (its ``language`` setting)."""
    if guild_id is None:
        return "zh"
    settings = await store.guilds.settings(guild_id)
    return guild_lang(settings.language)


def record_embed(record: PhysicalRecordInfo, lang: str) -> discord.Embed:
    """A record: players with their change and whether they confirmed, the result, status."""
    colour = {"pending": COLOUR_PENDING, "confirmed": COLOUR_WIN}.get(record.status, COLOUR_NO)
    embed = discord.Embed(
        title=t("desk.record_title", lang, id=record.id),
        description=status_text(record.status, record.expires_at, lang)
        + "\n"
        + t("desk.reported_by", lang, who=mention(record.reporter_id)),
        colour=colour,
    )
    deltas = [p.delta for p in sorted(record.hand.players, key=lambda p: p.seat)]
    embed.add_field(
        name=t("desk.players", lang),
        value="\n".join(
            player_lines(
                record.player_ids, record.confirmations, deltas, lang, record.payload.get("parts")
            )
        )[:1024],
        inline=False,
    )
    embed.add_field(
        name=f"{t('desk.result', lang)} · {variant_label(record.hand.variant, lang)}",
        value="\n".join(record_lines(record.hand, record.payload, lang))[:1024],
        inline=False,
    )
    if record.hand.items:
        seats = {p.seat: p.user_id for p in record.hand.players}
        items = "\n".join(
            (f"{mention(seats[i['seat']])} " if i.get("seat") in seats else "") + item_line(i)
            for i in record.hand.items
            if isinstance(i, dict)
        )
        embed.add_field(name=t("desk.items", lang), value=items[:1024] or "—", inline=False)
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
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> RecordButton:
        button = pressed_button(item)
        return cls(int(match["rid"]), match["action"], label=button.label, style=button.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle_record_button(interaction, self.record_id, self.action)


def record_view(record: PhysicalRecordInfo, lang: str) -> discord.ui.View:
    """Confirm (while pending) and Void (until void) buttons."""
    view = RoutedView()
    if record.status == "pending":
        view.add_item(
            RecordButton(
                record.id,
                "confirm",
                label=t("desk.confirm", lang),
                style=discord.ButtonStyle.success,
            )
        )
    if record.status in ("pending", "confirmed"):
        view.add_item(
            RecordButton(
                record.id, "void", label=t("desk.void", lang), style=discord.ButtonStyle.danger
            )
        )
    return view


def record_error_text(error: RecordError, lang: str) -> str:
    """A refused record request in ``lang``: the sentence of its kind, the option at fault
    by the name the reader's Discord shows, what is wrong translated (a
    :class:`~engine.refusal.Reason`)."""
    if isinstance(error, RecordNotPending):
        status = error.status
        shown = t(f"desk.status.{status}", lang) if status in RECORD_STATUSES else status
        return t("desk.record_closed", lang, status=shown)
    params = {k: translated(v, lang) for k, v in error.params.items() if k != "detail"}
    params["field"] = option_label(str(params.get("field", "")), lang)
    key = error.key if error.key.startswith("desk.") else f"desk.{error.key}"
    return t(key, lang, detail=translated(error.detail, lang), **params)


async def _ephemeral(interaction: discord.Interaction, text: str) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def _redraw(interaction: discord.Interaction, record: Any, lang: str) -> None:
    """Show the record's new state on the message whose button was pressed."""
    embed, view = record_embed(record, lang), record_view(record, lang)
    if interaction.response.is_done():
        await interaction.edit_original_response(embed=embed, view=view)
    else:
        await interaction.response.edit_message(embed=embed, view=view)


async def handle_record_button(
    interaction: discord.Interaction, record_id: int, action: str
) -> None:
    """Confirm: a named player's confirmation (the last one counts the hand, once).
    Void: an admin with Manage Server. The message is redrawn with the new state."""
    bot = bot_of(interaction.client)
    records = bot.record_service
    lang = lang_of(interaction.locale)
    glang = await server_lang(bot.store, interaction.guild_id)
    if action == "void":
        # A void of an old record re-rates every later hand of the server (seconds on a
        # big one): acknowledge first so Discord's 3-second limit never drops the answer.
        await interaction.response.defer()
    try:
        if action == "confirm":
            outcome = await records.confirm(record_id, interaction.user.id)
            if outcome.repeated and not outcome.counted_now:
                await _ephemeral(interaction, t("desk.already_confirmed", lang))
                return
            record = outcome.record
        else:
            perms = interaction.permissions  # in this channel, as Discord computed them
            is_admin = bool(perms.manage_guild or perms.administrator)
            if is_admin and (await records.get(record_id)).guild_id != interaction.guild_id:
                # a forged button: an admin here is no admin of another server's record
                raise NoSuchRecord(f"record {record_id} is not this server's", record_id=record_id)
            record = await records.void(record_id, is_admin=is_admin)
    except RecordNotPending as error:
        with contextlib.suppress(RecordError):
            record = await records.get(record_id)
            await _redraw(interaction, record, glang)
        await _ephemeral(interaction, record_error_text(error, lang))
        return
    except RecordError as error:
        await _ephemeral(interaction, record_error_text(error, lang))
        return
    await _redraw(interaction, record, glang)
