"""Figures for a game channel that takes the bot's permissions away mid-game, through the real
bot (prints figures, asserts nothing):
``python -m tests.e2e.lost_permissions_bench [--tree PATH] [--blind 45] [--humans 2]``

One game (``--humans`` human seats, the rest AI, ``AI_PACE_SECONDS=0``) plays in the channel,
every human pressing as soon as their hand DM offers a choice (and 准备 on a result). Once the
first table is up, a channel overwrite takes Send Messages from the bot (Embed Links and
Attach Files go with it) for ``--blind`` seconds, then gives it back. ``--tree``: the bot to
run (``git worktree add /tmp/base main`` then ``--tree /tmp/base`` measures the code before).

Figures: ``blind_presses`` (presses answered while the channel refused the bot: play went
on by DM), ``refusals`` (403s Discord served in the channel), ``tracebacks`` and
``warnings`` (the bot log's, while blind; warnings about the channel or the game),
``host_notices`` (DMs telling the host what is missing), ``caught_up_s`` (seconds from
giving the permission back to the table showing the game as ``/mahjong status`` tells it;
``null``: not within 30 s).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import tempfile
import time
from pathlib import Path
from typing import Any

from i18n import t

from .fake_discord import CREATE_PUBLIC_THREADS, SEND_MESSAGES, FakeDiscord, FakeUser
from .game_driver import GAME_ENV, choose, hand_message, open_game, result_message, table_message
from .loadtest_bot import TreeBot


async def press_offered(fake: FakeDiscord, users: list[FakeUser], gid: int, seen: dict) -> int:
    """Every human presses what their hand DM (or a result's 准备) offers now; presses made."""
    made = 0
    for user in users:
        msg = hand_message(fake, user, gid)
        if msg is None:
            continue
        current = fake.messages[msg.id]
        cid = choose(current)
        stamp = f"{current.id}:{len(current.history)}:{cid}"
        if cid is None or seen.get(user.id) == stamp:
            continue
        seen[user.id] = stamp
        ix = await fake.click(user, current, cid)
        await ix.wait_ack(10)
        made += 1
    for hand in range(1, 17):
        result = result_message(fake, gid, hand)
        if result is not None:
            for user in users:
                key = f"next:{hand}:{user.id}"
                if key not in seen:
                    seen[key] = "1"
                    ix = await fake.click(user, fake.messages[result.id], f"mj:{gid}:next:{hand}")
                    await ix.wait_ack(10)
    return made


def table_text(fake: FakeDiscord, gid: int) -> str:
    msg = table_message(fake, gid)
    if msg is None:
        return ""
    return str((fake.messages[msg.id].embeds or [{}])[0].get("description", ""))


async def run(args: argparse.Namespace) -> dict[str, Any]:
    fake = FakeDiscord(timeout_scale=6)
    await fake.start()
    fake.set_role_permissions(fake.bot_role, fake.bot_role.permissions & ~CREATE_PUBLIC_THREADS)
    env = {**GAME_ENV, "AI_PACE_SECONDS": "0"}
    bot = TreeBot(fake, Path(tempfile.mkdtemp(prefix="mj-lostbench-")), Path(args.tree), env)
    figures: dict[str, Any] = {}
    try:
        await bot.start_ready(60)
        humans = fake.users[: args.humans]
        for user in humans:
            user.locale = "zh-CN"
        gid, _lobby = await open_game(fake, humans[0], humans[1:], variant="xinyu")
        await fake.wait_for(lambda: table_message(fake, gid), 20, what="the table")
        seen: dict[Any, str] = {}
        log_before = len(bot.log)
        fake.overwrite(fake.channel, fake.bot_user, deny=SEND_MESSAGES)
        refused_before = len(fake.permission_refusals)
        blind_until = time.monotonic() + args.blind
        presses = 0
        while time.monotonic() < blind_until:
            presses += await press_offered(fake, humans, gid, seen)
            await fake.wait_change(fake.changes, 0.2)
        blind_log = bot.log[log_before:]
        refusals = fake.permission_refusals[refused_before:]
        fake.overwrite(fake.channel, fake.bot_user)
        back = time.monotonic()
        caught_up = None
        while time.monotonic() < back + 30:
            status = await (await fake.slash(humans[0], "mahjong status")).wait_reply()
            if table_text(fake, gid) == status.text():
                caught_up = round(time.monotonic() - back, 2)
                break
            await fake.wait_change(fake.changes, 0.5)
        name = t("common.permission.send_messages", "zh")
        warn = [
            line
            for line in blind_log.splitlines()
            if re.search(r"\bWARNING\b", line)
            and (str(fake.channel.id) in line or f"game {gid}" in line)
        ]
        figures = {
            "blind_s": args.blind,
            "blind_presses": presses,
            "refusals": len([c for c, _bits in refusals if c == fake.channel.id]),
            "tracebacks": blind_log.count("Traceback"),
            "warnings": len(warn),
            "host_notices": len([m for m in fake.dms(humans[0]) if name in m.text()]),
            "caught_up_s": caught_up,
        }
    finally:
        await bot.stop()
        await fake.stop()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", default=str(Path(__file__).resolve().parents[2]))
    parser.add_argument("--blind", type=float, default=45.0, help="seconds without the permission")
    parser.add_argument("--humans", type=int, default=2)
    args = parser.parse_args(argv)
    figures = asyncio.run(run(args))
    for key, value in figures.items():
        print(f"{key:>14}  {value}")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
