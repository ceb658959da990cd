"""Discord wiring without a connection: URLs, intents, translator, group binding, errors."""

from __future__ import annotations

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
from botcore.translator import ZhTranslator
from cogs.errors import UserError, describe_error
from cogs.group import bind_cog_commands


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
    assert intents.guilds and intents.guild_messages
    assert not (intents.members or intents.presences or intents.message_content)


def test_extensions_start_with_group() -> None:
    assert DEFAULT_EXTENSIONS[0] == "cogs.group"
    assert {"cogs.errors", "cogs.meta"} <= set(DEFAULT_EXTENSIONS)


async def test_zh_translator() -> None:
    t = ZhTranslator()
    s = locale_str("new", zh="新局")
    ctx = app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)
    assert await t.translate(s, discord.Locale.chinese, ctx) == "新局"
    assert await t.translate(s, discord.Locale.taiwan_chinese, ctx) == "新局"
    assert await t.translate(s, discord.Locale.american_english, ctx) is None
    assert await t.translate(locale_str("x"), discord.Locale.chinese, ctx) is None


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
