"""Buttons and the messages that carry them.

Every button is a :class:`GameButton` with the custom_id ``mj:<game id>:<action>[:<arg>]``
(the format and its mapping to engine actions live in one codec, :mod:`services.action_codec`);
a press is routed by its custom_id alone (:meth:`cogs.game.commands.Game.on_interaction`), so buttons
on old messages keep working after a restart. Actions:

- lobby: ``join``, ``leave``, ``addbot``, ``start``; table: ``hand`` (my hand, ephemeral);
- a hand: ``discard:5m``, ``win``, ``kong[:5m]``, ``pong``, ``chi:345m``, ``pass``,
  ``touji[:5m]``, ``ready[:5m]`` (without a tile they open a picker);
- the session (:mod:`cogs.game.session`): ``next:<hand no>`` (准备), ``dissolve`` (解散; an old
  ``end:<hand no>`` proposes it too), ``agree:<vote>`` / ``refuse:<vote>``, ``rematch``.

The builders return ``(embed, view)`` pairs from :mod:`services` values; no game logic here.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from cogs.components import RoutedView
from cogs.game.session_text import progress_label, session_of, showdown_lines, table_title
from cogs.game.text import (
    action_label,
    hand_lines,
    lang_of,
    punct,
    t,
    table_lines,
    variant_name,
)
from cogs.refusal_text import refusal_text
from cogs.replay.buttons import result_view
from engine.options import describe_options, make_options
from i18n import short
from services.action_codec import CUSTOM_ID as CUSTOM_ID
from services.action_codec import custom_id as custom_id
from services.delivery import GameSummary, PrivateUpdate
from services.errors import NotInGame, ServiceError
from services.model import ActionKey, HandResult, TableView

log = logging.getLogger(__name__)

VERSION_RX = re.compile(r"v(\d+)\s*$")
HAND_KINDS = ("discard", "win", "kong", "pong", "chi", "pass", "touji", "ready")
GREEN = discord.ButtonStyle.success
GREY = discord.ButtonStyle.secondary
BLUE = discord.ButtonStyle.primary
RED = discord.ButtonStyle.danger


class GameButton(discord.ui.Button[Any]):
    """Any game button: its custom_id names the game, the kind and its argument. A press is
    routed by that custom_id (:meth:`cogs.game.commands.Game.on_interaction`), not by discord.py's
    view store: the button is not *dispatchable*, so no view of it is kept per message sent
    or edited, and no ``discord.ui.View`` is rebuilt from the pressed message's components
    per press (the ``DynamicItem`` route did both)."""

    def __init__(
        self,
        game_id: int,
        kind: str,
        arg: str | None = None,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = GREY,
        row: int | None = None,
        disabled: bool = False,
    ) -> None:
        self.game_id = game_id
        self.kind = kind
        self.arg = arg
        super().__init__(
            label=(label or kind)[:80],
            style=style,
            custom_id=custom_id(game_id, kind, arg),
            row=row,
            disabled=disabled,
        )

    def is_dispatchable(self) -> bool:
        return False


def seen_version(message: discord.Message | None) -> int | None:
    """The game version a hand message was drawn for (its embed footer ends ``v<n>``)."""
    if message is None:
        return None
    for embed in message.embeds:
        text = embed.footer.text if embed.footer else None
        if text:
            m = VERSION_RX.search(text)
            if m:
                return int(m.group(1))
    return None


def error_text(error: ServiceError, lang: str, *, button: bool = False) -> str:
    """The short explanation of a refusal (a button's: a non-player is told the tiles are
    not theirs)."""
    if isinstance(error, NotInGame) and button:
        return t("errors.not_yours", lang) + " " + t("errors.not_in_game", lang)
    return refusal_text(error, lang)


def session_buttons(view: discord.ui.View, game: GameSummary, lang: str) -> None:
    """The session's buttons: 准备 (while the ready check is open) and 解散 (while the game
    is on), under the table and the hand's result (:mod:`cogs.game.session`)."""
    info = session_of(game)
    if game.status != "active" or (info is not None and info.complete):
        return  # over, or its last hand just ended (the standings follow)
    if info is None or info.ready_open:
        hand = str(info.ready_hand if info is not None and info.ready_hand else game.hand_no)
        view.add_item(
            GameButton(game.id, "next", hand, label=t("session.ready_button", lang), style=GREEN)
        )
    view.add_item(
        GameButton(game.id, "dissolve", label=t("session.dissolve_button", lang), style=RED)
    )


