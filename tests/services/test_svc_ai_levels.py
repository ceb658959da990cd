"""AI levels through the service: ``add_bot(level=…)`` stores the level on the seat, the AI
plays each seat at its level (托管 at 高级), and a fresh service reads the levels back."""

from __future__ import annotations

from typing import Any

import pytest
from svc_helpers import USERS, lobby_with
from test_svc_ai_failure import make, play_to_the_end

from services.errors import BadOption
from services.model import ActionKey
from services.real_engine import RealEngine


class LevelSpy(RealEngine):
    """The real engine, noting the level each seat's AI was asked to play at."""

    def __init__(self) -> None:
        super().__init__()
        self.levels: dict[int, set[str | None]] = {}

    def choose_action(self, state: Any, seat: int, level: str | None = None) -> ActionKey:
        self.levels.setdefault(seat, set()).add(level)
        return super().choose_action(state, seat, level)


async def test_each_ai_seat_plays_at_its_level_and_autoplay_at_advanced(store):
    engine = LevelSpy()
    svc = make(store, engine)
    gid = await lobby_with(svc, 2, variant="jiujiang")
    await svc.add_bot(gid, USERS[0], "beginner")
    await svc.add_bot(gid, USERS[0], "advanced")
    game = await svc.summary(gid)
    assert [s.level for s in game.seats] == [None, None, "beginner", "advanced"]
    stored = await store.games.get(gid)
    assert [s.get("level") for s in stored.seats] == [None, None, "beginner", "advanced"]
    assert "level" not in stored.seats[0]  # a human seat's JSON is as before

    await svc.start(gid, USERS[0])
    await svc.set_autoplay(gid, USERS[1], True)  # 托管 plays at 高级
    await play_to_the_end(svc, gid, (USERS[0],))
    assert engine.levels[2] == {"beginner"}
    assert engine.levels[3] == {"advanced"}
    assert engine.levels[1] == {"advanced"}
    assert 0 not in engine.levels
    await svc.close()

    fresh = make(store, RealEngine())
    await fresh.resume_all()
    again = await fresh.summary(gid)
    assert [s.level for s in again.seats] == [None, None, "beginner", "advanced"]
    await fresh.close()


async def test_a_bot_without_a_level_plays_todays_ai(store):
    engine = LevelSpy()
    svc = make(store, engine)
    gid = await lobby_with(svc, 1, variant="xinyu")
    await svc.add_bot(gid, USERS[0])
    await svc.start(gid, USERS[0])  # the two empty seats take default AI players too
    await play_to_the_end(svc, gid, (USERS[0],))
    assert set(engine.levels) == {1, 2, 3}
    assert all(levels == {"intermediate"} for levels in engine.levels.values())
    await svc.close()


async def test_an_unknown_level_is_refused_and_changes_nothing(store):
    svc = make(store, RealEngine())
    gid = await lobby_with(svc, 1)
    before = await store.games.get(gid)
    with pytest.raises(BadOption) as refused:
        await svc.add_bot(gid, USERS[0], "grandmaster")
    assert "grandmaster" in str(refused.value.detail)
    assert (await store.games.get(gid)).seats == before.seats
    assert len((await svc.summary(gid)).seats) == 1
    await svc.close()
