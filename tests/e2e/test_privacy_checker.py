"""The claim-privacy checker itself (:func:`privacy.find_claim_leaks`), on hand-made messages:
it must catch each way a table or a line could tell who may claim or who passed, and let
the legitimate ones through. No bot runs here."""

from __future__ import annotations

import time

from .fake_discord import FakeDiscord, FakeMessage
from .privacy import ClaimWindow, Player, find_claim_leaks

PLAYERS = [Player("ann", 1), Player("bea", 2), Player("cid", 3), Player("dan", 4)]
SEATS = ["**ann**（庄）　分数 0　手牌 13 张", "**bea**　分数 0　手牌 13 张"]
SEATS += ["**cid**　分数 0　手牌 13 张", "**dan**　分数 0　手牌 13 张"]


def post(fake: FakeDiscord, text: str, *, at: float | None = None, table: bool = False) -> None:
    """A public message (a table embed when ``table``) created at ``at`` (time.time())."""
    msg = FakeMessage(id=len(fake.messages) + 1, channel_id=fake.channel.id, author=fake.bot_user)
    if table:
        msg.embeds = [{"title": "上饶麻将 · 第1局", "description": text}]
    else:
        msg.content = text
    if at is not None:
        msg.created_at = at - (time.time() - time.monotonic())
    fake.messages[msg.id] = msg


def table(*extra: str, arrow: str | None = None) -> str:
    lines = [f"▶ {s}" if arrow and s.startswith(f"**{arrow}**") else s for s in SEATS]
    return "\n".join([*lines, "余牌 60", *extra])


def leaks(fake: FakeDiscord, windows=()) -> list[str]:
    return find_claim_leaks(fake, PLAYERS, windows)


def test_a_neutral_claim_wait_and_a_turn_pass() -> None:
    fake = FakeDiscord()
    post(fake, table("等待吃碰杠胡… · cid 的 五万", "截止 <t:1:R>"), table=True)
    post(fake, table("轮到 dan", arrow="dan"), table=True)
    post(fake, table("本局结束"), table=True)
    assert leaks(fake) == []


def test_a_table_that_marks_or_names_claimants_is_caught() -> None:
    fake = FakeDiscord()
    post(fake, table("等待 ann 决定是否吃碰杠胡 五万", arrow="ann"), table=True)
    post(fake, table("等待吃碰杠胡… · cid 的 五万", arrow="bea"), table=True)
    post(fake, table("等待 ann、bea 吃碰杠胡 五万"), table=True)
    post(fake, table("轮到 dan", arrow="ann"), table=True)
    found = leaks(fake)
    # a ▶ on a claimant, a ▶ on anyone while claims are awaited, two names in the wait,
    # a ▶ on someone other than the player to move
    assert [f.split(":")[0] for f in found] == [f"message {n} v0" for n in (1, 2, 3, 4)], found


def test_saying_who_passed_is_caught() -> None:
    fake = FakeDiscord()
    post(fake, "bea 超时，已自动过并进入托管。")
    post(fake, "<@3> passed")
    post(fake, "bea 超时，已自动出牌并进入托管。")  # a turn: public anyway
    assert len(leaks(fake)) == 2


def test_lines_during_a_window_name_only_the_discarder() -> None:
    fake = FakeDiscord()
    now = time.time()
    window = ClaimWindow(now - 10, now, PLAYERS[2], (PLAYERS[1],))
    post(fake, "<@2> 轮到你了 — 请按 🀄 我的手牌", at=now - 5)  # a claim ping: caught
    post(fake, "bea 开启托管。", at=now - 4)  # its player's own choice: public
    post(fake, "dan 碰 五万", at=now - 3)  # a public action: fine
    post(fake, "cid 的牌还在等", at=now - 2)  # the discarder: fine
    post(fake, "等 ann", at=now - 1)  # anyone else: caught
    post(fake, "<@2> 轮到你了 — 请按 🀄 我的手牌", at=now + 1)  # after the window: fine
    found = leaks(fake, [window])
    assert len(found) == 2 and "<@2>" in found[0] and "ann" in found[1], found


def test_the_first_dealer_line_may_land_during_a_window() -> None:
    """The first hand's opening line says how the dealer was chosen (every seat's roll): it
    reports a public event, and under load it may be posted after the dealer's first discard.
    A line that is not that sentence but names the same players is still caught."""
    fake = FakeDiscord()
    now = time.time()
    window = ClaimWindow(now - 10, now, PLAYERS[1], (PLAYERS[2],))
    rolls = "ann 2+2=4，bea 4+6=10，cid 1+5=6，dan 5+4=9"
    post(fake, f"🎲 掷骰定庄：{rolls} → **bea** 坐庄（东）", at=now - 5)  # fine
    post(fake, "🀄 ann 坐东位，首局坐庄。", at=now - 4)  # fine
    post(fake, f"🎲 {rolls}", at=now - 3)  # not the catalogue sentence: caught
    found = leaks(fake, [window])
    assert len(found) == 1 and "ann" in found[0] and "🎲 ann" in found[0], found
