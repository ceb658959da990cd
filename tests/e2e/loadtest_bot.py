"""Load test through the real bot: ``bot.py`` (cogs, service, pictures, delivery) against the
fake Discord at the HTTP boundary (prints figures, asserts nothing; issue 15).

``python -m tests.e2e.loadtest_bot --tree PATH --tables 100 [--seconds 120] [--think 3]``

``--tables`` tables of one human and three AI seats, each in its own channel, are opened
with ``/mahjong new`` and Start, ten at a time. Each table's human starts playing as soon
as the table is open, pressing what a simple player would (win, pass, else discard the drawn
tile; 准备 after a hand) every ``--think`` seconds on average (uniformly 0.5–1.5×), or as
soon as their hand DM offers a choice with ``--think 0`` (flat out). The figures count the
``--seconds`` after the last table is open. ``--ai-pace`` sets ``AI_PACE_SECONDS`` (default
0: the AI answers at once, so a table moves at its human's pace) and ``--claim-hold``
``CLAIM_HOLD_SECONDS`` (default 0: a discard's claim window is not held); ``--ai-pace 0.8
--claim-hold 1.5`` runs the bot as it ships. ``--no-pictures`` runs it with
``MAHJONG_PICTURES=false`` (text only: what the pictures cost, bot and workers, is the
difference). ``--tree``: the bot to run (its ``bot.py``, with ``PYTHONPATH``
set to it), so an older release runs under the same script and the same fake in the same
run: ``git worktree add /tmp/base 9c936b7`` then ``--tree /tmp/base``.

Figures (a table, then one JSON line): ``presses`` answered, ``presses_per_s``, ``p50_ms`` /
``p99_ms`` / ``max_ms`` press → answered (the fake's clock: interaction sent → callback),
``late`` (answered past 3 s, or never), ``refused_presses`` (answered with a follow-up:
refused, e.g. a button from an earlier moment — nothing played) and ``moves_per_s`` (the
presses that played), ``table_lag_p50_s`` / ``table_lag_p99_s`` / ``table_lag_max_s``
(how long the table showed an older game than the player had made: from a move's answer —
a discard or a win of the table's human, acknowledged — to the first version of the game's
table message whose text shows that move or a later state: a later hand, the hand over, or
the human's discards of the hand — their river plus those claimed into others' melds, which
name their feeder — numbering at least that move's; an edit that still shows the older
table does not count, see :class:`TableShown`; moves in the last 12 s are left out,
``table_lag_moves`` are those measured and ``table_lag_unshown`` those no table showed by
the end, counted with the time to the end; ``table_next_edit_p99_s`` is the former figure,
a move → the next edit of the table, whatever it showed), ``bot_cpu_cores`` (CPU the bot and its picture workers used, in cores),
``bot_cpu_ms_per_press`` / ``driver_cpu_ms_per_press`` (the bot's CPU, and this process's —
the fake Discord and the players — per answered press: what a press costs whatever the
load; the bot's split into ``bot_loop_cpu_ms_per_press``, its own process, and
``picture_cpu_ms_per_press``, its picture workers), ``bot_cpu_wait_share`` (of the time the
bot's threads could run, the share they waited for a core held by another process — the
fake and players here, the picture workers, anything else on the machine), ``open_ms_per_table`` (``opened_s`` per table), ``requests_per_press`` (REST calls
the bot made, interaction answers included; ``requests_by_route``: per press, by method and
route, busiest first), ``global_429s`` (with ``--global-limit N``,
the fake's global limit of N requests/s outside interaction answers — Discord's is 50 — the
global 429s the bot got; the bot keeps its own budget, ``DISCORD_REQUESTS_PER_SECOND``, at
its default then, and not at all without ``--global-limit`` — a bot whose limit Discord raised
— unless ``--bot-budget R`` sets it: ``bot_budget``) and ``dm_channel_opens`` (``POST
/users/@me/channels``: discord.py keeps only 128 DM channels, so past 128 players a DM may
cost a second request), ``cores`` and ``load_avg``.

``--with-floor`` then runs the same window (tables, think time, seconds) against the floor
bot, ``benchmarks/floor_bot.py`` (the cost yardstick: a deferred update, one insert, one
edit per press, on the same stack, fake and environment), and adds to the figures
``floor_bot_cpu_ms_per_press``, ``floor_p99_ms``, ``ratio_to_floor`` (the bot's CPU per press
÷ the floor's) and ``floor`` (its figures: the same CPU and latency figures, ``edit_p50_ms`` /
``edit_p99_ms`` press → edit shown, ``rows_written``). ``--floor`` runs the floor bot alone.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .fake_discord import FakeDiscord
from .fake_discord.state import FakeChannel, FakeMessage, FakeUser, snowflake
from .game_driver import choose, parse_id
from .harness import PLUGINS_DIR, BotProcess

ACK_DEADLINE = 3.0


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1)))]


#: the parts of a REST path that name one thing (snowflakes, interaction tokens)
ROUTE_IDS = re.compile(r"/(\d+|itok_[^/]+|[A-Za-z0-9_-]{20,})(?=/|$)")


def routes_per_press(calls: list[Any], presses: int) -> dict[str, float]:
    """REST calls per answered press by route (ids and tokens replaced by ``:id``), busiest
    first: where a press's requests go."""
    counts = Counter(f"{call.method} {re.sub(ROUTE_IDS, '/:id', call.path)}" for call in calls)
    return {route: round(n / max(1, presses), 2) for route, n in counts.most_common()}


