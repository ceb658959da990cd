"""Drive games through the fake Discord like players would: slash commands and buttons."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace
from typing import Any

from .fake_discord import FakeDiscord, FakeMessage, FakeUser
from .harness import BotProcess
from .privacy import ClaimWindow, Player, assert_claims_secret


def _game_cog_env() -> dict[str, str | None]:
    """Load the game cog through ``EXTRA_EXTENSIONS`` unless the bot loads it by default."""
    from botcore.client import DEFAULT_EXTENSIONS

    return (
        {}
        if "cogs.game.commands" in DEFAULT_EXTENSIONS
        else {"EXTRA_EXTENSIONS": "cogs.game.commands"}
    )


GAME_ENV: dict[str, str | None] = {
    **_game_cog_env(),
    "TURN_TIMEOUT_SECONDS": "600",
    "CLAIM_TIMEOUT_SECONDS": "600",
}
CUSTOM_ID = re.compile(r"^mj:(\d+):([a-z]+)(?::([0-9a-z]+))?$")


def game_env(**extra: str) -> dict[str, str | None]:
    env = dict(GAME_ENV)
    env.update(extra)
    return env


def parse_id(custom_id: str) -> tuple[int, str, str | None]:
    m = CUSTOM_ID.match(custom_id)
    assert m, custom_id
    return int(m.group(1)), m.group(2), m.group(3)


def lobby_message(fake: FakeDiscord) -> FakeMessage | None:
    """The newest channel message with a Join button."""
    found = None
    for msg in fake.channel_messages():
        if any(cid.endswith(":join") for cid in msg.custom_ids()):
            found = msg
    return found


def game_id_of(msg: FakeMessage) -> int:
    for cid in msg.custom_ids():
        if cid.startswith("mj:"):
            return parse_id(cid)[0]
    raise LookupError("no game button on the message")


async def click_ok(fake: FakeDiscord, user: FakeUser, msg: FakeMessage, custom_id: str, **kw: Any):
    ix = await fake.click(user, msg, custom_id, **kw)
    await ix.wait_ack(10)
    return ix


async def open_game(
    fake: FakeDiscord,
    host: FakeUser,
    others: list[FakeUser],
    *,
    variant: str = "shangrao",
    options: str | None = None,
    length: str | None = None,
) -> tuple[int, FakeMessage]:
    """``/mahjong new``, the others press Join, the host presses Start; returns the game id
    and the channel's table message. ``length``: ``4`` … ``16`` hands or ``1圈`` … rounds."""
    args: dict[str, Any] = {"variant": variant}
    if options:
        args["options"] = options
    if length:
        args["length"] = length
    ix = await fake.slash(host, "mahjong new", args)
    reply = await ix.wait_reply(10)
    assert reply.ephemeral, reply.text()
    lobby = await fake.wait_for(lambda: lobby_message(fake), 10, what="the lobby message")
    gid = game_id_of(lobby)
    for user in others:
        await click_ok(fake, user, lobby, f"mj:{gid}:join")

    def seated() -> bool:
        text = fake.messages[lobby.id].text()
        return all(f"<@{u.id}>" in text for u in [host, *others])

    await fake.wait_for(seated, 10, what="everyone seated in the lobby")
    await click_ok(fake, host, lobby, f"mj:{gid}:start")
    return gid, lobby


def hand_message(
    fake: FakeDiscord, user: FakeUser, gid: int, *, ephemeral: bool = False
) -> FakeMessage | None:
    """The newest DM (or, with ``ephemeral``, ephemeral reply) of ``user`` holding their hand
    for game ``gid``."""
    found = None
    source = fake.ephemerals(user) if ephemeral else fake.dms(user)
    for msg in source:
        for embed in msg.embeds:
            footer = (embed.get("footer") or {}).get("text", "")
            if footer.startswith(f"#{gid} ") or footer == f"#{gid}":
                found = msg
    return found


def footer_version(msg: FakeMessage) -> int | None:
    """The game version a hand message was drawn for (``v<n>`` at the end of its footer)."""
    for embed in msg.embeds:
        text = (embed.get("footer") or {}).get("text", "")
        m = re.search(r"v(\d+)\s*$", text)
        if m:
            return int(m.group(1))
    return None


