"""End-to-end: /mahjong replay of a finished hand, its buttons after a restart, and a hand
still being played refused through the command, the autocomplete and a forged custom_id;
/mahjong review and /mahjong export on the same game."""

from __future__ import annotations

import json
import re

import pytest

from .fake_discord import FakeDiscord
from .game_driver import click_ok, game_env, log_of, open_game, play_hand
from .harness import BotProcess

pytestmark = pytest.mark.e2e


def recorded(proc: BotProcess, gid: int, hand_no: int) -> bool:
    """Whether the bot's store recorded hand ``hand_no`` of game ``gid`` (it is over)."""
    [(count,)] = proc.rows(
        "SELECT count(*) FROM hands WHERE game_id = ? AND hand_no = ?", gid, hand_no
    )
    return bool(count)


async def followup(fake: FakeDiscord, ix) -> str:
    """The text of the first follow-up answering a press (the pressed message is the
    interaction's original, so ``wait_reply`` would find that)."""
    msg = await fake.wait_for(
        lambda: next((m for m in ix.followups if m.content or m.embeds), None),
        10,
        what="a follow-up",
    )
    assert msg.ephemeral
    return msg.text()


def step_of(fake: FakeDiscord, msg_id: int) -> str:
    embed = fake.messages[msg_id].embeds[0]
    return embed["footer"]["text"]


