"""A game's table edits leave nothing behind once the game stopped: the newest table of every
game ever played is not kept in memory."""

from __future__ import annotations

import asyncio

from test_delivery_parts import edits, game, settle


async def test_a_stopped_game_leaves_no_table_behind() -> None:
    tables, written = edits()
    for game_id in (7, 8):
        tables.schedule(game(game_id), f"table {game_id}")
    await settle(tables, 7)
    await settle(tables, 8)
    assert sorted(written) == ["table 7", "table 8"]
    await tables.stop(7)
    assert 7 not in tables._latest and 7 not in tables._tasks
    assert 8 in tables._latest  # another game's is kept while it plays


async def test_a_pending_edit_of_a_stopped_game_is_dropped_with_its_table() -> None:
    tables, written = edits()
    tables.schedule(game(), "first")
    await asyncio.sleep(0)
    await tables.stop(7)
    assert 7 not in tables._latest
    await asyncio.sleep(0.05)
    assert written in ([], ["first"])  # dropped, or finished if it was being written


async def test_flush_still_writes_after_the_stop() -> None:
    tables, written = edits()
    g = game()
    tables.schedule(g, "first")
    await asyncio.sleep(0)
    await tables.flush(g, "now")
    assert written[-1] == "now"
    assert tables._latest[7] == (g, "now")