def names_of(game: GameSummary, lang: str) -> list[str]:
    """The seats' names as a reader of ``lang`` sees them (AI seats in their language)."""
    return [s.shown_name(lang) for s in game.seats]


def _footer(game: GameSummary, extra: str = "") -> str:
    text = f"#{game.id}"
    if extra:
        text += f" · {extra}"
    return text


# ---------------------------------------------------------------------------- lobby


def lobby_message(game: GameSummary, lang: str) -> tuple[discord.Embed, discord.ui.View | None]:
    """The lobby: seats with their winds, the length, how the first dealer is chosen,
    rules, Join / Leave / Add bot / Start."""
    from cogs.game.session_text import (
        first_dealer_note,
        length_label,
        lobby_seat_prefix,
        session_of,
    )

    embed = discord.Embed(
        title=t("game.lobby_title", lang, variant=variant_name(game.variant, lang)),
        description=t("game.lobby_help", lang),
        colour=discord.Colour.dark_green(),
    )
    lines = []
    for i in range(4):
        if i < len(game.seats):
            seat = game.seats[i]
            mark = (
                punct("open", lang) + t("game.host", lang) + punct("close", lang)
                if seat.user_id == game.host_id and not seat.ai
                else ""
            )
            who = (
                "🤖 " + seat.shown_name(lang)
                if seat.ai
                else (f"<@{seat.user_id}>" if seat.user_id else seat.name)
            )
            lines.append(f"{i + 1}. {lobby_seat_prefix(i, lang)}{who}{mark}")
        else:
            lines.append(f"{i + 1}. {lobby_seat_prefix(i, lang)}{t('game.seat_empty', lang)}")
    lines.append(first_dealer_note(game, lang))
    embed.add_field(name=t("game.seats", lang), value="\n".join(lines), inline=False)
    info = session_of(game)
    if info is not None:
        length = length_label(info.length, lang)
        if info.rematch_of is not None:
            length += " · " + t("session.lobby_rematch", lang, game=info.rematch_of)
        embed.add_field(name=t("session.length_field", lang), value=length, inline=False)
    embed.add_field(
        name=t("game.rules", lang),
        value=rules_text(game.variant, game.options, lang)[:1024],
        inline=False,
    )
    embed.set_footer(text=_footer(game))
    if game.status != "lobby":
        return embed, None
    view = RoutedView()
    view.add_item(GameButton(game.id, "join", label=t("game.join", lang), style=GREEN))
    view.add_item(GameButton(game.id, "leave", label=t("game.leave", lang)))
    view.add_item(GameButton(game.id, "addbot", label=t("game.addbot", lang)))
    view.add_item(GameButton(game.id, "start", label=t("game.start", lang), style=BLUE))
    return embed, view


def rules_text(variant: str, options: dict[str, Any], lang: str) -> str:
    """Every option of the variant with its value and explanation."""
    try:
        opts = make_options(variant, options)
    except Exception:
        return str(options)
    lines = []
    for name, value, info in describe_options(opts, lang):
        shown = "—" if value is None else str(value).lower()
        lines.append(f"`{name}={shown}` · {info}")
    return "\n".join(lines) or "—"


# ---------------------------------------------------------------------------- table


def table_message(
    game: GameSummary, table: TableView | None, lang: str
) -> tuple[discord.Embed, discord.ui.View | None]:
    """The channel's one table message (public information only) with a "My hand" button."""
    if table is None:
        return lobby_message(game, lang)
    embed = discord.Embed(
        title=table_title(game, lang),  # 上饶麻将 · 第3/8局
        description="\n".join(
            table_lines(
                table,
                names_of(game, lang),
                game.totals,
                [s.auto for s in game.seats],
                lang,
                deadline=game.deadline,
                variant=game.variant,
            )
        )[:4000],
        colour=discord.Colour.dark_green(),
    )
    embed.set_footer(text=_footer(game))
    if game.status != "active":
        return embed, None
    view = RoutedView()
    view.add_item(GameButton(game.id, "hand", label=t("game.my_hand", lang), style=BLUE))
    if game.phase == "hand_over":  # 准备 also here, so a restart can never lose the next step
        session_buttons(view, game, lang)
    elif game.status == "active":
        view.add_item(
            GameButton(game.id, "dissolve", label=t("session.dissolve_button", lang), style=RED)
        )
    return embed, view


