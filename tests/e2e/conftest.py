"""Fixtures: a fake Discord on 127.0.0.1 and the real ``bot.py`` process connected to it.

- ``fake``: a started :class:`FakeDiscord` (token recognisable, checked absent from logs).
- ``bot_factory(env=None)``: a new, not yet started :class:`BotProcess` (stopped at teardown).
- ``bot``: a :class:`BotProcess` already started and ready.
- ``e2e_backend``: ``"sqlite"`` or ``"postgres"``; every test that makes a bot runs on both
  (ids ``[sqlite]``, ``[postgres]``; see :mod:`backends`), a module marked ``postgres`` on
  PostgreSQL only. Each bot folder gets a database of its own, dropped after the test.

At teardown every bot is stopped, then the test fails if its log has an unexpected
traceback or the token, if the bot called a route the fake lacks, or if it acknowledged an
interaction after Discord's 3 s deadline, if it sent a request before a 429's ``retry_after``
(or into a bucket the ``X-RateLimit`` headers declared empty), or if the fake itself raised
(``fake.errors``).
"""

from __future__ import annotations

import secrets
import warnings
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from .backends import BACKENDS, Databases, drop_templates
from .fake_discord import FakeDiscord
from .harness import BotProcess

BotFactory = Callable[..., BotProcess]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run each test that makes a bot on every backend; a test marked ``postgres`` (one
    that needs PostgreSQL's own features, like the shards) on PostgreSQL only, and one marked
    ``sqlite_only`` (about the SQLite file itself) on SQLite only."""
    if "e2e_backend" not in metafunc.fixturenames:
        return
    only_postgres = metafunc.definition.get_closest_marker("postgres") is not None
    params = [p for p in BACKENDS if p.values[0] == "postgres"] if only_postgres else BACKENDS
    if metafunc.definition.get_closest_marker("sqlite_only") is not None:
        # a test of the SQLite file itself (its damage, its lock)
        params = [p for p in BACKENDS if p.values[0] == "sqlite"]
    metafunc.parametrize("e2e_backend", params, indirect=True, scope="function")


@pytest.fixture
def e2e_backend(request: pytest.FixtureRequest) -> str:
    """The backend the test's bots keep their games in (parametrized above)."""
    return str(request.param)


@pytest.fixture(scope="session", autouse=True)
def _drop_e2e_databases() -> Iterator[None]:
    yield
    failed = drop_templates()
    if failed:
        warnings.warn(f"PostgreSQL databases left behind: {failed}", stacklevel=1)


@pytest.fixture
def databases(e2e_backend: str) -> Iterator[Databases]:
    """One database per bot folder on the test's backend; the PostgreSQL ones are dropped
    after the bots stopped (this fixture is torn down after ``bot_factory``)."""
    made = Databases(e2e_backend)
    try:
        yield made
    finally:
        made.drop()


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
async def bot_factory(
    fake: FakeDiscord, tmp_path: Path, databases: Databases
) -> AsyncIterator[BotFactory]:
    made: list[BotProcess] = []

    def make(env: dict[str, str | None] | None = None, workdir: Path | None = None) -> BotProcess:
        workdir = workdir or tmp_path / f"bot{len(made)}"
        given = (env or {}).get("DATABASE_URL")  # a test's own database (the shards')
        url = given or databases.url_for(workdir)
        # alerts at once unless a test sets a delay (the load test keeps the bot's default)
        env = {"ALERT_DELAY_SECONDS": "0", **(env or {})}
        proc = BotProcess(fake, workdir, env=env, database_url=url)
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