#: the hand in a table's or hand DM's title (``第3/8局``, ``第1/2圈 · 第3局``, ``hand 3/8``)
HAND_NO = re.compile(r"第(\d+)(?:/\d+)?局|\bhand (\d+)", re.IGNORECASE)
#: a seat's head line on the table: ``▶ **name**（东·庄）　12分　手牌 13 张``
SEAT_HEAD = re.compile(r"^(?:▶ )?\*\*(.+?)\*\*")
#: a claimed meld's feeder (``碰[5m5m5m]（上家）``), as seats after the meld's owner
FEEDERS = {"下家": 1, "对家": 2, "上家": 3, "from right": 1, "from across": 2, "from left": 3}
FEEDER = re.compile(r"[（(]([^）)]+)[）)]$")
RIVER_WORDS = ("牌河", "discards")
MELD_WORDS = ("副露", "melds")
HAND_OVER = ("本局结束", "Hand over")


def hand_of(title: str) -> int | None:
    """The hand number a title names (the last one: a round's title names the round first)."""
    found = HAND_NO.findall(title)
    if not found:
        return None
    zh, en = found[-1]
    return int(zh or en)


@dataclass(frozen=True)
class Move:
    """A move of a table's human, answered: a ``discard`` (their ``nth`` of the hand) or a
    ``win``, acknowledged ``at`` (the fake's monotonic clock)."""

    gid: int
    name: str
    hand: int
    kind: str
    nth: int
    at: float


@dataclass(frozen=True)
class TableShown:
    """What one version of a table message shows: the hand, whether it is over, and per seat
    (in seat order) its name, how many tiles its river holds and the seats its claimed melds
    came from."""

    hand: int
    over: bool
    seats: tuple[tuple[str, int, tuple[int, ...]], ...]

    def discards(self, name: str) -> int | None:
        """How many discards the seat ``name`` has made this hand, as shown: its river plus
        its discards claimed into the others' melds (None: no such seat)."""
        mine = next((i for i, seat in enumerate(self.seats) if seat[0] == name), None)
        if mine is None:
            return None
        claimed = sum(
            1
            for i, (_name, _river, fed_by) in enumerate(self.seats)
            if i != mine
            for feeder in fed_by
            if feeder == mine
        )
        return self.seats[mine][1] + claimed

    def shows(self, move: Move) -> bool:
        """Whether this table shows the game at or past ``move``."""
        if self.hand != move.hand:
            return self.hand > move.hand
        if self.over:
            return True
        if move.kind != "discard":
            return False  # a win shows as the hand over
        made = self.discards(move.name)
        return made is not None and made >= move.nth


def table_shown(version: dict[str, Any]) -> TableShown | None:
    """Read a table message's version (:meth:`FakeMessage.versions`), or None when it is
    not a hand's table (the lobby)."""
    embeds = version.get("embeds") or []
    if not embeds:
        return None
    hand = hand_of(str(embeds[0].get("title") or ""))
    if hand is None:
        return None
    over = False
    seats: list[list[Any]] = []
    for raw in str(embeds[0].get("description") or "").splitlines():
        line = raw.strip("\u3000 ")
        head = SEAT_HEAD.match(line)
        if head:
            seats.append([head.group(1), 0, []])
            continue
        if line in HAND_OVER:
            over = True
        label, colon, rest = line.partition("：")  # Chinese; English writes ": "
        if not colon:
            label, colon, rest = line.partition(": ")
        if not colon or not seats:
            continue
        if label in RIVER_WORDS:
            seats[-1][1] = 0 if rest.strip() in ("", "—") else len(rest.split("·"))
        elif label in MELD_WORDS:
            owner = len(seats) - 1
            for meld in rest.split("  "):
                feeder = FEEDER.search(meld.strip())
                if feeder and feeder.group(1) in FEEDERS:
                    seats[-1][2].append((owner + FEEDERS[feeder.group(1)]) % 4)
    return TableShown(hand, over, tuple((n, r, tuple(f)) for n, r, f in seats))


def table_lags(
    moves: list[Move], shown: dict[int, list[tuple[float, TableShown]]], end: float
) -> tuple[list[float], int]:
    """Each move's table lag (see the module docstring) and how many moves no table showed
    by ``end`` (their lag: the time to ``end``). ``shown``: per game, each version of its
    table messages, oldest first, with when it was shown."""
    lags: list[float] = []
    unshown = 0
    for move in moves:
        seen = next((at for at, table in shown.get(move.gid, []) if table.shows(move)), None)
        if seen is None:
            unshown += 1
            seen = end
        lags.append(max(0.0, seen - move.at))
    return lags, unshown


class ByChannel(dict):
    """The fake's message store, also indexed by channel (scanning every message per look
    would make the driver, not the bot, the bottleneck)."""

    def __init__(self) -> None:
        super().__init__()
        self.channel: dict[int, list[FakeMessage]] = {}

    def __setitem__(self, key: int, msg: FakeMessage) -> None:
        if key not in self:
            self.channel.setdefault(msg.channel_id, []).append(msg)
        super().__setitem__(key, msg)