#: the note of a press on a hand drawn for an earlier moment (errors.stale_redrawn, en/zh)
STALE_NOTES = ("earlier moment", "已过期", "已過期")


def stale_answer(ix: Any) -> bool:
    """Whether a button press was answered as stale: the hand redrawn as it is now (the
    same response as a taken action) with a follow-up saying nothing was played."""
    return any(note in m.text() for m in ix.followups for note in STALE_NOTES)


def choose(msg: FakeMessage) -> str | None:
    """A simple player: win, else pass, else discard the drawn tile (blue), else the first."""
    buttons = [b for b in msg.buttons() if not b.get("disabled")]
    ids = [b["custom_id"] for b in buttons]
    for kind in ("win", "pass"):
        for cid in ids:
            if parse_id(cid)[1] == kind:
                return cid
    discards = [b for b in buttons if parse_id(b["custom_id"])[1] == "discard"]
    for b in discards:
        if b.get("style") == 1:
            return b["custom_id"]
    return discards[0]["custom_id"] if discards else None


def result_message(fake: FakeDiscord, gid: int, hand_no: int = 1) -> FakeMessage | None:
    """The result of hand ``hand_no`` while it offers 下一局 (in the game's thread or the
    channel)."""
    for msg in fake.guild_messages():
        ids = msg.custom_ids()
        if f"mj:{gid}:next:{hand_no}" in ids and f"mj:{gid}:hand" not in ids:  # not the table
            return msg
    return None


def table_messages(fake: FakeDiscord, gid: int) -> list[FakeMessage]:
    """Every table message of game ``gid`` (one per hand), oldest first: the messages in
    the game's thread or the channel that carry (or carried) its 🀄 My hand button."""
    wanted = f"mj:{gid}:hand"
    out = []
    for msg in fake.guild_messages():
        for version in msg.versions():
            shown = FakeMessage(0, 0, msg.author, components=version["components"])
            if wanted in shown.custom_ids():
                out.append(msg)
                break
    return out


def table_message(fake: FakeDiscord, gid: int) -> FakeMessage | None:
    """The game's newest table message (the hand in play, or the last one)."""
    tables = table_messages(fake, gid)
    return tables[-1] if tables else None


def game_thread(fake: FakeDiscord, lobby: FakeMessage):  # -> FakeChannel | None
    """The thread the game of this lobby plays in (opened on the lobby message), if any."""
    return fake.thread_on(lobby)


#: How long :func:`play_hand` lets a hand go without any change (no edit, message, answer)
#: before it gives up, and how long a whole hand may take (both × ``fake.timeout_scale``).
STALL_SECONDS = 30.0
HAND_SECONDS = 120.0


