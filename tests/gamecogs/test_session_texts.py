"""The session's texts and buttons (issue 13): seat winds and the first dealer, 第3/8局, the
准备 line, the 解散 vote, the final standings, and the lobby, table and result they appear on."""

from __future__ import annotations

import math
from dataclasses import replace

from cogs.game.session import rematch_view, standings_view, vote_parts
from cogs.game.session_text import (
    dealer_choice_line,
    hand_notation,
    length_label,
    progress_label,
    ready_text,
    standings_lines,
    standings_title,
    vote_text,
)
from cogs.game.text import t, table_lines
from cogs.game.views import lobby_message, session_buttons, table_message
from engine.game import new_game
from services.delivery import GameSummary
from services.real_engine import RealEngine
from services.session_state import Progress, SessionInfo, Standing, VoteInfo


def game(session: SessionInfo | None = None, **kw) -> GameSummary:
    from services.model import Seat

    seats = (
        Seat(name="alice", user_id=101),
        Seat(name="bob", user_id=102),
        Seat(name="电脑一", ai=True),
        Seat(name="carol", user_id=103),
    )
    base = {
        "id": 7,
        "guild_id": 1,
        "channel_id": 2,
        "variant": "shangrao",
        "options": {},
        "seats": seats,
        "status": "active",
        "version": 42,
        "totals": (10, -4, -2, -4),
        "hand_no": 3,
        "phase": "hand_over",
        "session": session,
    }
    base.update(kw)
    return GameSummary(**base)


def test_lengths_and_progress():
    assert length_label("8", "zh") == "8局" and length_label("2圈", "en") == "2 rounds"
    assert length_label(None, "zh") == "不限局数"
    hands = game(SessionInfo(length="8", progress=Progress(3, hands=8)))
    assert progress_label(hands, "zh") == "第3/8局"
    rounds = game(SessionInfo(length="2圈", progress=Progress(5, round_no=1, rounds=2)))
    assert progress_label(rounds, "zh") == "第1/2圈 · 第3局"
    assert progress_label(game(None), "en") == "hand 3"


def test_the_first_dealer_is_named_with_the_dice():
    state, events = new_game("shangrao", {}, "dice-for-the-deal")
    adapted = RealEngine()._events(events)
    line = dealer_choice_line(game(None), adapted, "zh")
    dealer = game(None).seats[state.hand.dealer].name
    assert line.startswith("🎲 掷骰定庄：") and f"**{dealer}** 坐庄" in line
    assert line.count("=") >= 4  # every seat's roll and its sum
    _state, events = new_game("xinyu", {}, "seat-one-deals")
    line = dealer_choice_line(game(None), RealEngine()._events(events), "en")
    assert "alice sits East" in line


def test_lobby_shows_seat_winds_length_and_the_first_dealer():
    lobby = game(SessionInfo(length="16", rematch_of=4), status="lobby", hand_no=0)
    embed, view = lobby_message(lobby, "zh")
    seats = embed.fields[0].value
    assert "1. 东 <@101>" in seats and "2. 南 <@102>" in seats and "4. 北 <@103>" in seats
    assert "掷" in seats  # Shangrao: dice choose the first dealer
    length = next(f.value for f in embed.fields if f.name == t("session.length_field", "zh"))
    assert "16局" in length and "#4" in length
    assert view is not None


def test_table_shows_progress_winds_and_the_session_buttons():
    from services.model import PublicSeat, TableView

    table = TableView(
        3, "hand_over", 1, None, 20, tuple(PublicSeat(i, 13, dealer=i == 1) for i in range(4))
    )
    info = SessionInfo(length="8", progress=Progress(3, hands=8), ready_open=True, ready_hand=3)
    embed, view = table_message(game(info), table, "zh")
    assert "第3/8局" in embed.title
    text = "\n".join(table_lines(table, ["a", "b", "c", "d"], (0, 0, 0, 0), [False] * 4, "zh"))
    assert "**b**（东·庄）" in text and "**a**（北）" in text
    assert [c.custom_id for c in view.children] == ["mj:7:hand", "mj:7:next:3", "mj:7:dissolve"]
    playing = game(info, phase="turn")
    table_now = TableView(3, "turn", 1, 1, 20, table.seats)
    _embed, view = table_message(playing, table_now, "zh")
    assert [c.custom_id for c in view.children] == ["mj:7:hand", "mj:7:dissolve"]
    # the last hand just ended: no 准备 (the standings follow)
    done = SessionInfo(length="8", progress=Progress(8, hands=8), complete=True)
    assert session_buttons_ids(game(done)) == []


def session_buttons_ids(g: GameSummary) -> list[str]:
    import discord

    view = discord.ui.View(timeout=None)
    session_buttons(view, g, "zh")
    return [c.custom_id for c in view.children]