class TreeBot(BotProcess):
    """``bot.py`` of another tree (an older release), with only that tree on the path."""

    def __init__(self, fake: FakeDiscord, workdir: Path, tree: Path, env: dict[str, Any]) -> None:
        super().__init__(fake, workdir, env=env)
        self.tree = tree

    def environment(self) -> dict[str, str]:
        env = super().environment()
        env["PYTHONPATH"] = os.pathsep.join([str(self.tree), str(PLUGINS_DIR)])
        return env

    async def start(self) -> None:
        from . import harness

        saved = harness.BOT_SCRIPT
        harness.BOT_SCRIPT = self.tree / "bot.py"
        try:
            await super().start()
        finally:
            harness.BOT_SCRIPT = saved


FLOOR_SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "floor_bot.py"
FLOOR_PRESS = "floor:press"


class FloorBotProcess(BotProcess):
    """``benchmarks/floor_bot.py`` (the floor bot) with the bot's environment and wiring:
    this tree and the plugins on its path, the same fake URLs, token, database setting."""

    async def start(self) -> None:
        from . import harness

        saved = harness.BOT_SCRIPT
        harness.BOT_SCRIPT = FLOOR_SCRIPT
        try:
            await super().start()
        finally:
            harness.BOT_SCRIPT = saved


class Table:
    """One table: its humans (the first opens the game, the others join it), channel, game,
    and what each human last pressed."""

    def __init__(
        self, user: FakeUser, channel: FakeChannel, others: Sequence[FakeUser] = ()
    ) -> None:
        self.user = user
        self.users = [user, *others]
        self.channel = channel
        self.gid = 0
        self.lobby: FakeMessage | None = None
        self.last: dict[int, str] = {}  # user id → the stamp of their last press
        self.presses = 0
        self.games = 1


