"""A restart keeps the turn deadline (出牌时限) where the log put it: the clock of a decision
starts when the log says it began, not when the bot came back."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select, update
from svc_helpers import USERS, lobby_with

from db.models import Action
from db.store import Store

#: how long the bot was down, in these tests: far more than the tolerance of the checks
DOWN = timedelta(seconds=200)


async def _age_the_log(store: Store, game_id: int, by: timedelta) -> None:
    """Move every logged action of ``game_id`` ``by`` into the past, as if the game had been
    played that long before the restart."""
    async with store.db.engine.begin() as conn:
        rows = (
            await conn.execute(
                select(Action.seq, Action.created_at).where(Action.game_id == game_id)
            )
        ).all()
        for seq, created_at in rows:
            await conn.execute(
                update(Action)
                .where(Action.game_id == game_id, Action.seq == seq)
                .values(created_at=created_at - by)
            )


async def test_a_restart_keeps_the_turn_deadline_of_the_log(make_service, store):
    svc = make_service(turn_timeout=600, claim_timeout=600)
    gid = await lobby_with(svc, 1)
    await svc.start(gid, USERS[0])
    before = await svc.summary(gid)
    assert before.deadline is not None
    await svc.close()
    # the decision began DOWN earlier than it did in this test: the bot was down that long
    await _age_the_log(store, gid, DOWN)

    fresh = make_service(turn_timeout=600, claim_timeout=600)
    await fresh.resume_all()
    after = await fresh.summary(gid)
    assert after.version == before.version
    assert after.deadline is not None
    # the same deadline, DOWN earlier — not a new 600 s from the moment of the restart
    assert after.deadline == pytest.approx(before.deadline - DOWN.total_seconds(), abs=1.0)
