"""The floor bot (``benchmarks/floor_bot.py``, the load test's yardstick) starts against the
fake Discord and answers a press as it is meant to: a deferred update, one row, one edit."""

from __future__ import annotations

from pathlib import Path

import pytest

from .fake_discord import FakeDiscord
from .loadtest_bot import FLOOR_PRESS, FloorBotProcess

pytestmark = pytest.mark.e2e


async def test_floor_bot_answers_a_press(fake: FakeDiscord, tmp_path: Path) -> None:
    bot = FloorBotProcess(fake, tmp_path)
    try:
        await bot.start_ready()
        alice = fake.user("alice")
        opened = await fake.slash(alice, "floor")
        await opened.wait_ack()
        post = opened.original
        assert post is not None and post.content == "presses: 0"
        assert FLOOR_PRESS in post.custom_ids()

        press = await fake.click(alice, post, FLOOR_PRESS)
        await press.wait_ack()
        assert press.response_type == 6  # a deferred update
        shown = await fake.wait_for(
            lambda: fake.messages[post.id].content == "presses: 1", what="the edit"
        )
        assert shown
        assert FLOOR_PRESS in fake.messages[post.id].custom_ids()  # the button kept
        assert len(fake.messages[post.id].edit_times) == 1
        assert bot.rows("SELECT message_id, user_id FROM presses") == [(post.id, alice.id)]
    finally:
        await bot.stop()
    assert bot.unexpected_tracebacks() == []
    assert fake.token not in bot.all_logs
    assert not fake.unhandled and not fake.late_acks and not fake.errors
