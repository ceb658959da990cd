"""Leaderboards, player stats and history over a small, known set of hands."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from db.ratings import ordinal
from db.store import Store
from db.types import HandInput, HandPlayer

GUILD = 5
NOW = datetime(2026, 11, 18, 12, 0, tzinfo=UTC)  # a Wednesday
A, B, C, D, AI = 1, 2, 3, 4, -1


def hand(
    no: int, when: datetime, variant: str, deltas: dict[int, int], how: str,
    winners: list[int], discarder: int | None = None, points: int = 0,
    items: list | None = None, game_id: int | None = None,
) -> HandInput:  # fmt: skip
    people = [HandPlayer(seat, uid, d, uid == AI) for seat, (uid, d) in enumerate(deltas.items())]
    seat_of = {p.user_id: p.seat for p in people}
    return HandInput(
        guild_id=GUILD,
        variant=variant,
        hand_no=no,
        players=people,
        how=how,  # type: ignore[arg-type]
        winners=[seat_of[w] for w in winners],
        discarder=None if discarder is None else seat_of[discarder],
        points=points,
        items=items or [],
        source="online" if game_id else "record",
        game_id=game_id,
        created_at=when,
    )


@pytest.fixture
async def played(store: Store) -> Store:
    """h1, h2 in season 1; then a new season; h3, h4 (h4 with an AI seat)."""
    for uid, name in [(A, "阿明"), (B, "Bo"), (C, "Cai"), (D, "Ding")]:
        await store.players.upsert(uid, display_name=name)
    await store.hands.record(
        hand(1, datetime(2026, 10, 20, tzinfo=UTC), "shangrao",
             {A: 30, B: -10, C: -10, D: -10}, "self", [A], points=10,
             items=[{"name": "清一色", "value": 4}])
    )  # fmt: skip
    await store.hands.record(
        hand(2, datetime(2026, 11, 5, tzinfo=UTC), "shangrao",
             {A: -20, B: 20, C: 0, D: 0}, "discard", [B], discarder=A, points=5)
    )  # fmt: skip
    await store.guilds.start_season(GUILD)
    await store.hands.record(
        hand(3, datetime(2026, 11, 17, tzinfo=UTC), "xinyu",
             {A: -4, B: -4, C: 12, D: -4}, "self", [C], points=4)
    )  # fmt: skip
    await store.hands.record(
        hand(4, datetime(2026, 11, 17, 1, tzinfo=UTC), "xinyu",
             {A: 6, B: 0, C: 0, AI: -6}, "discard", [A], discarder=AI, points=2)
    )  # fmt: skip
    return store


def ids(board) -> list[int]:  # type: ignore[no-untyped-def]
    return [e.user_id for e in board.entries]


async def test_points_all_time(played: Store) -> None:
    board = await played.leaderboards.page(GUILD, now=NOW, limit=10)
    assert ids(board) == [A, B, C, D]
    assert [e.points for e in board.entries] == [12, 6, 2, -14]
    assert [e.hands for e in board.entries] == [4, 4, 4, 3]
    assert [e.rank for e in board.entries] == [1, 2, 3, 4]
    assert board.entries[0].display_name == "阿明"
    assert board.total == 4


async def test_points_by_period_and_variant(played: Store) -> None:
    month = await played.leaderboards.page(GUILD, period="month", now=NOW)
    assert ids(month) == [B, C, D, A]
    assert [e.points for e in month.entries] == [16, 12, -4, -18]
    assert month.since == datetime(2026, 11, 1, tzinfo=UTC)
    week = await played.leaderboards.page(GUILD, period="week", now=NOW)
    assert [(e.user_id, e.points) for e in week.entries] == [(C, 12), (A, 2), (D, -4), (B, -4)]
    xinyu = await played.leaderboards.page(GUILD, variant="xinyu", now=NOW)
    assert [(e.user_id, e.points) for e in xinyu.entries] == [(C, 12), (A, 2), (D, -4), (B, -4)]
    shangrao_week = await played.leaderboards.page(
        GUILD, variant="shangrao", period="week", now=NOW
    )
    assert shangrao_week.entries == []


async def test_points_by_season(played: Store) -> None:
    current = await played.leaderboards.page(GUILD, period="season", now=NOW)
    assert current.season == 2
    assert [(e.user_id, e.points) for e in current.entries] == [(C, 12), (A, 2), (D, -4), (B, -4)]
    first = await played.leaderboards.page(GUILD, period="season", season=1, now=NOW)
    assert [(e.user_id, e.points) for e in first.entries] == [(A, 10), (B, 10), (C, -10), (D, -10)]


async def test_winrate_needs_minimum_hands_and_me_is_shown(played: Store) -> None:
    board = await played.leaderboards.page(GUILD, by="winrate", min_hands=4, user_id=D, now=NOW)
    assert ids(board) == [A, B, C]
    assert [e.win_rate for e in board.entries] == [0.5, 0.25, 0.25]
    assert board.me is not None
    assert (board.me.user_id, board.me.rank, board.me.hands) == (D, None, 3)
    assert board.me.display_name == "Ding"


async def test_page_and_own_position_off_the_page(played: Store) -> None:
    page = await played.leaderboards.page(GUILD, limit=2, user_id=D, now=NOW)
    assert ids(page) == [A, B]
    assert (page.me.user_id, page.me.rank, page.me.points) == (D, 4, -14)
    second = await played.leaderboards.page(GUILD, limit=2, offset=2, user_id=A, now=NOW)
    assert ids(second) == [C, D]
    assert second.me.rank == 1
    stranger = await played.leaderboards.page(GUILD, user_id=12345, now=NOW)
    assert stranger.me is None


async def test_rating_board_humans_only(played: Store) -> None:
    board = await played.leaderboards.page(GUILD, by="rating", now=NOW)
    assert set(ids(board)) == {A, B, C, D}
    ratings = [e.rating for e in board.entries]
    assert ratings == sorted(ratings, reverse=True)
    for e in board.entries:
        assert e.rating == pytest.approx(ordinal(e.mu, e.sigma))
    stats_a = await played.stats.player_stats(GUILD, A)
    assert {e.user_id: e.mu for e in board.entries}[A] == stats_a.rating.mu
    week = await played.leaderboards.page(
        GUILD, by="rating", period="week", variant="xinyu", now=NOW
    )
    assert set(ids(week)) == {A, B, C, D}  # D played h3 this week
    assert all(e.user_id != AI for e in week.entries)
    shangrao = await played.leaderboards.page(GUILD, by="rating", variant="shangrao", now=NOW)
    xin = {e.user_id: e.mu for e in week.entries}
    assert {e.user_id: e.mu for e in shangrao.entries}[A] != xin[A]


async def test_a_seasons_rating_board_rates_that_seasons_hands_alone(played: Store) -> None:
    from db.ratings import MU, SIGMA, Skill, rate_hand

    # season 2 holds h3 and h4 only: rate them from a fresh start, by hand
    skill = {uid: Skill(MU, SIGMA) for uid in (A, B, C, D, AI)}
    for deltas in ({A: -4, B: -4, C: 12, D: -4}, {A: 6, B: 0, C: 0, AI: -6}):
        after = rate_hand([skill[u] for u in deltas], list(deltas.values()))
        skill.update(zip(deltas, after, strict=True))
    season = await played.leaderboards.page(GUILD, by="rating", period="season", now=NOW)
    assert season.season == 2
    got = {e.user_id: (e.mu, e.sigma) for e in season.entries}
    assert got == {u: pytest.approx((skill[u].mu, skill[u].sigma)) for u in (A, B, C, D)}
    # not the all-time ratings, which also hold season 1's hands
    all_time = await played.leaderboards.page(GUILD, by="rating", now=NOW)
    assert {e.user_id: e.mu for e in all_time.entries}[A] != got[A][0]
    first = await played.leaderboards.page(GUILD, by="rating", period="season", season=1, now=NOW)
    assert set(ids(first)) == {A, B, C, D} and ids(first)[0] in (A, B)


async def test_player_stats(played: Store) -> None:
    stats = await played.stats.player_stats(GUILD, A, now=NOW)
    assert (stats.hands, stats.wins, stats.self_draws, stats.deal_ins) == (4, 2, 1, 1)
    assert stats.points == 12
    assert stats.self_draw_share == 0.5
    assert stats.deal_in_share == 0.25
    assert stats.average_win == 18
    assert stats.biggest_hand is not None
    assert stats.biggest_hand.points == 10
    assert stats.biggest_hand.items == [{"name": "清一色", "value": 4}]
    assert stats.favourite_variant == "shangrao"  # 2 and 2: ties go by name
    assert len(stats.rating_history) == 4
    assert stats.rating_history[-1].mu == stats.rating.mu
    assert [p.at for p in stats.rating_history] == sorted(p.at for p in stats.rating_history)

    xinyu = await played.stats.player_stats(GUILD, A, variant="xinyu", now=NOW)
    assert (xinyu.hands, xinyu.wins, xinyu.points) == (2, 1, 2)
    assert xinyu.biggest_hand.points == 2
    assert len(xinyu.rating_history) == 2

    week_c = await played.stats.player_stats(GUILD, C, period="week", now=NOW)
    assert (week_c.hands, week_c.wins, week_c.favourite_variant) == (2, 1, "xinyu")

    nobody = await played.stats.player_stats(GUILD, 999, now=NOW)
    assert (nobody.hands, nobody.wins, nobody.biggest_hand, nobody.rating) == (0, 0, None, None)
    assert nobody.rating_history == []


async def test_history_of_games(store: Store) -> None:
    g1 = await store.games.create(GUILD, 1, "shangrao", seats=[{}, {}, {}, {}], status="active")
    g2 = await store.games.create(GUILD, 1, "xinyu", seats=[{}, {}, {}, {}], status="active")
    await store.games.create(GUILD + 1, 1, "xinyu", seats=[{}, {}, {}, {}])
    when = datetime(2026, 11, 17, tzinfo=UTC)
    await store.hands.record(
        hand(1, when, "shangrao", {A: 3, B: -1, C: -1, D: -1}, "self", [A], game_id=g1.id)
    )
    await store.hands.record(
        hand(2, when, "shangrao", {A: -2, B: 2, C: 0, D: 0}, "discard", [B], A, game_id=g1.id)
    )
    await store.hands.record(
        hand(1, when, "xinyu", {C: 3, B: -1, AI: -1, D: -1}, "self", [C], game_id=g2.id)
    )
    await store.games.update(g1.id, status="finished")
    games = await store.stats.recent_games(GUILD)
    assert [(s.game.id, s.hands) for s in games] == [(g1.id, 2), (g2.id, 1)]
    assert games[0].game.totals == [1, 1, -1, -1]
    only_a = await store.stats.recent_games(GUILD, user_id=A)
    assert [s.game.id for s in only_a] == [g1.id]
    assert [s.game.id for s in await store.stats.recent_games(GUILD, user_id=C)] == [g1.id, g2.id]
    hands = await store.hands.of_game(g1.id)
    assert [h.hand_no for h in hands] == [1, 2]
    assert hands[1].deltas[0] == {"seat": 0, "user_id": A, "delta": -2, "is_ai": False}


async def test_history_leaves_out_games_never_played(store: Store) -> None:
    seats = [{}, {}, {}, {}]
    lobby = await store.games.create(GUILD, 1, "xinyu", seats=seats)
    dropped = await store.games.create(GUILD, 2, "xinyu", seats=seats, status="active")
    await store.games.update(dropped.id, status="abandoned")
    quit_later = await store.games.create(GUILD, 3, "xinyu", seats=seats, status="active")
    when = datetime(2026, 11, 17, tzinfo=UTC)
    await store.hands.record(
        hand(1, when, "xinyu", {A: 3, B: -1, C: -1, D: -1}, "self", [A], game_id=quit_later.id)
    )
    await store.games.update(quit_later.id, status="abandoned")
    playing = await store.games.create(GUILD, 4, "xinyu", seats=seats, status="active")
    listed = {s.game.id: s.hands for s in await store.stats.recent_games(GUILD)}
    assert listed == {quit_later.id: 1, playing.id: 0}
    assert lobby.id not in listed and dropped.id not in listed


def test_period_starts() -> None:
    from db.periods import period_start

    sunday_night = datetime(2026, 11, 29, 23, 59, tzinfo=UTC)
    assert period_start("week", sunday_night) == datetime(2026, 11, 23, tzinfo=UTC)
    assert period_start("month", sunday_night) == datetime(2026, 11, 1, tzinfo=UTC)
    assert period_start("all", sunday_night) is None
    monday = datetime(2026, 11, 30, 0, 0, tzinfo=UTC)
    assert period_start("week", monday) == monday
    with pytest.raises(ValueError):
        period_start("year", monday)


async def test_bad_board_arguments(store: Store) -> None:
    with pytest.raises(ValueError):
        await store.leaderboards.page(GUILD, by="luck")
    with pytest.raises(ValueError):
        await store.leaderboards.page(GUILD, period="decade")
    with pytest.raises(ValueError):
        await store.leaderboards.page(GUILD, limit=0)