@pytest.mark.parametrize("variant", ["xinyu", "nanchang"])
async def test_replay_buttons_after_a_restart_and_hands_in_play_refused(
    fake: FakeDiscord, bot_factory, variant: str
) -> None:
    proc = bot_factory(env=game_env())
    await proc.start_ready()
    alice, bob = fake.user("alice"), fake.user("bob")
    gid, _lobby = await open_game(fake, alice, [], variant=variant)
    result = await play_hand(fake, [alice], gid)
    assert f"#{gid}-1" in result.text()  # the code /mahjong replay takes
    await fake.wait_for(lambda: recorded(proc, gid, 1), 20, what="hand 1 recorded")
    await click_ok(fake, alice, fake.messages[result.id], f"mj:{gid}:next:1")
    await fake.wait_for(
        lambda: any(e.get("k") == "next" for _s, _seat, e in log_of(proc, gid)),
        15,
        what="hand 2 dealt",
    )

    # the hand in play: refused by the command ...
    ix = await fake.slash(bob, "mahjong replay", {"hand": f"#{gid}-2"})
    reply = await ix.wait_reply(10)
    assert reply.ephemeral and "still being played" in reply.text()
    assert not reply.attachments and not reply.custom_ids()
    # ... never offered by the autocomplete ...
    ix = await fake.autocomplete(bob, "mahjong replay", {"hand": f"#{gid}"}, "hand")
    await ix.wait_ack()
    offered = [c["value"] for c in ix.response_data["choices"]]
    assert f"#{gid}-1" in offered and f"#{gid}-2" not in offered

    # a finished hand: a private replay with the picture, the moves and the buttons
    ix = await fake.slash(bob, "mahjong replay", {"hand": f"#{gid}-1"})
    replay = await ix.wait_reply(15)
    assert replay.ephemeral and replay.attachments[0].filename == "replay.png"
    assert replay.attachments[0].data.startswith(b"\x89PNG")
    assert f"#{gid}-1" in replay.text() and "step 0/" in step_of(fake, replay.id)
    ids = replay.custom_ids()
    forward = next(c for c in ids if c.startswith(f"mj:rp:{gid}:1:n:"))
    await click_ok(fake, bob, fake.messages[replay.id], forward)
    await fake.wait_for(
        lambda: "step 1/" in step_of(fake, replay.id), 15, what="the replay at step 1"
    )
    assert "1. " in fake.messages[replay.id].text()

    # ... and a forged custom_id for the hand in play changes nothing
    before = len(fake.messages[replay.id].history)
    forged = f"mj:rp:{gid}:2:n:1:4"
    ix = await fake.click(bob, fake.messages[replay.id], forged, force=True)
    await ix.wait_ack()
    assert "still being played" in await followup(fake, ix)
    assert len(fake.messages[replay.id].history) == before
    forged_select = f"mj:rs:{gid}:2:0"
    ix = await fake.click(bob, fake.messages[replay.id], forged_select, values=["4"], force=True)
    await ix.wait_ack()
    assert "still being played" in await followup(fake, ix)

    # the buttons work after a restart (kill -9)
    await proc.restart()
    current = fake.messages[replay.id]
    forward = next(c for c in current.custom_ids() if c.startswith(f"mj:rp:{gid}:1:n:"))
    await click_ok(fake, bob, current, forward)
    await fake.wait_for(
        lambda: "step 2/" in step_of(fake, replay.id), 15, what="step 2 after the restart"
    )
    last = next(c for c in fake.messages[replay.id].custom_ids() if ":1:l:" in c)
    await click_ok(fake, bob, fake.messages[replay.id], last)
    await fake.wait_for(
        lambda: "Result" in fake.messages[replay.id].text(), 15, what="the last step"
    )
    # the seat switch: seat 1 (alice) shown
    select = next(c for c in fake.messages[replay.id].custom_ids() if c.startswith("mj:rs:"))
    await click_ok(fake, bob, fake.messages[replay.id], select, values=["0"])
    await fake.wait_for(lambda: "alice" in step_of(fake, replay.id), 15, what="alice's hand shown")

    # 🎞: the whole hand as an animated picture, posted for the channel to see
    animate = next(c for c in fake.messages[replay.id].custom_ids() if ":1:a:" in c)
    ix = await click_ok(fake, bob, fake.messages[replay.id], animate)
    gif = await fake.wait_for(
        lambda: next((m for m in ix.followups if m.attachments), None), 60, what="the GIF"
    )
    assert not gif.ephemeral and gif.attachments[0].data.startswith(b"GIF8")
    assert len(gif.attachments[0].data) < 10 * 1024 * 1024

    # review and export of the same game
    ix = await fake.slash(alice, "mahjong review", {"hand": f"#{gid}-1"})
    review = await ix.wait_reply(15)
    assert review.ephemeral and f"#{gid}-1" in review.text()
    ix = await fake.slash(bob, "mahjong review", {"hand": f"#{gid}-2", "seat": 1})
    assert "still being played" in (await ix.wait_reply(10)).text()
    ix = await fake.slash(bob, "mahjong export game", {"id": gid})
    export = await ix.wait_reply(15)
    # a Discord player is pointed at commands they can use, not at a command line
    assert "python -m" not in export.text() and "/mahjong replay" in export.text()
    doc = json.loads(export.attachments[0].data)
    assert doc["format"] == "jiangxi-mahjong-log" and doc["games"][0]["seed"] is None
    assert [h["hand"] for h in doc["games"][0]["hands"]] == [1]
    ix = await fake.slash(bob, "mahjong export server", {})
    refused = await ix.wait_reply(10)
    assert refused.ephemeral and "Manage Server" in refused.text() and not refused.attachments


def _gif_durations(data: bytes) -> list[int]:
    import io

    from PIL import Image

    gif = Image.open(io.BytesIO(data))
    out = []
    for i in range(gif.n_frames):
        gif.seek(i)
        out.append(gif.info["duration"])
    return out


