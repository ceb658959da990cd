"""A player's sessions (场次战绩) and a session's result card (战绩卡) on a real store:
``services.session_stats`` over ``store.stats.sessions`` / ``session`` / ``session_tally``.

Every test runs on SQLite and, with ``TEST_POSTGRES_URL``, on PostgreSQL (the ``store``
fixture). The expected figures are computed here from the hands the tests record.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from db.store import Store
from db.types import HandInput, HandPlayer, SessionRecord
from services.session_stats import (
    CARD_ID,
    SESSIONS_PAGE_ID,
    SESSIONS_PICK_ID,
    SHARE_ID,
    SessionStats,
    card_id,
    sessions_page_id,
    sessions_pick_id,
    share_id,
)
from services.session_stats_text import card_alt_text, card_picture, ending, session_choices
from services.stats import StatsInputError

GUILD = 77
OTHER_GUILD = 78
T0 = datetime(2026, 11, 1, 10, 0, tzinfo=UTC)
ANN, BOB, CY, DEE, EVE = 501, 502, 503, 504, 505
NAMES = {ANN: "Ann", BOB: "Bob", CY: "Cy", DEE: "Dee", EVE: "Eve"}
AI = None  # a seat the game gave to an AI


@dataclass
class Played:
    """A session as the test recorded it: its game, each (seat, person, is_ai)'s total."""

    game_id: int
    guild: int
    totals: dict[tuple[int, int, bool], int]
    hands: int
    ended_at: datetime
    status: str

    def persons(self) -> set[int]:
        return {uid for (_s, uid, ai) in self.totals if not ai}

    def tops(self) -> set[tuple[int, int, bool]]:
        best = max(self.totals.values())
        if not any(self.totals.values()):
            return set()
        return {k for k, v in self.totals.items() if v == best}


async def play(
    store: Store,
    seats: list[int | None],
    hands: list[list[int]],
    *,
    start: datetime,
    guild: int = GUILD,
    status: str = "finished",
    why: str | None = "length",
    occupants: dict[int, list[int | None]] | None = None,
) -> Played:
    """A session of ``hands`` (each seat's change per hand) at the table ``seats`` (a person
    or ``AI``), its log's setup and end entries, then closed with ``status``.
    ``occupants[hand_index]``: who sat where in that hand, when someone left."""
    seat_json = [
        {"name": NAMES[uid], "user_id": uid, "ai": False}
        if uid is not None
        else {"name": f"电脑{'一二三四'[i]}", "user_id": None, "ai": True}
        for i, uid in enumerate(seats)
    ]
    game = await store.games.create(guild, 9, "shangrao", seats=seat_json, status="active")
    version = await store.games.append_action(game.id, 0, None, {"k": "setup", "length": "4"})
    totals: dict[tuple[int, int, bool], int] = defaultdict(int)
    when = start
    for no, deltas in enumerate(hands, start=1):
        sitting = (occupants or {}).get(no - 1, seats)
        players = [
            HandPlayer(s, uid if uid is not None else s + 1, deltas[s], is_ai=uid is None)
            for s, uid in enumerate(sitting)
        ]
        for p in players:
            totals[(p.seat, p.user_id, p.is_ai)] += p.delta
        winner = max(range(4), key=lambda s: deltas[s])
        drawn = not any(deltas)
        when = start + timedelta(minutes=no)
        await store.hands.record(
            HandInput(
                guild_id=guild,
                variant="shangrao",
                hand_no=no,
                players=players,
                how="draw" if drawn else "self",
                winners=[] if drawn else [winner],
                points=max(deltas),
                game_id=game.id,
                created_at=when,
            )
        )
        version = await store.games.append_action(game.id, version, None, {"k": "next", "hand": no})
    if why is not None:
        version = await store.games.append_action(game.id, version, None, {"k": "end", "why": why})
    await store.games.append_action(
        game.id, version, None, {"k": "close"}, changes={"status": status}
    )
    return Played(game.id, guild, dict(totals), len(hands), when, status)


