"""An unchanged hand picture is neither rendered nor uploaded again (issue 15: the bot's CPU
per press): :class:`cogs.delivery.shown_pictures.ShownPictures` knows which picture each hand message
shows, and :class:`cogs.delivery.hand_dm.HandMessages` keeps the DM's attachment while the tiles stay
the same — and brings the new picture as soon as they change."""

from __future__ import annotations

import asyncio
import itertools
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.delivery import pictures
from cogs.delivery.hand_dm import HandMessages
from cogs.delivery.places import Places
from cogs.delivery.preferences import Preferences
from cogs.delivery.shown_pictures import ShownPictures
from services.delivery import GameSummary, PrivateUpdate
from services.model import ActionKey, HandView, Seat

_ids = itertools.count(discord.utils.time_snowflake(datetime.now(UTC)))
USER = 101

DEALT = HandView(0, (0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 30, 31), 5, (), ())
#: the same tiles while a claim window is open: other buttons, the same picture
CLAIMING = HandView(0, DEALT.concealed, 5, (), (ActionKey("pass"),), claim_tile=4, claim_from=3)
#: a tile drawn: another picture
DREW = HandView(0, (0, 1, 2, 5, 9, 10, 11, 18, 19, 20, 27, 27, 30), 31, (), ())


# ---------------------------------------------------------------------- ShownPictures


def test_a_noted_picture_is_shown_and_no_other() -> None:
    shown = ShownPictures()
    shown.note(1, "east wind")
    assert shown.shows(1, "east wind")
    assert not shown.shows(1, "west wind")
    assert not shown.shows(2, "east wind")
    assert not shown.shows(1, None)  # "no picture" is never a picture to keep


def test_an_edit_that_succeeded_alone_sets_the_picture() -> None:
    shown = ShownPictures()
    shown.note(1, "old")
    with shown.changing(1, "new"):
        assert not shown.shows(1, "old") and not shown.shows(1, "new")  # under way: unknown
    assert shown.shows(1, "new")


def test_a_failed_edit_leaves_the_picture_unknown() -> None:
    shown = ShownPictures()
    shown.note(1, "old")
    with pytest.raises(discord.DiscordException), shown.changing(1, "new"):
        raise discord.DiscordException("refused")
    assert not shown.shows(1, "old") and not shown.shows(1, "new")


def test_overlapping_edits_leave_the_picture_unknown() -> None:
    """Two picture edits of one message under way at once may land in either order."""
    shown = ShownPictures()
    first = shown.changing(1, "first")
    second = shown.changing(1, "second")
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)
    assert not shown.shows(1, "first")
    second.__exit__(None, None, None)
    assert not shown.shows(1, "first") and not shown.shows(1, "second")
    with shown.changing(1, "third"):  # the next lone edit is known again
        pass
    assert shown.shows(1, "third")


def test_an_edit_without_a_picture_forgets_it() -> None:
    shown = ShownPictures()
    shown.note(1, "old")
    with shown.changing(1, None):
        pass
    assert not shown.shows(1, "old")
    shown.note(2, "kept")
    shown.forget(2)
    assert not shown.shows(2, "kept")


def test_the_oldest_messages_are_forgotten_past_the_limit() -> None:
    shown = ShownPictures(limit=2)
    for message_id in (1, 2, 3):
        shown.note(message_id, f"picture {message_id}")
    assert not shown.shows(1, "picture 1")
    assert shown.shows(2, "picture 2") and shown.shows(3, "picture 3")


# ---------------------------------------------------------------------- the hand DM


class FakeMessage:
    def __init__(self, channel_id: int) -> None:
        self.id = next(_ids)
        self.channel = SimpleNamespace(id=channel_id)
        self.flags = None
        self.edits: list[dict[str, Any]] = []

    async def edit(self, **fields: Any) -> None:
        self.edits.append(fields)


class FakeDM:
    def __init__(self, sent: list[tuple[FakeMessage, dict[str, Any]]], channel_id: int) -> None:
        self.sent, self.id = sent, channel_id

    async def send(self, **fields: Any) -> FakeMessage:
        message = FakeMessage(self.id)
        self.sent.append((message, fields))
        return message


class FakeBot:
    def __init__(self) -> None:
        self.sent: list[tuple[FakeMessage, dict[str, Any]]] = []

    def get_channel(self, _channel_id: int) -> None:
        return None

    async def create_dm(self, user: discord.Object) -> FakeDM:
        return FakeDM(self.sent, 10_000 + user.id)


class NoStore:
    shared = False

    def seed(self, game: Any) -> dict[str, Any]:
        return dict(game.messages)  # (the base of a merge: not modelled here)

    def forget(self, _game_id: int) -> None:
        pass

    async def save_messages(self, _game_id: int, messages: dict[str, Any]) -> dict[str, Any]:
        return dict(messages)


def summary(version: int) -> GameSummary:
    return GameSummary(
        id=7,
        guild_id=1,
        channel_id=2,
        variant="shangrao",
        options={},
        seats=tuple(Seat(name=f"p{i}", user_id=USER + i) for i in range(4)),
        status="active",
        version=version,
        totals=(0, 0, 0, 0),
        hand_no=1,
        phase="turn",
        thread_id=2,
    )


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[HandView]:
    """Pictures on; each render is recorded and gives PNG bytes naming the drawn tile."""
    made: list[HandView] = []

    async def hand_png(hand: HandView, **_kwargs: Any) -> bytes:
        made.append(hand)
        return f"PNG drawn={hand.drawn}".encode()

    monkeypatch.setattr(pictures, "ENABLED", True)
    monkeypatch.setattr(pictures, "hand_png", hand_png)
    return made


