"""Discord's zh-TW users get 繁體 in their private answers: the hand, its buttons, refusals."""

from __future__ import annotations

from cogs.game.text import action_label, hand_lines, lang_of, meld_text, tile_name
from services.model import ActionKey, HandView, MeldInfo

SIMPLIFIED = "万条东发杠宝庄听对请轮吃过"


def test_a_taiwanese_discord_locale_reads_traditional() -> None:
    assert lang_of("zh-TW") == "zh-TW"
    assert lang_of("zh-CN") == "zh"
    assert lang_of("en-GB") == "en"


def test_the_private_hand_is_traditional_for_zh_tw() -> None:
    legal = (ActionKey("pong"), ActionKey("kong"), ActionKey("pass"))
    hand = HandView(
        1,
        (0, 1, 18, 27, 32),
        None,
        (MeldInfo("kong", (5, 5, 5, 5)),),
        legal,
        wildcards=frozenset({4}),
        claim_tile=4,
        claim_from=0,
    )
    text = "\n".join(hand_lines(hand, ((4, 2),), "zh-TW", names=["alice", "bob", "c", "d"]))
    assert "一萬" in text and "一條" in text and "東" in text and "發" in text
    assert "寶" in text and "槓" in text
    simplified = sorted({ch for ch in text if ch in SIMPLIFIED})
    assert not simplified, (simplified, text)
    assert [action_label(k, "zh-TW") for k in legal] == ["碰", "槓", "過"]
    assert tile_name(4, "zh") == "五万" and tile_name(4, "zh-TW") == "五萬"
    assert (
        meld_text(MeldInfo("kong", (5, 5, 5, 5), from_seat=0), "zh-TW", 1)
        == "明槓[6m6m6m6m]（上家）"
    )


def test_ai_seats_are_named_in_the_tables_language() -> None:
    """AI seats are stored as 电脑一… (the log keeps that); every reader sees them in their
    own script: 電腦一 for zh-TW, Bot 1 in English — in the lobby, the table and its lines."""
    from cogs.delivery.event_lines import event_line
    from cogs.game.views import lobby_message
    from services.delivery import GameSummary
    from services.model import GameEvent, Seat

    seats = (Seat("alice", 101), Seat("电脑一", ai=True), Seat("电脑二", ai=True), Seat("bob", 102))
    game = GameSummary(
        id=7, guild_id=1, channel_id=2, variant="xinyu", options={}, seats=seats,
        status="lobby", version=3, totals=(0, 0, 0, 0),
    )  # fmt: skip
    kong = GameEvent("kong", data={"seat": 2, "kind": "concealed_kong"})
    for lang, shown, hidden in (
        ("zh-TW", "電腦一", "电脑"),
        ("en", "Bot 1", "电脑"),
        ("zh", "电脑一", "電腦"),
    ):
        embed, _view = lobby_message(game, lang)
        text = (embed.description or "") + "".join(f.value for f in embed.fields)
        assert shown in text and hidden not in text, (lang, text)
        line = event_line(game, kong, [kong], lang) or ""
        assert Seat("电脑二", ai=True).shown_name(lang) in line and hidden not in line, line
