"""End-to-end: values Discord's own checks would stop never reach the store (issue 12, item 9).

Each request is forged through the fake (``force=True``: the Discord client would refuse to
send it). The bot answers each with a clear, private refusal; the server's settings are as
before; ``/mahjong new`` and ``/mahjong score`` still work. No answer quoting user input goes
past Discord's 2,000 characters (it would be lost). The history shows the fairness hash as
published when the hand began, and whether the revealed seed and wall match it.
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from botcore.client import DEFAULT_EXTENSIONS
from db.store import Store
from db.types import HandInput, HandPlayer

from .fake_discord import CREATE_PUBLIC_THREADS, FakeDiscord, FakeMessage, FakeUser
from .fake_discord.interactions import BOOLEAN, INTEGER, NUMBER, STRING, USER
from .game_driver import game_env, lobby_message
from .harness import BotProcess

pytestmark = pytest.mark.e2e

EXTENSIONS = ",".join(
    ext
    for ext in ("cogs.game.commands", "cogs.stats.commands", "cogs.desk.commands")
    if ext not in DEFAULT_EXTENSIONS
)
LONG = "长" * 2500 + "x" * 2500  # 5,000 characters


def _env() -> dict[str, str | None]:
    env = game_env()
    if EXTENSIONS:
        env["EXTRA_EXTENSIONS"] = EXTENSIONS
    return env


@pytest.fixture
async def input_bot(fake: FakeDiscord, bot_factory: Any) -> BotProcess:
    # games here play in the channel (what these tests look at): no thread permission
    fake.set_role_permissions(fake.bot_role, fake.bot_role.permissions & ~CREATE_PUBLIC_THREADS)
    proc = bot_factory(env=_env())
    await proc.start_ready()
    return proc


def _settings(proc: BotProcess, guild_id: int) -> list[tuple[Any, ...]]:
    return proc.rows(
        "SELECT default_variant, rule_options, turn_timeout, claim_timeout, language, hints"
        " FROM guilds WHERE id = ?",
        guild_id,
    )


def _answers(fake: FakeDiscord) -> list[FakeMessage]:
    """Every answer the bot gave to an interaction (replies, follow-ups, edits of them)."""
    return [m for ix in fake.interactions.values() for m in ix.replies()]


def _assert_within_limits(fake: FakeDiscord) -> None:
    for msg in _answers(fake):
        for version in msg.versions():
            assert len(version["content"]) <= 2000, version["content"][:200]


async def test_config_refuses_forged_values_and_nothing_is_stored(
    fake: FakeDiscord, input_bot: BotProcess
) -> None:
    alice = fake.user("alice")  # owns the server
    before = _settings(input_bot, fake.guild_id)
    forged: list[tuple[dict[str, Any], str]] = [
        ({"turn_timeout": -5}, "turn_timeout"),
        ({"turn_timeout": 0}, "turn_timeout"),
        ({"claim_timeout": 0}, "claim_timeout"),
        ({"turn_timeout": 10**9}, "turn_timeout"),
        ({"claim_timeout": 2.5}, "claim_timeout"),
        ({"variant": "bogus"}, "variant"),
        ({"variant": LONG}, "variant"),
        ({"language": "fr"}, "language"),
        ({"hints": "yes"}, "hints"),
        ({"variant": "xinyu", "turn_timeout": -1}, "turn_timeout"),  # nothing of it is kept
    ]
    for options, name in forged:
        with pytest.raises(ValueError):  # the Discord client would not send it
            await fake.slash(alice, "mahjong-admin config", options)
        ix = await fake.slash(alice, "mahjong-admin config", options, force=True)
        reply = await ix.wait_reply()
        text = reply.text()
        assert reply.ephemeral, options
        assert f"`{name}`" in text and "nothing changed" in text, (options, text[:300])
        assert len(text) < 600, options  # the value is quoted short, never echoed whole
        assert _settings(input_bot, fake.guild_id) == before, options
    # an over-long options text is refused too (no declared limit: the bot's own)
    ix = await fake.slash(alice, "mahjong-admin config", {"options": LONG})
    reply = await ix.wait_reply()
    assert reply.ephemeral and len(reply.content) <= 2000 and "300" in reply.text()
    assert _settings(input_bot, fake.guild_id) == before

    # the server still works: a new game takes the (unchanged) default, the desk answers
    ix = await fake.slash(alice, "mahjong new")
    assert (await ix.wait_reply()).ephemeral
    lobby = await fake.wait_for(lambda: lobby_message(fake), what="the lobby")
    assert "上饶" in lobby.text() or "Shangrao" in lobby.text()
    scored = await (
        await fake.slash(alice, "mahjong score", {"hand": "123m456m789p234s99s +9s", "bao": "5p"})
    ).wait_reply()
    assert scored.embeds and not scored.ephemeral, scored.text()
    # and a valid change is still taken
    saved = await (
        await fake.slash(alice, "mahjong-admin config", {"variant": "xinyu", "turn_timeout": 45})
    ).wait_reply()
    assert "variant: Xinyu" in saved.text() and "turn_timeout: 45 seconds" in saved.text()
    _assert_within_limits(fake)


def _value_for(option: dict[str, Any], users: list[FakeUser]) -> Any:
    kind = option["type"]
    if kind == STRING:
        return LONG
    if kind == USER:
        return users[len(option["name"]) % len(users)]
    if kind in (INTEGER, NUMBER):
        return option.get("min_value", 1)
    if kind == BOOLEAN:
        return False
    return None


def _leaves(command: dict[str, Any], path: str = "") -> list[tuple[str, dict[str, Any]]]:
    name = f"{path} {command['name']}".strip()
    subs = [o for o in command.get("options", []) if o.get("type") in (1, 2)]
    if not subs:
        return [(name, command)]
    return [leaf for sub in subs for leaf in _leaves(sub, name)]


async def test_no_answer_echoes_an_overlong_value_past_discords_limit(
    fake: FakeDiscord, input_bot: BotProcess
) -> None:
    """Every command with a text option, forged with 5,000-character values (the client
    stops at the declared length, or at 6,000): each is answered, within 2,000 characters."""
    alice, bob, carol, dave = (fake.user(n) for n in ("alice", "bob", "carol", "dave"))
    users = [alice, bob, carol, dave]
    tried = []
    for top in fake.synced_commands():
        for path, leaf in _leaves(top):
            options = {}
            for option in leaf.get("options", []):
                value = _value_for(option, users)
                if value is not None and (option.get("required") or option["type"] == STRING):
                    options[option["name"]] = value
            if LONG not in options.values():
                continue
            tried.append(path)
            ix = await fake.slash(alice, path, options, force=True)
            reply = await ix.wait_reply(10)
            assert len(reply.content) <= 2000, path
            assert reply.content or reply.embeds, path
    assert {"mahjong new", "mahjong score", "mahjong record", "mahjong-admin config"} <= set(tried)
    _assert_within_limits(fake)
    # a text the bot quotes back is cut, with the field named
    ix = await fake.slash(alice, "mahjong score", {"hand": "123m", "variant": LONG}, force=True)
    text = (await ix.wait_reply()).text()
    assert "variant" in text and len(text) < 1000


async def test_history_shows_the_hash_published_when_the_hand_began(
    fake: FakeDiscord, bot_factory: Any
) -> None:
    """Two recorded hands of one game: one whose reveal matches the hash published when it
    began, one whose stored hash does not (as if the wall had been changed after it was
    published). The page shows each stored hash and says which one matches."""
    proc = bot_factory(env=_env())
    bob, carol = fake.user("bob"), fake.user("carol")
    seed, wall = "a1" * 16, list(range(136))
    digest = hashlib.sha256(f"{seed}:{','.join(map(str, wall))}".encode()).hexdigest()
    other = hashlib.sha256(b"some other wall").hexdigest()
    store = await Store.open(proc.database_url)
    try:
        seats = [
            {"name": "bob", "user_id": bob.id, "ai": False},
            {"name": "carol", "user_id": carol.id, "ai": False},
        ]
        game = await store.games.create(
            fake.guild_id, fake.channel.id, "xinyu", seats=seats, status="finished"
        )
        for no, published in ((1, digest), (2, other)):
            await store.hands.record(
                HandInput(
                    guild_id=fake.guild_id,
                    variant="xinyu",
                    hand_no=no,
                    players=[HandPlayer(0, bob.id, 4), HandPlayer(1, carol.id, -4)],
                    how="self",
                    winners=[0],
                    points=4,
                    seed_reveal={
                        "seed": seed,
                        "wall": [w >> 2 for w in wall],
                        "wall_ids": wall,
                        "commitment": published,
                    },
                    game_id=game.id,
                    source="online",
                )
            )
    finally:
        await store.close()
    await proc.start_ready()
    listing = await (await fake.slash(bob, "mahjong history")).wait_reply()
    [select] = [c for c in listing.custom_ids() if c.startswith("mj:hs:")]
    detail = await (await fake.click(bob, listing, select, values=[str(game.id)])).wait_reply()
    fields = [f["value"] for f in detail.embeds[0]["fields"]]
    first = next(f for f in fields if digest in f and other not in f)
    second = next(f for f in fields if other in f)
    assert "✅" in first and "❌" in first + second and "❌" in second
    assert "✅" not in second and digest in second  # what the reveal gives, beside it
