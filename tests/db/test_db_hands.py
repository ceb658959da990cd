"""Recording finished hands: hand, per-player lines, totals and ratings in one transaction."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from db.models import Hand, HandResult, Rating, RatingHistory
from db.ratings import MU, SIGMA, ranks_from_deltas
from db.store import Store
from db.types import ALL_VARIANTS, DuplicateHand, GameNotFound, HandInput, HandPlayer

SEATS = [{"user_id": 11}, {"user_id": 12}, {"user_id": 13}, {"ai": "basic"}]


def players(deltas: list[int], ai_last: bool = True) -> list[HandPlayer]:
    ids = [11, 12, 13, -1]
    return [
        HandPlayer(seat=i, user_id=ids[i], delta=d, is_ai=ai_last and i == 3)
        for i, d in enumerate(deltas)
    ]


async def _count(store: Store, table) -> int:  # type: ignore[no-untyped-def]
    async with store.db.engine.connect() as conn:
        return (await conn.execute(select(func.count()).select_from(table))).scalar_one()


async def test_record_online_hand(store: Store) -> None:
    game = await store.games.create(7, 8, "shangrao", seats=SEATS, status="active")
    hand = HandInput(
        guild_id=7,
        variant="shangrao",
        hand_no=1,
        game_id=game.id,
        players=players([-10, 30, -10, -10]),
        how="discard",
        winners=[1],
        discarder=0,
        points=10,
        items=[{"name": "清一色", "value": 4}, {"name": "门清", "value": 2}],
        seed_reveal={"seed": "00ff", "wall": [1, 2, 3]},
    )
    recorded = await store.hands.record(hand)
    assert recorded.totals == [-10, 30, -10, -10]
    assert (await store.games.get(game.id)).totals == [-10, 30, -10, -10]
    info = recorded.hand
    assert (info.winner_seats, info.winner_user_ids) == ([1], [12])
    assert (info.discarder_seat, info.discarder_user_id) == (0, 11)
    assert info.items == hand.items
    assert info.seed_reveal == {"seed": "00ff", "wall": [1, 2, 3]}
    assert info.season == 1
    assert await store.hands.of_game(game.id) == [info]
    assert await store.hands.get(info.id) == info

    async with store.db.engine.connect() as conn:
        rows = (await conn.execute(select(HandResult).order_by(HandResult.seat))).all()
    assert [(r.user_id, r.delta, r.won, r.self_draw, r.dealt_in, r.is_ai) for r in rows] == [
        (11, -10, False, False, True, False),
        (12, 30, True, False, False, False),
        (13, -10, False, False, False, False),
        (-1, -10, False, False, False, True),
    ]
    # Ratings for the variant and for all variants, AI flagged; the winner went up.
    assert len(recorded.ratings) == 8
    by_key = {(c.variant, c.user_id): c for c in recorded.ratings}
    assert by_key[("shangrao", 12)].mu > MU
    assert by_key[("shangrao", 11)].mu < MU
    assert by_key[(ALL_VARIANTS, -1)].is_ai is True
    assert by_key[("shangrao", 12)].sigma < SIGMA
    assert await _count(store, RatingHistory.__table__) == 8

    second = await store.hands.record(
        HandInput(
            guild_id=7,
            variant="shangrao",
            hand_no=2,
            game_id=game.id,
            players=players([5, 5, -15, 5]),
            how="self",
            winners=[2],
            points=5,
        )
    )
    assert second.totals == [-5, 35, -25, -5]
    before = {c.user_id: c for c in second.ratings if c.variant == "shangrao"}
    assert before[12].mu_before == by_key[("shangrao", 12)].mu


async def test_duplicate_hand_is_refused_and_changes_nothing(store: Store) -> None:
    game = await store.games.create(7, 8, "xinyu", seats=SEATS)
    hand = HandInput(
        guild_id=7, variant="xinyu", hand_no=1, game_id=game.id,
        players=players([9, -3, -3, -3]), how="self", winners=[0], points=3,
    )  # fmt: skip
    await store.hands.record(hand)
    async with store.db.engine.connect() as conn:
        ratings_before = (await conn.execute(select(Rating.user_id, Rating.mu))).all()
    with pytest.raises(DuplicateHand):
        await store.hands.record(hand)
    assert (await store.games.get(game.id)).totals == [9, -3, -3, -3]
    assert await _count(store, Hand.__table__) == 1
    assert await _count(store, HandResult.__table__) == 4
    async with store.db.engine.connect() as conn:
        assert (await conn.execute(select(Rating.user_id, Rating.mu))).all() == ratings_before


async def test_failed_hand_writes_nothing(store: Store) -> None:
    game = await store.games.create(7, 8, "xinyu", seats=SEATS)
    wrong_server = HandInput(
        guild_id=99, variant="xinyu", hand_no=1, game_id=game.id,
        players=players([9, -3, -3, -3]), how="self", winners=[0],
    )  # fmt: skip
    with pytest.raises(ValueError):
        await store.hands.record(wrong_server)
    with pytest.raises(GameNotFound):
        await store.hands.record(
            HandInput(
                guild_id=7,
                variant="xinyu",
                hand_no=1,
                game_id=game.id + 50,
                players=players([9, -3, -3, -3]),
                how="self",
                winners=[0],
            )
        )
    assert await _count(store, Hand.__table__) == 0
    assert await _count(store, HandResult.__table__) == 0
    assert await _count(store, Rating.__table__) == 0
    assert (await store.games.get(game.id)).totals == [0, 0, 0, 0]


@pytest.mark.parametrize(
    ("how", "winners", "discarder"),
    [
        ("draw", [0], None),  # a draw has no winner
        ("self", [], None),  # a win has one
        ("discard", [1], None),  # who discarded?
        ("self", [1], 0),  # nobody discards on a self-draw
        ("self", [7], None),  # no such seat
        ("explode", [1], None),
    ],
)
async def test_impossible_hands_are_refused(store: Store, how, winners, discarder) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError):
        await store.hands.record(
            HandInput(
                guild_id=7,
                variant="xinyu",
                hand_no=1,
                source="record",
                players=players([3, -1, -1, -1]),
                how=how,
                winners=winners,
                discarder=discarder,
            )
        )
    assert await _count(store, Hand.__table__) == 0


async def test_same_ai_id_twice_is_refused(store: Store) -> None:
    same = [HandPlayer(0, 11, 3), HandPlayer(1, -1, -1, True), HandPlayer(2, -1, -1, True)]
    with pytest.raises(ValueError):
        await store.hands.record(
            HandInput(
                guild_id=7,
                variant="xinyu",
                hand_no=1,
                source="record",
                players=same,
                how="self",
                winners=[0],
            )
        )


async def test_drawn_hand_without_payments_leaves_ratings_alone(store: Store) -> None:
    game = await store.games.create(7, 8, "jiujiang", seats=SEATS)
    recorded = await store.hands.record(
        HandInput(
            guild_id=7,
            variant="jiujiang",
            hand_no=1,
            game_id=game.id,
            players=players([0, 0, 0, 0]),
            how="draw",
        )
    )
    assert recorded.ratings == []
    assert await _count(store, Rating.__table__) == 0
    assert await _count(store, HandResult.__table__) == 4


async def test_double_win_and_explicit_season(store: Store) -> None:
    recorded = await store.hands.record(
        HandInput(
            guild_id=7,
            variant="shangrao",
            hand_no=3,
            source="record",
            season=4,
            players=players([8, 8, -16, 0], ai_last=False),
            how="discard",
            winners=[0, 1],
            discarder=2,
            points=8,
        )
    )
    assert recorded.totals is None
    assert recorded.hand.winner_user_ids == [11, 12]
    assert recorded.hand.season == 4
    assert recorded.hand.game_id is None


async def test_several_winners_are_each_credited_their_own_points(store: Store) -> None:
    """一炮多响: each winner's line holds their own hand's points, not the sum."""
    await store.hands.record(
        HandInput(
            guild_id=7,
            variant="xinyu",
            hand_no=1,
            source="record",
            players=players([2, 6, -8, 0], ai_last=False),
            how="discard",
            winners=[1, 0],
            discarder=2,
            points=8,
            winner_points=(6, 2),
        )
    )
    stats = {u: await store.stats.player_stats(7, u) for u in (11, 12, 13)}
    assert stats[11].biggest_hand.points == 2 and stats[12].biggest_hand.points == 6
    assert stats[13].biggest_hand is None and stats[13].wins == 0


def test_ranks_from_deltas() -> None:
    assert ranks_from_deltas([5, 5, -15, 5]) == [1, 1, 4, 1]
    assert ranks_from_deltas([-10, 30, -20, 0]) == [3, 1, 4, 2]


async def test_hands_sharing_players_recorded_at_once_all_land(store: Store) -> None:
    """Twelve games of one server finish hands at the same moment, their three AI seats
    (the same AI ids everywhere) and a shared human in a different seat order each time.
    PostgreSQL writes them in parallel; rating rows are locked in one order, so none
    deadlocks, none is lost, and every rating counts every hand."""
    import asyncio

    ids = [21, -1, -2, -3]
    games = []
    for n in range(12):
        seats = [{"user_id": 21}, {"ai": "basic"}, {"ai": "basic"}, {"ai": "basic"}]
        games.append(await store.games.create(7, 100 + n, "shangrao", seats=seats))

    def hand_of(n: int, game_id: int) -> HandInput:
        order = ids[n % 4 :] + ids[: n % 4]  # rotate who sits where
        deltas = [30, -10, -10, -10] if n % 2 else [-30, 10, 10, 10]
        return HandInput(
            guild_id=7,
            variant="shangrao",
            hand_no=1,
            game_id=game_id,
            players=[
                HandPlayer(seat=s, user_id=u, delta=d, is_ai=u < 0)
                for s, (u, d) in enumerate(zip(order, deltas, strict=True))
            ],
            how="self",
            winners=[deltas.index(max(deltas))],
            points=10,
        )

    recorded = await asyncio.gather(
        *(store.hands.record(hand_of(n, g.id)) for n, g in enumerate(games))
    )
    assert len(recorded) == 12
    async with store.db.engine.connect() as conn:
        rows = (
            await conn.execute(
                select(Rating.user_id, Rating.variant, Rating.hands).where(Rating.guild_id == 7)
            )
        ).all()
    assert sorted(rows) == sorted((u, v, 12) for u in ids for v in ("shangrao", ALL_VARIANTS))
    assert await _count(store, RatingHistory.__table__) == 12 * 8
