"""Alert episodes (:func:`services.gamelog.track_episodes`): which decisions of a seat share one
alert. A claim that leads to the seat's own turn (claim → pong → discard) is one decision; a
claim window the seat let go (a pass, or its timeout) is not the turn it draws next."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from services.gamelog import track_episodes

State = tuple[str, tuple[int, ...], dict[int, int]]  # phase, pending seats, melds by seat


class Engine:
    """Just what the episode bookkeeping reads."""

    def phase(self, state: State) -> str:
        return state[0]

    def pending_seats(self, state: State) -> tuple[int, ...]:
        return state[1]

    def hand_view(self, state: State, seat: int) -> Any:
        return SimpleNamespace(melds=("meld",) * state[2].get(seat, 0))


def step(live: SimpleNamespace, actor: int | None, old: State, new: State) -> dict[int, int]:
    live.version += 1
    track_episodes(Engine(), live, actor, new, old)  # type: ignore[arg-type]
    return dict(live.episodes)


def test_a_seat_that_passes_a_claim_starts_a_new_episode_on_its_turn() -> None:
    live = SimpleNamespace(episodes={}, version=0)
    claim: State = ("claim", (1,), {})  # seat 0 discarded; seat 1 may pong, next in turn
    assert step(live, 0, ("turn", (0,), {}), claim) == {1: 1}
    assert step(live, 1, claim, ("turn", (1,), {})) == {1: 2}  # passed, then drew: new


def test_a_claim_taken_and_the_discard_after_it_are_one_episode() -> None:
    live = SimpleNamespace(episodes={}, version=0)
    claim: State = ("claim", (2,), {})
    step(live, 0, ("turn", (0,), {}), claim)
    assert step(live, 2, claim, ("turn", (2,), {2: 1})) == {2: 1}  # pong: the same decision


def test_a_claim_left_waiting_on_a_higher_one_then_granted_is_a_new_decision() -> None:
    live = SimpleNamespace(episodes={}, version=0)
    both: State = ("claim", (1, 2), {})  # seat 1 may win, seat 2 may pong
    step(live, 0, ("turn", (0,), {}), both)
    assert step(live, 2, both, ("claim", (1,), {})) == {1: 1}  # 2's pong waits on 1
    assert step(live, 1, ("claim", (1,), {}), ("turn", (2,), {2: 1})) == {2: 3}


def test_a_kong_others_may_rob_keeps_the_declarers_episode() -> None:
    live = SimpleNamespace(episodes={}, version=0)
    step(live, 3, ("turn", (3,), {}), ("turn", (0,), {}))  # seat 0's turn from version 1
    rob_window: State = ("claim", (1, 2), {0: 1})  # seat 0 added a kong; 1 and 2 may rob
    assert step(live, 0, ("turn", (0,), {}), rob_window)[0] == 1
    assert step(live, 1, rob_window, ("claim", (2,), {0: 1}))[0] == 1  # 1 lets it go
    assert step(live, 2, ("claim", (2,), {0: 1}), ("turn", (0,), {0: 1}))[0] == 1
