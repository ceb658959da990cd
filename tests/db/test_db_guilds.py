"""Server settings, seasons and players."""

from __future__ import annotations

import pytest

from db.store import Store
from db.types import GuildSettings


async def test_settings_default_then_update(store: Store) -> None:
    assert await store.guilds.settings(42) == GuildSettings(guild_id=42)
    changed = await store.guilds.update_settings(
        42,
        default_variant="jiujiang",
        rule_options={"shangrao": {"preset": "xingchen"}, "jiujiang": {"min_pao": 2}},
        turn_timeout=45,
        claim_timeout=10,
        language="en",
        hints=False,
    )
    assert changed == GuildSettings(
        guild_id=42,
        default_variant="jiujiang",
        rule_options={"shangrao": {"preset": "xingchen"}, "jiujiang": {"min_pao": 2}},
        turn_timeout=45,
        claim_timeout=10,
        language="en",
        hints=False,
        current_season=1,
    )
    assert await store.guilds.settings(42) == changed
    again = await store.guilds.update_settings(42, language="zh")
    assert (again.language, again.default_variant) == ("zh", "jiujiang")


@pytest.mark.parametrize(
    "changes",
    [
        {"colour": "red"},
        {"current_season": 3},
        {"turn_timeout": 0},
        {"turn_timeout": -5},
        {"claim_timeout": "5"},
        # values no reader can use: a stored bogus variant broke /mahjong new and score
        {"default_variant": "bogus"},
        {"language": "fr"},
        {"hints": "yes"},
        {"rule_options": {"bogus": {}}},
        {"rule_options": {"xinyu": "chi=true"}},
    ],
)
async def test_bad_settings_are_refused(store: Store, changes: dict) -> None:
    with pytest.raises(ValueError):
        await store.guilds.update_settings(42, **changes)
    assert await store.guilds.settings(42) == GuildSettings(guild_id=42)


async def test_seasons(store: Store) -> None:
    await store.guilds.settings(8)
    assert await store.guilds.seasons(8) == []  # nothing stored for an unused server
    second = await store.guilds.start_season(8)
    third = await store.guilds.start_season(8)
    assert (second.number, third.number) == (2, 3)
    assert [s.number for s in await store.guilds.seasons(8)] == [1, 2, 3]
    assert (await store.guilds.settings(8)).current_season == 3


async def test_players(store: Store) -> None:
    assert await store.players.get(5) is None
    created = await store.players.upsert(5, display_name="小王", locale="zh-CN")
    assert (created.display_name, created.locale, created.prefers_images) == ("小王", "zh-CN", True)
    updated = await store.players.upsert(5, prefers_images=False)
    assert (updated.display_name, updated.locale, updated.prefers_images) == (
        "小王",
        "zh-CN",
        False,
    )
    renamed = await store.players.upsert(5, display_name="Wang")
    assert renamed.display_name == "Wang"
    assert await store.players.get(5) == renamed
    big = await store.players.upsert(2**62 + 7, display_name="snowflake")
    assert (await store.players.get(2**62 + 7)) == big


async def test_record_expiry_hours_is_a_setting(store: Store) -> None:
    assert (await store.guilds.settings(42)).record_expiry_hours is None
    changed = await store.guilds.update_settings(42, record_expiry_hours=2.5)
    assert changed.record_expiry_hours == 2.5
    assert (await store.guilds.settings(42)).record_expiry_hours == 2.5
    assert (await store.guilds.settings(42)).rule_options == {}
    for bad in (0, -1, 721, "3", True):
        with pytest.raises(ValueError):
            await store.guilds.update_settings(42, record_expiry_hours=bad)
    assert (
        await store.guilds.update_settings(42, record_expiry_hours=None)
    ).record_expiry_hours is None


async def test_alerts_threads_and_ai_pace(store: Store) -> None:
    """Issue 12: a player's turn alerts (on | claims | off), a server's ``thread`` and
    ``ai_pace``, a game's thread and the messages delivery keeps up to date."""
    assert (await store.players.upsert(6, display_name="p")).alerts == "on"
    assert (await store.players.upsert(6, alerts="claims")).alerts == "claims"
    assert (await store.players.upsert(6, display_name="q")).alerts == "claims"  # kept
    assert (await store.players.get(6)).alerts == "claims"  # type: ignore[union-attr]
    with pytest.raises(ValueError):
        await store.players.upsert(6, alerts="loud")
    settings = await store.guilds.settings(43)
    assert (settings.thread, settings.ai_pace) == (True, None)
    changed = await store.guilds.update_settings(43, thread=False, ai_pace=0.5)
    assert (changed.thread, changed.ai_pace) == (False, 0.5)
    for bad in (-0.1, 5.5, "1", True):
        with pytest.raises(ValueError):
            await store.guilds.update_settings(43, ai_pace=bad)
    assert (await store.guilds.update_settings(43, ai_pace=None)).ai_pace is None
    game = await store.games.create(43, 2, "xinyu", seats=[{}])
    assert (game.thread_id, game.messages) == (None, {})
    refs = {"dm": {"5": [9, 10, 1]}, "table_at": [11, 1]}
    updated = await store.games.update(game.id, thread_id=11, messages=refs)
    assert (updated.thread_id, updated.messages) == (11, refs)
    assert (await store.games.load(game.id)).game.messages == refs
