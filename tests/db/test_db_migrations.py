"""The schema: migrations applied at start-up agree with the models, on both backends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text

from db.migrate import alembic_config
from db.models import Base
from db.store import Store


def _diff(sync_conn):  # type: ignore[no-untyped-def]
    context = MigrationContext.configure(sync_conn, opts={"compare_type": True})
    return compare_metadata(context, Base.metadata)


async def test_models_and_migrations_agree(store: Store) -> None:
    async with store.db.engine.connect() as conn:
        diff = await conn.run_sync(_diff)
    assert diff == []


async def test_migrated_to_head_and_reopen_is_a_no_op(store: Store, db_url: str) -> None:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    async with store.db.engine.connect() as conn:
        current = await conn.run_sync(
            lambda c: MigrationContext.configure(c).get_current_revision()
        )
        tables = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
    assert current == head
    assert {"games", "actions", "snapshots", "hands", "hand_results", "ratings"} <= tables
    game = await store.games.create(1, 2, "xinyu", seats=[{}, {}])
    again = await Store.open(db_url)
    try:
        assert (await again.games.get(game.id)) == game
    finally:
        await again.close()


async def test_downgrade_to_base_and_upgrade_again(db_url: str) -> None:
    opened = await Store.open(db_url)
    try:

        def down_up(sync_conn):  # type: ignore[no-untyped-def]
            config = alembic_config()
            config.attributes["connection"] = sync_conn
            command.downgrade(config, "base")
            after_down = set(inspect(sync_conn).get_table_names()) - {"alembic_version"}
            command.upgrade(config, "head")
            return after_down

        async with opened.db.engine.begin() as conn:
            left = await conn.run_sync(down_up)
        assert left == set()
        async with opened.db.engine.connect() as conn:
            assert await conn.run_sync(_diff) == []
    finally:
        await opened.close()


async def test_sqlite_is_wal_with_foreign_keys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    opened = await Store.open()  # the default URL: sqlite+aiosqlite:///data/mahjong.db
    try:
        assert (tmp_path / "data" / "mahjong.db").exists()
        async with opened.db.engine.connect() as conn:
            assert (await conn.execute(text("PRAGMA journal_mode"))).scalar() == "wal"
            assert (await conn.execute(text("PRAGMA foreign_keys"))).scalar() == 1
            assert (await conn.execute(text("PRAGMA synchronous"))).scalar() == 2  # FULL
    finally:
        await opened.close()


async def test_database_url_from_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "elsewhere" / "x.db"
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{target}")
    opened = await Store.open()
    await opened.close()
    assert target.exists()


async def test_foreign_keys_are_enforced(store: Store) -> None:
    from sqlalchemy.exc import IntegrityError

    from db.models import Action

    with pytest.raises(IntegrityError):
        async with store.db.engine.begin() as conn:
            await conn.execute(
                Action.__table__.insert().values(game_id=999, seq=1, seat=0, action={})
            )


async def test_processes_starting_together_all_migrate(db_url: str) -> None:
    import asyncio

    stores = await asyncio.gather(*(Store.open(db_url) for _ in range(4)))
    try:
        game = await stores[0].games.create(1, 2, "xinyu", seats=[{}])
        for other in stores[1:]:
            assert await other.games.get(game.id) == game
    finally:
        for opened in stores:
            await opened.close()


def test_env_runs_on_its_own_async_engine(tmp_path: Path) -> None:
    """The ``alembic`` command-line path: env.py makes its own async engine."""
    import sqlite3

    target = tmp_path / "cli.db"
    command.upgrade(alembic_config(f"sqlite+aiosqlite:///{target}"), "head")
    with sqlite3.connect(target) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"games", "actions", "hand_results", "alembic_version"} <= tables


async def test_0002_moves_record_expiry_out_of_rule_options(db_url: str) -> None:
    """Upgrading a 0001 database moves ``rule_options["_records"]`` into the
    ``record_expiry_hours`` column; downgrading puts it back."""
    from db.connection import make_engine
    from db.migrate import upgrade

    engine = make_engine(db_url)
    try:
        await upgrade(engine, "0001")
        now = "2026-11-29 00:00:00"
        rows = [
            (1, {"_records": {"expiry_hours": 2}, "shangrao": {"preset": "xingchen"}}),
            (2, {"jiujiang": {"min_pao": 2}}),
            (3, {"_records": {"expiry_hours": "soon"}}),  # not a number: dropped
        ]
        async with engine.begin() as conn:
            for guild_id, rules in rows:
                await conn.execute(
                    text(
                        "INSERT INTO guilds (id, default_variant, rule_options, turn_timeout, "
                        "claim_timeout, language, hints, current_season, created_at, updated_at) "
                        "VALUES (:id, 'shangrao', :rules, 60, 15, 'zh', true, 1, :now, :now)"
                    ).bindparams(id=guild_id, rules=json.dumps(rules), now=now)
                    if engine.dialect.name == "sqlite"
                    else text(
                        "INSERT INTO guilds (id, default_variant, rule_options, turn_timeout, "
                        "claim_timeout, language, hints, current_season, created_at, updated_at) "
                        "VALUES (:id, 'shangrao', CAST(:rules AS json), 60, 15, 'zh', true, 1, "
                        "now(), now())"
                    ).bindparams(id=guild_id, rules=json.dumps(rules))
                )
        await upgrade(engine, "head")
        store = Store(engine)
        one, two, three = [await store.guilds.settings(g) for g in (1, 2, 3)]
        assert (one.record_expiry_hours, one.rule_options) == (
            2.0,
            {"shangrao": {"preset": "xingchen"}},
        )
        assert (two.record_expiry_hours, two.rule_options) == (None, {"jiujiang": {"min_pao": 2}})
        assert (three.record_expiry_hours, three.rule_options) == (None, {})
        await store.guilds.update_settings(2, record_expiry_hours=5.5)
        await store.games.create(1, 2, "xinyu", seats=[{}])  # a child row of guild 1

        def down(sync_conn):  # type: ignore[no-untyped-def]
            config = alembic_config()
            config.attributes["connection"] = sync_conn
            command.downgrade(config, "0001")
            columns = {c["name"] for c in inspect(sync_conn).get_columns("guilds")}
            rules = dict(sync_conn.execute(text("SELECT id, rule_options FROM guilds")).all())
            return columns, rules

        async with engine.begin() as conn:
            columns, rules = await conn.run_sync(down)
        assert "record_expiry_hours" not in columns
        decoded = {k: v if isinstance(v, dict) else json.loads(v) for k, v in rules.items()}
        assert decoded == {
            1: {"_records": {"expiry_hours": 2}, "shangrao": {"preset": "xingchen"}},
            2: {"jiujiang": {"min_pao": 2}, "_records": {"expiry_hours": 5.5}},
            3: {},
        }
        async with engine.connect() as conn:
            games = await conn.execute(text("SELECT count(*) FROM games"))
            assert games.scalar_one() == 1  # dropping the column cascaded nothing
    finally:
        await engine.dispose()


async def test_0003_gives_existing_rows_the_defaults(db_url: str) -> None:
    """Players and servers from before 0003 get turn alerts ``on`` and threads on; games
    have no thread or remembered messages yet."""
    from db.connection import make_engine
    from db.migrate import upgrade

    engine = make_engine(db_url)
    try:
        await upgrade(engine, "0002")
        async with engine.begin() as conn:
            now = "now()" if engine.dialect.name != "sqlite" else "'2026-12-01 00:00:00'"
            await conn.execute(
                text(
                    "INSERT INTO players (user_id, display_name, locale, prefers_images, "
                    f"created_at, updated_at) VALUES (5, 'p', NULL, true, {now}, {now})"
                )
            )
            rules = "CAST('{}' AS json)" if engine.dialect.name != "sqlite" else "'{}'"
            await conn.execute(
                text(
                    "INSERT INTO guilds (id, default_variant, rule_options, turn_timeout, "
                    "claim_timeout, language, hints, current_season, created_at, updated_at) "
                    f"VALUES (7, 'shangrao', {rules}, 60, 15, 'zh', true, 1, {now}, {now})"
                )
            )
        await upgrade(engine, "head")
        store = Store(engine)
        player = await store.players.get(5)
        assert player is not None and player.alerts == "on"
        settings = await store.guilds.settings(7)
        assert (settings.thread, settings.ai_pace) == (True, None)
        game = await store.games.create(7, 2, "xinyu", seats=[{}])
        assert (game.thread_id, game.messages) == (None, {})
    finally:
        await engine.dispose()


async def test_a_lock_answered_at_once_is_waited_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite may refuse ``BEGIN IMMEDIATE`` with "database is locked" without waiting its
    busy timeout (another process switching the new file to WAL at that moment): start-up
    tries the migration again instead of failing; any other error fails at once."""
    import sqlite3

    from sqlalchemy.exc import OperationalError

    import db.migrate as migrate

    real = migrate._upgrade_once
    tries: list[str] = []

    async def locked_once(engine, revision):  # type: ignore[no-untyped-def]
        tries.append(revision)
        if len(tries) == 1:
            raise OperationalError(
                "BEGIN IMMEDIATE", {}, sqlite3.OperationalError("database is locked")
            )
        await real(engine, revision)

    monkeypatch.setattr(migrate, "_upgrade_once", locked_once)
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'm.db'}")
    try:
        assert len(tries) == 2
        assert await store.games.create(1, 2, "xinyu", seats=[{}])
    finally:
        await store.close()

    async def broken(engine, revision):  # type: ignore[no-untyped-def]
        tries.append(revision)
        raise OperationalError("BEGIN IMMEDIATE", {}, sqlite3.OperationalError("disk I/O error"))

    monkeypatch.setattr(migrate, "_upgrade_once", broken)
    tries.clear()
    with pytest.raises(OperationalError):
        await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'n.db'}")
    assert len(tries) == 1