async def play_hand(
    fake: FakeDiscord,
    players: list[FakeUser],
    gid: int,
    *,
    hand_no: int = 1,
    limit: int = 600,
    ephemeral: frozenset[int] = frozenset(),
    stall: float = STALL_SECONDS,
    timeout: float = HAND_SECONDS,
    until: Any = None,
) -> FakeMessage:
    """Play until the hand's result appears; each player presses :func:`choose` on the
    newest version of their hand (DM, or the ephemeral reply for ids in ``ephemeral``).
    Returns the result message.

    Waits on conditions, not on a count of idle rounds: when nobody can press, it waits for
    the fake to change (an edit, a new message, an answer). It fails after ``limit`` presses,
    after ``stall`` seconds without any change, or after ``timeout`` seconds in all (both
    scaled by ``fake.timeout_scale``). ``until()``: what ends it instead of the result with
    下一局 / 准备 (the last hand of a session offers none: wait for its standings)."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    deadline = started + fake.scaled(timeout)
    last_seen: dict[int, str] = {}
    presses = 0
    while True:
        result = until() if until is not None else result_message(fake, gid, hand_no)
        if result is not None:
            return result
        mark = fake.changes
        acted = False
        for user in players:
            msg = hand_message(fake, user, gid, ephemeral=user.id in ephemeral)
            if msg is None:
                continue
            current = fake.messages[msg.id]
            cid = choose(current)
            if cid is None:
                continue
            stamp = f"{current.id}:{len(current.history)}:{cid}"
            if last_seen.get(user.id) == stamp:
                continue  # already pressed on this version; wait for the edit
            last_seen[user.id] = stamp
            presses += 1
            if presses > limit:
                raise AssertionError(f"the hand did not end after {limit} presses")
            await click_ok(fake, user, current, cid)
            acted = True
        if acted:
            continue
        now = loop.time()
        if now > deadline:
            raise AssertionError(
                f"the hand did not end within {now - started:.0f} s ({presses} presses)\n"
                + _play_state(fake, players, gid, ephemeral)
            )
        if not await fake.wait_change(mark, min(fake.scaled(stall), deadline - now)):
            raise AssertionError(
                f"the hand stalled: nothing changed for {fake.scaled(stall):.0f} s "
                f"({presses} presses)\n" + _play_state(fake, players, gid, ephemeral)
            )


def _play_state(
    fake: FakeDiscord, players: list[FakeUser], gid: int, ephemeral: frozenset[int]
) -> str:
    """What each player sees (for a failure message)."""
    lines = []
    for user in players:
        msg = hand_message(fake, user, gid, ephemeral=user.id in ephemeral)
        if msg is None:
            lines.append(f"{user.name}: no hand message")
            continue
        current = fake.messages[msg.id]
        lines.append(f"{user.name}: v{len(current.history)} buttons {current.custom_ids()}")
    lines.append(f"last REST calls: {fake.calls[-8:]}")
    return "\n".join(lines)


def stored_version(proc: BotProcess, gid: int) -> int:
    """The game's version in the bot's database (the ``games.version`` column)."""
    [row] = proc.rows("SELECT version FROM games WHERE id = ?", gid) or [None]
    assert row is not None, f"no game {gid} in the store"
    return int(row[0])


async def wait_still(
    fake: FakeDiscord, proc: BotProcess, players: list[FakeUser], gid: int, timeout: float = 20
) -> int:
    """Wait until the game is still and return its stored version: someone in ``players``
    is asked to act, every asked player's hand DM was drawn for the stored version, and that
    version did not move between two looks (the AI seats wait for the asked humans, so
    nothing more is stored or delivered). ``timeout`` is scaled by ``fake.timeout_scale``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + fake.scaled(timeout)
    last: int | None = None
    while True:
        version = stored_version(proc, gid)
        asked = [
            fake.messages[m.id]
            for u in players
            if (m := hand_message(fake, u, gid)) is not None and choose(fake.messages[m.id])
        ]
        if asked and version == last and all(footer_version(m) == version for m in asked):
            return version
        if loop.time() > deadline:
            shown = [footer_version(m) for m in asked]
            raise AssertionError(f"the game never settled: stored v{version}, asked DMs {shown}")
        last = version
        await fake.wait_change(fake.changes, 0.2)


def ephemeral_texts(fake: FakeDiscord, user: FakeUser) -> list[str]:
    return [m.text() for m in fake.ephemerals(user)]


async def start_bot(bot_factory: Any, **extra: str) -> BotProcess:
    proc = bot_factory(env=game_env(**extra))
    await proc.start_ready()
    return proc


FULL_LINE = re.compile(r"\*\*(?:手牌|Tiles)\*\*：[^\n]+")
HAND_LINE = re.compile(r"\*\*(?:手牌|Tiles)\*\*：([^\n　]+)")


def hand_secrets(fake: FakeDiscord) -> dict[int, set[str]]:
    """Every concealed hand as the bot rendered it to its owner, by user id: the tile line of
    every version of every private hand message (DMs and ephemeral replies)."""
    out: dict[int, set[str]] = {}
    for msg in fake.all_messages(include_deleted=True):
        channel = fake.channels.get(msg.channel_id)
        owner = msg.visible_to or (
            channel.recipient if channel is not None and channel.is_dm else None
        )
        if owner is None:
            continue
        for version in msg.versions():
            for embed in version["embeds"]:
                for m in HAND_LINE.finditer(embed.get("description") or ""):
                    if m.group(1).count(" ") >= 3:  # a few tiles could appear by chance
                        out.setdefault(owner.id, set()).add(m.group(1).strip())
                for m in FULL_LINE.finditer(embed.get("description") or ""):
                    out.setdefault(owner.id, set()).add(m.group(0).strip())
    return out


