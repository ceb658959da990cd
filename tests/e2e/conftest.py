"""Fixtures: a fake Discord on 127.0.0.1 and the real ``bot.py`` process connected to it.

- ``fake``: a started :class:`FakeDiscord` (token recognisable, checked absent from logs).
- ``bot_factory(env=None)``: a new, not yet started :class:`BotProcess` (stopped at teardown).
- ``bot``: a :class:`BotProcess` already started and ready.

At teardown every bot is stopped, then the test fails if its log has an unexpected
traceback or the token, if the bot called a route the fake lacks, or if it acknowledged an
interaction after Discord's 3 s deadline, if it sent a request before a 429's ``retry_after``
(or into a bucket the ``X-RateLimit`` headers declared empty), or if the fake itself raised
(``fake.errors``).
"""

from __future__ import annotations

import secrets
import warnings
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
import pytest_asyncio

from .fake_discord import FakeDiscord
from .harness import BotProcess

BotFactory = Callable[..., BotProcess]


def recognisable_token() -> str:
    """A token shaped like a real one, unique per test, easy to grep for."""
    return f"MTE2FAKE.E2E{secrets.token_hex(3)}.tok3n-{secrets.token_urlsafe(18)}"


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord(token=recognisable_token())
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest_asyncio.fixture
async def bot_factory(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotFactory]:
    made: list[BotProcess] = []

    def make(env: dict[str, str | None] | None = None, workdir: Path | None = None) -> BotProcess:
        proc = BotProcess(fake, workdir or tmp_path / f"bot{len(made)}", env=env)
        made.append(proc)
        return proc

    yield make
    problems = []
    for proc in made:
        await proc.stop()
        logs = proc.all_logs
        for tb in proc.unexpected_tracebacks():
            problems.append(f"traceback in the bot log ({proc.workdir}):\n{tb}")
        if fake.token in logs:
            problems.append(f"the token appears in the bot log ({proc.workdir})")
        if proc.unclean_stops:
            warnings.warn(
                f"the bot did not exit on SIGTERM within 10 s (run {proc.unclean_stops} in "
                f"{proc.workdir}); it was killed",
                stacklevel=1,
            )
    if fake.errors:
        problems.append("the fake Discord itself failed:\n" + "\n".join(fake.errors))
    if fake.unhandled:
        problems.append(f"the bot called routes the fake Discord lacks: {fake.unhandled}")
    if fake.ratelimit_violations:
        problems.append(
            "the bot did not wait as Discord's 429 / X-RateLimit headers told it: "
            f"{fake.ratelimit_violations}"
        )
    if fake.late_acks:
        late = [(ix.id, ix.payload.get("data")) for ix in fake.late_acks]
        problems.append(f"interactions acknowledged after {fake.ack_deadline} s: {late}")
    if problems:
        pytest.fail("\n\n".join(problems), pytrace=False)


@pytest_asyncio.fixture
async def bot(bot_factory: BotFactory) -> BotProcess:
    proc = bot_factory()
    await proc.start_ready()
    return proc