class Load:
    def __init__(self, fake: FakeDiscord, messages: ByChannel, args: argparse.Namespace) -> None:
        self.fake = fake
        self.messages = messages
        self.args = args
        self.latencies: list[float] = []
        self.answered: list[Any] = []  # the interactions answered (their follow-ups: below)
        self.late = 0
        self.moves: list[tuple[int, float]] = []  # (game, when the move was acknowledged)
        #: every discard or win pressed, from the first: (table, who, hand, kind, interaction)
        self.plays: list[tuple[Table, FakeUser, int, str, Any]] = []
        self.errors = 0
        self.late_opening = 0  # /mahjong new or Start answered late (or never)
        self.stop_at = float("inf")  # set when the last table is open

    # -- finding messages (through the channel index)

    def in_channel(self, channel_id: int) -> list[FakeMessage]:
        return self.messages.channel.get(channel_id, [])

    def hand_dm(self, table: Table, user: FakeUser) -> FakeMessage | None:
        dm = self.fake.dm_channel_of(user)
        if dm is None:
            return None
        tag = f"#{table.gid}"
        for msg in reversed(self.in_channel(dm.id)):
            if msg.deleted:
                continue
            for embed in msg.embeds:
                footer = (embed.get("footer") or {}).get("text", "")
                if footer == tag or footer.startswith(tag + " "):
                    return msg
        return None

    def play_messages(self, table: Table) -> list[FakeMessage]:
        """Messages where the game plays: its thread (on the lobby), else the channel."""
        thread = self.fake.thread_on(table.lobby) if table.lobby is not None else None
        where = thread.id if thread is not None else table.channel.id
        return self.in_channel(where)

    def ready_button(self, table: Table) -> tuple[FakeMessage, str] | None:
        """准备 on the newest result of the game, if it is offered."""
        for msg in reversed(self.play_messages(table)):
            ids = msg.custom_ids()
            if f"mj:{table.gid}:hand" in ids:
                continue
            for cid in ids:
                if cid.startswith(f"mj:{table.gid}:next:"):
                    return msg, cid
        return None

    def game_over(self, table: Table) -> bool:
        """Whether the game's final standings are shown (their 再来一局 button: in the
        channel, where the lobby was, when the game played in a thread)."""
        rematch = f"mj:{table.gid}:rematch"
        shown = [*self.play_messages(table), *self.in_channel(table.channel.id)]
        return any(rematch in msg.custom_ids() for msg in reversed(shown))

    def table_messages(self, table: Table) -> list[FakeMessage]:
        """The game's table messages (one per hand): those that carry or carried 🀄 My hand."""
        return [
            msg
            for msg in self.play_messages(table)
            if any(
                f"mj:{table.gid}:hand"
                in FakeMessage(0, 0, msg.author, components=v["components"]).custom_ids()
                for v in msg.versions()
            )
        ]

    def table_edits(self, table: Table) -> list[float]:
        """When each table message of the game was edited (fake monotonic clock)."""
        return sorted(at for msg in self.table_messages(table) for at in msg.edit_times)

    def tables_shown(self, table: Table) -> list[tuple[float, TableShown]]:
        """Every version of the game's table messages that shows a hand, with when it was
        shown (created or edited), oldest first."""
        out = []
        for msg in self.table_messages(table):
            times = [msg.created_at, *msg.edit_times]
            for at, version in zip(times, msg.versions(), strict=False):
                shown = table_shown(version)
                if shown is not None:
                    out.append((at, shown))
        return sorted(out, key=lambda pair: pair[0])

    # -- opening tables

    async def open(self, table: Table) -> None:
        """``/mahjong new`` in the table's channel, then Start (empty seats take AI). A late
        answer (Discord's 10062) is counted, not waited for: the lobby still opens."""
        fake = self.fake
        ix = await fake.slash(
            table.user, "mahjong new", {"variant": "shangrao"}, channel=table.channel
        )

        def lobby() -> FakeMessage | None:  # (the newest: a renewed table opens another)
            for msg in reversed(self.in_channel(table.channel.id)):
                for cid in msg.custom_ids():
                    if cid.endswith(":start"):
                        return msg
            return None

        table.lobby = await fake.wait_for(lobby, 60, what="a lobby")
        table.gid = parse_id(next(c for c in table.lobby.custom_ids() if c.endswith(":start")))[0]
        joined = []
        for other in table.users[1:]:  # (one after the other, as people click)
            joined.append(await fake.click(other, table.lobby, f"mj:{table.gid}:join"))
            with contextlib.suppress(TimeoutError):
                await joined[-1].wait_ack(ACK_DEADLINE * 2 / fake.timeout_scale)
        start = await fake.click(table.user, table.lobby, f"mj:{table.gid}:start")
        for done in (ix, *joined, start):
            with contextlib.suppress(TimeoutError):
                await done.wait_ack(ACK_DEADLINE * 2 / fake.timeout_scale)
            if not done.acknowledged or done.rejected_late:
                self.late_opening += 1

    # -- playing

    async def press(self, table: Table, user: FakeUser, msg: FakeMessage, cid: str) -> None:
        kind = parse_id(cid)[1]
        hand = hand_of(str(msg.embeds[0].get("title") or "")) if msg.embeds else None
        ix = await self.fake.click(user, msg, cid, force=True)
        with contextlib.suppress(TimeoutError):
            await ix.wait_ack(ACK_DEADLINE * 4 / self.fake.timeout_scale)
        latency = ix.ack_latency
        if latency is None or ix.rejected_late or latency > ACK_DEADLINE:
            self.late += 1
        if latency is not None:
            self.latencies.append(latency)
            self.answered.append(ix)
            table.presses += 1
            if ix.response_type == 7 and kind != "next":
                self.moves.append((table.gid, ix.acked_at or time.monotonic()))
            if ix.response_type == 7 and kind in ("discard", "win") and hand is not None:
                self.plays.append((table, user, hand, kind, ix))

    def moves_made(self, since: float, until: float) -> list[Move]:
        """The discards and wins that played (a press answered with a follow-up was refused),
        acknowledged between ``since`` and ``until``, each discard numbered in its hand."""
        made: Counter[tuple[int, int, int]] = Counter()
        out = []
        for table, user, hand, kind, ix in self.plays:
            if ix.followups:
                continue
            mine = (table.gid, user.id, hand)
            if kind == "discard":
                made[mine] += 1
            at = ix.acked_at or 0.0
            if since <= at <= until:
                out.append(Move(table.gid, user.name, hand, kind, made[mine], at))
        return out

    def places(self, table: Table, user: FakeUser) -> list[int]:
        """Where a change can give a human something to press: their DM channel (or
        their user id, until it opens) and the table's channel and thread. The human waits for
        these only, not for every change of the fake (that wakes every table on each REST
        answer: a cost per change that grows with the number of tables)."""
        dm = self.fake.dm_channel_of(user)
        places = [dm.id if dm is not None else user.id, table.channel.id]
        thread = self.fake.thread_on(table.lobby) if table.lobby is not None else None
        if thread is not None:
            places.append(thread.id)
        return places

    async def play(self, table: Table, user: FakeUser) -> None:
        """One human of the table plays until the window ends (the table's first human opens
        the next game with ``--renew``)."""
        fake = self.fake
        think = self.args.think
        if think > 0:
            await asyncio.sleep(random.uniform(0, think))
        while time.monotonic() < self.stop_at:
            places = self.places(table, user)
            marks = fake.place_changes.marks(places)
            pressed = False
            try:
                msg = self.hand_dm(table, user)
                cid = choose(fake.messages[msg.id]) if msg is not None else None
                target = fake.messages[msg.id] if msg is not None else None
                if cid is None:
                    ready = self.ready_button(table)
                    if ready is not None:
                        target, cid = ready
                if cid is not None and target is not None:
                    stamp = f"{target.id}:{len(target.history)}:{cid}"
                    if stamp != table.last.get(user.id):
                        table.last[user.id] = stamp
                        await self.press(table, user, target, cid)
                        pressed = True
                elif self.args.renew and user is table.user and self.game_over(table):
                    await self.open(table)  # the next game, as the group would
                    table.games += 1
                    pressed = True
            except Exception:
                self.errors += 1
            if pressed and think > 0:
                # (no longer than the run: the figures' window ends at ``stop_at``)
                pause = think * random.uniform(0.5, 1.5)
                await asyncio.sleep(max(0.0, min(pause, self.stop_at - time.monotonic())))
            elif not pressed:
                # (a change of these wakes it; the time-out is only a safety net, and each
                # waking table looks at its messages again: a cost per table per second)
                await fake.place_changes.wait(places, marks, 2.0)


