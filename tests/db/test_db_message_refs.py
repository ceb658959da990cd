"""Stored Discord message ids written by several processes: the table message is a
compare-and-set on the old id, the thread is decided once, the remembered messages are
merged (a stale process cannot put an older id back over a newer one)."""

from __future__ import annotations

import asyncio

import pytest

from db.message_refs import merge_messages, newer, order_key
from db.store import Store
from db.types import GameNotFound


def test_order_key_reads_hand_then_message() -> None:
    assert order_key(7) == (7,)
    assert order_key([10, 20, 3]) == (3, 20, 10)
    assert order_key([1, 2]) == (2, 1)
    assert order_key(True) is None and order_key("x") is None and order_key([1, "a"]) is None
    assert order_key({"a": 1}) is None


def test_newer_keeps_the_later_entry_whoever_writes() -> None:
    old, new = [5, 100, 2], [5, 90, 3]  # a later hand wins over a larger message id
    assert newer(old, new) == new and newer(new, old) == new
    assert newer([5, 100, 3], [5, 120, 3]) == [5, 120, 3]
    assert newer("ours", "theirs") == "ours"  # cannot tell: the latest writer's


def test_merge_keeps_what_another_process_saved() -> None:
    base = {"dm": {"1": [9, 10, 1]}, "result": [5, 50, 1]}
    ours = {"dm": {"1": [9, 11, 2]}, "table_at": [7, 2]}  # result retired (removed) by us
    theirs = {"dm": {"1": [9, 10, 1], "2": [8, 20, 2]}, "result": [5, 50, 1], "lobby": 3}
    # our removal of the result stands (nobody changed it meanwhile); their DM and lobby stay
    assert merge_messages(base, ours, theirs) == {
        "dm": {"1": [9, 11, 2], "2": [8, 20, 2]},
        "table_at": [7, 2],
        "lobby": 3,
    }


def test_a_stale_entry_does_not_replace_a_newer_one() -> None:
    base = {"result": [5, 50, 1]}
    stale = {"result": [5, 60, 1]}  # posted by a process that missed hand 2's result
    theirs = {"result": [5, 70, 2]}
    assert merge_messages(base, stale, theirs)["result"] == [5, 70, 2]
    # the other way round (the newer process writes last) it is kept too
    assert merge_messages(base, theirs, stale)["result"] == [5, 70, 2]
    # removed by us while another process posted a newer one: the newer one stays
    assert merge_messages(base, {}, theirs) == theirs


def test_never_saved_takes_nothing_stored_as_removed() -> None:
    theirs = {"dm": {"2": [8, 20, 2]}, "lobby": 3}
    assert merge_messages(None, {"dm": {"1": [9, 10, 1]}}, theirs) == {
        "dm": {"2": [8, 20, 2], "1": [9, 10, 1]},
        "lobby": 3,
    }


async def test_the_table_message_is_a_compare_and_set_on_the_old_id(store: Store) -> None:
    game = await store.games.create(1, 2, "xinyu", seats=[{}])
    assert await store.games.set_table_message(game.id, 111, replacing=None) == 111
    # a process still believing there is none posted its own: the newer one stays
    assert await store.games.set_table_message(game.id, 222, replacing=None) == 111
    assert (await store.games.get(game.id)).table_message_id == 111  # type: ignore[union-attr]
    assert await store.games.set_table_message(game.id, 333, replacing=111) == 333
    assert await store.games.set_table_message(game.id, None, replacing=333) is None
    with pytest.raises(GameNotFound):
        await store.games.set_table_message(game.id + 99, 1, replacing=None)


async def test_the_thread_is_decided_once(store: Store) -> None:
    game = await store.games.create(1, 2, "xinyu", seats=[{}])
    assert await store.games.settle_thread(game.id, 500) == 500
    assert await store.games.settle_thread(game.id, 2) == 500  # another process decided first
    assert (await store.games.get(game.id)).thread_id == 500  # type: ignore[union-attr]
    with pytest.raises(GameNotFound):
        await store.games.settle_thread(game.id + 99, 1)


async def test_two_stores_saving_messages_at_once_keep_both(db_url: str) -> None:
    stores = [await Store.open(db_url) for _ in range(2)]
    try:
        game = await stores[0].games.create(1, 2, "xinyu", seats=[{}])
        for round_no in range(5):  # each process adds its players' DMs, all at once
            await asyncio.gather(
                *(
                    s.games.merge_messages(
                        game.id,
                        None,
                        {"dm": {f"{n}-{round_no}-{k}": [n, k, 1] for k in range(3)}},
                    )
                    for n, s in enumerate(stores)
                )
            )
        stored = (await stores[1].games.get(game.id)).messages  # type: ignore[union-attr]
        assert len(stored["dm"]) == 2 * 5 * 3
    finally:
        for s in stores:
            await s.close()
