"""End-to-end: a SIGKILL right after a game's last hand loses neither its result nor its
final standings (issue 15, item 6).

The real ``bot.py`` plays a 4-hand game against the fake Discord. During the last hand
Discord refuses (503) the last result and the final standings, so when the hand's last
action is committed — and the game, its length played, is closed — nothing of its ending has
been posted; the bot is SIGKILLed then. The restarted bot finds the ending still owed in the
database and posts the last hand's result (with the seed reveal) and the final standings,
each exactly once — and a further restart posts nothing again.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from .fake_discord import FakeDiscord, FakeMessage, RestCall
from .game_driver import click_ok, game_env, open_game, play_hand, result_message, table_message
from .harness import BotProcess
from .test_e2e_sends import MESSAGES, REVEAL

pytestmark = pytest.mark.e2e

SEED = "e2e-crash-results"
HANDS = 4


def _titles(embeds: list[dict]) -> list[str]:
    return [str(e.get("title") or "") for e in embeds]


def _footers(embeds: list[dict]) -> list[str]:
    return [str((e.get("footer") or {}).get("text", "")) for e in embeds]


def is_result_of(hand: int) -> Callable[[int, list[dict]], bool]:
    """Whether an embed list shows the result of hand ``hand`` of a game."""

    def match(gid: int, embeds: list[dict]) -> bool:
        return any(
            (f"第{hand}局结果" in title or f"Result of hand {hand} " in title)
            and footer.startswith(f"#{gid} ")
            for title, footer in zip(_titles(embeds), _footers(embeds), strict=False)
        )

    return match


def is_last_result(gid: int, embeds: list[dict]) -> bool:
    """An embed list showing the result of game ``gid``'s last hand."""
    return is_result_of(HANDS)(gid, embeds)


def is_any_result(gid: int, embeds: list[dict]) -> bool:
    """An embed list showing the result of one of game ``gid``'s hands."""
    return any(
        ("局结果" in title or "Result of hand " in title) and footer.startswith(f"#{gid} ")
        for title, footer in zip(_titles(embeds), _footers(embeds), strict=False)
    )


def is_standings(gid: int, embeds: list[dict]) -> bool:
    """An embed list showing game ``gid``'s final standings."""
    return any(
        ("最终战绩" in title or "Final standings" in title) and footer == f"#{gid}"
        for title, footer in zip(_titles(embeds), _footers(embeds), strict=False)
    )


def carries_ending(gid: int):
    """Whether a request posts the last hand's result or the final standings."""

    def match(call: RestCall) -> bool:
        embeds = list((call.json or {}).get("embeds") or []) if isinstance(call.json, dict) else []
        return is_last_result(gid, embeds) or is_standings(gid, embeds)

    return match


def posted(
    fake: FakeDiscord, gid: int, which: Callable[[int, list[dict]], bool]
) -> list[FakeMessage]:
    """Every message of the server that ever showed ``which`` (deleted ones too)."""
    return [
        m
        for m in fake.guild_messages(include_deleted=True)
        if any(which(gid, v.get("embeds") or []) for v in m.versions())
    ]


def game_row(proc: BotProcess, gid: int) -> tuple[str, bool]:
    [(status, owed)] = proc.rows("SELECT status, ending_owed FROM games WHERE id = ?", gid)
    return str(status), bool(owed)


async def test_a_sigkill_right_after_the_last_hand_still_posts_result_and_standings_once(
    fake: FakeDiscord, bot_factory
) -> None:
    proc = bot_factory(env=game_env(EXTRA_EXTENSIONS="e2e_seed", E2E_SEEDS=SEED))
    await proc.start_ready()
    alice = fake.user("alice")
    gid, _lobby = await open_game(fake, alice, [], length=str(HANDS))
    for hand in range(1, HANDS):
        result = await play_hand(fake, [alice], gid, hand_no=hand)
        await click_ok(fake, alice, result, f"mj:{gid}:next:{hand}")  # 准备: deals at once
        await fake.wait_for(
            lambda h=hand, r=result: (
                f"第{h + 1}/{HANDS}局" in (table_message(fake, gid) or r).text()
            ),
            20,
            what=f"hand {hand + 1}'s table",
        )

    # Discord refuses the ending until healed: when the last action is in, nothing of it is out
    fault = fake.break_next("POST", MESSAGES, None, status=503, match=carries_ending(gid))
    await play_hand(fake, [alice], gid, hand_no=HANDS, until=lambda: fault.refused[:1] or None)
    await fake.wait_for(
        lambda: game_row(proc, gid)[0] == "finished", 20, what="the game closed by its length"
    )
    await proc.kill()  # right after the last hand's last action: its ending still owed
    fault.heal()
    assert posted(fake, gid, is_last_result) == [] and posted(fake, gid, is_standings) == []
    assert game_row(proc, gid) == ("finished", True)

    await proc.start_ready()
    board = await fake.wait_for(
        lambda: posted(fake, gid, is_standings) or None, 60, what="the final standings"
    )
    [last] = posted(fake, gid, is_last_result)
    found = REVEAL.search(fake.messages[last.id].text())
    assert found, fake.messages[last.id].text()  # the seed reveal, with the published hash
    published = [m for m in fake.guild_messages() if m.id != last.id]
    assert any(found.group(2) in m.text() for m in published)
    names = [m.id for m in fake.channel_messages()]
    assert board[0].id in names  # the standings stay in the channel
    await fake.wait_for(lambda: game_row(proc, gid) == ("finished", False), 20, what="noted")
    for _ in range(10):  # until what follows has gone out (quiet for 3 s)
        if not await fake.wait_change(fake.changes, 3.0):
            break
    assert len(posted(fake, gid, is_standings)) == 1
    assert len(posted(fake, gid, is_last_result)) == 1
    assert result_message(fake, gid, HANDS) is None  # the last hand offers no 准备

    # another restart posts nothing of it again
    await proc.kill()
    await proc.start_ready()
    for _ in range(10):
        if not await fake.wait_change(fake.changes, 3.0):
            break
    assert len(posted(fake, gid, is_standings)) == 1
    assert len(posted(fake, gid, is_last_result)) == 1


