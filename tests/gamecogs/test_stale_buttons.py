"""Old buttons still to take off (:mod:`cogs.delivery.stale_buttons`): written down before the
edit, crossed out once it went through, retried with a back-off a bounded number of times
when it failed for a reason that may pass, given up at once when it cannot pass; after a
restart every entry written down is retried, spaced out (one channel's edits further apart),
but never a message the game uses now."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.delivery.stale_buttons import STALE, StaleButtons
from services.delivery import GameSummary
from services.model import Seat


def http_error(status: int) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="x", headers={})
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    if status >= 500:
        kind = discord.DiscordServerError
    return kind(response, {"message": "x", "code": 0})


class Message:
    def __init__(self, places: FakePlaces, channel_id: int, message_id: int) -> None:
        self.places, self.channel_id, self.message_id = places, channel_id, message_id

    async def edit(self, **fields: Any) -> None:
        self.places.edits.append((self.channel_id, self.message_id, fields["view"]))
        failures = self.places.failing.get(self.message_id)
        if failures:
            status = failures.pop(0)
            raise http_error(status)
        self.places.done.set()


class FakePlaces:
    """What :class:`StaleButtons` uses of :class:`cogs.delivery.places.Places`."""

    def __init__(self) -> None:
        self.closing = False
        self.refs_of: dict[int, dict[str, Any]] = {}
        self.table: int | None = None
        self.edits: list[tuple[int, int, Any]] = []
        self.failing: dict[int, list[int]] = {}
        self.saved = 0
        self.crossed: list[tuple[int, str]] = []
        self.done = asyncio.Event()
        self.preferences = SimpleNamespace(lang_for_guild=self._lang)

    async def _lang(self, _guild: int) -> str:
        return "en"

    def refs(self, game: GameSummary) -> dict[str, Any]:
        return self.refs_of.setdefault(game.id, {})

    def held(self, game: GameSummary, name: str) -> dict[str, Any]:
        group: dict[str, Any] = self.refs(game).setdefault(name, {})
        return group

    def live_refs(self, game_id: int) -> dict[str, Any] | None:
        return self.refs_of.get(game_id)

    def save_refs_behind(self, _game_id: int) -> None:
        self.saved += 1

    def cross_out_stored(self, game_id: int, _group: str, key: str, _entry: Any) -> None:
        self.crossed.append((game_id, key))

    def table_id(self, _game: GameSummary) -> int | None:
        return self.table

    def partial(self, channel_id: int, message_id: int) -> Message:
        return Message(self, channel_id, message_id)


def summary(game_id: int = 7) -> GameSummary:
    return GameSummary(
        id=game_id,
        guild_id=1,
        channel_id=2,
        variant="shangrao",
        options={},
        seats=tuple(Seat(name=f"p{i}", user_id=100 + i) for i in range(4)),
        status="active",
        version=1,
        totals=(0, 0, 0, 0),
        hand_no=1,
        phase="turn",
    )


def buttons(places: FakePlaces, **kw: Any) -> StaleButtons:
    kw.setdefault("channel_spacing", 0)
    return StaleButtons(places, spacing=0, backoff=lambda n, _least: 0.01 * n, **kw)  # type: ignore[arg-type]


async def settle(stale: StaleButtons) -> None:
    while stale.waiting:
        await asyncio.sleep(0.01)


async def test_a_removal_done_at_once_leaves_nothing_written_down() -> None:
    places = FakePlaces()
    stale, game = buttons(places), summary()
    assert await stale.strip(game, 9, 55)
    assert places.edits == [(9, 55, None)]
    assert STALE not in places.refs(game)


async def test_a_failed_removal_stays_written_down_and_is_retried_until_it_goes() -> None:
    places = FakePlaces()
    stale, game = buttons(places), summary()
    places.failing[55] = [503, 500, 503]
    assert not await stale.strip(game, 9, 55, keep_hand=2)
    assert places.refs(game)[STALE] == {"55": [9, 55, 2]}  # saved with the next save
    await settle(stale)
    assert len(places.edits) == 4
    assert STALE not in places.refs(game) and places.saved == 1
    # a result keeps its 回放 button, nothing else
    [replay] = places.edits[-1][2].children
    assert replay.custom_id.startswith("mj:rp:7:2:")


async def test_retries_are_bounded() -> None:
    places = FakePlaces()
    stale, game = buttons(places, max_tries=3), summary()
    places.failing[55] = [503] * 10
    await stale.strip(game, 9, 55)
    await settle(stale)
    assert len(places.edits) == 3 and stale.given_up == 1
    assert STALE not in places.refs(game)


@pytest.mark.parametrize("status", [403, 400])
async def test_a_refusal_that_cannot_pass_is_not_retried(status: int) -> None:
    places = FakePlaces()
    stale, game = buttons(places), summary()
    places.failing[55] = [status]
    await stale.strip(game, 9, 55)
    assert stale.waiting == 0 and len(places.edits) == 1 and stale.given_up == 1


async def test_a_deleted_message_has_no_buttons_left() -> None:
    places = FakePlaces()
    stale, game = buttons(places), summary()
    places.failing[55] = [404]
    await stale.strip(game, 9, 55)
    assert stale.waiting == 0 and stale.given_up == 0
    assert STALE not in places.refs(game)


async def test_after_a_restart_what_is_written_down_goes_spaced_out_but_not_current_ones() -> None:
    places = FakePlaces()
    stale, game = buttons(places, channel_spacing=0.2), summary()
    places.table = 70
    places.refs(game).update(
        {
            STALE: {
                "50": [9, 50, 0],  # an old table
                "51": [9, 51, 1],  # an old result, in the same channel
                "60": [8, 60, 0],  # an old hand DM
                "70": [9, 70, 0],  # the table: in use again (the replacement never stuck)
                "80": [8, 80, 0],  # a hand DM in use
            },
            "dm": {"100": [8, 80, 1]},
        }
    )
    assert stale.adopt(game) == 3
    await settle(stale)
    # each once; the second edit of channel 9 waits for channel 8's turn
    assert [e[1] for e in places.edits] == [50, 60, 51]
    assert STALE not in places.refs(game)


async def test_an_ended_game_is_crossed_out_in_the_store() -> None:
    places = FakePlaces()
    stale = buttons(places)

    class Games:
        async def ended_with(self, group: str, _within: Any) -> list[Any]:
            assert group == STALE
            return [(7, 1, {STALE: {"55": [9, 55, 0]}}), (8, 3, {STALE: {"56": [9, 56, 0]}})]

    count = await stale.adopt_ended(SimpleNamespace(games=Games()), lambda guild: guild == 1)
    assert count == 1
    await settle(stale)
    assert places.crossed == [(7, "55")]


async def test_closing_keeps_what_is_written_down_for_the_next_start() -> None:
    places = FakePlaces()
    stale, game = buttons(places), summary()
    places.failing[55] = [503] * 10
    await stale.strip(game, 9, 55)
    places.closing = True
    await stale.close()
    assert places.refs(game)[STALE] == {"55": [9, 55, 0]}
