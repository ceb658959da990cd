"""A result that went out is not owed any more, durably (:mod:`services.results_owed`):
once its delivery returned, the game's remembered messages say so (``result_posted``), and a
later restart does not hand it over again — neither the hand the game stands at nor the
results the last deal noted owed."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from svc_helpers import USERS, RecordingDelivery, settle
from test_svc_crash_endings import DeadDelivery, doomed, kill
from test_svc_play import play_until_over
from test_svc_session import open_game

from cogs.delivery.message_ids import MessageIds
from services.results_owed import RESULT_POSTED


async def restarted(make_service: Any) -> RecordingDelivery:
    """A process started on the database, resumed, its deliveries run, then stopped: what
    it delivered."""
    seen = RecordingDelivery()
    svc = make_service(delivery=seen)
    await svc.resume_all()
    await settle(svc)
    await svc.close()
    return seen


async def test_a_result_owed_by_a_crash_is_posted_by_one_restart_only(make_service, store):
    """The process dies right after the hand's last action (nothing reached Discord): the
    next start-up posts the result and notes it posted; the one after shows the game (its
    table, its 准备 check) without posting the result again."""
    dead = DeadDelivery()
    svc = doomed(store, dead)
    gid = await open_game(svc, 1)
    dead.dead = True
    await play_until_over(svc, gid, USERS[:1])
    await kill(svc)
    assert dead.named("result") == []
    assert RESULT_POSTED not in ((await store.games.get(gid)).messages or {})

    first = await restarted(make_service)
    [(game, _result, _table)] = first.named("result")
    assert game.id == gid and game.hand_no == 1
    assert (await store.games.get(gid)).messages[RESULT_POSTED] == 1

    second = await restarted(make_service)
    assert second.named("result") == [] and second.named("past_result") == []
    assert [g.id for g, _t in second.named("refresh")] == [gid]
    [(shown, _r)] = second.named("session")
    assert shown.session.ready_open  # the 准备 check is shown again, not the result


async def test_a_result_the_delivery_noted_posted_is_not_written_again(make_service, store):
    """The delivery (as the Discord one does) saved ``result_posted`` with the game's
    messages itself: the service writes nothing more for it."""
    delivery = RecordingDelivery()
    svc = make_service(delivery=delivery)
    writes: list[dict[str, Any]] = []
    merge = store.games.merge_messages

    async def counted(game_id: int, base: Any, ours: dict[str, Any]) -> dict[str, Any]:
        writes.append(dict(ours))
        return await merge(game_id, base, ours)

    ids = MessageIds(store.games)

    async def noting_it(game: Any, result: Any, table: Any) -> bool:
        delivery._note("result", game, result, table)
        ids.seed(game)
        await ids.save_messages(game.id, {**game.messages, RESULT_POSTED: game.hand_no})
        return True  # (noted with the game's messages: the service need not)

    delivery.hand_ended = noting_it  # type: ignore[method-assign]
    store.games.merge_messages = counted  # type: ignore[method-assign]
    gid = await open_game(svc, 1)
    await play_until_over(svc, gid, USERS[:1])
    await settle(svc)
    assert len(delivery.named("result")) == 1
    assert writes == [{RESULT_POSTED: 1}]  # the delivery's save only
    assert (await store.games.get(gid)).messages[RESULT_POSTED] == 1


async def test_a_failed_note_is_logged_and_the_result_still_counts_as_delivered(
    make_service, store, caplog: pytest.LogCaptureFixture
):
    delivery = RecordingDelivery()
    svc = make_service(delivery=delivery)

    async def fails(*_args: Any) -> dict[str, Any]:
        raise RuntimeError("database is locked")

    store.games.merge_messages = fails  # type: ignore[method-assign]
    gid = await open_game(svc, 1)
    with caplog.at_level(logging.ERROR, logger="services.results_owed"):
        await play_until_over(svc, gid, USERS[:1])
        await settle(svc)
    assert len(delivery.named("result")) == 1  # delivered once, not sent again
    assert f"game {gid}: could not note hand 1's result posted" in caplog.text
    assert svc._games[gid].live.results_unposted == set()
