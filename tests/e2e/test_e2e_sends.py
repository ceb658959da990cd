"""End-to-end: sends are not lost (issue 15, item 6).

- A hand's result that Discord refuses five times with a server error is sent again (with
  back-off) until it lands — once.
- The bot SIGKILLed right after a hand's last action, before its result could be posted:
  after the restart the result (with the seed reveal) is posted, and only once, even over a
  second restart.
"""

from __future__ import annotations

import json
import re

import pytest

from .fake_discord import FakeDiscord, FakeMessage, RestCall
from .game_driver import game_env, open_game, play_hand, result_message, table_message

pytestmark = pytest.mark.e2e

SEED = "e2e-sends-not-lost"
MESSAGES = r"^/channels/\d+/messages$"


def carries_result(gid: int):
    """Whether a request posts the result of one of game ``gid``'s hands (准备 on it, not
    the table's 🀄 button)."""

    def match(call: RestCall) -> bool:
        body = json.dumps(call.json, ensure_ascii=False)
        return f"mj:{gid}:next:" in body and f"mj:{gid}:hand" not in body

    return match


#: the seed reveal: the hand's seed, then the SHA-256 published when the hand started
REVEAL = re.compile(r"`([0-9a-f]{16,})`[^`\n]*`([0-9a-f]{64})`")


def reveals_the_seed(fake: FakeDiscord, result: FakeMessage) -> bool:
    """Whether the result shows a seed and the same hash the hand's start line published."""
    found = REVEAL.search(result.text())
    if found is None:
        return False
    published = [m for m in fake.guild_messages() if m.id != result.id]
    return any(found.group(2) in m.text() for m in published)


def stored_messages(proc, gid: int) -> dict:
    """The messages the bot remembers for game ``gid`` (its ``games.messages`` column)."""
    [row] = proc.rows("SELECT messages FROM games WHERE id = ?", gid) or [None]
    return json.loads(row[0]) if row and row[0] else {}


def results_posted(fake: FakeDiscord, gid: int, hand_no: int = 1) -> list[FakeMessage]:
    """Every message that was ever the result of hand ``hand_no`` (buttons kept or not)."""
    wanted = f"mj:{gid}:next:{hand_no}"
    return [
        m
        for m in fake.guild_messages()
        if any(
            wanted in FakeMessage(0, 0, m.author, components=v["components"]).custom_ids()
            for v in m.versions()
        )
        and f"mj:{gid}:hand" not in m.custom_ids()
    ]


async def test_a_result_refused_five_times_is_sent_until_it_lands(
    fake: FakeDiscord, bot_factory
) -> None:
    proc = bot_factory(env=game_env(EXTRA_EXTENSIONS="e2e_seed", E2E_SEEDS=SEED))
    await proc.start_ready()
    alice = fake.user("alice")
    gid, _lobby = await open_game(fake, alice, [])
    # 503: discord.py gives up at once, so each refusal reaches the bot's own resending
    fault = fake.break_next("POST", MESSAGES, 5, status=503, match=carries_result(gid))
    result = await play_hand(fake, [alice], gid, stall=60)
    assert len(fault.refused) == 5 and fault.count == 0
    assert [m.id for m in results_posted(fake, gid)] == [result.id]
    assert reveals_the_seed(fake, result)
    assert "sending again" in proc.log


async def test_a_result_owed_at_a_sigkill_is_posted_after_the_restart(
    fake: FakeDiscord, bot_factory
) -> None:
    proc = bot_factory(env=game_env(EXTRA_EXTENSIONS="e2e_seed", E2E_SEEDS=SEED))
    await proc.start_ready()
    alice = fake.user("alice")
    gid, _lobby = await open_game(fake, alice, [])
    # Discord refuses the result until healed: the bot dies with the result still owed
    fault = fake.break_next("POST", MESSAGES, None, status=503, match=carries_result(gid))
    await play_hand(fake, [alice], gid, until=lambda: fault.refused[:1] or None)
    await proc.kill()  # right after the hand's last action was committed
    fault.heal()
    assert results_posted(fake, gid) == []

    await proc.start_ready()
    result = await fake.wait_for(
        lambda: result_message(fake, gid, 1), 30, what="the owed result, after the restart"
    )
    assert reveals_the_seed(fake, result)
    assert f"mj:{gid}:next:1" in result.custom_ids()  # 准备 still offered

    # a second restart does not post it again (the bot remembers it was shown): the result
    # job only brings the table up to date, right after the restart's own refresh of it
    table = table_message(fake, gid)
    assert table is not None
    seen = len(fake.messages[table.id].history)
    await fake.wait_for(
        lambda: stored_messages(proc, gid).get("result_posted") == 1,
        10,
        what="the bot storing that it posted the result",
    )
    await proc.kill()
    await proc.start_ready()
    await fake.wait_for(
        lambda: len(fake.messages[table.id].history) >= seen + 2,
        30,
        what="the table refreshed, then brought up to date by the result job",
    )
    for _ in range(10):  # until what follows it has gone out (quiet for 3 s)
        if not await fake.wait_change(fake.changes, 3.0):
            break
    assert [m.id for m in results_posted(fake, gid)] == [result.id]
