"""End-to-end: a press on the hand DM is answered by one request that carries the new hand
picture when it is ready in time (``PICTURE_INLINE_WAIT_MS``) — the interaction callback
(type 7, multipart with ``payload_json`` and the file, as Discord takes it), with no second
edit of the pressed message through ``PATCH …/messages/@original``."""

from __future__ import annotations

import re

import pytest

from .fake_discord import FakeDiscord, FakeMessage
from .game_driver import choose, hand_message, open_game, parse_id, play_hand, start_bot

pytestmark = pytest.mark.e2e

#: a wait far longer than a hand picture's render, still short of Discord's 3 s deadline
GENEROUS_WAIT_MS = "2000"
ORIGINAL_EDIT = r"^/webhooks/\d+/(?P<token>[^/]+)/messages/@original$"


def _picture(msg: FakeMessage) -> bytes | None:
    """The PNG the hand message shows (its embed's ``attachment://`` image), if any."""
    images = [(e.get("image") or {}).get("url", "") for e in msg.embeds]
    for a in msg.attachments:
        if f"attachment://{a.filename}" in images:
            return a.data
    return None


def _hand_line(embeds: list[dict]) -> str:
    """The hand as the DM's text lists it (its embed's first line: tiles and the drawn one)."""
    return (embeds[0].get("description") or "").splitlines()[0]


async def test_a_discard_is_answered_with_its_new_picture_in_one_request(
    fake: FakeDiscord, bot_factory
) -> None:
    await start_bot(bot_factory, PICTURE_INLINE_WAIT_MS=GENEROUS_WAIT_MS)
    alice = fake.user("alice")
    gid, _lobby = await open_game(fake, alice, [], variant="xinyu")  # 新余: Alice deals

    def her_discard() -> tuple[FakeMessage, str] | None:
        msg = hand_message(fake, alice, gid)
        if msg is None or _picture(msg) is None:
            return None
        cid = choose(msg)
        return (msg, cid) if cid is not None and parse_id(cid)[1] == "discard" else None

    dm, cid = await fake.wait_for(her_discard, 20, what="Alice's turn, with her hand's picture")
    before, before_hand = _picture(dm), _hand_line(dm.embeds)
    press = await fake.click(alice, dm, cid)
    await press.wait_ack(10)

    # the answer edited the DM with text, buttons and the new picture at once
    assert press.response_type == 7
    [callback] = fake.calls_to("POST", rf"^/interactions/{press.id}/[^/]+/callback$")
    assert callback.json["type"] == 7
    sent = [data for name, data in callback.files.items() if re.fullmatch(r"files\[\d+\]", name)]
    assert len(sent) == 1 and sent[0].startswith(b"\x89PNG")
    # the DM showed that picture (the bots may since have played on and Alice drawn again,
    # so it is looked for among the message's versions, not only the current one)
    shown = [v for v in fake.messages[dm.id].versions() if sent[0] in v["pictures"]]
    assert shown, "the callback's picture never reached Alice's DM"
    # a new picture, unless she drew back the kind she threw: the same hand, the same pixels
    assert sent[0] != before or _hand_line(shown[-1]["embeds"]) == before_hand

    # a whole hand of presses: the pictures always came with the answers
    await play_hand(fake, [alice], gid)
    tokens = {ix.token for ix in fake.interactions.values() if ix.user is alice}
    late = [
        c
        for c in fake.calls_to("PATCH", ORIGINAL_EDIT)
        if (m := re.search(ORIGINAL_EDIT, c.path)) and m.group("token") in tokens
    ]
    assert late == []
