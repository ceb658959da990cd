"""Leaderboard, stats, history and season answers of ``services.stats`` on a real store.

Every test runs on SQLite and, with ``TEST_POSTGRES_URL``, on PostgreSQL (skipped locally
without it unless ``REQUIRE_POSTGRES=1``, then it fails). Expected figures are computed
from the recorded hands themselves.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections import defaultdict
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pg_admin import BACKENDS, create_database, drop_database, postgres_server_url, unique_name

from db.store import Store
from db.types import HandInput, HandPlayer, Leaderboard
from services.stats import (
    BOARD_ID,
    GAME_ID,
    HISTORY_ID,
    BoardQuery,
    StatsInputError,
    StatsService,
    game_custom_id,
    history_custom_id,
    history_page_custom_id,
)
from services.stats_text import format_leaderboard, item_text

GUILD = 77
OTHER_GUILD = 78
NOW = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)  # a Wednesday
HUMANS = list(range(1001, 1009))  # eight people
NAMES = {uid: f"P{uid - 1000}" for uid in HUMANS}
AI = 3  # the game service gives AI seats small ids (seat + 1)

# ------------------------------------------------------------------------ backends


@pytest.fixture(params=BACKENDS)
async def stats_store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """A migrated, empty store on each backend."""
    if request.param == "sqlite":
        store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'stats.db'}")
        try:
            yield store
        finally:
            await store.close()
        return
    server = postgres_server_url()
    name = unique_name("mahjong_stats")
    url = await create_database(server, name)
    try:
        store = await Store.open(url)
        try:
            yield store
        finally:
            await store.close()
    finally:
        await drop_database(server, name)


# ------------------------------------------------------------------------ the data


@dataclass
class Played:
    """What was recorded, to compute the expected answers from."""

    hands: list[HandInput]

    def points(self, season: int | None = None, since: datetime | None = None) -> dict[int, int]:
        out: dict[int, int] = defaultdict(int)
        for h in self._chosen(season, since):
            for p in h.players:
                if not p.is_ai:
                    out[p.user_id] += p.delta
        return dict(out)

    def counts(self, uid: int) -> tuple[int, int, int, int]:
        """hands, wins, self-draws, deal-ins of ``uid`` (all time)."""
        hands = wins = selfs = deals = 0
        for h in self.hands:
            seat = next((p.seat for p in h.players if p.user_id == uid and not p.is_ai), None)
            if seat is None:
                continue
            hands += 1
            if seat in h.winners:
                wins += 1
                selfs += h.how == "self"
            deals += h.discarder == seat
        return hands, wins, selfs, deals

    def _chosen(self, season: int | None, since: datetime | None) -> list[HandInput]:
        return [
            h
            for h in self.hands
            if (season is None or h.season == season)
            and (since is None or (h.created_at is not None and h.created_at >= since))
        ]


def make_hand(rng: random.Random, no: int, when: datetime, season: int) -> HandInput:
    seated = rng.sample(HUMANS, 4)
    ai = no % 5 == 0
    people = [HandPlayer(s, uid, 0) for s, uid in enumerate(seated)]
    if ai:
        people[3] = HandPlayer(3, AI, 0, is_ai=True)
    winner = rng.randrange(4)
    how = rng.choice(("self", "discard", "discard", "rob_kong"))
    if ai and no % 10 == 0:  # the AI seat wins big: it must still never be listed
        winner, how = 3, "self"
    points = 500 if winner == 3 and ai else rng.randrange(1, 30)
    discarder = None if how == "self" else rng.choice([s for s in range(4) if s != winner])
    deltas = [0, 0, 0, 0]
    if discarder is None:
        deltas = [-points] * 4
        deltas[winner] = 3 * points
    else:
        deltas[discarder], deltas[winner] = -points, points
    players = [HandPlayer(p.seat, p.user_id, deltas[p.seat], p.is_ai) for p in people]
    return HandInput(
        guild_id=GUILD,
        variant=("shangrao", "xinyu", "jiujiang")[no % 3] if no % 4 else "xinyu",
        hand_no=no,
        players=players,
        how=how,  # type: ignore[arg-type]
        winners=[winner],
        discarder=discarder,
        points=points,
        items=[{"name": "清一色", "en": "Full flush", "value": 4}, {"name": "门清", "value": 2}]
        if points > 20
        else [{"name": "平胡", "en": "Plain", "value": 1}],
        source="record",
        season=season,
        created_at=when,
    )


@pytest.fixture
async def played(stats_store: Store) -> Played:
    """48 hands: 30 in season 1 (weeks ago), then a new season, 18 more (this week)."""
    for uid, name in NAMES.items():
        await stats_store.players.upsert(uid, display_name=name)
    rng = random.Random(7)
    hands = []
    for no in range(1, 31):
        hands.append(make_hand(rng, no, NOW - timedelta(days=40) + timedelta(hours=no), 1))
    for hand in hands:
        await stats_store.hands.record(hand)
    await stats_store.guilds.start_season(GUILD, now=NOW - timedelta(days=3))
    later = [
        make_hand(rng, no, NOW - timedelta(days=2) + timedelta(hours=no - 30), 2)
        for no in range(31, 49)
    ]
    for hand in later:
        await stats_store.hands.record(hand)
    return Played(hands + later)


# -------------------------------------------------------------------------- tests


async def test_points_board_lists_humans_by_points_and_never_the_ai(
    stats_store: Store, played: Played
) -> None:
    service = StatsService(stats_store, page_size=3)
    expected = played.points()
    seen: list[tuple[int, int]] = []
    for page in range(3):
        shown = await service.leaderboard(GUILD, BoardQuery(), page=page, now=NOW)
        assert shown.page == page and shown.pages == 3
        seen += [(e.user_id, e.points) for e in shown.board.entries]
        assert f"{page + 1}/3" in shown.card.footer
    assert dict(seen) == expected
    assert [p for _, p in seen] == sorted((p for _, p in seen), reverse=True)
    assert AI not in {uid for uid, _ in seen}
    assert max(expected.values()) < 1000  # the AI's 500-point wins went to nobody listed


async def test_own_position_is_shown_when_off_the_page(stats_store: Store, played: Played) -> None:
    service = StatsService(stats_store, page_size=3)
    ranking = sorted(played.points().items(), key=lambda kv: -kv[1])
    last_uid = ranking[-1][0]
    shown = await service.leaderboard(GUILD, BoardQuery(), page=0, user_id=last_uid, now=NOW)
    assert last_uid not in [e.user_id for e in shown.board.entries]
    [own] = shown.card.fields
    assert own.name == "你的名次"
    assert NAMES[last_uid] in own.value and f"{len(ranking)}." in own.value
    # on the page: marked in the list, no extra field
    first_uid = shown.board.entries[0].user_id
    mine = await service.leaderboard(GUILD, BoardQuery(), page=0, user_id=first_uid, now=NOW)
    assert mine.card.fields == ()
    assert "◀ 你" in mine.card.description.splitlines()[0]


async def test_my_page_and_pages_past_the_end(stats_store: Store, played: Played) -> None:
    service = StatsService(stats_store, page_size=3)
    ranking = sorted(played.points().items(), key=lambda kv: -kv[1])
    uid = ranking[4][0]  # fifth: on the second page
    shown = await service.leaderboard(GUILD, BoardQuery(), page=None, user_id=uid, now=NOW)
    assert shown.page == 1 and uid in [e.user_id for e in shown.board.entries]
    far = await service.leaderboard(GUILD, BoardQuery(), page=40, now=NOW)
    assert far.page == far.pages - 1 == 2 and far.board.entries
    assert not far.has_next and far.has_prev


async def test_win_rate_needs_the_minimum_hands(stats_store: Store, played: Played) -> None:
    counts = {uid: played.counts(uid) for uid in HUMANS}
    threshold = sorted(h for h, *_ in counts.values())[3] + 1  # about half qualify
    service = StatsService(stats_store, page_size=20, min_hands=threshold)
    shown = await service.leaderboard(GUILD, BoardQuery(by="winrate"), now=NOW)
    listed = {e.user_id for e in shown.board.entries}
    assert listed == {uid for uid, c in counts.items() if c[0] >= threshold}
    rates = [e.win_rate for e in shown.board.entries]
    assert rates == sorted(rates, reverse=True)
    for e in shown.board.entries:
        assert e.win_rate == pytest.approx(counts[e.user_id][1] / counts[e.user_id][0])
    short = next(uid for uid, c in counts.items() if c[0] < threshold)
    mine = await service.leaderboard(GUILD, BoardQuery(by="winrate"), user_id=short, now=NOW)
    [own] = mine.card.fields
    assert f"还差 {threshold - counts[short][0]} 局" in own.value
    assert f"至少 {threshold} 局" in mine.card.footer


async def test_rating_board_ranks_by_ordinal(stats_store: Store, played: Played) -> None:
    service = StatsService(stats_store, page_size=20)
    shown = await service.leaderboard(GUILD, BoardQuery(by="rating", variant="xinyu"), now=NOW)
    ratings = [e.rating for e in shown.board.entries]
    assert ratings and None not in ratings
    assert ratings == sorted(ratings, reverse=True)  # type: ignore[type-var]
    assert AI not in [e.user_id for e in shown.board.entries]
    assert "新余麻将" in shown.card.title and "按等级分" in shown.card.title


async def test_a_nanchang_board_counts_only_nanchang_hands(
    stats_store: Store, played: Played
) -> None:
    """Leaderboards per variant include 南昌: its own board, titled by its name, sums only
    its hands (the 精 settlement is in their recorded deltas like any other payment)."""
    from dataclasses import replace

    rng = random.Random(24)
    nanchang = [
        replace(make_hand(rng, no, NOW - timedelta(hours=no), 2), variant="nanchang")
        for no in range(61, 65)
    ]
    for hand in nanchang:
        await stats_store.hands.record(hand)
    expected: dict[int, int] = defaultdict(int)
    for hand in nanchang:
        for p in hand.players:
            if not p.is_ai:
                expected[p.user_id] += p.delta
    service = StatsService(stats_store, page_size=20)
    shown = await service.leaderboard(GUILD, BoardQuery(variant="nanchang"), now=NOW)
    assert {e.user_id: e.points for e in shown.board.entries} == dict(expected)
    assert "南昌麻将" in shown.card.title
    everything = await service.leaderboard(GUILD, BoardQuery(), now=NOW)
    assert len(everything.board.entries) >= len(shown.board.entries)


async def test_seasons_and_periods(stats_store: Store, played: Played) -> None:
    service = StatsService(stats_store, page_size=20)
    current = await service.leaderboard(GUILD, BoardQuery(period="season"), now=NOW)
    assert current.query.season == 2  # the buttons keep the season they showed
    assert {e.user_id: e.points for e in current.board.entries} == played.points(season=2)
    old = await service.leaderboard(GUILD, BoardQuery(period="season", season=1), now=NOW)
    assert {e.user_id: e.points for e in old.board.entries} == played.points(season=1)
    assert "第1赛季" in old.card.title
    week = await service.leaderboard(GUILD, BoardQuery(period="week"), now=NOW)
    monday = datetime(2026, 11, 23, tzinfo=UTC)
    assert {e.user_id: e.points for e in week.board.entries} == played.points(since=monday)
    started = await service.new_season(GUILD, now=NOW)
    assert started.number == 3
    empty = await service.leaderboard(GUILD, BoardQuery(period="season"), now=NOW)
    assert empty.board.entries == [] and "还没有记录" in empty.card.description
    still = await service.leaderboard(GUILD, BoardQuery(period="season", season=1), now=NOW)
    assert {e.user_id: e.points for e in still.board.entries} == played.points(season=1)
    # a season not started yet is an error that says which season it is, not an empty table
    with pytest.raises(StatsInputError) as info:
        await service.leaderboard(GUILD, BoardQuery(period="season", season=9), now=NOW)
    assert "第 9 赛季" in info.value.text("zh") and "第 3 赛季" in info.value.text("zh")
    with pytest.raises(StatsInputError):
        await service.stats(GUILD, HUMANS[0], name="x", period="season", season=4, now=NOW)
    listing = await service.seasons(GUILD)
    assert "第 3 赛季" in listing.description and "（当前）" in listing.description


async def test_player_stats_card_and_chart(stats_store: Store, played: Played) -> None:
    service = StatsService(stats_store)
    uid = HUMANS[0]
    hands, wins, selfs, deals = played.counts(uid)
    answer = await service.stats(GUILD, uid, name=NAMES[uid], now=NOW)
    s = answer.stats
    assert (s.hands, s.wins, s.self_draws, s.deal_ins) == (hands, wins, selfs, deals)
    text = answer.card.text()
    assert f"{NAMES[uid]} 的战绩" in text
    fields = {f.name: f.value for f in answer.card.fields}
    assert fields["局数"] == str(hands)
    assert fields["自摸占比"].startswith(f"{selfs / wins * 100:.1f}%")
    assert fields["点炮率"].startswith(f"{deals / hands * 100:.1f}%")
    mine = [h for h in played.hands if any(p.user_id == uid and not p.is_ai for p in h.players)]
    won = [h for h in mine if any(p.user_id == uid and p.seat in h.winners for p in h.players)]
    biggest = max(h.points for h in won)
    assert fields["最大一手"].startswith(f"{biggest} 分")
    assert "清一色 ×4" in fields["最大一手"] or biggest <= 20
    by_variant: dict[str, int] = defaultdict(int)
    for h in mine:
        by_variant[h.variant] += 1
    top = max(by_variant.values())
    names = {"shangrao": "上饶麻将", "xinyu": "新余麻将", "jiujiang": "九江麻将"}
    assert fields["最常玩"] in {names[v] for v, n in by_variant.items() if n == top}
    rated = [h for h in mine if len({p.delta for p in h.players}) > 1]
    assert len(answer.chart) == len(rated)
    assert [at for at, _ in answer.chart] == sorted(at for at, _ in answer.chart)
    assert answer.card.footer  # the chart is mentioned


async def test_stats_of_someone_without_hands(stats_store: Store, played: Played) -> None:
    answer = await StatsService(stats_store).stats(GUILD, 4242, name="New", lang="en", now=NOW)
    assert answer.card.fields == () and "No hands" in answer.card.description
    assert answer.chart == []


async def _game_with_hands(store: Store, count: int, guild: int = GUILD) -> tuple[int, list]:
    seats = [
        {"name": "Ann", "user_id": 501, "ai": False},
        {"name": "Bob", "user_id": 502, "ai": False},
        {"name": "Cy", "user_id": 503, "ai": False},
        {"name": "电脑1", "user_id": None, "ai": True},
    ]
    game = await store.games.create(guild, 9, "shangrao", seats=seats, status="active")
    reveals = []
    for no in range(1, count + 1):
        seed = hashlib.sha256(f"seed{no}".encode()).hexdigest()
        wall = list(range(no, no + 20))
        reveals.append((seed, wall))
        await store.hands.record(
            HandInput(
                guild_id=guild,
                variant="shangrao",
                hand_no=no,
                players=[
                    HandPlayer(0, 501, 6 if no % 2 else -2),
                    HandPlayer(1, 502, -2 if no % 2 else 6),
                    HandPlayer(2, 503, -2),
                    HandPlayer(3, 4, -2, is_ai=True),
                ],
                how="self",
                winners=[0 if no % 2 else 1],
                points=2,
                items=[{"name": "自摸", "en": "Self-drawn", "value": 2}],
                seed_reveal={"seed": seed, "wall": [w >> 2 for w in wall], "wall_ids": wall},
                game_id=game.id,
                source="online",
            )
        )
    return game.id, reveals


async def test_history_lists_games_with_totals(stats_store: Store) -> None:
    game_id, _ = await _game_with_hands(stats_store, 3)
    service = StatsService(stats_store)
    shown = await service.history(GUILD)
    card, games = shown.card, shown.games
    assert [g.game.id for g in games] == [game_id] and not shown.has_next
    assert games[0].hands == 3
    # totals 6-2+6 = 10 for Ann, -2+6-2 = 2 for Bob
    assert "Ann +10" in card.description and "Bob +2" in card.description
    assert "电脑" in card.description and f"#{game_id}" in card.description
    mine = await service.history(GUILD, user_id=501, who="Ann")
    assert [g.game.id for g in mine.games] == [game_id] and "Ann" in mine.card.title
    nobody = await service.history(GUILD, user_id=999)
    assert nobody.games == []


async def test_game_hands_show_winner_items_payments_and_seed(stats_store: Store) -> None:
    game_id, reveals = await _game_with_hands(stats_store, 9)
    service = StatsService(stats_store, hands_per_page=4)
    first = await service.game(GUILD, game_id, page=0)
    assert (first.page, first.pages) == (0, 3) and len(first.card.fields) == 4
    hand1 = first.card.fields[0]
    assert hand1.name.startswith("第 1 局") and "自摸" in hand1.name
    assert "胡牌：Ann" in hand1.value and "自摸 ×2" in hand1.value
    assert "Ann +6" in hand1.value and "电脑" in hand1.value
    seed, wall = reveals[0]
    digest = hashlib.sha256(f"{seed}:{','.join(map(str, wall))}".encode()).hexdigest()
    assert seed in hand1.value and digest in hand1.value
    last = await service.game(GUILD, game_id, page=99)
    assert last.page == 2 and len(last.card.fields) == 1
    assert last.card.fields[0].name.startswith("第 9 局")
    with pytest.raises(StatsInputError):
        await service.game(OTHER_GUILD, game_id)
    with pytest.raises(StatsInputError):
        await service.game(GUILD, 123456)


async def test_language_follows_user_then_server(stats_store: Store) -> None:
    service = StatsService(stats_store)
    assert await service.language(GUILD, "zh-CN") == "zh"
    assert await service.language(GUILD, "en-US") == "zh+en"
    await stats_store.guilds.update_settings(GUILD, language="en")
    assert await service.language(GUILD, "en-GB") == "en"
    assert await service.language(GUILD, "zh-TW") == "zh-TW"  # 繁體 for Taiwan's Chinese


def test_a_taiwan_reader_gets_traditional_text() -> None:
    """zh-TW cards are 繁體 (the same sentences as 简体, converted)."""
    board = Leaderboard(GUILD, None, "all", "points", None, None, 0, 0, [], None)
    zh = format_leaderboard(board, lang="zh")
    tw = format_leaderboard(board, lang="zh-TW")
    assert zh.title.startswith("排行榜") and tw.title.startswith("排行榜")
    assert "总榜" in zh.title and "總榜" in tw.title
    assert "这段时间还没有记录的对局" in zh.description
    assert "這段時間還沒有記錄的對局" in tw.description


async def test_remember_writes_only_changed_names(stats_store: Store) -> None:
    service = StatsService(stats_store)
    await service.remember(1, "Ann")
    first = await stats_store.players.get(1)
    await service.remember(1, "Ann")
    assert await stats_store.players.get(1) == first
    await service.remember(1, "Annie")
    renamed = await stats_store.players.get(1)
    assert renamed is not None and renamed.display_name == "Annie"


async def test_english_board(stats_store: Store, played: Played) -> None:
    service = StatsService(stats_store, page_size=3)
    shown = await service.leaderboard(GUILD, BoardQuery(period="month"), lang="en", now=NOW)
    assert shown.card.title == "Leaderboard · all variants · this month · by points"
    assert "pts" in shown.card.description and "page 1/" in shown.card.footer
    both = await service.leaderboard(GUILD, BoardQuery(), lang="zh+en", user_id=4242, now=NOW)
    assert "排行榜" in both.card.title and "Leaderboard" in both.card.title
    assert both.card.fields[0].name == "你的名次 · Your position"


# ------------------------------------------------------------------ ids and parsing


@pytest.mark.parametrize(
    "query",
    [
        BoardQuery(),
        BoardQuery("jiujiang", "season", "winrate", 12),
        BoardQuery("xinyu", "week", "rating"),
    ],
)
@pytest.mark.parametrize("page", [0, 7, 123456, None])
def test_board_custom_ids_round_trip(query: BoardQuery, page: int | None) -> None:
    custom_id = query.custom_id("me" if page is None else page)
    assert len(custom_id) <= 100 and BOARD_ID.fullmatch(custom_id)
    assert BoardQuery.parse(custom_id) == (query, page)


def test_other_ids_match_their_templates() -> None:
    assert GAME_ID.fullmatch(game_custom_id(2**62, 3))
    assert HISTORY_ID.fullmatch(history_custom_id(None))
    assert HISTORY_ID.fullmatch(history_custom_id(2**63))
    # none of them can be mistaken for a game button (mj:<digits>:…)
    game_rx = re.compile(
        r"mj:(?P<gid>[0-9]{1,20}):(?P<kind>[a-z]{1,12})(?::(?P<arg>[0-9a-z]{1,12}))?"
    )
    stats_ids = (
        BoardQuery().custom_id(1),
        game_custom_id(5, 1),
        history_custom_id(9),
        history_page_custom_id(9, 1),
    )
    for custom_id in stats_ids:
        assert not game_rx.fullmatch(custom_id)


@pytest.mark.parametrize(
    "kwargs",
    [{"variant": "riichi"}, {"period": "year"}, {"by": "luck"}, {"season": 0}],
)
def test_bad_parameters_are_refused_in_both_languages(kwargs: dict) -> None:
    with pytest.raises(StatsInputError) as info:
        BoardQuery(**kwargs)
    assert info.value.text("zh") != info.value.text("en")
    assert info.value.text("zh+en").startswith(info.value.text("zh"))


def test_forged_board_id_is_refused() -> None:
    with pytest.raises(StatsInputError):
        BoardQuery.parse("mj:lb:all:year:points:0:1")


def test_item_text_shapes() -> None:
    assert item_text({"name": "清一色", "en": "Full flush", "value": 4}) == "清一色 ×4"
    assert item_text({"name": "清一色", "en": "Full flush", "value": 4}, "en") == "Full flush ×4"
    assert item_text(["杠开", 2]) == "杠开 ×2"
    assert item_text("海底捞月") == "海底捞月"
    # the engine's own values keep their unit or sign (Shangrao 分, Jiujiang 炮, Xinyu ×)
    assert item_text({"name": "平胡 无宝", "value": "4分"}) == "平胡 无宝 4分"
    assert item_text({"name": "杠开", "en": "Kong bloom", "value": "+1炮"}) == "杠开 +1炮"
    assert item_text({"name": "清一色", "value": "×2"}) == "清一色 ×2"
    assert item_text(["杠开", "+2炮"]) == "杠开 +2炮"


def test_names_cannot_inject_markdown_or_mentions() -> None:
    from db.types import Leaderboard, LeaderboardEntry

    entry = LeaderboardEntry(1, 9, "**@everyone**", 3, 1, 5, 1 / 3, None, None, None)
    board = Leaderboard(GUILD, None, "all", "points", None, None, 1, 0, [entry], entry)
    card = format_leaderboard(board)
    assert "**@everyone**" not in card.description
    assert "\\*\\*@\u200beveryone\\*\\*" in card.description


async def test_stats_of_one_season(stats_store: Store, played: Played) -> None:
    service = StatsService(stats_store)
    uid = HUMANS[1]
    season2 = [h for h in played.hands if h.season == 2]
    mine = [h for h in season2 if any(p.user_id == uid and not p.is_ai for p in h.players)]
    current = await service.stats(GUILD, uid, name="x", period="season", now=NOW)
    assert current.stats.hands == len(mine)
    assert "第2赛季" in current.card.title
    old = await service.stats(GUILD, uid, name="x", period="season", season=1, now=NOW)
    first = [h for h in played.hands if h.season == 1]
    assert old.stats.hands == sum(
        any(p.user_id == uid and not p.is_ai for p in h.players) for h in first
    )
    assert "第1赛季" in old.card.title


def test_record_hands_in_history_card() -> None:
    from db.types import HandInfo
    from services.stats_text import format_history, record_line

    hand = HandInfo(
        id=5, game_id=None, source="record", guild_id=GUILD, variant="jiujiang", season=1,
        hand_no=1, winner_seats=[2], winner_user_ids=[1003], how="discard",
        discarder_seat=0, discarder_user_id=1001, points=8,
        items=[], deltas=[
            {"seat": 0, "user_id": 1001, "delta": -8, "is_ai": False},
            {"seat": 1, "user_id": 1002, "delta": 0, "is_ai": False},
            {"seat": 2, "user_id": 1003, "delta": 8, "is_ai": False},
            {"seat": 3, "user_id": 1004, "delta": 0, "is_ai": False},
        ],
        seed_reveal=None, created_at=NOW,
    )  # fmt: skip
    names = {1001: "P1", 1003: "P3"}
    line = record_line(hand, names)
    assert line.startswith("2026-11-25 · 九江麻将 · 点炮 · 胡牌：P3 · 8 分")
    assert line.endswith("P1 −8 · <@1002> 0 · P3 +8 · <@1004> 0")
    card = format_history([], records=[hand], names=names)
    [field] = card.fields
    assert field.name == "实体牌局记录" and field.value == line
    assert "还没有记录过对局" in card.description


def _pay_line(hand: HandInput) -> str:
    from services.stats_text import signed

    return " · ".join(
        f"{'🤖 电脑' if p.is_ai else NAMES[p.user_id]} {signed(p.delta)}" for p in hand.players
    )


async def test_history_lists_the_latest_hands_played_with_real_tiles(
    stats_store: Store, played: Played
) -> None:
    service = StatsService(stats_store, records_limit=5)
    first = await service.history(GUILD)
    card, games = first.card, first.games
    assert games == [] and "还没有记录过对局" in card.description
    [field] = card.fields
    newest = sorted(played.hands, key=lambda h: h.created_at or NOW)[-5:][::-1]
    assert field.value.split("\n")[1::2] == [_pay_line(h) for h in newest]
    uid = HUMANS[2]
    mine = [h for h in played.hands if any(p.user_id == uid and not p.is_ai for p in h.players)]
    mine = sorted(mine, key=lambda h: h.created_at or NOW)[-5:][::-1]
    card = (await service.history(GUILD, user_id=uid, who=NAMES[uid])).card
    assert card.fields[0].value.split("\n")[1::2] == [_pay_line(h) for h in mine]
    other = (await service.history(OTHER_GUILD)).card
    assert other.fields == ()


# ------------------------------------------------------------------- history paging


async def _games(store: Store, count: int, player: int = 501) -> list[int]:
    """``count`` finished games, latest activity first; ``player`` played in the even ones
    (a recorded hand), the odd ones have no hand."""
    ids = []
    for k in range(count):
        seats = [{"name": "Ann", "user_id": player, "ai": False}] + [
            {"name": f"电脑{i}", "user_id": None, "ai": True} for i in range(1, 4)
        ]
        game = await store.games.create(GUILD, 9, "xinyu", seats=seats, status="finished")
        if k % 2 == 0:
            await store.hands.record(
                HandInput(
                    guild_id=GUILD,
                    variant="xinyu",
                    hand_no=1,
                    players=[HandPlayer(0, player, 3)]
                    + [HandPlayer(s, s + 1, -1, is_ai=True) for s in range(1, 4)],
                    how="self",
                    winners=[0],
                    points=1,
                    game_id=game.id,
                )
            )
        ids.append(game.id)
    infos = [await store.games.get(i) for i in ids]
    order = sorted(infos, key=lambda g: (g.updated_at, g.id), reverse=True)  # type: ignore[union-attr]
    return [g.id for g in order]  # type: ignore[union-attr]


async def test_history_pages_through_every_game_once(stats_store: Store, played: Played) -> None:
    latest_first = await _games(stats_store, 23)
    service = StatsService(stats_store, history_limit=4, records_limit=3)
    seen: list[int] = []
    for number in range(6):
        shown = await service.history(GUILD, page=number)
        assert shown.page == number and shown.has_prev == (number > 0)
        assert shown.has_next == (number < 5)
        assert len(shown.games) == (4 if number < 5 else 3)
        ids = [g.game.id for g in shown.games]
        assert all(f"**#{i}**" in shown.card.description for i in ids)
        assert f"第 {number + 1} 页" in shown.card.footer
        # hands played with real tiles: on the first page only
        assert bool(shown.card.fields) == (number == 0)
        seen += ids
    assert seen == latest_first
    past = await service.history(GUILD, page=6)
    assert past.games == [] and not past.has_next and past.has_prev
    assert "这一页没有对局了" in past.card.description


async def test_history_pages_of_one_player_and_their_stored_name(stats_store: Store) -> None:
    latest_first = await _games(stats_store, 11)
    await stats_store.players.upsert(501, display_name="Ann")
    service = StatsService(stats_store, history_limit=4)
    first = await service.history(GUILD, user_id=501)
    assert "Ann" in first.card.title  # no name given: the stored one
    second = await service.history(GUILD, user_id=501, page=1, lang="en")
    played_in = latest_first[::-1][::2][::-1]  # the even games, latest first
    assert [g.game.id for g in first.games + second.games] == played_in
    assert first.has_next and not second.has_next and len(second.games) == 2
    assert "page 2" in second.card.footer and "Ann" in second.card.title
    alone = await service.history(GUILD, user_id=4242)
    assert alone.games == [] and not alone.has_next and "第" not in alone.card.footer


async def test_pictures_follow_the_players_choice(stats_store: Store, played: Played) -> None:
    service = StatsService(stats_store)
    uid = HUMANS[0]
    assert await service.wants_pictures(uid)  # on unless turned off
    assert await service.wants_pictures(4242)  # a stranger: the default
    await stats_store.players.upsert(uid, prefers_images=False)
    assert not await service.wants_pictures(uid)
    with_chart = await service.stats(GUILD, uid, name="x", now=NOW)
    text_only = await service.stats(GUILD, uid, name="x", now=NOW, picture=False)
    assert len(with_chart.chart) >= 2 and "等级分走势见图" in with_chart.card.footer
    assert text_only.card.footer == "" and text_only.card.fields == with_chart.card.fields