def test_ready_line_lists_every_human():
    info = SessionInfo(
        length="8",
        ready_open=True,
        ready_hand=3,
        ready_deadline=1_000_000.0,
        ready=(True, False, True, False),
    )
    line = ready_text(game(info), "zh")
    assert line.startswith("准备 1/3") and "✅ alice" in line and "⏳ bob" in line
    assert "⏳ carol" in line and "电脑一" not in line and "<t:1000000:R>" in line
    moved_on = SessionInfo(length="8", ready_open=False, ready_hand=2)
    assert "第3局开始" in ready_text(game(moved_on), "zh")


def test_every_human_on_autoplay_is_asked_to_press_ready_without_a_stale_count():
    from services.model import Seat

    info = SessionInfo(
        length="8", ready_open=True, ready_hand=2, ready_deadline=1e6, ready=(True,) * 4
    )
    seats = (
        Seat(name="alice", user_id=101, auto=True),
        Seat(name="电脑一", ai=True),
        Seat(name="电脑二", ai=True),
        Seat(name="bob", user_id=102, auto=True),
    )
    line = ready_text(game(info, seats=seats), "zh")
    assert line == t("session.ready_waiting_press", "zh")  # no "准备 2/2", no deadline


def test_vote_message_asks_the_others_and_says_how_it_ended():
    vote = VoteInfo(1, 0, 2_000_000.0, (True, None, True, False), None, (1, 3))
    info = SessionInfo(vote=vote)
    text, view = vote_parts(game(info), "zh")
    assert "alice 提议解散" in text and "<@102>" in text and "<@103>" not in text
    assert "<@101>" not in text and "<t:2000000:R>" in text
    assert [c.custom_id for c in view.children] == ["mj:7:agree:1", "mj:7:refuse:1"]
    refused = SessionInfo(vote=VoteInfo(1, 0, 2e6, (True, None, True, False), "refused", (1, 3)))
    assert "carol 拒绝解散" in vote_text(game(refused), "zh")
    assert vote_parts(game(refused), "zh")[1] is None
    silent = SessionInfo(vote=VoteInfo(1, 0, 2e6, (True, None, True, True), "passed", (1, 3)))
    assert "视为同意" in vote_text(game(silent), "zh")


def test_standings_text_and_rematch():
    board = (
        Standing(0, 10, wins=2, self_draws=1, dealt_in=0, biggest=8, rank=1),
        Standing(1, -4, wins=1, dealt_in=2, biggest=4, rank=2),
        Standing(2, -2, rank=2),
        Standing(3, -4, rank=2),
    )
    info = SessionInfo(length="8", standings=board, ended_by="vote", propose_after=(-math.inf,))
    g = game(info, status="finished")
    lines = standings_lines(g, "zh")
    assert lines[0] == "1. **alice** +10 · 胡 2 · 自摸 1 · 点炮 0 · 最大 8"
    assert any("本场赢家：alice" in line for line in lines)
    assert "解散" in standings_title(g, "zh")
    view = rematch_view(g, "zh")
    assert [c.custom_id for c in view.children] == ["mj:7:rematch"]
    closed = SessionInfo(length="8", standings=board, rematch_game=9, rematch_closed=True)
    assert rematch_view(game(closed, status="finished"), "zh") is None
    # the standings carry 战绩卡 (the session's result card) beside 再来一局, and keep it
    # once the rematch started
    ended = SessionInfo(length="8", standings=board, hands_played=3)
    view = standings_view(game(ended, status="finished"), "zh")
    assert [(c.custom_id, c.label) for c in view.children] == [
        ("mj:7:rematch", "再来一局"),
        ("mj:zc:7", "战绩卡"),
    ]
    closed = replace(closed, hands_played=3)
    view = standings_view(game(closed, status="finished"), "zh-TW")
    assert [(c.custom_id, c.label) for c in view.children] == [("mj:zc:7", "戰績卡")]
    english = standings_view(game(closed, status="finished"), "en")
    assert [c.label for c in english.children] == ["Result card"]


def test_hand_notation_sets_the_wildcards_apart():
    assert hand_notation((0, 0, 1, 9, 10, 31, 13, 13), frozenset({13})) == "112m 12p 5z 宝5p×2"
    assert hand_notation((), frozenset()) == "—"


def test_every_session_sentence_has_every_language():
    from i18n.catalog import LOCALES, read_domain

    keys = set(read_domain("zh", "session"))
    assert {"session.ready_button", "session.vote_title", "session.standings_line"} <= keys
    for lang in LOCALES:
        texts = read_domain(lang, "session")
        assert all(texts.get(key) for key in keys), lang
