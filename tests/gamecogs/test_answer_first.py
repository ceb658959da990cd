"""A press is answered first, its hand picture follows (issue 15, item 1): the pressed hand
message gets its new text and buttons at once, keeping its picture for the moment; the new
picture comes in a second edit (none when a newer hand reached the message meanwhile).

The answer waits a short bounded time for the picture (``PICTURE_INLINE_WAIT_MS``,
:data:`cogs.delivery.pictures.INLINE_WAIT`): ready by then, the answer carries it and no second edit
is made."""

from __future__ import annotations

import asyncio
import datetime as dt
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.delivery import pictures
from cogs.delivery.shown_pictures import ShownPictures
from cogs.game import commands as game_cog
from services.model import HandView

#: a hand before a press, and the same tiles after a pass (only the buttons differ)
HAND = HandView(seat=0, concealed=(0, 1, 2, 9, 10, 11), drawn=20, melds=(), legal=())
#: a wait for the picture far longer than any render here (a ready picture ends it)
GENEROUS = 1.5


class FakeResponse:
    def __init__(self, calls: list[tuple[str, dict[str, Any]]]) -> None:
        self.calls = calls
        self.answered = False

    def is_done(self) -> bool:
        return self.answered

    async def edit_message(self, **kwargs: Any) -> None:
        self.answered = True
        self.calls.append(("answer", kwargs))

    async def defer(self, **kwargs: Any) -> None:
        self.answered = True
        self.calls.append(("defer", kwargs))


class FakeInteraction:
    """What ``_redraw_hand`` uses of a press on a hand message that carries a picture."""

    def __init__(self, age: float = 0.0) -> None:
        """``age``: seconds since Discord created the interaction (its id's time)."""
        created = discord.utils.utcnow() - dt.timedelta(seconds=age)
        self.id = discord.utils.time_snowflake(created)
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


