"""Discord wiring without a connection: URLs, intents, translator, group binding, errors."""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import discord
import discord.gateway
import discord.http
import pytest
import yarl
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from botcore.client import DEFAULT_EXTENSIONS, bot_intents
from botcore.discord_urls import apply_discord_urls
from botcore.translator import CatalogueTranslator, command_key
from cogs.errors import UserError, describe_error
from cogs.group import bind_cog_commands
from i18n.catalog import messages

Location = app_commands.TranslationContextLocation


@pytest.fixture
def restore_urls():
    base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    yield
    discord.http.Route.BASE = base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway


def test_apply_discord_urls(restore_urls) -> None:
    apply_discord_urls("http://127.0.0.1:1/api/v10/", "ws://127.0.0.1:1/gateway")
    assert discord.http.Route.BASE == "http://127.0.0.1:1/api/v10"
    assert discord.http.Route("GET", "/users/@me").url == "http://127.0.0.1:1/api/v10/users/@me"
    assert yarl.URL("ws://127.0.0.1:1/gateway") == discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY


def test_apply_discord_urls_none_keeps_defaults(restore_urls) -> None:
    before = discord.http.Route.BASE
    apply_discord_urls(None, None)
    assert before == discord.http.Route.BASE


def test_no_privileged_intents() -> None:
    intents = bot_intents()
    assert intents.guilds
    assert not (intents.members or intents.presences or intents.message_content)


def test_no_message_intents() -> None:
    """The bot reads no messages (everything comes as interactions): without the message
    intents Discord sends no gateway event back for each message the bot sends or edits."""
    intents = bot_intents()
    assert not (intents.guild_messages or intents.dm_messages)
    assert intents.value == discord.Intents(guilds=True).value


def test_extensions_start_with_group() -> None:
    assert DEFAULT_EXTENSIONS[0] == "cogs.group"
    assert {"cogs.errors", "cogs.meta"} <= set(DEFAULT_EXTENSIONS)


async def test_translator_falls_back_to_the_zh_extra_outside_the_catalogue() -> None:
    t = CatalogueTranslator()
    s = locale_str("new", zh="新局")
    ctx = app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)
    assert await t.translate(s, discord.Locale.chinese, ctx) == "新局"
    assert await t.translate(s, discord.Locale.taiwan_chinese, ctx) == "新局"
    assert await t.translate(s, discord.Locale.american_english, ctx) is None
    assert await t.translate(locale_str("x"), discord.Locale.chinese, ctx) is None


async def test_taiwan_users_get_traditional_command_names_from_the_catalogue() -> None:
    """Every command, parameter and choice of the real tree has its catalogue entry; 繁體
    for zh-TW (麻將 新局, 託管, 槓), 简体 for zh-CN."""
    for name in DEFAULT_EXTENSIONS:
        importlib.import_module(name)
    from cogs.group import admin, mahjong
    from cogs.stats.sessions import sessions_command

    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    translator = CatalogueTranslator()
    await tree.set_translator(translator)
    missing: list[str] = []

    described = (Location.command_description, Location.group_description)

    class Checking(CatalogueTranslator):
        async def translate(self, string, locale, context):  # type: ignore[no-untyped-def]
            key = command_key(string, context)
            # every command's description, and whatever still carries a zh= extra
            wanted = context.location in described or string.extras.get("zh")
            if wanted and (key is None or key not in messages("zh-TW")):
                missing.append(f"{key}: {string.message}")
            return await super().translate(string, locale, context)

    for group in (mahjong, admin, sessions_command):
        await group.get_translated_payload(tree, Checking())
    assert not missing, missing
    payload = await mahjong.get_translated_payload(tree, translator)
    assert payload["name_localizations"]["zh-TW"] == "麻將"
    assert payload["name_localizations"]["zh-CN"] == "麻将"
    by_name = {o["name"]: o for o in payload["options"]}
    assert by_name["new"]["name_localizations"] == {"zh-CN": "新局", "zh-TW": "新局"}
    assert by_name["autoplay"]["name_localizations"]["zh-TW"] == "託管"
    assert "槓" in by_name["alerts"]["description_localizations"]["zh-TW"]
    assert "杠" in by_name["alerts"]["description_localizations"]["zh-CN"]
    assert "en-US" not in by_name["alerts"]["description_localizations"]
    # the command beside /mahjong (which holds Discord's 25 subcommands at most)
    own = await sessions_command.get_translated_payload(tree, translator)
    assert own["name_localizations"] == {"zh-CN": "麻将战绩", "zh-TW": "麻將戰績"}
    assert own["options"][0]["name_localizations"] == {"zh-CN": "玩家", "zh-TW": "玩家"}
    assert "大贏家" in own["description_localizations"]["zh-TW"]


async def test_every_command_and_option_has_a_chinese_name() -> None:
    """Chinese users see every command, group and option by a Chinese name in 简体 and 繁體
    (a language choice keeps its own name), and no description is discord.py's ``…``."""
    for name in DEFAULT_EXTENSIONS:
        importlib.import_module(name)
    from cogs.group import admin, mahjong
    from cogs.stats.sessions import sessions_command

    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    translator = CatalogueTranslator()
    await tree.set_translator(translator)
    unnamed: list[str] = []

    def walk(item: dict, path: str) -> None:
        names = item.get("name_localizations") or {}
        if not (names.get("zh-CN") and names.get("zh-TW")):
            unnamed.append(path)
        if item.get("description", "").strip() in ("…", "..."):
            unnamed.append(f"{path} (description)")
        for sub in item.get("options") or []:
            walk(sub, f"{path} {sub['name']}")

    for group in (mahjong, admin, sessions_command):
        payload = await group.get_translated_payload(tree, translator)
        walk(payload, payload["name"])
    assert not unnamed, unnamed


async def test_bind_cog_commands_binds_methods_of_a_shared_group() -> None:
    group = app_commands.Group(name="g", description="d")

    class C(commands.Cog):
        @group.command(name="a", description="d")
        async def a(self, interaction: discord.Interaction) -> None: ...

    cog = C()
    assert group.get_command("a").binding is None
    assert bind_cog_commands(cog) == 1
    assert group.get_command("a").binding is cog


def fake_interaction(locale: str) -> SimpleNamespace:
    return SimpleNamespace(locale=discord.Locale(locale))


def test_describe_error_texts() -> None:
    en, zh = fake_interaction("en-US"), fake_interaction("zh-CN")
    assert describe_error(en, UserError("as is")) == "as is"
    missing = app_commands.MissingPermissions(["manage_guild"])
    assert "manage_guild" in describe_error(en, missing)
    assert "权限" in describe_error(zh, missing)
    assert "out of date" in describe_error(en, app_commands.CommandNotFound("x", []))
    assert describe_error(en, app_commands.CheckFailure()) is not None
    assert describe_error(en, RuntimeError("boom")) is None


def test_extensions_load_once_in_order(monkeypatch) -> None:
    from botcore.client import MahjongBot
    from botcore.settings import Settings

    monkeypatch.setenv("EXTRA_EXTENSIONS", "cogs.meta, x.extra")
    bot = MahjongBot(Settings(discord_token="t"))
    assert bot.extensions_to_load == [*DEFAULT_EXTENSIONS, "x.extra"]