class FloorLoad:
    """The floor bot's tables: ``/floor`` in each channel posts one message with a button;
    the table's human presses it every ``--think`` s (uniformly 0.5–1.5×, as for the bot),
    or as soon as the previous press's edit shows with ``--think 0``."""

    def __init__(self, fake: FakeDiscord, messages: ByChannel, args: argparse.Namespace) -> None:
        self.fake = fake
        self.messages = messages
        self.args = args
        self.latencies: list[float] = []
        self.edit_lags: list[float] = []  # press sent → its edit shown
        self.late = 0
        self.unedited = 0  # presses answered whose edit did not show within 3 s
        self.errors = 0
        self.late_opening = 0
        self.posts: dict[int, FakeMessage] = {}  # channel id → the floor bot's message
        self.stop_at = float("inf")

    async def open(self, table: Table) -> None:
        fake = self.fake
        ix = await fake.slash(table.user, "floor", channel=table.channel)

        def post() -> FakeMessage | None:
            for msg in reversed(self.messages.channel.get(table.channel.id, [])):
                if FLOOR_PRESS in msg.custom_ids():
                    return msg
            return None

        self.posts[table.channel.id] = await fake.wait_for(post, 60, what="the floor message")
        if not ix.acknowledged or ix.rejected_late:
            self.late_opening += 1

    async def play(self, table: Table) -> None:
        fake = self.fake
        think = self.args.think
        place = [table.channel.id]
        if think > 0:
            await asyncio.sleep(random.uniform(0, think))
        while time.monotonic() < self.stop_at:
            try:
                msg = fake.messages[self.posts[table.channel.id].id]
                edits = len(msg.edit_times)
                ix = await fake.click(table.user, msg, FLOOR_PRESS)
                with contextlib.suppress(TimeoutError):
                    await ix.wait_ack(ACK_DEADLINE * 4 / fake.timeout_scale)
                latency = ix.ack_latency
                if latency is None or ix.rejected_late or latency > ACK_DEADLINE:
                    self.late += 1
                if latency is not None:
                    self.latencies.append(latency)
                # the press's edit (the next press reads the count it shows)
                deadline = time.monotonic() + ACK_DEADLINE
                while len(msg.edit_times) <= edits and time.monotonic() < deadline:
                    marks = fake.place_changes.marks(place)
                    await fake.place_changes.wait(place, marks, deadline - time.monotonic())
                if len(msg.edit_times) > edits:
                    self.edit_lags.append(msg.edit_times[edits] - ix.sent_at)
                elif latency is not None:
                    self.unedited += 1
            except Exception:
                self.errors += 1
                await asyncio.sleep(1.0)
                continue
            if think > 0:
                pause = think * random.uniform(0.5, 1.5)
                await asyncio.sleep(max(0.0, min(pause, self.stop_at - time.monotonic())))


def fake_with_tables(args: argparse.Namespace) -> tuple[FakeDiscord, ByChannel, list[Table]]:
    """A fake Discord (not started) with ``args.tables`` tables, each a channel of its own
    with ``args.humans`` players (the empty seats take AI)."""
    humans = getattr(args, "humans", 1)
    names = [f"p{i}" for i in range(args.tables * humans)]
    fake = FakeDiscord(user_names=names, ack_deadline=ACK_DEADLINE, timeout_scale=6)
    messages = ByChannel()
    fake.messages = messages  # type: ignore[assignment]
    fake.limit_global(args.global_limit)
    tables = []
    for i in range(args.tables):
        channel = FakeChannel(
            id=snowflake(), type=0, name=f"table-{i}", guild_id=fake.guild_id, position=i + 1
        )
        fake.channels[channel.id] = channel
        users = fake.users[i * humans : (i + 1) * humans]
        tables.append(Table(users[0], channel, users[1:]))
    return fake, messages, tables


async def open_tables(
    load: Load | FloorLoad, tables: list[Table]
) -> tuple[float, list[asyncio.Task[None]]]:
    """Open the tables, ten at a time; each table's human plays from the moment it is open
    (as on a real server: nobody waits for 999 other tables, and an idle human would go 托管
    on the turn timeout and leave the AI playing flat out). Returns the seconds it took and
    the players' tasks; the figures count from when the last table is open."""
    started = time.monotonic()
    players: list[asyncio.Task[None]] = []

    async def open_and_play(table: Table) -> None:
        await load.open(table)
        if isinstance(load, FloorLoad):  # (one press per table every think time)
            players.append(asyncio.create_task(load.play(table)))
            return
        for user in table.users:
            players.append(asyncio.create_task(load.play(table, user)))

    for i in range(0, len(tables), 10):
        await asyncio.gather(*(open_and_play(t) for t in tables[i : i + 10]))
    return time.monotonic() - started, players


