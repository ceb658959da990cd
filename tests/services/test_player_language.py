"""A game's private texts (hand DM, alerts) follow the server's language, so one table reads
in one language, unless the player chose their own (``/mahjong-language``, stored)."""

from __future__ import annotations

import pytest

from cogs.delivery.preferences import Preferences
from db.store import Store

GUILD = 31
USER = 77


async def test_private_texts_follow_the_server_unless_the_player_chose(store: Store) -> None:
    await store.guilds.update_settings(GUILD, language="zh-TW")
    await store.players.upsert(USER, display_name="Ann", locale="en-US")  # an English client
    prefs = Preferences(store)
    assert await prefs.lang_for_user(USER) == "en"  # their Discord language …
    assert await prefs.lang_for_player(USER, GUILD) == "zh-TW"  # … the table's wins
    # they choose English: saved, and a restarted bot (a new Preferences) keeps it
    await store.players.upsert(USER, language="en")
    prefs.set_user_language(USER, "en")
    assert await prefs.lang_for_player(USER, GUILD) == "en"
    assert await Preferences(store).lang_for_player(USER, GUILD) == "en"
    # back to the server's
    await store.players.upsert(USER, language="")
    assert (await store.players.get(USER)).language is None
    assert await Preferences(store).lang_for_player(USER, GUILD) == "zh-TW"


async def test_a_server_in_both_languages_leaves_each_player_theirs(store: Store) -> None:
    await store.guilds.update_settings(GUILD, language="zh+en")
    await store.players.upsert(USER, locale="en-GB")
    await store.players.upsert(USER + 1, locale="zh-TW")
    prefs = Preferences(store)
    assert await prefs.lang_for_player(USER, GUILD) == "en"
    assert await prefs.lang_for_player(USER + 1, GUILD) == "zh-TW"


async def test_a_language_that_is_not_offered_is_refused(store: Store) -> None:
    with pytest.raises(ValueError):
        await store.players.upsert(USER, language="fr")
    assert await store.players.get(USER) is None