def lines_of(record: SessionRecord) -> dict[tuple[int, int, bool], int]:
    return {(x.seat, x.user_id, x.is_ai): x.total for x in record.lines}


def tops_of(record: SessionRecord) -> set[tuple[int, int, bool]]:
    return {(x.seat, x.user_id, x.is_ai) for x in record.lines if x.top}


@pytest.fixture
async def table(store: Store) -> dict[str, Played]:
    """Ann's sessions of every kind, oldest first, and some that are not hers to show."""
    for uid, name in NAMES.items():
        if uid != DEE:  # she left the server before the bot kept her name
            await store.players.upsert(uid, display_name=name)
    out = {}
    # ann wins outright
    out["won"] = await play(store, [ANN, BOB, CY, AI], [[6, -2, -2, -2], [3, -1, -1, -1]], start=T0)
    # a tie at the top: both are 大赢家; dissolved (解散)
    out["tie"] = await play(
        store,
        [ANN, BOB, CY, AI],
        [[6, -2, -2, -2], [-2, 6, -2, -2]],
        start=T0 + timedelta(hours=1),
        why="vote",
    )
    # dee leaves after two hands: an AI plays her seat for the third; she keeps her line
    out["left"] = await play(
        store,
        [ANN, BOB, CY, AI],
        [[-3, -3, -3, 9], [-3, -3, -3, 9], [3, -1, -1, -1]],
        start=T0 + timedelta(hours=2),
        occupants={0: [ANN, BOB, CY, DEE], 1: [ANN, BOB, CY, DEE]},
    )
    # nobody scored (two 荒庄): no 大赢家
    out["drawn"] = await play(
        store, [ANN, EVE, AI, AI], [[0, 0, 0, 0], [0, 0, 0, 0]], start=T0 + timedelta(hours=3)
    )
    # a server manager ended it (abandoned, with hands): still a session
    out["admin"] = await play(
        store,
        [BOB, ANN, AI, AI],
        [[-4, 12, -4, -4]],
        start=T0 + timedelta(hours=4),
        status="abandoned",
        why="admin",
    )
    # not shown on ann's pages: a session still being played, another server's, bob's alone
    out["active"] = await play(
        store, [ANN, BOB, AI, AI], [[9, -3, -3, -3]], start=T0 + timedelta(hours=5), why=None,
        status="active",
    )  # fmt: skip
    out["elsewhere"] = await play(
        store, [ANN, BOB, AI, AI], [[9, -3, -3, -3]], start=T0 + timedelta(hours=6),
        guild=OTHER_GUILD,
    )  # fmt: skip
    out["bobs"] = await play(
        store, [BOB, CY, AI, AI], [[9, -3, -3, -3]], start=T0 + timedelta(hours=7)
    )
    return out


MINE = ["admin", "drawn", "left", "tie", "won"]  # ann's ended sessions here, latest first


async def test_a_players_sessions_latest_first_with_every_total_and_the_top(
    store: Store, table: dict[str, Played]
) -> None:
    shown = await SessionStats(store, per_page=10).page(GUILD, ANN)
    assert [r.game_id for r in shown.sessions] == [table[k].game_id for k in MINE]
    for record in shown.sessions:
        played = next(p for p in table.values() if p.game_id == record.game_id)
        assert lines_of(record) == played.totals
        assert tops_of(record) == played.tops()
        assert record.hands == played.hands and record.ended_at == played.ended_at
        assert record.status == played.status
        ranks = [x.rank for x in record.lines]
        assert ranks == sorted(ranks)  # best first
    by_key = {k: shown.sessions[i] for i, k in enumerate(MINE)}
    # a tie shares the 大赢家 and the rank; nobody is 大赢家 when nobody scored
    assert {x.user_id for x in by_key["tie"].top_lines} == {ANN, BOB}
    assert {x.rank for x in by_key["tie"].top_lines} == {1}
    assert by_key["drawn"].top_lines == ()
    # names: the seats' as the game kept them
    assert [x.name for x in by_key["won"].lines] == ["Ann", "Bob", "Cy", "电脑四"]
    # why each ended, from the game's log
    assert [ending(r) for r in shown.sessions] == ["admin", "length", "length", "vote", "length"]
    # the tally: sessions, 大赢家 titles (a tie counts), points over them
    mine = [table[k] for k in MINE]
    points = sum(v for p in mine for (_s, uid, ai), v in p.totals.items() if uid == ANN and not ai)
    tops = sum(1 for p in mine if any(uid == ANN and not ai for (_s, uid, ai) in p.tops()))
    assert (shown.tally.sessions, shown.tally.tops, shown.tally.points) == (5, tops, points)
    assert tops == 3  # won, the tie, the one a server manager ended


