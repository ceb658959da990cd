"""听牌提示: winning tiles with how many of each the player has not seen; a server option."""

from __future__ import annotations

from dataclasses import replace

from svc_helpers import USERS, lobby_with, settle

from services.game import GameService
from services.hints import unseen_counts, wait_hints
from services.model import HandView, MeldInfo, PublicSeat, TableView
from services.real_engine import RealEngine


def table(**kw) -> TableView:
    seats = kw.pop("seats", tuple(PublicSeat(i, 13) for i in range(4)))
    return TableView(1, "turn", 0, 0, 50, seats, **kw)


def test_unseen_counts_what_this_seat_saw():
    hand = HandView(0, (0, 0, 1, 2), 3, (), ())
    seats = (
        PublicSeat(0, 4),
        PublicSeat(1, 10, melds=(MeldInfo("pong", (5, 5, 5)),), river=(0,)),
        PublicSeat(2, 13, river=(3, 5)),
        PublicSeat(3, 13),
    )
    unseen = unseen_counts(hand, table(seats=seats, bao_indicator=9))
    assert unseen[0] == 1  # two in hand, one in a river
    assert unseen[3] == 2  # the drawn one and one discarded
    assert unseen[5] == 0  # a pong and a discard: never below zero
    assert unseen[9] == 3  # the face-up indicator
    assert unseen[20] == 4


def test_wait_hints_lists_each_wait_once_in_order():
    hand = HandView(0, (1, 1, 2, 3), None, (), (), waits=(8, 0, 8))
    assert wait_hints(hand, table()) == ((0, 4), (8, 4))


class WaitingEngine(RealEngine):
    """The real engine, but every hand claims to wait on its first tile (to see the hints)."""

    def hand_view(self, state, seat):
        view = super().hand_view(state, seat)
        return replace(view, waits=view.concealed[:1])


async def test_hints_follow_the_server_option(store, delivery, make_service):
    svc = GameService(store, WaitingEngine(), delivery, new_seed=lambda: "hints", snapshot_every=0)
    gid = await lobby_with(svc, 1)
    await svc.start(gid, USERS[0])
    view = await svc.private_view(gid, USERS[0])
    assert view.hints and view.hints[0][0] == view.hand.concealed[0]
    assert 0 <= view.hints[0][1] <= 3  # the player holds at least one
    await svc.abandon(gid, USERS[0])
    await settle(svc)

    await store.guilds.update_settings(1000, hints=False)
    gid = await lobby_with(svc, 1)
    await svc.start(gid, USERS[0])
    assert (await svc.private_view(gid, USERS[0])).hints == ()
    assert (await svc.summary(gid)).hints is False
    await svc.close()
