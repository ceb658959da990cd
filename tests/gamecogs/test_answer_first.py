"""A press is answered first, its hand picture follows (issue 15, item 1): the pressed hand
message gets its new text and buttons at once, keeping its picture for the moment; the new
picture comes in a second edit (none when a newer hand reached the message meanwhile)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs import game as game_cog
from cogs import pictures
from cogs.shown_pictures import ShownPictures
from services.model import HandView

#: a hand before a press, and the same tiles after a pass (only the buttons differ)
HAND = HandView(seat=0, concealed=(0, 1, 2, 9, 10, 11), drawn=20, melds=(), legal=())


class FakeResponse:
    def __init__(self, calls: list[tuple[str, dict[str, Any]]]) -> None:
        self.calls = calls

    async def edit_message(self, **kwargs: Any) -> None:
        self.calls.append(("answer", kwargs))


class FakeInteraction:
    """What ``_redraw_hand`` uses of a press on a hand message that carries a picture."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.response = FakeResponse(self.calls)
        self.message = SimpleNamespace(id=4242, attachments=[SimpleNamespace(filename="hand.png")])
        self.locale = discord.Locale.chinese

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.calls.append(("picture", kwargs))


@pytest.fixture
def slow_picture(monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """The hand picture is ready only once the returned event is set."""
    ready = asyncio.Event()

    async def hand_png(hand: Any, **kwargs: Any) -> bytes:
        assert kwargs["urgent"] is True  # before any DM or table picture
        await ready.wait()
        return b"\x89PNG new hand"

    monkeypatch.setattr(pictures, "ENABLED", True)
    monkeypatch.setattr(pictures, "hand_png", hand_png)
    return ready


async def _press(
    interaction: FakeInteraction,
    current: Any = None,
    shown: ShownPictures | None = None,
    hand: HandView = HAND,
) -> discord.Embed:
    embed = discord.Embed(description="the new hand")
    await game_cog._redraw_hand(
        interaction, embed, None, hand=hand, still_current=current, shown=shown
    )
    return embed


async def test_the_answer_does_not_wait_for_the_picture(slow_picture: asyncio.Event) -> None:
    interaction = FakeInteraction()
    await _press(interaction)
    # answered while the picture is still being drawn: text and buttons, old picture kept
    assert [kind for kind, _ in interaction.calls] == ["answer"]
    answered = interaction.calls[0][1]
    assert "attachments" not in answered
    assert answered["embed"].description == "the new hand"
    assert answered["embed"].image.url == "attachment://hand.png"
    slow_picture.set()
    await asyncio.gather(*game_cog._LATE_PICTURES)
    assert [kind for kind, _ in interaction.calls] == ["answer", "picture"]
    edit = interaction.calls[1][1]
    assert [f.filename for f in edit["attachments"]] == ["hand.png"]
    assert edit["attachments"][0].fp.read() == b"\x89PNG new hand"
    assert edit["embed"].image.url == "attachment://hand.png"


async def test_a_picture_overtaken_by_a_newer_hand_is_not_shown(
    slow_picture: asyncio.Event,
) -> None:
    interaction = FakeInteraction()
    await _press(interaction, current=lambda: False)
    slow_picture.set()
    await asyncio.gather(*game_cog._LATE_PICTURES)
    assert [kind for kind, _ in interaction.calls] == ["answer"]


async def test_a_failed_picture_leaves_no_stale_one(monkeypatch: pytest.MonkeyPatch) -> None:
    async def no_png(hand: Any, **kwargs: Any) -> None:
        return None

    monkeypatch.setattr(pictures, "ENABLED", True)
    monkeypatch.setattr(pictures, "hand_png", no_png)
    interaction = FakeInteraction()
    await _press(interaction)
    await asyncio.gather(*game_cog._LATE_PICTURES)
    assert [kind for kind, _ in interaction.calls] == ["answer", "picture"]
    edit = interaction.calls[1][1]
    assert edit["attachments"] == [] and not edit["embed"].image.url


async def test_a_press_that_leaves_the_tiles_keeps_the_picture(
    slow_picture: asyncio.Event,
) -> None:
    """The hand message shows this hand's picture already (a pass: only the buttons
    change): the answer keeps the attachment, and nothing is rendered or uploaded again."""
    shown = ShownPictures()
    interaction = FakeInteraction()
    slow_picture.set()
    await _press(interaction, shown=shown)
    await asyncio.gather(*game_cog._LATE_PICTURES)
    assert [kind for kind, _ in interaction.calls] == ["answer", "picture"]
    assert shown.shows(4242, pictures.hand_model(HAND, "zh"))

    again = FakeInteraction()
    await _press(again, shown=shown)
    await asyncio.gather(*game_cog._LATE_PICTURES)
    assert [kind for kind, _ in again.calls] == ["answer"]
    answered = again.calls[0][1]
    assert "attachments" not in answered
    assert answered["embed"].image.url == "attachment://hand.png"


async def test_a_press_that_changes_the_tiles_brings_the_new_picture(
    slow_picture: asyncio.Event,
) -> None:
    """After a kept picture, a discard (other tiles) draws and uploads the new one."""
    shown = ShownPictures()
    shown.note(4242, pictures.hand_model(HAND, "zh"))
    discarded = HandView(seat=0, concealed=(0, 1, 2, 9, 10, 11), drawn=None, melds=(), legal=())
    interaction = FakeInteraction()
    slow_picture.set()
    await _press(interaction, shown=shown, hand=discarded)
    await asyncio.gather(*game_cog._LATE_PICTURES)
    assert [kind for kind, _ in interaction.calls] == ["answer", "picture"]
    edit = interaction.calls[1][1]
    assert edit["attachments"][0].fp.read() == b"\x89PNG new hand"
    assert shown.shows(4242, pictures.hand_model(discarded, "zh"))
    assert not shown.shows(4242, pictures.hand_model(HAND, "zh"))


async def test_a_picture_in_another_language_is_drawn_again(slow_picture: asyncio.Event) -> None:
    """The same tiles in the presser's other language are another picture (its words)."""
    shown = ShownPictures()
    shown.note(4242, pictures.hand_model(HAND, "en"))
    interaction = FakeInteraction()  # a Chinese client
    slow_picture.set()
    await _press(interaction, shown=shown)
    await asyncio.gather(*game_cog._LATE_PICTURES)
    assert [kind for kind, _ in interaction.calls] == ["answer", "picture"]


async def test_a_commands_writes_go_before_bookkeeping() -> None:
    """``/mahjong new``, ``join``, ``start``… run their work inside ``answering()``: their
    player waits for the commit, like a button's (a lobby opened under load was answered
    late when its writes queued behind message-id bookkeeping)."""
    from db import group_commit

    seen: list[bool] = []
    noted: list[int] = []
    cog = SimpleNamespace(
        delivery=SimpleNamespace(
            preferences=SimpleNamespace(note_user=lambda user_id, locale: noted.append(user_id))
        )
    )
    interaction = SimpleNamespace(user=SimpleNamespace(id=7), locale=discord.Locale.chinese)

    async def job() -> None:
        seen.append(group_commit._is_answering())

    assert not group_commit._is_answering()
    await game_cog.Game._run(cog, interaction, job)  # type: ignore[arg-type]
    assert seen == [True] and noted == [7]
    assert not group_commit._is_answering()