async def test_a_player_who_left_keeps_their_line_and_their_own_record(
    store: Store, table: dict[str, Played]
) -> None:
    left = table["left"]
    record = await store.stats.session(GUILD, left.game_id)
    assert record is not None
    dee = record.line_of(DEE)
    assert dee is not None and (dee.seat, dee.total, dee.hands) == (3, 18, 2)
    assert dee.top and dee.rank == 1
    # the AI that took her seat has its own line; her seat now names the AI, and she left
    # the server before the bot kept her name: the text mentions her (Discord shows a name)
    seat3 = [x for x in record.lines if x.seat == 3]
    assert {(x.is_ai, x.total, x.name) for x in seat3} == {
        (False, 18, None),
        (True, -1, "电脑四"),
    }
    card = (await SessionStats(store).card(GUILD, left.game_id)).card
    assert f"<@{DEE}> **+18** · 🏆" in card.description
    assert card_picture(record).rows[0].name == f"#{DEE}"
    # once the bot knows her name (she used a command), it is shown
    await store.players.upsert(DEE, display_name="Dee")
    again = await store.stats.session(GUILD, left.game_id)
    assert again is not None and again.lines[0].name == "Dee"
    # she finds the session in her own record, as its 大赢家
    hers = await SessionStats(store).page(GUILD, DEE)
    assert [r.game_id for r in hers.sessions] == [left.game_id]
    assert (hers.tally.sessions, hers.tally.tops, hers.tally.points) == (1, 1, 18)
    assert "Dee" in hers.card.title and "🏆 **Dee** +18" in hers.card.description


async def test_pages_show_every_session_once(store: Store, table: dict[str, Played]) -> None:
    more = []
    for k in range(7):  # twelve of ann's sessions in all
        more.append(
            await play(
                store,
                [EVE, ANN, AI, AI],
                [[k - 3, 3 - k, 0, 0]],
                start=T0 + timedelta(days=1, hours=k),
            )
        )
    latest_first = [p.game_id for p in reversed(more)] + [table[k].game_id for k in MINE]
    service = SessionStats(store, per_page=5)
    seen = []
    for number in range(3):
        shown = await service.page(GUILD, ANN, page=number, lang="en")
        assert (shown.page, shown.pages) == (number, 3)
        assert shown.has_prev == (number > 0) and shown.has_next == (number < 2)
        assert len(shown.sessions) == (5 if number < 2 else 2)
        assert f"page {number + 1}/3" in shown.card.footer
        assert all(f"**#{r.game_id}**" in shown.card.description for r in shown.sessions)
        seen += [r.game_id for r in shown.sessions]
    assert seen == latest_first
    assert shown.tally.sessions == 12
    past = await service.page(GUILD, ANN, page=99)
    assert past.page == 2 and [r.game_id for r in past.sessions] == seen[-2:]


async def test_other_servers_and_unfinished_sessions_are_not_shown(
    store: Store, table: dict[str, Played]
) -> None:
    service = SessionStats(store)
    ids = {r.game_id for r in (await service.page(GUILD, ANN, page=0)).sessions}
    for key in ("active", "elsewhere", "bobs"):
        assert table[key].game_id not in ids
    there = await service.page(OTHER_GUILD, ANN)
    assert [r.game_id for r in there.sessions] == [table["elsewhere"].game_id]
    assert there.tally.sessions == 1 and there.tally.points == 9
    with pytest.raises(StatsInputError) as refused:
        await service.card(GUILD, table["elsewhere"].game_id)
    assert refused.value.key == "no_session"
    for key in ("active",):  # not over: no card yet
        with pytest.raises(StatsInputError):
            await service.card(GUILD, table[key].game_id)
    nobody = await service.page(GUILD, 4242, who="x")
    assert nobody.sessions == () and nobody.tally.sessions == 0
    assert "还没有打完的场次" in nobody.card.description


