"""End-to-end: a whole game reads in one language. A four-hand game on a 繁體中文 server and one
on an English server, played to their standings and then looked back on (status, stats,
leaderboard, history, the review, the replay, the export, the rules, help), with every version
of every message anyone was shown scanned for the other script: in the 繁體 game no 简体
character and no English word; in the English game no Chinese punctuation and no count in
Chinese units (``4分``, ``+1炮``). The English text keeps the Chinese rule terms beside their
English (``Basic win (平胡)``, ``5 Dots (正精)``): what Jiangxi players call them.

What counts as 简体: a character the 简体 catalogues use and the 繁體 ones never do (听, 门,
杠, 发, 宝, …) — taken from the catalogues themselves, so it grows with them.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from i18n.catalog import messages

from .fake_discord import FakeDiscord, FakeMessage
from .game_driver import click_ok, open_game, play_hand, result_message, start_bot
from .privacy import TEXT_KEYS, _texts

pytestmark = pytest.mark.e2e

HANDS = 4


def _hanzi(text: str) -> set[str]:
    return {c for c in text if "\u4e00" <= c <= "\u9fff" or "\u3400" <= c <= "\u4dbf"}


def simplified_only() -> set[str]:
    """Characters the 简体 catalogues write and the 繁體 ones never do."""
    zh = set().union(*(_hanzi(s) for s in messages("zh").values()))
    tw = set().union(*(_hanzi(s) for s in messages("zh-TW").values()))
    return zh - tw


#: What is written the same in every language and so is left out before the scan: mentions,
#: Discord timestamps and links, slash commands by their path (``/mahjong new``: the command's
#: own name, which Discord lists in the reader's language beside it), code spans (option and setting names a player types, such as
#: ``scoring``), tile notation (``7m``, ``123s``, the documented way to type tiles), digests
#: and the standard names of what they are.
NEUTRAL = re.compile(
    r"<[@#][!&]?\d+>|<t:\d+(?::[a-zA-Z])?>|<a?:\w+:\d+>|\(?https?://\S+|attachment://\S+"
    r"|/mahjong(?:-[a-z]+)?(?: [a-z]+)*|`[^`]*`|(?:\d+[mpsz])+|\b[0-9a-f]{12,}\b|SHA-256|\bv\d+\b|\bAI\b"
)
#: In English: Chinese punctuation, and a count in Chinese units (``4分``, ``+1炮``, ``3张``).
#: Rule terms stay Chinese on purpose (宝, 正精, 下家: what Jiangxi players call them).
FULL_WIDTH = re.compile(r"[：，；（）。、「」！？]")
CHINESE_UNIT = re.compile(r"\d+\s*[分炮张張局圈番]")
#: Where a string is not prose: ids, links, emoji names.
NOT_PROSE = ("custom_id", "url", "emoji", "proxy_url", "icon_url")


def shown_texts(msg: FakeMessage) -> list[tuple[str, str]]:
    """(where, text) of every human-readable string in every version of ``msg``."""
    out: list[tuple[str, str]] = []
    for n, version in enumerate(msg.versions()):
        out.append((f"v{n}.content", version["content"]))
        for part in ("embeds", "components"):
            for where, text in _texts(version[part], f"v{n}.{part}"):
                leaf = re.sub(r"\[\d+\]$", "", where.rsplit(".", 1)[-1])
                if part == "components" and leaf == "value":
                    continue  # a select option's value is sent back, never shown
                if leaf in TEXT_KEYS and leaf not in NOT_PROSE:
                    out.append((where, text))
    return out


def other_script(text: str, language: str, simplified: set[str], names: set[str]) -> list[str]:
    """The pieces of ``text`` written in a script a ``language`` table should not show
    (``names``: the players' own names, written as they chose)."""
    for name in names:
        text = text.replace(name, " ")
    text = NEUTRAL.sub(" ", text)
    if language == "en":
        return FULL_WIDTH.findall(text) + CHINESE_UNIT.findall(text)
    hits = sorted(c for c in _hanzi(text) if c in simplified)
    return hits + re.findall(r"[A-Za-z][A-Za-z'’-]*", text)


def scan(fake: FakeDiscord, language: str) -> list[str]:
    simplified = simplified_only()
    names = {u.name for u in fake.users} | {
        getattr(u, "global_name", None) or u.name for u in fake.users
    }
    found: list[str] = []
    for msg in list(fake.messages.values()):
        for where, text in shown_texts(msg):
            hits = other_script(text, language, simplified, names)
            if hits:
                found.append(f"message {msg.id} {where}: {hits} in {text!r}")
    return found


def finished(fake: FakeDiscord, gid: int) -> FakeMessage | None:
    """The final standings: the channel message with ``standings.png`` and a 再来一局."""
    for msg in fake.channel_messages():
        names = {a.filename for a in msg.attachments}
        if "standings.png" in names and f"#{gid}" in msg.text():
            return msg
    return None


async def reply_of(fake: FakeDiscord, user: Any, command: str, args: dict[str, Any]) -> str:
    ix = await fake.slash(user, command, args)
    return (await ix.wait_reply(15)).text()


@pytest.mark.parametrize(
    ("language", "variant"), [("zh-TW", "shangrao"), ("en", "nanchang")], ids=["zh-TW", "en"]
)
async def test_a_whole_game_reads_in_one_script(
    fake: FakeDiscord, bot_factory, language: str, variant: str
) -> None:
    await start_bot(bot_factory)
    alice = fake.user("alice")  # owns the server
    alice.locale = "zh-TW" if language == "zh-TW" else "en-US"  # her Discord client agrees
    await reply_of(fake, alice, "mahjong-admin config", {"language": language})
    gid, _lobby = await open_game(fake, alice, [], variant=variant, length=str(HANDS))
    for hand in range(1, HANDS + 1):
        last = (lambda: finished(fake, gid)) if hand == HANDS else None
        await play_hand(fake, [alice], gid, hand_no=hand, until=last)
        if hand < HANDS:
            result = await fake.wait_for(lambda h=hand: result_message(fake, gid, h), 20)
            await click_ok(fake, alice, result, f"mj:{gid}:next:{hand}")
    await fake.wait_for(lambda: finished(fake, gid), 30, what="the final standings")

    # looking back on it, as players do after a game
    for command, args in [
        ("mahjong status", {}),
        ("mahjong stats", {}),
        ("mahjong leaderboard", {}),
        ("mahjong history", {}),
        ("mahjong export game", {"id": gid}),
        ("mahjong help", {}),
        ("mahjong review", {"hand": f"#{gid}-1"}),
        ("mahjong replay", {"hand": f"#{gid}-1"}),
        ("mahjong rules", {"variant": variant}),
    ]:
        await reply_of(fake, alice, command, args)

    seen = sum(len(shown_texts(m)) for m in fake.messages.values())
    assert seen > 200, seen  # the scan read a whole game, not a few lines
    hits = scan(fake, language)
    assert hits == [], f"{len(hits)} texts in the other script:\n" + "\n".join(hits[:60])
