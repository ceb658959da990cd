"""The ``/mahjong`` command group shared by every cog.

Attach a subcommand from any cog module::

    from discord.app_commands import locale_str
    from cogs.group import bind_cog_commands, mahjong

    class Lobby(commands.Cog):
        async def cog_load(self) -> None:
            bind_cog_commands(self)          # methods below get ``self``

        @mahjong.command(name=locale_str("new", zh="新局"),
                         description=locale_str("Start a new game", zh="开一局新游戏"))
        async def new(self, interaction: discord.Interaction) -> None: ...

List the module in ``botcore.client.DEFAULT_EXTENSIONS`` after ``cogs.group``. Plain
module-level functions work too (no ``bind_cog_commands`` needed); reach shared objects
through ``interaction.client``.
"""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

mahjong = app_commands.Group(
    name=locale_str("mahjong", zh="麻将"),
    description=locale_str(
        "Jiangxi mahjong: play, score and keep records", zh="江西麻将：对局、算分、战绩"
    ),
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
    """Extension entry point: put the group on the command tree (once)."""
    if bot.tree.get_command("mahjong") is None:
        bot.tree.add_command(mahjong)
