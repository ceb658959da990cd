"""The 回放 button every result carries, apart from the replay commands.

The game's views and the delivery draw it; they must not import the replay extension, which
imports the bot (an import circle). It is a plain button: a press is routed by its
``custom_id`` to the replay extension's step button (``mj:rp:<game>:<hand>:o:0:<view>``, a
``DynamicItem`` registered with the bot), so it works after a restart like every other.
"""

from __future__ import annotations

import discord

from cogs.components import RoutedView
from i18n import t
from services.replay import ALL
from services.replay_text import one


def open_button(game_id: int, hand_no: int, lang: str) -> discord.ui.Button[discord.ui.View]:
    """回放: opens hand ``#game-hand`` in a new replay only the presser sees (on results)."""
    return discord.ui.Button(
        label=t("replay.open", one(lang)),
        style=discord.ButtonStyle.secondary,
        custom_id=f"mj:rp:{game_id}:{hand_no}:o:0:{ALL}",
    )


def result_view(game_id: int, hand_no: int, lang: str) -> discord.ui.View:
    """A result's 回放 button alone (what stays once 准备 / 解散 are gone)."""
    view = RoutedView()
    view.add_item(open_button(game_id, hand_no, lang))
    return view