class Window:
    """The measured window: what the bot (and its workers) and this process spent in CPU,
    and the REST calls the fake received, from its making to :meth:`end`."""

    def __init__(self, fake: FakeDiscord, bot: BotProcess) -> None:
        self.fake = fake
        self.bot_pid = bot.process.pid if bot.process is not None else 0
        self.began = time.monotonic()
        self.bot_before, self.own_before = tree_cpu_s(self.bot_pid), own_cpu_s()
        self.calls_before = len(fake.calls)
        self.hits_before = len(fake.ratelimit_hits)
        self.elapsed = 0.0
        self.calls: list[Any] = []
        self.hits: list[Any] = []

    def end(self, answered: int) -> dict[str, Any]:
        """Close the window; the cost figures per answered press (``answered`` presses)."""
        self.elapsed = elapsed = time.monotonic() - self.began
        self.calls = self.fake.calls[self.calls_before :]
        self.hits = self.fake.ratelimit_hits[self.hits_before :]
        loop_cpu, picture_cpu, bot_waited = (
            after - before
            for after, before in zip(tree_cpu_s(self.bot_pid), self.bot_before, strict=True)
        )
        bot_cpu, own_cpu = loop_cpu + picture_cpu, own_cpu_s() - self.own_before
        presses = max(1, answered)
        return {
            "bot_cpu_cores": round(bot_cpu / elapsed, 2),
            "bot_cpu_ms_per_press": round(bot_cpu * 1000 / presses, 2),
            "bot_loop_cpu_ms_per_press": round(loop_cpu * 1000 / presses, 2),
            "picture_cpu_ms_per_press": round(picture_cpu * 1000 / presses, 2),
            # (a thread that ended took its waits along: never below 0)
            "bot_cpu_wait_share": round(max(0.0, bot_waited) / max(1e-9, bot_waited + bot_cpu), 2),
            "driver_cpu_ms_per_press": round(own_cpu * 1000 / presses, 2),
            "requests_per_press": round(len(self.calls) / presses, 2),
            "requests_by_route": routes_per_press(self.calls, presses),
        }


async def run_floor(args: argparse.Namespace) -> dict[str, Any]:
    """The same window against the floor bot (``benchmarks/floor_bot.py``): its CPU and
    latency figures, named as the bot's."""
    fake, messages, tables = fake_with_tables(args)
    await fake.start()
    work = Path(tempfile.mkdtemp(prefix="mj-loadfloor-"))
    bot = FloorBotProcess(fake, work)
    load = FloorLoad(fake, messages, args)
    try:
        await bot.start_ready(60)
        opened, players = await open_tables(load, tables)
        print(f"{len(tables)} floor tables open in {opened:.1f} s", file=sys.stderr)
        load.latencies.clear()
        load.edit_lags.clear()
        load.late = load.unedited = 0
        window = Window(fake, bot)  # opens now
        began = window.began
        load.stop_at = began + args.seconds
        await asyncio.sleep(args.seconds)
        answered = len(load.latencies)
        cost = window.end(answered)
        elapsed, window_hits = window.elapsed, window.hits
        await asyncio.gather(*players)
        rows = bot.rows("SELECT COUNT(*) FROM presses")[0][0]
        return {
            "bot": "floor",
            "tables": len(tables),
            "think_s": args.think,
            "opened_s": round(opened, 1),
            "seconds": round(elapsed, 1),
            "presses": answered,
            "presses_per_s": round(answered / elapsed, 1),
            "p50_ms": round(pct(load.latencies, 0.5) * 1000, 1),
            "p99_ms": round(pct(load.latencies, 0.99) * 1000, 1),
            "max_ms": round(max(load.latencies, default=0) * 1000, 1),
            "late": load.late,
            "edit_p50_ms": round(pct(load.edit_lags, 0.5) * 1000, 1),
            "edit_p99_ms": round(pct(load.edit_lags, 0.99) * 1000, 1),
            "unedited": load.unedited,
            "late_opening": load.late_opening,
            **cost,
            "global_limit": args.global_limit,
            "global_429s": sum(1 for h in window_hits if h.is_global),
            "rows_written": rows,
            "driver_errors": load.errors,
            "tracebacks": len(bot.unexpected_tracebacks()),
            **machine(),
        }
    finally:
        await bot.stop(30)
        await fake.stop()


