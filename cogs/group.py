"""The ``/mahjong`` command group shared by every cog.

Attach a subcommand from any cog module::

    from discord.app_commands import locale_str
    from cogs.group import bind_cog_commands, mahjong

    class Lobby(commands.Cog):
        async def cog_load(self) -> None:
            bind_cog_commands(self)          # methods below get ``self``

        @mahjong.command(name=locale_str("new"),
                         description=locale_str("Start a new game"))
        async def new(self, interaction: discord.Interaction) -> None: ...

Names and descriptions are written in English; their Chinese (简体 and 繁體) comes from the
``commands`` catalogue (``i18n/locales/*/LC_MESSAGES/commands.po``, see
:mod:`botcore.translator`): add an entry there for every new command, parameter and choice.

Commands for members with Manage Server go on ``admin`` (``/mahjong-admin``) instead: it is
declared with ``default_member_permissions`` and checked at run time. Every command of both
groups has its option values checked against its declaration first (:mod:`cogs.checks`).

List the module in ``botcore.client.DEFAULT_EXTENSIONS`` after ``cogs.group``. Plain
module-level functions work too (no ``bind_cog_commands`` needed); reach shared objects
through ``interaction.client``.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from cogs.checks import check_declared_options, is_manager, require_manager


class CheckedGroup(app_commands.Group):
    """A command group whose commands refuse option values their declaration forbids (a
    forged request, or a client that does not check), before they run."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.type is discord.InteractionType.autocomplete:
            return True  # half-typed values; an error here would only be logged
        check_declared_options(interaction)
        return True


class ManagerGroup(CheckedGroup):
    """Commands for members with Manage Server: declared so (``default_member_permissions``,
    which hides them from everyone else in the client) and checked again at run time (a
    server can re-grant them in its integration settings)."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.type is discord.InteractionType.autocomplete:
            return is_manager(interaction)
        require_manager(interaction)
        return await super().interaction_check(interaction)


mahjong = CheckedGroup(
    name=locale_str("mahjong"),
    description=locale_str("Jiangxi mahjong: play, score and keep records"),
)

#: ``/mahjong-admin``: server settings, seasons, voiding records, ending any game. Discord
#: declares permissions on top-level commands only, so these live in a group of their own.
admin = ManagerGroup(
    name=locale_str("mahjong-admin"),
    description=locale_str(
        "Mahjong server admin (Manage Server): settings, seasons, records, games",
    ),
    default_permissions=discord.Permissions(manage_guild=True),
    guild_only=True,
)


def bind_cog_commands(cog: commands.Cog) -> int:
    """Bind ``cog`` as ``self`` of the group subcommands defined in its class.

    ``@mahjong.command`` on a method registers the command on the shared group, and
    discord.py only binds commands that have no parent, so call this in ``cog_load``.
    Returns how many commands were bound.
    """
    bound = 0
    for klass in type(cog).__mro__:
        for member in vars(klass).values():
            if isinstance(member, app_commands.Command) and member.parent is not None:
                member.binding = cog
                bound += 1
    return bound


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: put the groups on the command tree (once)."""
    for group in (mahjong, admin):
        if bot.tree.get_command(group.name) is None:
            bot.tree.add_command(group)
