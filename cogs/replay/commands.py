"""``/mahjong replay``, ``/mahjong review``, ``/mahjong export game`` and
``/mahjong export server`` (Manage Server): finished hands watched again, learned from and
taken out. Discord only: the work is :class:`services.replay.ReplayService`'s.

A replay message shows one moment of a finished hand: the table picture (or, with pictures
off, its tiles in words), the concealed hand of one seat (or all four open), the moves
around that step, and ⏮ ◀ ▶ ⏭, a seat switch, 🎞 (the whole hand as an animated picture
from the shown seat, posted in the channel) and jumps to the seat's next turn, the next
claim or kong and the win. Every result carries a 回放 button that opens its hand
(:func:`open_button`), and a review's lines open their step (:func:`review_view`). Every
component is a ``DynamicItem`` whose ``custom_id`` carries what it shows —
``mj:rp:<game>:<hand>:<op>:<step>:<view>`` (a step button; ``o`` opens a new replay),
``mj:rs:<game>:<hand>:<step>`` (the seat switch), ``mj:rv:<game>:<hand>:<seat>`` (the review's
steps) — so they work after a restart; a press checks again that the hand is a finished hand
of this server (a forged id for a hand in play is refused like the command). Pictures are
drawn in a worker thread, never on the event loop.
"""

from __future__ import annotations

import io
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands

from botcore.client import MahjongBot, bot_of
from cogs.checks import require_manager
from cogs.components import RoutedView, chosen_values, component_ids, custom_id_of, pressed_button
from cogs.delivery import pictures
from cogs.errors import send_ephemeral
from cogs.group import CheckedGroup, bind_cog_commands, mahjong
from cogs.replay.buttons import open_button
from engine.review import ReviewLine
from i18n import locale_for, t
from services.replay import (
    ALL,
    ReplayHand,
    ReplayRefused,
    ReplayService,
    clamp_step,
    end_text,
    move_lines,
    tiles_lines,
)
from services.replay_steps import next_claim, next_own_turn, win_step
from services.replay_text import hand_code, one, variant_name, who

log = logging.getLogger(__name__)

#: ops: f first, p previous, n next, l last, a animation, t own turn, c claim, w win, o open
STEP_ID = r"mj:rp:(?P<gid>[0-9]{1,18}):(?P<hand>[0-9]{1,4}):(?P<op>[fpnlatcwo]):(?P<step>[0-9]{1,4}):(?P<view>[0-4])"
SEAT_ID = r"mj:rs:(?P<gid>[0-9]{1,18}):(?P<hand>[0-9]{1,4}):(?P<step>[0-9]{1,4})"
REVIEW_ID = r"mj:rv:(?P<gid>[0-9]{1,18}):(?P<hand>[0-9]{1,4}):(?P<seat>[0-3])"
STEP_RX = re.compile(STEP_ID)
SEAT_RX = re.compile(SEAT_ID)
REVIEW_RX = re.compile(REVIEW_ID)
PICTURE = "replay.png"
COLOUR = discord.Colour.dark_teal()
GREY = discord.ButtonStyle.secondary
BLUE = discord.ButtonStyle.primary

export_group = CheckedGroup(
    name=locale_str("export"),
    description=locale_str(
        "Take the records out: a game's log, the server's hands",
    ),
    parent=mahjong,
)


def lang_of(interaction: discord.Interaction) -> str:
    """The asker's locale: ``zh`` (简体), ``zh-TW`` (繁體) or ``en``."""
    return locale_for(interaction.locale, "en")


def service_of(interaction: discord.Interaction) -> ReplayService:
    """The bot's replay service."""
    return bot_of(interaction.client).replay_service


def _split(code: str) -> tuple[int, int]:
    body = code.lstrip("#")
    game, hand = body.split("-")
    return int(game), int(hand)


# ------------------------------------------------------------------------ components


class StepButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=STEP_ID):
    """⏮ ◀ ▶ ⏭ and the jumps (go to ``step``), 🎞 (post the animation seen from ``view``)
    and 回放 (``o``: open the hand in a new replay, from the presser's seat), for hand
    ``#gid-hand``."""

    def __init__(
        self,
        game_id: int,
        hand_no: int,
        op: str,
        step: int,
        view: int,
        *,
        label: str | None = None,
        emoji: str | None = None,
        style: discord.ButtonStyle = GREY,
        disabled: bool = False,
    ) -> None:
        self.game_id, self.hand_no, self.op, self.step = game_id, hand_no, op, step
        self.shown = view  # ``view`` is the Item's own attribute
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji=emoji,
                style=style,
                disabled=disabled,
                custom_id=f"mj:rp:{game_id}:{hand_no}:{op}:{step}:{view}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> StepButton:
        return cls(
            int(match["gid"]),
            int(match["hand"]),
            match["op"],
            int(match["step"]),
            int(match["view"]),
            label=pressed_button(item).label,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await step_pressed(interaction, self.game_id, self.hand_no, self.op, self.step, self.shown)


async def step_pressed(
    interaction: discord.Interaction, game_id: int, hand_no: int, op: str, step: int, view: int
) -> None:
    """What a step button does: post the animation (``a``), open a new replay (``o``), or
    show ``step`` in the pressed message."""
    code = hand_code(game_id, hand_no)
    if op == "a":
        await post_animation(interaction, code, view)
    elif op == "o":
        await show_replay(interaction, code, 0, None, edit=False)
    else:
        await show_replay(interaction, code, step, view, edit=True)


class ReviewSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=REVIEW_ID):
    """The steps of a review (复盘): choosing a line opens the replay at its step, from the
    reviewed seat."""

    def __init__(
        self,
        game_id: int,
        hand_no: int,
        seat: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        self.game_id, self.hand_no, self.seat = game_id, hand_no, seat
        super().__init__(one_choice(f"mj:rv:{game_id}:{hand_no}:{seat}", options, placeholder, "0"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReviewSelect:
        return cls(int(match["gid"]), int(match["hand"]), int(match["seat"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await review_chosen(interaction, self.game_id, self.hand_no, self.seat)


async def review_chosen(
    interaction: discord.Interaction, game_id: int, hand_no: int, seat: int
) -> None:
    """A review line chosen: the replay at the moment of that decision, from the reviewed
    seat, the advice drawn on its hand (the tile played and the one suggested, ringed)."""
    values = chosen_values(interaction) or ["0"]
    step = int(values[0]) if str(values[0]).isdigit() else 0
    code = hand_code(game_id, hand_no)
    await show_replay(interaction, code, step, seat, edit=False, review=True)


#: A select menu holds at most this many options.
MAX_OPTIONS = 25


def review_view(
    rh: ReplayHand, seat: int, lines: list[ReviewLine], lang: str
) -> discord.ui.View | None:
    """The review's lines as a menu of steps (the first 25), each opening the replay there;
    None when there is no line."""
    if not lines:
        return None
    lang1 = one(lang)
    options: list[discord.SelectOption] = []
    seen: set[int] = set()
    for line in lines:
        if line.step in seen or len(options) == MAX_OPTIONS:
            continue
        seen.add(line.step)
        text = f"{line.step}. {line.text(lang1)}"
        label = text if len(text) <= 100 else text[:99] + "…"
        options.append(discord.SelectOption(label=label, value=str(line.step)))
    v = RoutedView()
    placeholder = t("replay.review_open", lang1)
    v.add_item(ReviewSelect(rh.game_id, rh.hand_no, seat, options, placeholder=placeholder))
    return v


def one_choice(
    custom_id: str,
    options: list[discord.SelectOption] | None,
    placeholder: str | None,
    fallback: str,
) -> discord.ui.Select[Any]:
    """A menu of one choice; rebuilt from its id alone (after a restart) it holds only
    ``fallback``, the options being on the message."""
    return discord.ui.Select(
        custom_id=custom_id,
        options=options or [discord.SelectOption(label="—", value=fallback)],
        placeholder=placeholder,
        min_values=1,
        max_values=1,
    )


class SeatSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SEAT_ID):
    """Whose concealed hand the replay shows: a seat, or all four open."""

    def __init__(
        self,
        game_id: int,
        hand_no: int,
        step: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        self.game_id, self.hand_no, self.step = game_id, hand_no, step
        super().__init__(
            one_choice(f"mj:rs:{game_id}:{hand_no}:{step}", options, placeholder, str(ALL))
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SeatSelect:
        return cls(int(match["gid"]), int(match["hand"]), int(match["step"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = chosen_values(interaction) or [str(ALL)]
        try:
            view = int(values[0])
        except (TypeError, ValueError):
            view = ALL
        view = view if 0 <= view <= ALL else ALL
        code = hand_code(self.game_id, self.hand_no)
        await show_replay(interaction, code, self.step, view, edit=True)


def replay_view(rh: ReplayHand, step: int, view: int, lang: str) -> discord.ui.View:
    """⏮ ◀ ▶ ⏭ 🎞 and the seat switch for ``step`` seen from ``view``."""
    v = RoutedView()
    g, h, last = rh.game_id, rh.hand_no, rh.steps
    v.add_item(StepButton(g, h, "f", 0, view, emoji="⏮", disabled=step <= 0))
    v.add_item(StepButton(g, h, "p", max(step - 1, 0), view, emoji="◀", disabled=step <= 0))
    v.add_item(
        StepButton(
            g, h, "n", min(step + 1, last), view, emoji="▶", style=BLUE, disabled=step >= last
        )
    )
    v.add_item(StepButton(g, h, "l", last, view, emoji="⏭", disabled=step >= last))
    v.add_item(StepButton(g, h, "a", step, view, label=t("replay.animate", one(lang))))
    options = [
        discord.SelectOption(
            label=f"{i + 1}. {who(rh.names, i, None, lang)}"[:100], value=str(i), default=view == i
        )
        for i in range(4)
    ]
    options.append(
        discord.SelectOption(
            label=t("replay.all_open", one(lang)), value=str(ALL), default=view == ALL
        )
    )
    v.add_item(SeatSelect(g, h, step, options, placeholder=t("replay.pick_view", one(lang))))
    jumps = (
        ("t", None if view == ALL else next_own_turn(rh, step, view), "replay.jump_turn"),
        ("c", next_claim(rh, step), "replay.jump_claim"),
        ("w", win_step(rh), "replay.jump_win"),
    )
    for op, to, key in jumps:
        label = t(key, one(lang))
        there = step if to is None else to
        v.add_item(StepButton(g, h, op, there, view, label=label, disabled=to in (None, step)))
    return v


def replay_embed(
    rh: ReplayHand,
    step: int,
    view: int,
    lang: str,
    *,
    picture: bool,
    advice: ReviewLine | None = None,
) -> discord.Embed:
    lang1 = one(lang)
    lines = []
    if advice is not None:  # the review line this step was opened for
        lines += [t("replay.advice_line", lang1, step=advice.step, text=advice.text(lang1)), ""]
    for n, text in move_lines(rh, step, view, lang1):
        lines.append(f"**▶ {text}**" if n == step else text)
    if step == 0:
        lines.insert(0, f"**▶ {t('replay.deal', lang1)}**")
    if step >= rh.steps:
        lines.append(t("replay.result_line", lang1, text=end_text(rh, lang1)))
    if not picture:  # the tiles the picture would show, in words
        lines.append("")
        lines.extend(tiles_lines(rh, step, view, lang1))
    embed = discord.Embed(
        title=t(
            "replay.replay_title", lang1, code=rh.code, variant=variant_name(rh.variant, lang1)
        ),
        description="\n".join(lines)[:4000] or "—",
        colour=COLOUR,
    )
    shown = (
        t("replay.view_all", lang1)
        if view == ALL
        else t("replay.view_seat", lang1, name=who(rh.names, view, None, lang1))
    )
    embed.set_footer(text=f"{t('replay.step', lang1, step=step, steps=rh.steps)} · {shown}")
    if picture:
        embed.set_image(url=f"attachment://{PICTURE}")
    return embed


async def _wants_pictures(interaction: discord.Interaction) -> bool:
    if not pictures.ENABLED:
        return False
    stats = bot_of(interaction.client).stats_service
    try:
        return await stats.wants_pictures(interaction.user.id)
    except Exception:
        return True


async def show_replay(
    interaction: discord.Interaction,
    code: str,
    step: int | None,
    view: int | None,
    *,
    edit: bool,
    share: bool = False,
    review: bool = False,
) -> None:
    """Show hand ``code`` at ``step`` from ``view``: a new message or the pressed one. With
    ``review``, ``step`` is a review line of seat ``view``: shown just before that play, the
    advice drawn."""
    lang = lang_of(interaction)
    if edit:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=not share, thinking=True)
    try:
        service = service_of(interaction)
        rh = await service.hand(interaction.guild_id, code)
    except ReplayRefused as refused:
        await send_ephemeral(interaction, refused.text(lang))
        return
    if view is None:
        seat = rh.seat_of(interaction.user.id)
        view = ALL if seat is None else seat
    step = clamp_step(rh, 0 if step is None else step)
    advice = None
    if review and view != ALL and step > 0:
        try:
            rh, advice = await service.review_line(interaction.guild_id, code, view, step)
        except ReplayRefused as refused:
            await send_ephemeral(interaction, refused.text(lang))
            return
        if advice is not None:
            step = advice.step - 1  # the moment of the decision
    files: list[discord.File] = []
    if await _wants_pictures(interaction):
        try:
            png = await service.picture(rh, step, view, lang, advice)
            files = [discord.File(io.BytesIO(png), filename=PICTURE)]
        except Exception:
            log.exception("replay picture of %s step %s failed", rh.code, step)
    embed = replay_embed(rh, step, view, lang, picture=bool(files), advice=advice)
    await interaction.edit_original_response(
        embed=embed, view=replay_view(rh, step, view, lang), attachments=files
    )


async def post_animation(interaction: discord.Interaction, code: str, view: int = ALL) -> None:
    """Post the whole hand as an animated picture in the channel, seen from ``view`` (a
    seat: only its hand open; :data:`ALL`: all four, 摊牌)."""
    lang = lang_of(interaction)
    await interaction.response.defer()
    try:
        service = service_of(interaction)
        rh = await service.hand(interaction.guild_id, code)
    except ReplayRefused as refused:
        await send_ephemeral(interaction, refused.text(lang))
        return
    try:
        gif = await service.animation(rh, lang, view)
    except Exception:
        log.exception("animation of %s failed", rh.code)
        await send_ephemeral(interaction, t("replay.animation_failed", one(lang)))
        return
    name = f"hand-{rh.game_id}-{rh.hand_no}.gif"
    await interaction.followup.send(
        t("replay.animation", one(lang), code=rh.code, steps=rh.steps),
        file=discord.File(io.BytesIO(gif), filename=name),
    )


# ------------------------------------------------------------------------------ the cog


SEAT_CHOICES = [Choice(name=locale_str(f"seat {i}"), value=i) for i in range(1, 5)]


class Replays(commands.Cog):
    """Replay, review and export finished hands."""

    def __init__(self, bot: MahjongBot) -> None:
        self.bot = bot
        self.service = bot.replay_service

    async def cog_load(self) -> None:
        bind_cog_commands(self)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A replay component that is not on its message (forged, or from an old client) is
        not routed by discord.py at all: answer it here, through the same checks (a hand in
        play is refused like the command refuses it)."""
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = custom_id_of(interaction)
        step = STEP_RX.fullmatch(custom_id)
        seat = SEAT_RX.fullmatch(custom_id)
        review = REVIEW_RX.fullmatch(custom_id)
        if (step is None and seat is None and review is None) or interaction.message is None:
            return
        if custom_id in component_ids(interaction.message.components):
            return  # discord.py routes it to the DynamicItem
        if step is not None:
            await step_pressed(
                interaction,
                int(step["gid"]),
                int(step["hand"]),
                step["op"],
                int(step["step"]),
                int(step["view"]),
            )
        elif review is not None:
            await review_chosen(
                interaction, int(review["gid"]), int(review["hand"]), int(review["seat"])
            )
        elif seat is not None:
            values = chosen_values(interaction) or [str(ALL)]
            view = int(values[0]) if str(values[0]).isdigit() else ALL
            code = hand_code(int(seat["gid"]), int(seat["hand"]))
            await show_replay(
                interaction, code, int(seat["step"]), view if view <= ALL else ALL, edit=True
            )

    async def _hand_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        try:
            found = await self.service.choices(interaction.guild_id, current, lang_of(interaction))
        except Exception:
            log.exception("replay autocomplete failed")
            return []
        return [Choice(name=label, value=code) for label, code in found]

    @mahjong.command(
        name=locale_str("replay"),
        description=locale_str("Step through a finished hand from any seat"),
    )
    @app_commands.rename(
        hand=locale_str("hand"),
        seat=locale_str("seat"),
        share=locale_str("share"),
    )
    @app_commands.describe(
        hand=locale_str("The hand, #game-hand (e.g. #12-3)"),
        seat=locale_str(
            "Whose hand to show (default: yours, or all four)",
        ),
        share=locale_str("Show it in the channel (default: only to you)"),
    )
    @app_commands.choices(seat=SEAT_CHOICES)
    @app_commands.guild_only()
    async def replay(
        self,
        interaction: discord.Interaction,
        hand: app_commands.Range[str, 1, 40],
        seat: int | None = None,
        share: bool = False,
    ) -> None:
        await show_replay(
            interaction, hand, 0, None if seat is None else seat - 1, edit=False, share=share
        )

    @replay.autocomplete("hand")
    async def _replay_hand(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        return await self._hand_choices(interaction, current)

    @mahjong.command(
        name=locale_str("review"),
        description=locale_str(
            "Where one seat's play in a finished hand differs from the analysis",
        ),
    )
    @app_commands.rename(hand=locale_str("hand"), seat=locale_str("seat"))
    @app_commands.describe(
        hand=locale_str("The hand, #game-hand (e.g. #12-3)"),
        seat=locale_str("Whose play (default: yours)"),
    )
    @app_commands.choices(seat=SEAT_CHOICES)
    @app_commands.guild_only()
    async def review(
        self,
        interaction: discord.Interaction,
        hand: app_commands.Range[str, 1, 40],
        seat: int | None = None,
    ) -> None:
        lang = lang_of(interaction)
        lang1 = one(lang)
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            if seat is None:
                rh0 = await self.service.hand(interaction.guild_id, hand)
                mine = rh0.seat_of(interaction.user.id)
                if mine is None:
                    raise ReplayRefused("pick_seat")
                seat = mine + 1
            rh, lines = await self.service.review(interaction.guild_id, hand, seat - 1)
        except ReplayRefused as refused:
            await send_ephemeral(interaction, refused.text(lang))
            return
        name = who(rh.names, seat - 1, None, lang1)
        shown = [f"{x.step}. {x.text(lang1)}" for x in lines]
        text = "\n".join(shown) if shown else t("replay.review_none", lang1, name=name)
        if len(text) > 4000:
            kept: list[str] = []
            for line in shown:
                if sum(len(x) + 1 for x in kept) + len(line) > 3900:
                    break
                kept.append(line)
            text = "\n".join(kept) + "\n" + t("replay.review_more", lang1, n=len(shown) - len(kept))
        embed = discord.Embed(
            title=t("replay.review_title", lang1, code=rh.code, name=name)[:256],
            description=text,
            colour=COLOUR,
        )
        embed.set_footer(text=t("replay.review_footer", lang1))
        view = review_view(rh, seat - 1, lines, lang1)
        if view is None:
            await interaction.edit_original_response(embed=embed)
        else:
            await interaction.edit_original_response(embed=embed, view=view)

    @review.autocomplete("hand")
    async def _review_hand(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        return await self._hand_choices(interaction, current)

    @export_group.command(
        name=locale_str("game"),
        description=locale_str("A game's log as JSON (replayable offline)"),
    )
    @app_commands.rename(game=locale_str("id"))
    @app_commands.describe(game=locale_str("The game number (#12)"))
    @app_commands.guild_only()
    async def export_game(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1, 10**15]
    ) -> None:
        lang = lang_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            data, hands, going = await self.service.export_game(interaction.guild_id, game)
        except ReplayRefused as refused:
            await send_ephemeral(interaction, refused.text(lang))
            return
        text = t("replay.export_game", one(lang), id=game, hands=hands)
        if going:
            text += "\n" + t("replay.export_unfinished", one(lang), hands=hands)
        await interaction.followup.send(
            text,
            file=discord.File(io.BytesIO(data), filename=f"mahjong-game-{game}.json"),
            ephemeral=True,
        )

    @export_game.autocomplete("game")
    async def _export_game_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[int]]:
        found = await self._hand_choices(interaction, current)
        seen: dict[int, str] = {}
        for c in found:
            game_id, _hand = _split(str(c.value))
            seen.setdefault(game_id, c.name.split(" · ", 1)[-1])
        return [Choice(name=f"#{g} · {label}"[:100], value=g) for g, label in seen.items()][:25]

    @export_group.command(
        name=locale_str("server"),
        description=locale_str(
            "All of this server's recorded hands as CSV (Manage Server)",
        ),
    )
    @app_commands.guild_only()
    async def export_server(self, interaction: discord.Interaction) -> None:
        require_manager(interaction)  # checked here too: a server may re-grant the command
        lang = lang_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            data, hands = await self.service.export_server(interaction.guild_id)
        except ReplayRefused as refused:
            await send_ephemeral(interaction, refused.text(lang))
            return
        await interaction.followup.send(
            t("replay.export_server", one(lang), hands=hands),
            file=discord.File(
                io.BytesIO(data), filename=f"mahjong-hands-{interaction.guild_id}.csv"
            ),
            ephemeral=True,
        )


async def setup(bot: MahjongBot) -> None:
    """Extension entry point: register the persistent items and add the cog over the bot's
    replay service."""
    bot.add_dynamic_items(StepButton, SeatSelect, ReviewSelect)
    await bot.add_cog(Replays(bot))


__all__ = [
    "Replays",
    "ReviewSelect",
    "SeatSelect",
    "StepButton",
    "export_group",
    "open_button",
    "review_view",
    "setup",
    "show_replay",
]
