"""Pictures rendered off the event loop (render.pool), and the cached table layers."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from render import pool, render_hand, render_table, table_image
from render import table as table_mod
from render.samples import sample_fed_table, sample_hand, sample_table


async def test_a_worker_process_renders_the_same_picture() -> None:
    pictures = pool.PicturePool(1)
    try:
        table, hand = sample_table(), sample_hand()
        got = await pictures.render(render_table, table)
        assert got == render_table(table)
        assert await pictures.render(render_hand, hand, priority=pool.URGENT) == render_hand(hand)
        assert pictures.rendered == 2 and pictures.fallbacks == 0
    finally:
        await pictures.close()


async def test_waiting_pictures_go_by_priority() -> None:
    """One at a time (no workers: a thread): a press's hand picture overtakes tables that
    were queued before it."""
    pictures = pool.PicturePool(0)
    done: list[str] = []

    async def one(name: str, priority: int) -> None:
        await pictures.render(render_table, sample_table(), priority=priority)
        done.append(name)

    first = asyncio.create_task(one("table 1", pool.TABLE))
    await asyncio.sleep(0)  # table 1 is being rendered
    rest = [
        asyncio.create_task(one("table 2", pool.TABLE)),
        asyncio.create_task(one("dm", pool.PRIVATE)),
        asyncio.create_task(one("answer", pool.URGENT)),
    ]
    await asyncio.gather(first, *rest)
    assert done == ["table 1", "answer", "dm", "table 2"]
    await pictures.close()


async def test_a_caller_that_gives_up_leaves_no_work_behind() -> None:
    pictures = pool.PicturePool(0)
    busy = asyncio.create_task(pictures.render(render_table, sample_table()))
    await asyncio.sleep(0)
    late = asyncio.create_task(pictures.render(render_table, sample_table()))
    await asyncio.sleep(0)
    late.cancel()
    await busy
    await asyncio.sleep(0.05)
    assert pictures.waiting == 0 and pictures.fallbacks == 1
    await pictures.close()


def test_the_static_layer_draws_what_each_seat_drew() -> None:
    """The cached background (panels, the turn's gold outline) gives the same pixels as
    drawing every panel with its seat, for each turn and viewer."""
    from PIL import ImageChops, ImageDraw

    from render import draw as d

    for base in (sample_table(), sample_fed_table()):
        for turn in (None, 0, 1, 2, 3):
            for viewer in (0, 2):
                view = replace(base, turn=turn, viewer=viewer, claim_wait=turn is None)
                fresh = d.new_canvas(table_mod.WIDTH, table_mod.HEIGHT)
                draw = ImageDraw.Draw(fresh)
                for seat in range(4):
                    pos = (seat - viewer) % 4
                    table_mod._seat_panel(draw, pos, turn == seat)
                for x0, y0 in table_mod.RIVER_XY.values():
                    table_mod._river_panel(draw, x0, y0)
                table_mod._centre_panel(draw)
                cached = table_mod._background(None if turn is None else (turn - viewer) % 4)
                assert ImageChops.difference(fresh, cached).getbbox() is None
                assert table_image(view).size == (table_mod.WIDTH, table_mod.HEIGHT)


def test_cached_glyphs_draw_the_same_text() -> None:
    """A label drawn from the glyph cache is the label FreeType draws."""
    from PIL import ImageChops, ImageDraw

    from render import draw as d
    from render import fonts

    for text, size, anchor, xy in (
        ("王小二 Wang", 17, "la", (10, 10)),
        ("剩余 53 张", 15, "ma", (100.5, 20)),
        ("+12分", 16, "ra", (180, 30.25)),
        ("庄", 14, "mm", (50.3, 40.7)),
    ):
        plain = d.new_canvas(200, 60)
        ImageDraw.Draw(plain).text(xy, text, font=fonts.sans(size), fill=d.GOLD, anchor=anchor)
        for _ in range(2):  # drawn, then drawn again from the cache
            cached = d.new_canvas(200, 60)
            d.draw_text(ImageDraw.Draw(cached), xy, text, fonts.sans(size), d.GOLD, anchor)
            assert ImageChops.difference(plain, cached).getbbox() is None, text


async def test_the_expected_wait_counts_the_pictures_ahead() -> None:
    """A table picture waits for every picture queued at its priority or a more urgent one
    and for those being drawn; an urgent one only for the urgent ones and those drawn."""
    import threading

    pictures = pool.PicturePool(0)
    pictures.job_seconds = 0.5
    release = threading.Event()

    def held(view: object) -> bytes:
        release.wait(5)
        return b"png"

    assert pictures.expected_wait(pool.TABLE) == 0.5  # itself only
    jobs = [asyncio.create_task(pictures.render(held, None, priority=pool.TABLE))]
    await asyncio.sleep(0)  # the first is being drawn
    jobs += [asyncio.create_task(pictures.render(held, None, priority=pool.TABLE)) for _ in "ab"]
    jobs.append(asyncio.create_task(pictures.render(held, None, priority=pool.URGENT)))
    await asyncio.sleep(0)
    assert pictures.waiting == 3
    assert pictures.expected_wait(pool.TABLE) == (3 + 1 + 1) * 0.5
    assert pictures.expected_wait(pool.URGENT) == (1 + 1 + 1) * 0.5
    jobs[1].cancel()  # a caller that gave up is not waited for
    await asyncio.sleep(0)
    assert pictures.expected_wait(pool.TABLE) == (2 + 1 + 1) * 0.5
    release.set()
    await asyncio.gather(*jobs, return_exceptions=True)
    await pictures.close()


async def test_the_time_per_picture_follows_the_recent_pictures() -> None:
    pictures = pool.PicturePool(0)
    start = pictures.job_seconds
    for _ in range(60):
        pictures._timed(0.4)
    assert start < pictures.job_seconds and abs(pictures.job_seconds - 0.4) < 0.01
