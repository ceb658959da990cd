"""End-to-end: the table shows the claim wait (等待吃碰杠胡…) for discards nobody human may
claim too, so a wait no longer tells the channel that a human could claim (the claim hold,
:mod:`services.reveal`). Two people and two AI play a hand of 上饶 through the real bot."""

from __future__ import annotations

import re

import pytest

from .fake_discord import FakeDiscord
from .game_driver import (
    check_claim_privacy,
    check_privacy,
    game_env,
    open_game,
    play_hand,
    players_of,
    table_messages,
)
from .privacy import _version_lines

pytestmark = pytest.mark.e2e

WAIT = re.compile(r"^等待吃碰杠胡… · (?P<who>.+) 的 \S+$")
WALL = re.compile(r"余牌 (?P<n>\d+)")


async def test_discards_nobody_human_may_claim_show_the_wait_too(
    fake: FakeDiscord, bot_factory
) -> None:
    proc = bot_factory(env=game_env(CLAIM_HOLD_SECONDS="0.3"))
    await proc.start_ready()
    alice, bob = fake.user("alice"), fake.user("bob")
    gid, _lobby = await open_game(fake, alice, [bob], variant="shangrao")
    await play_hand(fake, [alice, bob], gid, timeout=240)

    seat_of = {p.name: i for i, p in enumerate(players_of(proc, gid))}
    shown: set[tuple[int, int]] = set()
    for msg in table_messages(fake, gid):
        for version in msg.versions():
            lines = _version_lines(version)
            waits = [m for line in lines if (m := WAIT.match(line))]
            walls = [m for line in lines if (m := WALL.search(line))]
            if waits and walls:
                shown.add((seat_of[waits[0]["who"]], int(walls[0]["n"])))
    # every discard a human could claim (from the bot's log), checked for leaks as well:
    # still nothing public tells who could claim or who passed
    windows = check_claim_privacy(fake, proc, gid)
    humans = {(seat_of[w.discarder.name], w.wall_left) for w in windows}
    assert shown, "the table never showed a claim wait"
    # the wait was shown for discards no human could claim (without the hold, AI answer at
    # once and those discards never show one)
    assert shown - humans, (sorted(shown), sorted(humans))
    check_privacy(fake)