@pytest.fixture(params=["late", "inline"])
def way(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """How a ready picture reaches the message: ``late`` (the answer never waits: the
    picture follows in a second edit) or ``inline`` (the answer waits and carries it)."""
    monkeypatch.setattr(pictures, "INLINE_WAIT", 0.0 if request.param == "late" else GENEROUS)
    return str(request.param)


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The waits ``_redraw_hand`` asked for, in seconds (the wait itself still happens)."""
    asked: list[float] = []
    real = game_cog._picture_in_time

    async def spy(picture: asyncio.Future[bytes | None], wait: float) -> bool:
        asked.append(wait)
        return await real(picture, wait)

    monkeypatch.setattr(game_cog, "_picture_in_time", spy)
    return asked


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


def _kinds(interaction: FakeInteraction) -> list[str]:
    """The requests a press made: ``answer`` (the callback), ``picture`` (the second edit)."""
    return [kind for kind, _ in interaction.calls]


def _answered_with_picture(interaction: FakeInteraction) -> bool:
    return "attachments" in interaction.calls[0][1]


async def test_the_answer_does_not_wait_for_the_picture(
    slow_picture: asyncio.Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A picture not ready within the wait: the answer goes without it, the picture follows."""
    monkeypatch.setattr(pictures, "INLINE_WAIT", 0.01)
    interaction = FakeInteraction()
    await _press(interaction)
    # answered while the picture is still being drawn: text and buttons, old picture kept
    assert _kinds(interaction) == ["answer"]
    answered = interaction.calls[0][1]
    assert "attachments" not in answered
    assert answered["embed"].description == "the new hand"
    assert answered["embed"].image.url == "attachment://hand.png"
    slow_picture.set()
    await asyncio.gather(*game_cog._LATE_PICTURES)
    assert _kinds(interaction) == ["answer", "picture"]
    edit = interaction.calls[1][1]
    assert [f.filename for f in edit["attachments"]] == ["hand.png"]
    assert edit["attachments"][0].fp.read() == b"\x89PNG new hand"
    assert edit["embed"].image.url == "attachment://hand.png"


async def test_a_picture_ready_in_time_goes_with_the_answer(
    slow_picture: asyncio.Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The picture is ready while the answer waits: one request, the callback carrying the
    new picture, and no second edit."""
    monkeypatch.setattr(pictures, "INLINE_WAIT", GENEROUS)
    shown = ShownPictures()
    interaction = FakeInteraction()
    pressed = asyncio.create_task(_press(interaction, shown=shown))
    await asyncio.sleep(0)  # the answer waits for the picture…
    assert _kinds(interaction) == []
    slow_picture.set()  # …which is ready now
    await pressed
    await asyncio.gather(*game_cog._LATE_PICTURES)
    assert _kinds(interaction) == ["answer"]
    answered = interaction.calls[0][1]
    assert answered["embed"].description == "the new hand"
    assert [f.filename for f in answered["attachments"]] == ["hand.png"]
    assert answered["attachments"][0].fp.read() == b"\x89PNG new hand"
    assert answered["embed"].image.url == "attachment://hand.png"
    assert shown.shows(4242, pictures.hand_model(HAND, "zh"))


async def test_the_wait_never_exceeds_the_setting(
    slow_picture: asyncio.Event, monkeypatch: pytest.MonkeyPatch, waits: list[float]
) -> None:
    monkeypatch.setattr(pictures, "INLINE_WAIT", 0.02)
    await _press(FakeInteraction())
    assert 0 < waits[-1] <= 0.02
    monkeypatch.setattr(pictures, "INLINE_WAIT", 0.0)  # 0: never waits
    await _press(FakeInteraction())
    assert waits[-1] == 0
    slow_picture.set()
    await asyncio.gather(*game_cog._LATE_PICTURES)


async def test_the_wait_stops_short_of_discords_deadline(
    slow_picture: asyncio.Event, monkeypatch: pytest.MonkeyPatch, waits: list[float]
) -> None:
    """However long the setting, the answer keeps :data:`game_cog.ANSWER_MARGIN` of the
    interaction's 3 s (counted from its id's time): a press that took long (a busy
    database) does not wait for its picture at all."""
    monkeypatch.setattr(pictures, "INLINE_WAIT", 2.0)
    spent = game_cog.ANSWER_DEADLINE - game_cog.ANSWER_MARGIN - 0.5
    interaction = FakeInteraction(age=spent)
    await _press(interaction)
    assert 0 < waits[-1] <= 0.5
    late = FakeInteraction(age=game_cog.ANSWER_DEADLINE - game_cog.ANSWER_MARGIN + 0.1)
    await _press(late)
    assert waits[-1] == 0
    assert _kinds(late) == ["answer"] and not _answered_with_picture(late)
    slow_picture.set()
    await asyncio.gather(*game_cog._LATE_PICTURES)
    assert _kinds(late) == ["answer", "picture"]


async def test_cancelling_the_press_ends_the_wait_and_the_render(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The press's handler cancelled while its answer waits (the bot closing): no answer,
    and the render is cancelled too (nothing left running for it)."""
    renders: list[asyncio.Task[Any] | None] = []

    async def never_ready(hand: Any, **kwargs: Any) -> bytes:
        renders.append(asyncio.current_task())
        await asyncio.Event().wait()
        raise AssertionError("never ready")

    monkeypatch.setattr(pictures, "ENABLED", True)
    monkeypatch.setattr(pictures, "hand_png", never_ready)
    monkeypatch.setattr(pictures, "INLINE_WAIT", GENEROUS)
    interaction = FakeInteraction()
    pressed = asyncio.create_task(_press(interaction))
    while not renders:
        await asyncio.sleep(0)
    [render] = renders
    assert render is not None and not pressed.done()
    pressed.cancel()
    with pytest.raises(asyncio.CancelledError):
        await pressed
    with pytest.raises(asyncio.CancelledError):
        await render
    assert _kinds(interaction) == [] and not game_cog._LATE_PICTURES


async def test_a_picture_overtaken_by_a_newer_hand_is_not_shown(
    slow_picture: asyncio.Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A newer hand reached the message after the answer, while the picture was drawn: this
    picture is never shown."""
    monkeypatch.setattr(pictures, "INLINE_WAIT", 0.0)
    current = [True]
    interaction = FakeInteraction()
    await _press(interaction, current=lambda: current[0])
    current[0] = False  # the newer hand
    slow_picture.set()
    await asyncio.gather(*game_cog._LATE_PICTURES)
    assert _kinds(interaction) == ["answer"]
    assert not _answered_with_picture(interaction)


@pytest.mark.parametrize("ready", [True, False])
async def test_a_newer_hand_during_the_wait_is_not_drawn_over(
    slow_picture: asyncio.Event, monkeypatch: pytest.MonkeyPatch, ready: bool
) -> None:
    """A newer hand reached the message while the answer waited for this one's picture
    (delivery's edit is out): the press is acknowledged without an edit (``defer``, type 6)
    — neither this older hand's text nor its picture is drawn over the newer one."""
    monkeypatch.setattr(pictures, "INLINE_WAIT", 0.05 if not ready else GENEROUS)
    current = [True]
    interaction = FakeInteraction()
    pressed = asyncio.create_task(_press(interaction, current=lambda: current[0]))
    await asyncio.sleep(0)  # the answer waits for the picture…
    current[0] = False  # …and the newer hand came
    if ready:
        slow_picture.set()
    await pressed
    slow_picture.set()
    await asyncio.gather(*game_cog._LATE_PICTURES)
    assert _kinds(interaction) == ["defer"]


async def test_a_failed_picture_leaves_no_stale_one(
    monkeypatch: pytest.MonkeyPatch, way: str
) -> None:
    async def no_png(hand: Any, **kwargs: Any) -> None:
        return None

    monkeypatch.setattr(pictures, "ENABLED", True)
    monkeypatch.setattr(pictures, "hand_png", no_png)
    shown = ShownPictures()
    interaction = FakeInteraction()
    await _press(interaction, shown=shown)
    await asyncio.gather(*game_cog._LATE_PICTURES)
    if way == "late":
        assert _kinds(interaction) == ["answer", "picture"]
        edit = interaction.calls[1][1]
    else:  # the failure was known in time: the answer takes the old picture away
        assert _kinds(interaction) == ["answer"]
        edit = interaction.calls[0][1]
    assert edit["attachments"] == [] and not edit["embed"].image.url
    assert not shown.shows(4242, pictures.hand_model(HAND, "zh"))


async def test_a_render_that_raised_answers_without_a_picture(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def broken(hand: Any, **kwargs: Any) -> bytes:
        raise RuntimeError("the renderer broke")

    monkeypatch.setattr(pictures, "ENABLED", True)
    monkeypatch.setattr(pictures, "hand_png", broken)
    monkeypatch.setattr(pictures, "INLINE_WAIT", GENEROUS)
    interaction = FakeInteraction()
    await _press(interaction)
    assert _kinds(interaction) == ["answer"]
    answered = interaction.calls[0][1]
    assert answered["attachments"] == [] and not answered["embed"].image.url
    assert answered["embed"].description == "the new hand"


async def test_a_press_that_leaves_the_tiles_keeps_the_picture(
    slow_picture: asyncio.Event, way: str
) -> None:
    """The hand message shows this hand's picture already (a pass: only the buttons
    change): the answer keeps the attachment, and nothing is rendered or uploaded again."""
    shown = ShownPictures()
    interaction = FakeInteraction()
    slow_picture.set()
    await _press(interaction, shown=shown)
    await asyncio.gather(*game_cog._LATE_PICTURES)
    if way == "late":
        assert _kinds(interaction) == ["answer", "picture"]
    else:
        assert _kinds(interaction) == ["answer"] and _answered_with_picture(interaction)
    assert shown.shows(4242, pictures.hand_model(HAND, "zh"))

    again = FakeInteraction()
    await _press(again, shown=shown)
    await asyncio.gather(*game_cog._LATE_PICTURES)
    assert _kinds(again) == ["answer"]
    answered = again.calls[0][1]
    assert "attachments" not in answered
    assert answered["embed"].image.url == "attachment://hand.png"


async def test_a_press_that_changes_the_tiles_brings_the_new_picture(
    slow_picture: asyncio.Event, way: str
) -> None:
    """After a kept picture, a discard (other tiles) draws and uploads the new one."""
    shown = ShownPictures()
    shown.note(4242, pictures.hand_model(HAND, "zh"))
    discarded = HandView(seat=0, concealed=(0, 1, 2, 9, 10, 11), drawn=None, melds=(), legal=())
    interaction = FakeInteraction()
    slow_picture.set()
    await _press(interaction, shown=shown, hand=discarded)
    await asyncio.gather(*game_cog._LATE_PICTURES)
    assert _kinds(interaction) == (["answer", "picture"] if way == "late" else ["answer"])
    edit = interaction.calls[-1][1]
    assert edit["attachments"][0].fp.read() == b"\x89PNG new hand"
    assert shown.shows(4242, pictures.hand_model(discarded, "zh"))
    assert not shown.shows(4242, pictures.hand_model(HAND, "zh"))


async def test_a_picture_in_another_language_is_drawn_again(
    slow_picture: asyncio.Event, way: str
) -> None:
    """The same tiles in the presser's other language are another picture (its words)."""
    shown = ShownPictures()
    shown.note(4242, pictures.hand_model(HAND, "en"))
    interaction = FakeInteraction()  # a Chinese client
    slow_picture.set()
    await _press(interaction, shown=shown)
    await asyncio.gather(*game_cog._LATE_PICTURES)
    assert _kinds(interaction) == (["answer", "picture"] if way == "late" else ["answer"])
    assert interaction.calls[-1][1]["attachments"][0].fp.read() == b"\x89PNG new hand"


async def test_pictures_off_take_the_picture_away_without_a_render(
    monkeypatch: pytest.MonkeyPatch, waits: list[float]
) -> None:
    monkeypatch.setattr(pictures, "ENABLED", False)
    monkeypatch.setattr(pictures, "INLINE_WAIT", GENEROUS)
    interaction = FakeInteraction()
    await _press(interaction)
    assert _kinds(interaction) == ["answer"] and interaction.calls[0][1]["attachments"] == []
    assert waits == []


async def test_a_text_only_message_stays_text_only(
    slow_picture: asyncio.Event, monkeypatch: pytest.MonkeyPatch, waits: list[float]
) -> None:
    monkeypatch.setattr(pictures, "INLINE_WAIT", GENEROUS)
    slow_picture.set()
    interaction = FakeInteraction()
    interaction.message.attachments = []
    await _press(interaction)
    assert _kinds(interaction) == ["answer"] and not _answered_with_picture(interaction)
    assert waits == []


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
