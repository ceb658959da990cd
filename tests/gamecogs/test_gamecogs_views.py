"""The game cogs' pure parts: texts, custom_ids, button layout, option parsing."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from cogs.game.commands import parse_options
from cogs.game.text import hand_lines, result_lines, t, table_lines
from cogs.game.views import CUSTOM_ID, error_text, hand_message, result_message, seen_version
from i18n import LOCALES
from services import errors
from services.delivery import GameSummary, PrivateUpdate
from services.model import (
    ActionKey,
    HandResult,
    HandView,
    MeldInfo,
    PublicSeat,
    ScoreLine,
    Seat,
    TableView,
)


def game(**kw) -> GameSummary:
    seats = tuple(Seat(name=f"p{i}", user_id=100 + i) for i in range(4))
    base = {
        "id": 7,
        "guild_id": 1,
        "channel_id": 2,
        "variant": "shangrao",
        "options": {},
        "seats": seats,
        "status": "active",
        "version": 42,
        "totals": (0, 0, 0, 0),
        "hand_no": 1,
        "phase": "turn",
    }
    base.update(kw)
    return GameSummary(**base)


def test_custom_ids_match_the_dynamic_template():
    rx = re.compile(CUSTOM_ID)
    for key in (ActionKey("discard", "5m"), ActionKey("chi", "345m"), ActionKey("win")):
        cid = key.custom_id(123)
        assert len(cid) <= 100
        m = rx.fullmatch(cid)
        assert m and m["gid"] == "123" and m["kind"] == key.kind and m["arg"] == key.arg


def test_hand_message_has_a_button_per_distinct_discard_and_claims():
    concealed = (0, 0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 28, 31)
    legal = tuple(
        ActionKey("discard", k)
        for k in ("1m", "2m", "3m", "1p", "2p", "3p", "1s", "2s", "3s", "1z", "2z", "5z", "9s")
    )
    legal += (
        ActionKey("win"),
        ActionKey("kong", "1m"),
        ActionKey("touji", "1m"),
        ActionKey("touji", "2m"),
    )
    hand = HandView(0, concealed, 26, (), legal, waits=(3,), wildcards=frozenset())
    embed, view = hand_message(game(), PrivateUpdate(0, 100, hand, ((3, 2),)), "zh")
    ids = [item.custom_id for item in view.children]
    assert len(ids) <= 25
    assert len([i for i in ids if ":discard:" in i]) == 13
    assert "mj:7:win" in ids and "mj:7:kong:1m" in ids
    assert ids.count("mj:7:touji") == 1  # one picker button, not one per tile
    assert embed.footer.text.endswith("v42")
    assert "听牌提示" in embed.description and "四万（剩 2 张）" in embed.description


def test_seen_version_reads_the_footer():
    class Msg:
        def __init__(self, footer):
            import discord

            e = discord.Embed()
            e.set_footer(text=footer)
            self.embeds = [e]

    assert seen_version(Msg("#7 · v42")) == 42
    assert seen_version(Msg("#7")) is None
    assert seen_version(None) is None


def test_table_text_shows_counts_not_tiles():
    seats = (
        PublicSeat(0, 13, river=(0, 1)),
        PublicSeat(1, 10, melds=(MeldInfo("pong", (5, 5, 5)),)),
        PublicSeat(2, 13, dealer=True),
        PublicSeat(3, 13),
    )
    table = TableView(
        1, "turn", 2, 1, 80, seats, bao_indicator=3, wildcards=frozenset({4}), commitment="ab" * 32
    )
    text = "\n".join(
        table_lines(table, ["a", "b", "c", "d"], (0, 1, 2, 3), [False] * 4, "zh", deadline=1e9)
    )
    assert "手牌 13 张" in text and "手牌 10 张" in text
    assert "1m·2m" in text and "<t:1000000000:R>" in text and "abababab" in text


def test_hand_lines_private_and_result_lists_every_item():
    hand = HandView(0, (0, 1, 2), 5, (MeldInfo("concealed_kong", (9, 9, 9, 9)),), ())
    lines = hand_lines(hand, (), "en")
    # the English locale names tiles in English, not in notation or Chinese
    # … with English punctuation: no full-width colon or bar gap inside English text
    assert lines[0].startswith("**Tiles**: 1 Characters 2 Characters 3 Characters")
    assert "**6 Characters**" in lines[0] and "：" not in lines[0] and "　" not in lines[0]
    zh = hand_lines(hand, (), "zh")[0]
    assert zh.startswith("**手牌**：") and "　｜" in zh
    result = HandResult(
        1,
        "self",
        (2,),
        None,
        8,
        (ScoreLine("清一色", "Pure one suit", "×4"), ScoreLine("门清", "Concealed", "×2")),
        (-8, -8, 24, -8),
        payments=((0, 2, 8, "自摸"),),
        scores=(-8, -8, 24, -8),
        seed_reveal={"seed": "s33d"},
    )
    embed, view = result_message(game(), result, "zh", "c0ffee")
    assert "清一色 ×4" in embed.description and "门清 ×2" in embed.description
    assert "s33d" in embed.description and "c0ffee" in embed.description
    # 准备 for the next hand, 解散 (a vote) instead of ending the game alone, and 回放
    assert [i.custom_id for i in view.children] == [
        "mj:7:next:1",
        "mj:7:dissolve",
        "mj:rp:7:1:o:0:4",
    ]
    assert view.children[-1].label == "回放"
    # the last hand of a game too: its result keeps the 回放 button
    _embed, over = result_message(game(status="finished"), result, "en")
    assert over is not None
    assert [(i.custom_id, i.label) for i in over.children] == [("mj:rp:7:1:o:0:4", "Replay")]
    assert "8" in embed.description and "自摸" in embed.description  # the payment line
    # an English result: units in English, no Chinese punctuation between the items
    jiujiang = replace(
        result,
        items=(ScoreLine("点炮", "Discard win", "+1炮"), ScoreLine("门清", "Concealed", "+1炮")),
    )
    english = result_lines(jiujiang, ["a", "b", "c", "d"], "en")
    assert any("Discard win (点炮) +1 pao, Concealed (门清) +1 pao" in line for line in english)
    assert not any(ch in line for line in english for ch in "：，；（）、")


def test_every_error_has_a_text_in_every_language():
    for cls in (getattr(errors, n) for n in dir(errors)):
        if isinstance(cls, type) and issubclass(cls, errors.ServiceError):
            for lang in LOCALES:
                assert t(cls.key, lang, detail="x"), (cls, lang)  # KeyError if missing
                assert error_text(cls("why"), lang)
    assert t("errors.illegal", "en", detail="x").endswith("x")


def test_parse_options():
    assert parse_options("scoring=xingchen, discard_win=true") == {
        "scoring": "xingchen",
        "discard_win": "true",
    }
    assert parse_options(None) == {}
    with pytest.raises(errors.BadOption):
        parse_options("no equals sign")
    with pytest.raises(errors.BadOption):
        parse_options("a=b " * 200)


def test_pictures_follow_the_setting(monkeypatch):
    from cogs.delivery import pictures

    hand = HandView(0, (0, 1, 2, 9, 9), 30, (MeldInfo("pong", (5, 5, 5)),), ())
    monkeypatch.setattr(pictures, "ENABLED", True)
    [file] = pictures.hand_files(hand)
    assert file.filename == "hand.png" and file.fp.read(8) == b"\x89PNG\r\n\x1a\n"
    monkeypatch.setattr(pictures, "ENABLED", False)
    assert pictures.hand_files(hand) == []


def test_tiles_are_named_in_the_players_language():
    """吃 buttons name their tiles like the discard buttons; English uses English names."""
    from cogs.game.text import action_label, tile_name

    assert action_label(ActionKey("chi", "345m"), "zh") == "吃 三四五万"
    assert action_label(ActionKey("chi", "789p"), "en") == "Chi 7-8-9 Dots"
    assert action_label(ActionKey("discard", "5s"), "zh") == "五条"
    assert action_label(ActionKey("discard", "5s"), "en") == "5 Bamboo"
    assert action_label(ActionKey("kong", "1z"), "en") == "Kong East"
    assert tile_name(31, "en") == "Red dragon" and tile_name(31, "zh") == "中"
    legal = (ActionKey("chi", "345m"), ActionKey("pass"))
    hand = HandView(1, (2, 3, 9, 10), None, (), legal, claim_tile=4, claim_from=0)
    for lang, chi in (("zh", "吃 三四五万"), ("en", "Chi 3-4-5 Characters")):
        _embed, view = hand_message(game(phase="claim"), PrivateUpdate(1, 101, hand), lang)
        assert chi in [item.label for item in view.children]
    text = "\n".join(hand_lines(hand, (), "en", names=["bob", "me", "c", "d"]))
    assert "bob (on your left) discarded 5 Characters; you may:" in text
    assert "上家 bob 打出 五万，你可以：" in "\n".join(
        hand_lines(hand, (), "zh", names=["bob", "me", "c", "d"])
    )


def test_a_claim_window_looks_the_same_whoever_may_claim(monkeypatch):
    """The table text and picture in a claim window: one neutral wait, no seat marked."""
    from cogs.delivery import pictures

    seats = tuple(PublicSeat(i, 13, river=(4,) if i == 2 else ()) for i in range(4))
    table = TableView(1, "claim", 0, None, 60, seats, last_discard=(2, 4))
    names = ["ann", "bea", "cid", "dan"]
    text = "\n".join(table_lines(table, names, (0,) * 4, [False] * 4, "zh", deadline=1e9))
    assert "等待吃碰杠胡… · cid 的 五万" in text and "▶" not in text
    # no deadline either: every discard shows this wait, and only a window a human decides
    # in has one (services.reveal)
    assert "决定是否" not in text and "<t:" not in text
    en = "\n".join(table_lines(table, names, (0,) * 4, [False] * 4, "en"))
    assert "Waiting for claims… · cid's 5 Characters" in en
    picture = pictures.table_picture(game(phase="claim"), table)
    assert picture.turn is None and picture.claim_wait
    monkeypatch.setattr(pictures, "ENABLED", True)
    [file] = pictures.table_files(game(phase="claim"), table)
    assert file.fp.read(8) == b"\x89PNG\r\n\x1a\n"