TUOGUAN_HANDS = 8


async def test_a_sigkill_on_a_tuoguan_table_still_posts_the_results_dealt_past_once(
    fake: FakeDiscord, bot_factory
) -> None:
    """The only human goes on 托管: each hand is dealt the moment the last one ended. Discord
    refuses (503) every result, so when the bot is SIGKILLed, hands have been dealt past
    results that never went out (the deals noted them owed). The restarted bot posts them
    — each hand's result exactly once, in order, with its seed reveal — and plays on."""
    proc = bot_factory(env=game_env(EXTRA_EXTENSIONS="e2e_seed", E2E_SEEDS=SEED))
    await proc.start_ready()
    alice = fake.user("alice")
    gid, _lobby = await open_game(fake, alice, [], length=str(TUOGUAN_HANDS))
    await fake.wait_for(lambda: table_message(fake, gid), 20, what="the table")

    def results_refused(call: RestCall) -> bool:
        embeds = list((call.json or {}).get("embeds") or []) if isinstance(call.json, dict) else []
        return is_any_result(gid, embeds)

    fault = fake.break_next("POST", MESSAGES, None, status=503, match=results_refused)
    ix = await fake.slash(alice, "mahjong autoplay", {"on": True})
    assert (await ix.wait_reply()).ephemeral

    def owed_deals() -> list[dict]:
        rows = proc.rows("SELECT action FROM actions WHERE game_id = ? ORDER BY seq", gid)
        entries = [json.loads(a) if isinstance(a, str) else a for (a,) in rows]
        return [e for e in entries if e.get("k") == "next" and e.get("owed")]

    await fake.wait_for(lambda: owed_deals() or None, 60, what="a hand dealt past its result")
    await proc.kill()  # results owed: noted with the deals, never posted
    fault.heal()
    noted = {h for e in owed_deals() for h in e["owed"]}
    assert noted and all(posted(fake, gid, is_result_of(h)) == [] for h in noted)

    await proc.start_ready()  # alice is still on 托管: the game plays on to its end
    await fake.wait_for(
        lambda: posted(fake, gid, is_standings) or None, 120, what="the final standings"
    )
    for _ in range(10):  # until what follows has gone out (quiet for 3 s)
        if not await fake.wait_change(fake.changes, 3.0):
            break
    shown = {h: posted(fake, gid, is_result_of(h)) for h in range(1, TUOGUAN_HANDS + 1)}
    assert {h: len(m) for h, m in shown.items()} == dict.fromkeys(shown, 1), noted
    firsts = [m[0].id for _h, m in sorted(shown.items())]
    assert firsts == sorted(firsts)  # in the order the hands were played
    for h in noted:
        assert REVEAL.search(fake.messages[shown[h][0].id].text()), h


def result_posted_of(proc: BotProcess, gid: int) -> int | None:
    """The last hand whose result game ``gid``'s stored messages say went out."""
    [(messages,)] = proc.rows("SELECT messages FROM games WHERE id = ?", gid)
    stored = json.loads(messages) if isinstance(messages, str) else (messages or {})
    return stored.get("result_posted")


def results_of(gid: int, hand: int) -> Callable[[RestCall], bool]:
    """Whether a request posts the result of hand ``hand`` of game ``gid``."""

    def match(call: RestCall) -> bool:
        embeds = list((call.json or {}).get("embeds") or []) if isinstance(call.json, dict) else []
        return is_result_of(hand)(gid, embeds)

    return match


async def test_a_sigkill_between_the_result_sent_and_its_note_posts_it_once(
    fake: FakeDiscord, bot_factory
) -> None:
    """Discord creates hand 1's result, but its answer is lost (503 after the message was
    made), so the bot never notes it posted; it is SIGKILLed then. The restarted bot hands
    the result over again, with the same nonce: Discord returns the message already made —
    the result shows once, with 准备."""
    proc = bot_factory(env=game_env(EXTRA_EXTENSIONS="e2e_seed", E2E_SEEDS=SEED))
    await proc.start_ready()
    alice = fake.user("alice")
    gid, _lobby = await open_game(fake, alice, [], length=str(HANDS))
    lost = fake.break_next("POST", MESSAGES, None, status=503, match=results_of(gid, 1), after=True)
    await play_hand(fake, [alice], gid, hand_no=1)
    await fake.wait_for(
        lambda: [c for c in lost.refused if c.status] or None, 20, what="the answer lost"
    )
    await proc.kill()  # the result is out, its note is not
    lost.heal()
    [made] = posted(fake, gid, is_result_of(1))
    assert result_posted_of(proc, gid) is None  # the bot does not know it went out

    await proc.start_ready()
    await fake.wait_for(
        lambda: result_posted_of(proc, gid), 60, what="the result sent again, and noted"
    )
    for _ in range(10):  # until what follows has gone out (quiet for 3 s)
        if not await fake.wait_change(fake.changes, 3.0):
            break
    assert [m.id for m in posted(fake, gid, is_result_of(1))] == [made.id]
    assert made.id in [m for _nonce, m in fake.nonces.repeats]  # answered with the one made
    assert result_message(fake, gid, 1) is not None  # it offers 准备