# ---------------------------------------------------------------------------- a hand


def hand_message(
    game: GameSummary, update: PrivateUpdate, lang: str
) -> tuple[discord.Embed, discord.ui.View | None]:
    """One player's private hand with a button for every legal action (≤ 25 buttons)."""
    hand = update.hand
    seat = game.seats[update.seat] if update.seat < len(game.seats) else None
    embed = discord.Embed(
        title=t(
            "game.hand_title", lang, variant=variant_name(game.variant, lang), hand=game.hand_no
        ),
        description="\n".join(
            hand_lines(
                hand,
                update.hints if game.hints else (),
                lang,
                auto=bool(seat and seat.auto),
                phase=game.phase,
                names=names_of(game, lang),
                variant=game.variant,
            )
        ),
        colour=discord.Colour.blue(),
    )
    embed.set_footer(text=_footer(game, f"v{game.version}"))
    if not hand.legal or game.status != "active":
        return embed, None
    view = RoutedView()
    discards = [k for k in hand.legal if k.kind == "discard"]
    others = [k for k in hand.legal if k.kind != "discard"]
    drawn = None
    if hand.drawn is not None:
        from engine.tiles import tile_str

        drawn = tile_str(hand.drawn)
    count = 0
    for i, key in enumerate(discards[:15]):
        style = BLUE if key.arg == drawn else GREY
        view.add_item(
            GameButton(
                game.id, "discard", key.arg, label=action_label(key, lang), style=style, row=i // 5
            )
        )
        count += 1
    row = 3
    used_in_row = 0
    pickers_done: set[str] = set()
    for key in others:
        if key.kind in ("touji", "ready"):
            if key.kind in pickers_done:
                continue
            pickers_done.add(key.kind)
            key = ActionKey(key.kind)
        if count >= 25 or row > 4:
            break
        style = GREEN if key.kind == "win" else RED if key.kind == "pass" else BLUE
        view.add_item(
            GameButton(
                game.id, key.kind, key.arg, label=action_label(key, lang), style=style, row=row
            )
        )
        count += 1
        used_in_row += 1
        if used_in_row == 5:
            row += 1
            used_in_row = 0
    return embed, view


def picker_message(
    game: GameSummary, update: PrivateUpdate, kind: str, lang: str
) -> tuple[str, discord.ui.View]:
    """An ephemeral tile picker for 偷机 / 报听 (each tile a ``touji:5m`` button)."""
    view = RoutedView()
    keys = [k for k in update.hand.legal if k.kind == kind][:25]
    for i, key in enumerate(keys):
        view.add_item(
            GameButton(
                game.id,
                kind,
                key.arg,
                label=action_label(ActionKey("discard", key.arg), lang),
                row=i // 5,
            )
        )
    return t("game.pick_touji" if kind == "touji" else "game.pick_ready", lang), view


# ---------------------------------------------------------------------------- results


def result_message(
    game: GameSummary, result: HandResult, lang: str, commitment: str | None = None
) -> tuple[discord.Embed, discord.ui.View | None]:
    """The hand's result with every hand laid open (摊牌: :mod:`cogs.game.session_text`), every
    scoring item and payment; 准备 / 解散 (:func:`session_buttons`) and 回放 (the hand's
    replay, :func:`cogs.replay.commands.open_button`)."""

    embed = discord.Embed(
        title=t("session.showdown_title", lang, hand=result.hand_no)
        + " · "
        + progress_label(game, lang, result.hand_no),
        description="\n".join(showdown_lines(game, result, lang, commitment))[:4000],
        colour=discord.Colour.gold(),
    )
    # the hand's code, for /mahjong replay and /mahjong review
    replay_word = t("game.replay_word", short(lang))
    embed.set_footer(text=_footer(game, f"{replay_word} #{game.id}-{result.hand_no}"))
    view = RoutedView()
    if game.status == "active":
        session_buttons(view, game, lang)  # none after a session's last hand
    for item in result_view(game.id, result.hand_no, lang).children:
        view.add_item(item)
    return embed, view


def hand_lang(interaction: discord.Interaction) -> str:
    return lang_of(interaction.locale)