def check_privacy(fake: FakeDiscord) -> int:
    """No concealed hand in any public message, nor in anyone else's private messages, and
    no table or line that tells who may claim or who passed. Returns how many distinct
    hands were checked."""
    from .privacy import assert_no_concealed_leak

    secrets = hand_secrets(fake)
    every = {s for hands in secrets.values() for s in hands}
    assert_no_concealed_leak(fake, every)
    users = {u.id: u for u in fake.users}
    for uid, hands in secrets.items():
        assert_no_concealed_leak(fake, hands, owner=users[uid])
    # nor who may claim a discard or who passed (the timing rule needs the bot's log:
    # :func:`check_claim_privacy`)
    assert_claims_secret(fake, [Player(u.name, u.id) for u in fake.users if not u.bot])
    return len(every)


def log_of(proc: BotProcess, gid: int) -> list[tuple[int, int | None, dict[str, Any]]]:
    """The whole action log of a game, ``(seq, seat, entry)``, read from the bot's database
    (the store's ``games.load`` gives only what follows the newest snapshot)."""
    import json

    rows = proc.rows("SELECT seq, seat, action FROM actions WHERE game_id = ? ORDER BY seq", gid)
    return [(seq, seat, json.loads(action)) for seq, seat, action in rows]


def _game_row(proc: BotProcess, gid: int) -> tuple[str, dict[str, Any], list[dict[str, Any]]]:
    import json

    [row] = proc.rows("SELECT variant, options, seats FROM games WHERE id = ?", gid) or [None]
    assert row is not None, f"no game {gid} in the store"
    return row[0], json.loads(row[1]), json.loads(row[2])


def _log_with_times(proc: BotProcess, gid: int) -> list[tuple[int, int | None, dict, float]]:
    """The whole action log with each entry's commit time (``time.time()`` seconds)."""
    import datetime as dt
    import json

    rows = proc.rows(
        "SELECT seq, seat, action, created_at FROM actions WHERE game_id = ? ORDER BY seq", gid
    )
    out = []
    for seq, seat, action, created in rows:
        when = dt.datetime.fromisoformat(str(created))
        if when.tzinfo is None:
            when = when.replace(tzinfo=dt.UTC)
        out.append((seq, seat, json.loads(action), when.timestamp()))
    return out


def players_of(proc: BotProcess, gid: int) -> list[Player]:
    """Every seat of the game (name, and user id for humans), from the bot's database."""
    _variant, _options, seats = _game_row(proc, gid)
    return [
        Player(str(s.get("name", "?")), None if s.get("ai") else s.get("user_id")) for s in seats
    ]


def claim_windows(proc: BotProcess, gid: int) -> list[ClaimWindow]:
    """Every claim window a human was asked about, replayed from the bot's action log: when
    it opened and closed (commit times), whose discard it was and who could claim it."""
    from services.gamelog import LiveGame, replay_entry
    from services.model import Seat
    from services.real_engine import RealEngine

    engine = RealEngine()
    variant, options, seats = _game_row(proc, gid)
    players = players_of(proc, gid)
    live = LiveGame(
        id=gid,
        guild_id=0,
        channel_id=0,
        variant=variant,
        options=options,
        status="active",
        version=0,
        totals=[0] * len(seats),
        seats=[Seat.from_json(s) for s in seats],
    )
    windows: list[ClaimWindow] = []
    open_key: Any = None
    for seq, seat, entry, at in _log_with_times(proc, gid):
        live.version = seq
        replay_entry(engine, live, seat, entry, at)
        key = None
        if live.state is not None and engine.phase(live.state) == "claim":
            humans = [s for s in engine.pending_seats(live.state) if not live.seats[s].robot]
            if humans:
                key = engine.window_key(live.state)
        if key != open_key and open_key is not None:
            windows[-1] = replace(windows[-1], closed=at)
        if key is not None and key != open_key:
            claimants = tuple(players[s] for s in engine.pending_seats(live.state))
            wall = engine.table_view(live.state).wall_left
            windows.append(ClaimWindow(at, None, players[key[0]], claimants, wall))
        open_key = key
    return windows


def check_claim_privacy(fake: FakeDiscord, proc: BotProcess, gid: int) -> list[ClaimWindow]:
    """Nothing public tells who may claim a discard or who passed (see
    :func:`privacy.assert_claims_secret`); returns the claim windows checked."""
    windows = claim_windows(proc, gid)
    assert_claims_secret(fake, players_of(proc, gid), windows)
    return windows