def proc_stats() -> dict[int, tuple[int, float]]:
    """Every process's parent and CPU seconds so far (user + system), from ``/proc``; empty
    where there is none."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    stats: dict[int, tuple[int, float]] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            stats[int(entry.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
    return stats


def descendants(pid: int, stats: dict[int, tuple[int, float]]) -> list[int]:
    """The living descendants of process ``pid`` (the bot's picture workers)."""
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        children = [child for child, (parent, _cpu) in stats.items() if parent == current]
        out += children
        todo += children
    return out


def tree_cpu_s(pid: int) -> tuple[float, float, float]:
    """CPU seconds (user + system) used so far by process ``pid`` (the bot's event loop and
    its threads), by its living descendants (the picture workers), and the seconds all of
    their threads spent runnable but waiting for a free core (``schedstat``: what other
    processes took from them); zeros where there is no ``/proc``."""
    stats = proc_stats()
    family = descendants(pid, stats)
    own = stats.get(pid, (0, 0.0))[1]
    children = sum(stats.get(child, (0, 0.0))[1] for child in family)
    waited = 0.0
    for current in (pid, *family):
        for task in Path(f"/proc/{current}/task").glob("[0-9]*"):  # every thread
            with contextlib.suppress(OSError, ValueError, IndexError):
                waited += int((task / "schedstat").read_text().split()[1]) / 1e9
    return own, children, waited


def tree_rss_mb(pid: int) -> tuple[float, float]:
    """Resident memory (MB) of process ``pid`` (the bot) and of its living descendants (the
    picture workers), from ``/proc``; zeros where there is none."""

    def rss(p: int) -> float:
        with contextlib.suppress(OSError, ValueError, IndexError):
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    return rss(pid), sum(rss(child) for child in descendants(pid, proc_stats()))


def rss_trend(samples: list[tuple[float, float]]) -> dict[str, Any]:
    """Growth of the bot's memory over the window: MB per minute fitted (least squares) on
    the first half of the samples and on the second. Memory that levels off grows in the
    second half at a fraction of the first (a leak grows alike in both).

    >>> rss_trend([(0, 100.0), (60, 101.0), (120, 102.0), (180, 102.0), (240, 102.0)])
    {'rss_first_half_mb_per_min': 1.0, 'rss_second_half_mb_per_min': 0.0}
    """

    def slope(points: list[tuple[float, float]]) -> float:
        if len(points) < 2:
            return 0.0
        mt = sum(t for t, _ in points) / len(points)
        mm = sum(m for _, m in points) / len(points)
        var = sum((t - mt) ** 2 for t, _ in points)
        return sum((t - mt) * (m - mm) for t, m in points) / var * 60 if var else 0.0

    half = len(samples) // 2
    return {
        "rss_first_half_mb_per_min": round(slope(samples[: half + 1]), 2),
        "rss_second_half_mb_per_min": round(slope(samples[half:]), 2),
    }


def own_cpu_s() -> float:
    """CPU seconds of this process: the fake Discord and the simulated players."""
    times = os.times()
    return times.user + times.system


def machine() -> dict[str, Any]:
    return {"cores": os.cpu_count(), "load_avg": [round(x, 2) for x in os.getloadavg()]}


def tree_commit(tree: Path) -> str:
    try:
        out = subprocess.run(
            ["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        )
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


async def run(args: argparse.Namespace) -> dict[str, Any]:
    tree = Path(args.tree).resolve()
    fake, messages, tables = fake_with_tables(args)
    await fake.start()
    work = Path(tempfile.mkdtemp(prefix="mj-loadbot-"))
    env = {
        "AI_PACE_SECONDS": str(args.ai_pace),
        "CLAIM_HOLD_SECONDS": str(args.claim_hold),
        "MAHJONG_PICTURES": str(args.pictures).lower(),
    }
    if args.bot_budget is not None:
        env["DISCORD_REQUESTS_PER_SECOND"] = str(args.bot_budget)
    elif not args.global_limit:  # a fake without the limit: a bot without its budget
        env["DISCORD_REQUESTS_PER_SECOND"] = "0"
    if args.workers is not None:
        env["PICTURE_WORKERS"] = str(args.workers)
    if args.timeouts is not None:
        for name in ("TURN_TIMEOUT_SECONDS", "CLAIM_TIMEOUT_SECONDS", "READY_TIMEOUT_SECONDS"):
            env[name] = str(args.timeouts)
    bot = TreeBot(fake, work, tree, env)
    load = Load(fake, messages, args)
    try:
        await bot.start_ready(60)
        opened, players = await open_tables(load, tables)
        print(f"{len(tables)} tables open in {opened:.1f} s", file=sys.stderr)
        load.latencies.clear()
        load.answered.clear()
        load.moves.clear()
        load.late = 0
        window = Window(fake, bot)  # opens now
        began = window.began
        load.stop_at = began + args.seconds
        # the window ends at ``stop_at`` (a player still waiting for an answer then would
        # stretch it with seconds of little work, and inflate the cost per press)
        rss: list[
            tuple[float, float, float, int]
        ] = []  # (s into the window, bot, workers, presses)
        while True:
            now = time.monotonic()
            if args.rss_every > 0:
                rss.append((now - began, *tree_rss_mb(window.bot_pid), len(load.latencies)))
            if now >= load.stop_at:
                break
            step = args.rss_every if args.rss_every > 0 else load.stop_at - now
            await asyncio.sleep(max(0.0, min(step, load.stop_at - now)))
        answered = len(load.latencies)
        cost = window.end(answered)
        elapsed, window_calls, window_hits = window.elapsed, window.calls, window.hits
        await asyncio.gather(*players)
        await asyncio.sleep(3)  # the last table edits
        # a press answered with a follow-up was refused (a button from an earlier moment:
        # the hand message is redrawn and a notice follows) — it played nothing
        refused = sum(1 for ix in load.answered[:answered] if ix.followups)
        next_edit = []  # (the former figure: a move → the table's next edit, whatever it shows)
        edits = {t.gid: load.table_edits(t) for t in tables}
        for gid, at in load.moves:
            if at > load.stop_at - 12:
                continue  # too close to the end to see its edit
            later = [e for e in edits.get(gid, []) if e >= at]
            if later:
                next_edit.append(later[0] - at)
        # moves too close to the end to see their table are left out
        moves = load.moves_made(began, load.stop_at - 12)
        # (with --renew, only the moves of each table's game now: its earlier games' table
        # messages are not looked up, and their moves would count as never shown)
        current = {t.gid for t in tables}
        moves = [m for m in moves if m.gid in current]
        lags, unshown = table_lags(
            moves, {t.gid: load.tables_shown(t) for t in tables}, time.monotonic()
        )
        return {
            "tree": str(tree),
            "commit": tree_commit(tree),
            "tables": len(tables),
            "humans_per_table": getattr(args, "humans", 1),
            "think_s": args.think,
            "ai_pace_s": args.ai_pace,
            "claim_hold_s": args.claim_hold,
            "pictures": args.pictures,
            "timeouts_s": args.timeouts,
            "opened_s": round(opened, 1),
            "open_ms_per_table": round(opened * 1000 / max(1, len(tables))),
            "seconds": round(elapsed, 1),
            "presses": answered,
            "presses_per_s": round(answered / elapsed, 1),
            "refused_presses": refused,
            "moves_per_s": round((answered - refused) / elapsed, 1),
            "p50_ms": round(pct(load.latencies, 0.5) * 1000, 1),
            "p99_ms": round(pct(load.latencies, 0.99) * 1000, 1),
            "max_ms": round(max(load.latencies, default=0) * 1000, 1),
            "late": load.late,
            "table_lag_p50_s": round(pct(lags, 0.5), 2),
            "table_lag_p99_s": round(pct(lags, 0.99), 2),
            "table_lag_max_s": round(max(lags, default=0.0), 2),
            "table_lag_moves": len(lags),
            "table_lag_unshown": unshown,
            "table_next_edit_p99_s": round(pct(next_edit, 0.99), 2),
            "late_opening": load.late_opening,
            **cost,
            "global_limit": args.global_limit,
            "bot_budget": args.bot_budget
            if args.bot_budget is not None
            else ("default" if args.global_limit else 0),
            "global_429s": sum(1 for h in window_hits if h.is_global),
            "dm_channel_opens": sum(
                1 for c in window_calls if c.method == "POST" and c.path == "/users/@me/channels"
            ),
            **(
                {
                    "rss_mb": [[round(t), round(b, 1), round(w, 1), n] for t, b, w, n in rss],
                    **rss_trend([(t, b) for t, b, _w, _n in rss]),
                }
                if rss
                else {}
            ),
            "games_played": sum(t.games for t in tables),
            "driver_errors": load.errors,
            "tracebacks": len(bot.unexpected_tracebacks()),
            **machine(),
        }
    finally:
        await bot.stop(30)
        await fake.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", default=str(Path(__file__).resolve().parents[2]))
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--think", type=float, default=3.0, help="0: flat out")
    parser.add_argument(
        "--humans",
        type=int,
        default=1,
        choices=(1, 2, 3, 4),
        help="humans per table (the others join the lobby before Start; empty seats take "
        "AI): 4 is a group of friends, where each press is one move; 1 (the default) a "
        "player with three AI, where each press also brings the AI's moves",
    )
    parser.add_argument("--workers", type=int, default=None, help="PICTURE_WORKERS")
    parser.add_argument(
        "--timeouts",
        type=int,
        default=None,
        help="turn, claim and 准备 timeouts in s (default: the bot's); set them above the "
        "think time to compare sizes at one press rate without humans going 托管",
    )
    parser.add_argument(
        "--ai-pace", type=float, default=0.0, help="AI_PACE_SECONDS (0: AI answers at once)"
    )
    parser.add_argument(
        "--claim-hold",
        type=float,
        default=0.0,
        help="CLAIM_HOLD_SECONDS (0: a discard's claim window is not held; the bot's own is 1.5)",
    )
    parser.add_argument(
        "--no-pictures",
        dest="pictures",
        action="store_false",
        help="MAHJONG_PICTURES=false: the bot in text only (what the pictures cost is the "
        "difference to a run with them)",
    )
    parser.add_argument(
        "--global-limit",
        type=int,
        default=0,
        help="the fake's global rate limit in requests/s, interaction answers aside "
        "(Discord's is 50 for a bot; default 0: none)",
    )
    parser.add_argument(
        "--bot-budget",
        type=int,
        default=None,
        help="the bot's DISCORD_REQUESTS_PER_SECOND (default: the bot's own with "
        "--global-limit, 0 = not kept without it: a bot whose limit the fake does not bind)",
    )
    parser.add_argument(
        "--renew",
        action="store_true",
        help="a human whose game ended opens the next (/mahjong new, Start): play goes on "
        "for the whole window (a long run's memory), games_played counts them",
    )
    parser.add_argument(
        "--rss-every",
        type=float,
        default=0.0,
        help="sample the bot's resident memory every N s of the window (rss_mb: [s, bot MB, "
        "picture workers MB, presses so far]; with the growth per minute of each half)",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="run the floor bot (benchmarks/floor_bot.py: a deferred update, one insert, one "
        "edit per press) instead of the bot, at the same tables, think time and window",
    )
    parser.add_argument(
        "--with-floor",
        action="store_true",
        help="run the bot, then the floor bot at the same tables, think time and window: "
        "adds floor_bot_cpu_ms_per_press, floor_p99_ms, ratio_to_floor (bot ÷ floor CPU per "
        "press) and the floor's figures (floor) to the bot's",
    )
    args = parser.parse_args(argv)
    if args.floor:
        figures = asyncio.run(run_floor(args))
    else:
        figures = asyncio.run(run(args))
        if args.with_floor:
            floor = asyncio.run(run_floor(args))
            figures["floor_bot_cpu_ms_per_press"] = floor["bot_cpu_ms_per_press"]
            figures["floor_p99_ms"] = floor["p99_ms"]
            figures["ratio_to_floor"] = round(
                figures["bot_cpu_ms_per_press"] / max(1e-9, floor["bot_cpu_ms_per_press"]), 2
            )
            figures["floor"] = floor
    for key, value in figures.items():
        print(f"{key:>18}: {value}")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