async def test_the_card_of_one_session_in_three_languages(
    store: Store, table: dict[str, Played]
) -> None:
    service = SessionStats(store)
    tie = table["tie"]
    zh = await service.card(GUILD, tie.game_id, lang="zh")
    text = zh.card.text()
    assert zh.card.title == "战绩卡 · 上饶麻将"
    assert "Ann **+4** · 🏆 大赢家" in text and "Bob **+4** · 🏆 大赢家" in text
    assert "Cy **−4**" in text and "大赢家" not in text.split("Cy")[1].split("\n")[0]
    assert f"#{tie.game_id} · 共 2 局 · 2026-11-01 · 解散" in zh.card.footer
    tw = await service.card(GUILD, tie.game_id, lang="zh-TW")
    assert tw.card.title == "戰績卡 · 上饒麻將" and "大贏家" in tw.card.text()
    en = await service.card(GUILD, tie.game_id, lang="en")
    assert en.card.title == "Result card · Shangrao"
    assert "top scorer" in en.card.text() and "2 hands" in en.card.footer
    assert "dissolved" in en.card.footer
    one = await service.card(GUILD, table["admin"].game_id, lang="en")
    assert "1 hand ·" in one.card.footer  # the singular
    # the picture's words and its description for screen readers
    picture = card_picture(zh.record, "zh")
    assert picture.title == "战绩卡 · 上饶麻将" and picture.subtitle == "共 2 局 · 2026-11-01"
    assert [(r.rank, r.name, r.total, r.top) for r in picture.rows][:2] == [
        (1, "Ann", 4, True),
        (1, "Bob", 4, True),
    ]
    assert picture.stamp == "解散" and picture.footer == f"#{tie.game_id}"
    assert card_picture(en.record, "en").top_word == "top scorer"
    assert "1. Ann +4 (大赢家)" in card_alt_text(zh.record, "zh")


async def test_the_page_text_marks_the_top_and_the_player(
    store: Store, table: dict[str, Played]
) -> None:
    shown = await SessionStats(store, per_page=2).page(GUILD, ANN, lang="zh")
    assert shown.card.title == "Ann 的场次战绩"
    assert shown.card.description.startswith("共 5 场 · 🏆 大赢家 3 次 · 总积分 +22")
    assert f"**#{table['admin'].game_id}** · 上饶麻将 · 2026-11-01 · 1 局 · 管理员结束" in (
        shown.card.description
    )
    assert "🏆 **Ann** +12 · Bob −4" in shown.card.description
    assert "第 1/3 页" in shown.card.footer
    en = await SessionStats(store, per_page=2).page(GUILD, ANN, lang="en", who="Ann")
    assert en.card.description.startswith("5 sessions · 🏆 top scorer 3 times · +22 pts in all")
    [choice, _] = session_choices(shown.sessions, "zh")
    assert choice.value == str(table["admin"].game_id)
    assert choice.description == "🏆Ann +12 · Bob −4 · 电脑三 −4 · 电脑四 −4"


def test_ids_match_their_templates_and_no_game_button() -> None:
    import re

    game_rx = re.compile(
        r"mj:(?P<gid>[0-9]{1,20}):(?P<kind>[a-z]{1,12})(?::(?P<arg>[0-9a-z]{1,12}))?"
    )
    pairs = (
        (SESSIONS_PAGE_ID, sessions_page_id(2**63, 999_999)),
        (SESSIONS_PICK_ID, sessions_pick_id(2**63)),
        (CARD_ID, card_id(2**62)),
        (SHARE_ID, share_id(2**62)),
    )
    for template, custom_id in pairs:
        assert template.fullmatch(custom_id) and len(custom_id) <= 100
        assert not game_rx.fullmatch(custom_id)