async def test_a_result_opens_its_replay_paced_from_the_players_seat(
    fake: FakeDiscord, bot_factory
) -> None:
    """Every result carries 回放, kept once the next hand is dealt; it opens the hand from
    the presser's seat; 🎞 from there is paced for a person (claims and the win held
    longer); a review's line opens its step."""
    proc = bot_factory(env=game_env())
    await proc.start_ready()
    alice = fake.user("alice")
    gid, _lobby = await open_game(fake, alice, [], variant="xinyu")
    result = await play_hand(fake, [alice], gid)
    open_id = f"mj:rp:{gid}:1:o:0:4"
    assert open_id in result.custom_ids()
    await fake.wait_for(lambda: recorded(proc, gid, 1), 20, what="hand 1 recorded")
    await click_ok(fake, alice, fake.messages[result.id], f"mj:{gid}:next:1")
    await fake.wait_for(
        lambda: any(e.get("k") == "next" for _s, _seat, e in log_of(proc, gid)),
        15,
        what="hand 2 dealt",
    )
    # 准备 / 解散 leave the old result once the next hand is dealt; 回放 stays
    await fake.wait_for(
        lambda: f"mj:{gid}:next:1" not in fake.messages[result.id].custom_ids(),
        15,
        what="the old result's 准备 gone",
    )
    assert fake.messages[result.id].custom_ids() == [open_id]

    ix = await click_ok(fake, alice, fake.messages[result.id], open_id)
    replay = await ix.wait_reply(15)
    assert replay.ephemeral and replay.id != result.id
    assert "step 0/" in step_of(fake, replay.id) and "alice" in step_of(fake, replay.id)
    assert replay.attachments[0].filename == "replay.png"
    ids = replay.custom_ids()
    assert any(c.startswith(f"mj:rp:{gid}:1:t:") for c in ids)  # next own turn
    assert any(c.startswith(f"mj:rp:{gid}:1:w:") for c in ids)  # the win

    # 🎞 from alice's seat (view 0): paced per step, the win held longest
    animate = next(c for c in ids if c.startswith(f"mj:rp:{gid}:1:a:"))
    assert animate.endswith(":0")
    ix = await click_ok(fake, alice, fake.messages[replay.id], animate)
    gif = await fake.wait_for(
        lambda: next((m for m in ix.followups if m.attachments), None), 60, what="the GIF"
    )
    durations = _gif_durations(gif.attachments[0].data)
    assert sorted(durations)[len(durations) // 2] >= 700  # a discard can be followed
    assert durations[-1] == max(durations) >= 5000
    assert sum(durations) >= 20_000

    # a review line opens the replay at its step, from the reviewed seat
    opened_one = False
    for seat in (1, 2, 3, 4):
        ix = await fake.slash(alice, "mahjong review", {"hand": f"#{gid}-1", "seat": seat})
        review = await ix.wait_reply(15)
        picks = [c for c in review.custom_ids() if c.startswith(f"mj:rv:{gid}:1:")]
        if not picks:  # that seat played exactly as the analysis would
            continue
        assert picks == [f"mj:rv:{gid}:1:{seat - 1}"]
        line = next(x for x in review.text().splitlines() if x[:1].isdigit())
        step = line.split(".", 1)[0]
        ix = await click_ok(fake, alice, fake.messages[review.id], picks[0], values=[step])
        opened = await ix.wait_reply(15)
        # shown just before that play, the advice said (and drawn on the hand picture)
        assert opened.id != review.id and f"step {int(step) - 1}/" in step_of(fake, opened.id)
        assert line.split(". ", 1)[1] in opened.text() and "Review" in opened.text()
        assert opened.attachments[0].filename == "replay.png"
        opened_one = True
        break
    assert opened_one, "no seat had a review line"


async def test_pictures_off_the_replay_shows_the_tiles_in_words(
    fake: FakeDiscord, bot_factory
) -> None:
    proc = bot_factory(env=game_env(MAHJONG_PICTURES="false"))
    await proc.start_ready()
    alice = fake.user("alice")
    gid, _lobby = await open_game(fake, alice, [], variant="xinyu")
    await play_hand(fake, [alice], gid)
    await fake.wait_for(lambda: recorded(proc, gid, 1), 20, what="hand 1 recorded")
    ix = await fake.slash(alice, "mahjong replay", {"hand": f"#{gid}-1"})
    replay = await ix.wait_reply(15)
    assert not replay.attachments
    text = replay.text()
    # alice's own tiles by name (13 or 14 at the deal), the others' only counted
    [own] = [x for x in text.splitlines() if x.startswith("**alice** · hand ")]
    tiles = own.split(" · ")[1].removeprefix("hand ")
    from services.replay_text import tile_word

    words = sorted({tile_word(k, "en") for k in range(34)}, key=len, reverse=True)
    assert len(re.findall("|".join(map(re.escape, words)), tiles)) in (13, 14), own
    assert len(re.findall(r"· 1[34] tiles in hand ·", text)) == 3
