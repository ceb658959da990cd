"""Test-only extension (loaded through ``EXTRA_EXTENSIONS``) exercising what game cogs use:
channel messages with persistent buttons and files, DMs (and the 50007 fallback), deferred
replies with follow-ups, message edits, modals, typed options. Nothing happens at import.
"""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands


class ProbeButton(discord.ui.DynamicItem[discord.ui.Button], template=r"probe:(?P<n>\d+):press"):
    """A persistent button: works after a restart because it is matched by its custom_id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Press {n}", custom_id=f"probe:{n}:press"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction, item, match):  # type: ignore[override]
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(ProbeButton(self.n + 1))
        await interaction.response.edit_message(
            content=f"pressed {self.n} by {interaction.user.name}",
            view=view,
            attachments=[discord.File(io.BytesIO(png_bytes() + b"v2"), f"table{self.n + 1}.png")],
        )


def png_bytes() -> bytes:
    return b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


async def setup(bot: commands.Bot) -> None:
    """Extension entry point."""
    probe = app_commands.Group(name="e2e-probe", description="Exercise the fake Discord (tests)")

    @probe.command(name="table", description="Post a table message with a button and a file")
    async def table(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(ProbeButton(1))
        await interaction.response.send_message("posting", ephemeral=True)
        assert interaction.channel is not None
        msg = await interaction.channel.send(  # type: ignore[union-attr]
            "table v1", view=view, file=discord.File(io.BytesIO(png_bytes()), "table.png")
        )
        await msg.add_reaction("\N{MAHJONG TILE RED DRAGON}")

    @probe.command(name="dm", description="DM a secret, fall back to an ephemeral reply")
    async def dm(interaction: discord.Interaction, secret: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            view = discord.ui.View(timeout=None)
            view.add_item(ProbeButton(100))
            await interaction.user.send(f"your hand: {secret}", view=view)
        except discord.Forbidden as exc:
            if exc.code != 50007:
                raise
            await interaction.followup.send(f"DMs closed; your hand: {secret}", ephemeral=True)
            assert interaction.channel is not None
            await interaction.channel.send(  # type: ignore[union-attr]
                f"{interaction.user.mention} has DMs closed; use /mahjong hand"
            )
            return
        await interaction.followup.send("sent by DM", ephemeral=True)
        await interaction.followup.send("second follow-up", ephemeral=True)

    @probe.command(name="echo", description="Echo typed options")
    async def echo(
        interaction: discord.Interaction,
        text: str,
        count: int,
        who: discord.Member,
        loud: bool = False,
    ) -> None:
        msg = f"{text}|{count}|{who.name}|{loud}"
        await interaction.response.send_message(msg, ephemeral=not loud)

    class Ask(discord.ui.Modal, title="Probe question"):
        answer = discord.ui.TextInput(label="Answer", custom_id="probe-answer")

        async def on_submit(self, interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"answered {self.answer.value}", ephemeral=True)

    @probe.command(name="modal", description="Open a modal")
    async def modal(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Ask())

    @probe.command(name="edit", description="Defer, then edit the original reply")
    async def edit(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.edit_original_response(content="edited original")

    bot.tree.add_command(probe)
    bot.add_dynamic_items(ProbeButton)