def hand_messages() -> tuple[HandMessages, FakeBot]:
    bot = FakeBot()
    places = Places(bot, Preferences(None))  # type: ignore[arg-type]
    places.service = places.ids = NoStore()  # type: ignore[assignment]
    return HandMessages(bot, places, Preferences(None)), bot  # type: ignore[arg-type]


async def test_the_dm_keeps_its_picture_while_the_tiles_stay_and_changes_it_after(
    renders: list[HandView],
) -> None:
    hands, bot = hand_messages()
    assert await hands.update_hand(summary(10), PrivateUpdate(0, USER, DEALT)) is True
    [(dm, first)] = bot.sent
    assert [f.fp.read() for f in first["files"]] == [b"PNG drawn=5"]
    assert renders == [DEALT]

    # a claim window opens: new buttons, the same tiles — no render, no upload
    await hands.update_hand(summary(11), PrivateUpdate(0, USER, CLAIMING))
    assert renders == [DEALT]
    kept = dm.edits[-1]
    assert "attachments" not in kept  # Discord keeps the attachment the DM has
    assert kept["embed"].image.url == "attachment://hand.png"
    assert kept["view"] is not None  # the pass button came

    # a tile is drawn: the new picture is rendered and uploaded
    await hands.update_hand(summary(12), PrivateUpdate(0, USER, DREW))
    assert renders == [DEALT, DREW]
    changed = dm.edits[-1]
    assert [f.fp.read() for f in changed["attachments"]] == [b"PNG drawn=31"]
    assert changed["embed"].image.url == "attachment://hand.png"

    # and the claim-window hand again (other tiles than now): drawn again, not kept
    await hands.update_hand(summary(13), PrivateUpdate(0, USER, CLAIMING))
    assert renders == [DEALT, DREW, CLAIMING]
    assert [f.fp.read() for f in dm.edits[-1]["attachments"]] == [b"PNG drawn=5"]
    assert len(bot.sent) == 1


async def test_a_dm_that_a_press_showed_newer_is_not_edited_back_to_an_older_moment(
    renders: list[HandView],
) -> None:
    """Delivery runs behind the game under load: a hand update older than what the press's
    answer showed on the DM would put old buttons back (each pressed one refused)."""
    hands, bot = hand_messages()
    await hands.update_hand(summary(10), PrivateUpdate(0, USER, DEALT))
    [(dm, _first)] = bot.sent
    hands.note_rendered(7, USER, 13, DREW)  # the press's answer showed version 13
    assert await hands.update_hand(summary(12), PrivateUpdate(0, USER, CLAIMING)) is False
    assert dm.edits == [] and renders == [DEALT]
    assert hands.rendered[(7, USER)] == (13, DREW)
    # a newer hand than the answer's is shown as usual (the same tiles: the picture stays)
    await hands.update_hand(summary(14), PrivateUpdate(0, USER, CLAIMING))
    assert len(dm.edits) == 1 and dm.edits[0]["view"] is not None
    assert hands.rendered[(7, USER)] == (14, CLAIMING)


async def test_a_dm_whose_picture_edit_failed_gets_the_picture_again(
    renders: list[HandView],
) -> None:
    hands, bot = hand_messages()
    await hands.update_hand(summary(10), PrivateUpdate(0, USER, DEALT))
    [(dm, _first)] = bot.sent
    hands.pictures.forget(dm.id)  # (as after an edit that failed: nothing known)
    await hands.update_hand(summary(11), PrivateUpdate(0, USER, CLAIMING))
    assert renders == [DEALT, CLAIMING]
    assert [f.fp.read() for f in dm.edits[-1]["attachments"]] == [b"PNG drawn=5"]


async def test_a_picture_edit_under_way_is_not_taken_as_shown(
    renders: list[HandView],
) -> None:
    """While the DM's picture is being changed, the next update renders and uploads its own
    picture (which of the two lands last is not known)."""
    hands, bot = hand_messages()
    await hands.update_hand(summary(10), PrivateUpdate(0, USER, DEALT))
    [(dm, _first)] = bot.sent
    release = asyncio.Event()
    plain_edit = dm.edit

    async def slow_edit(**fields: Any) -> None:
        await release.wait()
        await plain_edit(**fields)

    dm.edit = slow_edit  # type: ignore[method-assign]
    drawing = asyncio.create_task(hands.update_hand(summary(11), PrivateUpdate(0, USER, DREW)))
    await asyncio.sleep(0.01)
    claiming = asyncio.create_task(hands.update_hand(summary(12), PrivateUpdate(0, USER, CLAIMING)))
    await asyncio.sleep(0.01)
    release.set()
    await asyncio.gather(drawing, claiming)
    assert renders == [DEALT, DREW, CLAIMING]
    assert all("attachments" in edit for edit in dm.edits)
    assert not hands.pictures.shows(dm.id, pictures.hand_model(CLAIMING, "zh"))
